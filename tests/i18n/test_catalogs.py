"""Sentences by code in each of the nine languages, the fallbacks, and the flat JSON for the frontend."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from backend.i18n import catalogs, po_files
from backend.i18n.catalogs import LOCALES, catalog, catalog_json, message
from backend.i18n.zones import reading_in, zone

# The function the API calls for an error's message, in each language: a real sentence, placeholder filled.
UNREACHABLE = {
    "en": "Node lost cannot be reached from the trigger.",
    "de": "Der Knoten lost ist vom Auslöser aus nicht erreichbar.",
    "fr": "Le nœud lost n'est pas accessible depuis le déclencheur.",
    "es": "El nodo lost no es alcanzable desde el disparador.",
    "it": "Il nodo lost non è raggiungibile dall'attivatore.",
    "nl": "Knooppunt lost is vanaf de trigger niet bereikbaar.",
    "pl": "Węzeł lost jest nieosiągalny z wyzwalacza.",
    "pt_BR": "O nó lost não pode ser alcançado a partir do gatilho.",
    "ja": "ノード lost にはトリガーから到達できません。",
}


@pytest.mark.parametrize("locale", LOCALES)
def test_a_message_in_each_of_the_nine_languages(locale: str) -> None:
    assert message("node_unreachable", locale, node="lost") == UNREACHABLE[locale]


def test_the_nine_sentences_are_nine_different_sentences() -> None:
    assert set(UNREACHABLE) == set(LOCALES) and len(set(UNREACHABLE.values())) == 9


def test_an_unknown_locale_falls_back_to_english_and_an_unknown_code_to_itself() -> None:
    assert message("node_unreachable", "tlh", node="lost") == UNREACHABLE["en"]
    assert message("node_unreachable", "", node="lost") == UNREACHABLE["en"]
    assert catalog("tlh") == {}
    assert message("no_such_code", "de", node="lost") == "no_such_code"


def test_a_placeholder_not_passed_stays_visible_and_nothing_raises() -> None:
    assert message("trigger_multiple", "en", node="t2") == (
        "Node t2 is a second trigger: a flow has exactly one, and {first} is it."
    )
    assert message("flow_valid", "en", unused="x") == "The flow is valid."


def test_dates_durations_and_fractions_in_params_are_written_as_the_locale_writes_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(catalogs, "catalog", lambda locale: {"at": "{when}, {left}, {seconds}, run {run}"})
    params = {"when": datetime(2026, 3, 1, 14, 5, tzinfo=UTC), "left": timedelta(days=2), "seconds": 2.5}
    # A date is written in the reader's zone (UTC when none is set), the zone named.
    assert message("at", "de", run=12345, **params) == "01.03.2026, 14:05:00 UTC, 2 Tage, 2,5, run 12345"
    with reading_in(zone("Europe/Berlin")):
        assert message("at", "de", when=params["when"]) == (
            "01.03.2026, 15:05:00 Mitteleuropäische Normalzeit, {left}, {seconds}, run {run}"
        )
    assert (
        message("at", "en", run=12345, **params) == "Mar 1, 2026, 2:05:00\u202fPM UTC, 2 days, 2.5, run 12345"
    )


def test_catalog_json_is_flat_undotted_and_the_same_keys_in_every_locale() -> None:
    english = catalog_json("en")
    assert len(english) > 100 and all("." not in key for key in english)
    assert all(isinstance(value, str) and value for value in english.values())
    plural = re.compile(r"_(zero|one|two|few|many|other)$")
    for locale in LOCALES:
        keys = catalog_json(locale).keys()
        # i18next's plural keys are the locale's own categories (Polish has _few, English does not).
        assert {key for key in keys if not plural.search(key)} == {
            key for key in english if not plural.search(key)
        }
    assert (
        catalog_json("de")["node_unreachable"] == "Der Knoten {node} ist vom Auslöser aus nicht erreichbar."
    )
    assert catalog_json("tlh") == english


@pytest.fixture
def po_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setattr(po_files, "LOCALES_DIR", tmp_path)
    po_files.po_file.cache_clear()
    catalogs.catalog.cache_clear()
    yield tmp_path
    po_files.po_file.cache_clear()
    catalogs.catalog.cache_clear()


def write_po(root: Path, locale: str, body: str) -> None:
    path = root / locale / "LC_MESSAGES" / "messages.po"
    path.parent.mkdir(parents=True)
    path.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n' + body, "utf-8")


def test_a_fuzzy_or_empty_entry_falls_back_to_english_and_json_shows_english(po_dir: Path) -> None:
    write_po(po_dir, "en", 'msgid "a"\nmsgstr "A {x}."\n\nmsgid "b"\nmsgstr "B."\n')
    write_po(po_dir, "de", '#, fuzzy\nmsgid "a"\nmsgstr "Geraten {x}."\n\nmsgid "b"\nmsgstr ""\n')
    assert message("a", "de", x=1) == "A 1."
    assert catalog_json("de") == {"a": "A {x}.", "b": "B."}


def test_a_catalog_file_that_is_not_there_is_an_empty_catalog(po_dir: Path) -> None:
    write_po(po_dir, "en", 'msgid "a"\nmsgstr "A."\n')
    assert catalog("ja") == {} and message("a", "ja") == "A."
