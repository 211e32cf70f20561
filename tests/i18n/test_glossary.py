"""The catalogs follow the glossary (docs/glossary.md): for each term whose row names a key, that key's
entry contains the term in every language, so a catalog that drifts from its glossary fails here."""

from __future__ import annotations

from collections.abc import Mapping

from backend.i18n.catalogs import LOCALES, catalog
from tests.i18n.test_guard import ROOT

GLOSSARY = ROOT / "docs" / "glossary.md"


def terms_table(markdown: str) -> list[dict[str, str]]:
    """The rows of the table under "## Terms", by column name.

    Examples:
        >>> table = "| term | key | de |\\n|---|---|---|\\n| run | ui_run_title | Lauf |\\n"
        >>> terms_table("# Glossary\\n## Terms\\n\\n" + table + "\\n## Why\\n| not | this |\\n")
        [{'term': 'run', 'key': 'ui_run_title', 'de': 'Lauf'}]
    """
    section = markdown.split("\n## Terms\n", 1)[1].split("\n## ", 1)[0]
    lines = [line.strip() for line in section.splitlines() if line.strip().startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    return [
        dict(zip(header, (cell.strip() for cell in line.strip("|").split("|")), strict=True))
        for line in lines[2:]
    ]


def missing_terms(rows: list[dict[str, str]], catalogs: Mapping[str, Mapping[str, str]]) -> list[str]:
    """`locale: key: term` for each glossary term its key's sentence lacks. A term's ending in parentheses
    changes with the sentence, so only the part before it must be there; case is not compared.

    Examples:
        >>> rows = [{"term": "run", "key": "ui_run_title", "de": "Lauf", "pl": "przebieg(i)"}]
        >>> found = {"de": {"ui_run_title": "Lauf {run}"}, "pl": {"ui_run_title": "Przebieg {run}"}}
        >>> missing_terms(rows, found)
        []
        >>> missing_terms(rows, {"de": {"ui_run_title": "Ausführung {run}"}, "pl": {}})
        ['de: ui_run_title: Lauf', 'pl: ui_run_title: przebieg(i)']
    """
    missing: list[str] = []
    for row in rows:
        key = row["key"]
        if not key:
            continue
        for locale, sentences in catalogs.items():
            term = row[locale]
            if term.split("(")[0].strip().lower() not in sentences.get(key, "").lower():
                missing.append(f"{locale}: {key}: {term}")
    return missing


def test_the_glossary_has_a_column_per_locale_and_keys_that_exist() -> None:
    rows = terms_table(GLOSSARY.read_text(encoding="utf-8"))
    assert {"term", "key", *LOCALES} <= set(rows[0])
    keys = [row["key"] for row in rows if row["key"]]
    assert len(keys) >= 20
    assert not [key for key in keys if key not in catalog("en")], "glossary keys unknown to the catalogs"


def test_every_catalog_follows_the_glossary() -> None:
    rows = terms_table(GLOSSARY.read_text(encoding="utf-8"))
    missing = missing_terms(rows, {locale: catalog(locale) for locale in LOCALES})
    assert not missing, "catalog entries without their glossary term (docs/glossary.md):\n" + "\n".join(
        missing
    )
