"""Counting sentences take each language's plural forms (gettext's ngettext through Babel, CLDR's rules)."""

from __future__ import annotations

import re

import pytest
from babel.messages.catalog import Catalog

from backend.i18n.catalogs import catalog_json, message, po_file
from backend.i18n.gaps import find_gaps
from backend.i18n.plurals import PLURALS


@pytest.mark.parametrize(
    ("count", "expected"),
    [
        (1, "Pętla each wykonała 1 przebieg i zakończyła się."),
        (3, "Pętla each wykonała 3 przebiegi i zakończyła się."),
        (5, "Pętla each wykonała 5 przebiegów i zakończyła się."),
        (12, "Pętla each wykonała 12 przebiegów i zakończyła się."),
        (22, "Pętla each wykonała 22 przebiegi i zakończyła się."),
    ],
)
def test_polish_has_three_forms(count: int, expected: str) -> None:
    assert message("loop_finished", "pl", node="each", passes=count) == expected


def test_japanese_has_one_form() -> None:
    forms = {message("ui_inbox_count", "ja", count=n).replace(str(n), "N") for n in (0, 1, 2, 5, 100)}
    assert forms == {"N 件の承認が決定を待っています"}


def test_french_reads_zero_and_one_as_singular() -> None:
    assert message("ui_inbox_count", "fr", count=0) == "0 approbation vous attend"
    assert message("ui_inbox_count", "fr", count=1) == "1 approbation vous attend"
    assert message("ui_inbox_count", "fr", count=2) == "2 approbations vous attendent"
    assert message("ui_inbox_count", "en", count=0) == "0 approvals wait for you"
    assert message("ui_inbox_count", "en", count=1) == "1 approval waits for you"


def test_a_count_that_is_no_integer_reads_the_last_form() -> None:
    assert message("login_throttled", "de", minutes="15") == message("login_throttled", "de", minutes=15)
    assert message("login_throttled", "de", minutes="1").endswith("in 1 Minuten erneut.")


def test_the_frontend_gets_i18next_plural_keys_beside_the_flat_key() -> None:
    polish = catalog_json("pl")
    assert polish["ui_inbox_count_few"] == "{count} zatwierdzenia czekają"
    assert polish["ui_inbox_count_many"] == "{count} zatwierdzeń czeka"
    assert polish["ui_inbox_count_one"] == "{count} zatwierdzenie czeka"
    assert polish["ui_inbox_count_other"] == polish["ui_inbox_count_many"]
    assert polish["ui_inbox_count"] == polish["ui_inbox_count_many"]
    assert {key for key in catalog_json("ja") if key.startswith("ui_inbox_count")} == {
        "ui_inbox_count",
        "ui_inbox_count_other",
    }
    assert catalog_json("en")["ui_inbox_count_one"] == "{count} approval waits for you"


def test_every_counting_key_is_a_plural_entry_with_the_catalogs_number_of_forms() -> None:
    for locale, size in (("en", 2), ("fr", 3), ("pl", 3), ("ja", 1)):
        po = po_file(locale)
        assert po is not None and po.num_plurals == size
        for key in PLURALS:
            entry = po.get(key)
            assert entry is not None and isinstance(entry.id, tuple)
            assert isinstance(entry.string, tuple) and len(entry.string) == size


def _catalogs(polish_forms: tuple[str, ...]) -> dict[str, Catalog | None]:
    english, polish = Catalog(locale="en"), Catalog(locale="pl")
    english.add(
        ("loop_finished", "loop_finished"), ("Loop {node}: {passes} pass.", "Loop {node}: {passes} passes.")
    )
    polish.add(("loop_finished", "loop_finished"), polish_forms)
    return {"en": english, "pl": polish}


def test_the_guard_fails_on_a_plural_form_that_drops_or_adds_a_placeholder_or_is_missing() -> None:
    good = (
        "Pętla {node}: {passes} przebieg.",
        "Pętla {node}: {passes} przebiegi.",
        "Pętla {node}: {passes} przebiegów.",
    )
    assert find_gaps(["loop_finished"], _catalogs(good), {}) == []
    dropped = (good[0], "Pętla {node}: przebiegi.", good[2])
    assert [str(g) for g in find_gaps(["loop_finished"], _catalogs(dropped), {})] == [
        "pl: loop_finished: plural form 1: placeholders {node} differ from the English {node} {passes}"
    ]
    added = (good[0], good[1], "Pętla {node}: {passes} przebiegów {limit}.")
    # The last form is also the entry's sentence, so the one fault is named twice.
    assert (
        "pl: loop_finished: plural form 2: placeholders {limit} {node} {passes} differ from the English"
        " {node} {passes}"
    ) in [str(g) for g in find_gaps(["loop_finished"], _catalogs(added), {})]
    two = good[:2]
    assert [str(g) for g in find_gaps(["loop_finished"], _catalogs(two), {})] == [
        "pl: loop_finished: has 2 plural forms; Plural-Forms says 3"
    ]


# The nouns English counts with: a placeholder right before one holds a count (issue 34).
COUNTED_NOUNS = (
    "seconds",
    "minutes",
    "hours",
    "days",
    "weeks",
    "bytes",
    "characters",
    "records",
    "entries",
    "items",
    "levels",
    "lines",
    "visits",
    "attempts",
    "passes",
    "arrivals",
    "times",
    "findings",
    "chains",
    "approvals",
    "approvers",
    "wires",
    "branches",
    "users",
    "breaks",
    "events",
    "nodes",
    "runs",
)


def counts_without_plural(english: dict[str, str]) -> list[str]:
    """The server's keys whose English sentence counts with a placeholder that is not their plural count.

    The `ui_*` keys are the pages' (their guard is the frontend's).
    """
    before_noun = re.compile(r"\{(\w+)\} (?:" + "|".join(COUNTED_NOUNS) + r")\b")
    return [
        f"{key}: {{{name}}} counts in {sentence!r}"
        for key, sentence in sorted(english.items())
        if not key.startswith("ui_")
        for name in before_noun.findall(sentence)
        if PLURALS.get(key) != name
    ]


def test_the_count_guard_finds_a_count_that_is_not_plural() -> None:
    english = {
        "x_big": "It is larger than {limit} bytes.",
        "loop_finished": "Loop {node} ran {passes} passes.",
    }
    assert counts_without_plural(english) == ["x_big: {limit} counts in 'It is larger than {limit} bytes.'"]


def test_every_sentence_of_the_server_that_counts_is_plural() -> None:
    from backend.i18n.catalogs import catalog

    assert counts_without_plural(dict(catalog("en"))) == []


@pytest.mark.parametrize(
    ("locale", "count", "expected"),
    [
        ("de", 1, "Nichts wurde geändert, entfernt oder eingefügt: 1 Eintrag geprüft (Ketten: 1)."),
        ("de", 1204, "Nichts wurde geändert, entfernt oder eingefügt: 1.204 Einträge geprüft (Ketten: 4)."),
        ("pl", 2, "Niczego nie zmieniono, nie usunięto ani nie wstawiono: sprawdzono 2 wpisy (łańcuchy: 4)."),
        (
            "pl",
            5,
            "Niczego nie zmieniono, nie usunięto ani nie wstawiono: sprawdzono 5 wpisów (łańcuchy: 4).",
        ),
    ],
)
def test_a_count_reads_its_plural_form_grouped_as_the_reader_groups_numbers(
    locale: str, count: int, expected: str
) -> None:
    chains = 1 if count == 1 else 4
    assert message("audit_chain_intact", locale, records=count, chains=chains) == expected
