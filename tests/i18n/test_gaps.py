"""What counts as a gap, on small catalogs built in the test, and the command that prints the real ones."""

from __future__ import annotations

import pytest
from babel.messages.catalog import Catalog

from backend.i18n import gaps as gaps_module
from backend.i18n.gaps import Gap, find_gaps


def catalogs(**sentences: dict[str, str]) -> dict[str, Catalog | None]:
    built: dict[str, Catalog | None] = {}
    for locale, entries in sentences.items():
        po = Catalog(locale=locale)
        for key, sentence in entries.items():
            po.add(key, sentence)
        built[locale] = po
    return built


ENGLISH = {"cycle": "A cycle ({path}).", "log_written": "{message}", "port_out": "Next"}


def problems(found: list[Gap]) -> list[str]:
    return [str(gap) for gap in found]


def test_a_full_translation_has_no_gaps() -> None:
    de = {"cycle": "Ein Zyklus ({path}).", "log_written": "{message}", "port_out": "Weiter"}
    assert find_gaps(ENGLISH, catalogs(en=ENGLISH, de=de), {"log": ("out",)}) == []


def test_a_missing_sentence_is_named_per_locale_and_key() -> None:
    found = find_gaps([*ENGLISH, "trigger_missing"], catalogs(en=ENGLISH, de=dict(ENGLISH)), {})
    assert "de: trigger_missing: no sentence" in problems(found)
    assert "en: trigger_missing: no sentence" in problems(found)


def test_a_copied_english_sentence_is_a_gap_unless_it_is_only_placeholders() -> None:
    found = problems(find_gaps(ENGLISH, catalogs(en=ENGLISH, nl=dict(ENGLISH)), {}))
    assert "nl: cycle: is the English sentence, not a translation" in found
    assert "nl: port_out: is the English sentence, not a translation" in found
    assert not [line for line in found if "log_written" in line]


def test_a_translator_comment_allows_a_word_that_is_the_same_in_both_languages() -> None:
    built = catalogs(en=ENGLISH)
    fr = Catalog(locale="fr")
    fr.add("cycle", "Un cycle ({path}).")
    fr.add("log_written", "{message}")
    fr.add("port_out", "Next", user_comments=["Same as English: the label stays English here"])
    assert find_gaps(ENGLISH, {**built, "fr": fr}, {}) == []


def test_placeholders_must_be_the_english_ones_and_plain() -> None:
    de = {"cycle": "Ein Zyklus ({pfad}).", "log_written": "{message!r}", "port_out": "Weiter {x"}
    found = problems(find_gaps(ENGLISH, catalogs(en=ENGLISH, de=de), {}))
    assert "de: cycle: placeholders {pfad} differ from the English {path}" in found
    assert "de: log_written: placeholder {message!r} is not a plain {name}" in found
    assert "de: port_out: placeholder Weiter {x is not a plain {name}" in found


def test_a_fuzzy_sentence_counts_as_missing() -> None:
    built = catalogs(en=ENGLISH)
    it = Catalog(locale="it")
    it.add("cycle", "Un anello ({path}).", flags=["fuzzy"])
    it.add("log_written", "{message}")
    it.add("port_out", "Avanti")
    assert problems(find_gaps(ENGLISH, {**built, "it": it}, {})) == ["it: cycle: only a fuzzy sentence"]


def test_dotted_node_types_ports_and_keys_and_missing_files_are_gaps() -> None:
    found = problems(find_gaps(["approval.wait"], {"en": None}, {"approval.wait": ("on.time",)}))
    assert found == [
        ": approval.wait: is not a reason code: lower snake case, no dots",
        ": node_type_approval.wait: node type 'approval.wait' contains a dot",
        ": port_on.time: port 'on.time' contains a dot",
        "en: : no catalog file",
    ]


def test_the_command_prints_each_gap_with_where_english_lacks_it_and_exits_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(
        gaps_module, "gaps", lambda: [Gap("en", "cycle", "no sentence"), Gap("ja", "cycle", "x")]
    )
    assert gaps_module.main() == 1
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].startswith("en: cycle: no sentence (used at backend/graph/rules.py:")
    assert lines[1] == "ja: cycle: x"
    assert err.startswith("2 gaps in ")


def test_the_command_exits_0_when_every_catalog_is_full(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(gaps_module, "gaps", list)
    assert gaps_module.main() == 0
    assert capsys.readouterr().out == ""
