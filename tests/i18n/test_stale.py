"""Stale translations: a changed English sentence marks its translations fuzzy, in a copy of locales/ (never
the real one), and the translator's round trip ends with a run that changes nothing."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from io import BytesIO
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po
from babel.util import TextWrapper

from backend.i18n.gaps import find_gaps, stale_gaps
from backend.i18n.locales import LOCALES
from backend.i18n.stale import (
    CHECKOUT_LOCALES,
    MARKED,
    STAMPED,
    Change,
    english_digest,
    english_forms,
    po_path,
    read_catalog,
    recorded_digest,
    stamp,
    stamp_catalog,
)

KEY = "database_unreachable"
NEW = "The database server at {host} does not answer."
NEW_DE = "Der Datenbankserver unter {host} antwortet nicht."
OTHERS = [locale for locale in LOCALES if locale != "en"]


@pytest.fixture
def locales(tmp_path: Path) -> Path:
    """A copy of the checkout's catalogs, stamped as `make catalogs` leaves them."""
    copy = tmp_path / "locales"
    shutil.copytree(CHECKOUT_LOCALES, copy, ignore=shutil.ignore_patterns("*.mo", "*.pot"))
    stamp(copy)
    return copy


def files(locales: Path) -> dict[str, bytes]:
    return {locale: po_path(locales, locale).read_bytes() for locale in LOCALES}


def blocks(po: bytes) -> dict[str, bytes]:
    """A catalog's entries by msgid (obsolete ones by their `#~ msgid`), each as its bytes."""
    found: dict[str, bytes] = {}
    for block in filter(None, po.split(b"\n\n")):
        key = re.search(rb'^(?:#~ )?msgid "(.*)"$', block, re.M)
        assert key is not None and key.group(1).decode() not in found
        found[key.group(1).decode()] = block
    return found


def change_english(locales: Path, old: str, new: str) -> None:
    path = po_path(locales, "en")
    text = path.read_text(encoding="utf-8")
    assert text.count(f'msgstr "{old}"\n') == 1
    path.write_text(text.replace(f'msgstr "{old}"\n', f'msgstr "{new}"\n'), encoding="utf-8")


def test_a_changed_english_sentence_marks_that_entry_in_the_eight_other_catalogs_and_nothing_else(
    locales: Path,
) -> None:
    before = files(locales)
    (old,) = english_forms(read_catalog(locales, "en"))[KEY]
    assert blocks(before["de"])[KEY].count(f"# english: {english_digest((old,))}\n".encode()) == 1
    change_english(locales, old, NEW)
    english_after = po_path(locales, "en").read_bytes()

    assert stamp(locales) == [Change(locale, KEY, MARKED) for locale in OTHERS]

    after = files(locales)
    assert after["en"] == english_after
    old_line, new_line = (f"# english: {english_digest((text,))}\n".encode() for text in (old, NEW))
    # Babel writes a long translator comment on several lines, as it writes the `#.` ones
    wrapped = TextWrapper(width=76, break_long_words=False).wrap(f"previous english: {old}")
    note = "".join(f"# {line.strip()}\n" for line in wrapped).encode()
    for locale in OTHERS:
        was, now = blocks(before[locale]), blocks(after[locale])
        assert {key: block for key, block in now.items() if key != KEY} == {
            key: block for key, block in was.items() if key != KEY
        }, locale
        noted = was[KEY].replace(old_line, note + new_line)
        assert now[KEY] == noted.replace(f'msgid "{KEY}"'.encode(), f'#, fuzzy\nmsgid "{KEY}"'.encode())
        assert len(after[locale]) == len(before[locale]) + len(now[KEY]) - len(was[KEY])

    catalogs = {locale: read_catalog(locales, locale) for locale in LOCALES}
    found = [str(gap) for gap in find_gaps([KEY], catalogs, {}) + stale_gaps(catalogs)]
    assert found == [
        f"{locale}: {KEY}: only a fuzzy sentence: its English changed; review it, then clear fuzzy"
        for locale in sorted(OTHERS)
    ]

    # The translators: German writes a new sentence, the others find theirs still right; all clear fuzzy,
    # which is what Poedit does to the entry when a translation is confirmed.
    for locale in OTHERS:
        path = po_path(locales, locale)
        text = path.read_text(encoding="utf-8").replace(f'#, fuzzy\nmsgid "{KEY}"', f'msgid "{KEY}"')
        if locale == "de":
            text, count = re.subn(f'(?m)^(msgid "{KEY}"\nmsgstr ")[^\n]*"$', f'\\g<1>{NEW_DE}"', text)
            assert count == 1
        path.write_text(text, encoding="utf-8")
    confirmed = files(locales)
    assert f'msgstr "{NEW_DE}"'.encode() in blocks(confirmed["de"])[KEY]

    run = [sys.executable, "-m", "backend.i18n.stale", "--locales", str(locales)]
    done = subprocess.run(run, capture_output=True, text=True, check=True, cwd=CHECKOUT_LOCALES.parent)
    assert (done.stdout, done.stderr) == ("", "0 entries stamped, 0 marked fuzzy\n")
    assert files(locales) == confirmed
    catalogs = {locale: read_catalog(locales, locale) for locale in LOCALES}
    assert find_gaps([KEY], catalogs, {}) + stale_gaps(catalogs) == []


def test_the_guard_names_an_entry_whose_english_changed_or_that_records_none(locales: Path) -> None:
    (old,) = english_forms(read_catalog(locales, "en"))[KEY]
    change_english(locales, old, NEW)
    ja = po_path(locales, "ja")
    ja_block = blocks(ja.read_bytes())["port_approve"]
    ja.write_bytes(ja.read_bytes().replace(ja_block, re.sub(rb"# english: \w+\n", b"", ja_block)))

    catalogs = {locale: read_catalog(locales, locale) for locale in LOCALES}
    assert [str(gap) for gap in stale_gaps(catalogs)] == [
        f"{locale}: {KEY}: translates an English sentence that changed: run make catalogs"
        for locale in OTHERS
    ] + ["ja: port_approve: does not record the English it translates: run make catalogs"]

    changes = stamp(locales)
    assert Change("ja", "port_approve", STAMPED) in changes and len(changes) == 9
    assert blocks(ja.read_bytes())["port_approve"] == ja_block


def catalog_with(locale: str, key: str, string: str | tuple[str, ...], **entry: list[str]) -> Catalog:
    po = Catalog(locale=locale)
    po.add((key, key) if isinstance(string, tuple) else key, string, **entry)  # type: ignore[arg-type]
    return po


def written_and_read(po: Catalog) -> Catalog:
    buffer = BytesIO()
    write_po(buffer, po, width=0)
    buffer.seek(0)
    return read_po(buffer, locale=po.locale)


def test_a_changed_plural_form_marks_the_entry_and_an_untranslated_entry_is_left_alone() -> None:
    english = english_forms(catalog_with("en", "loop_finished", ("{passes} pass.", "{passes} passes.")))
    de = catalog_with("de", "loop_finished", ("{passes} Durchlauf.", "{passes} Durchläufe."))
    de.add("cycle", "")
    assert stamp_catalog(de, english) == [("loop_finished", STAMPED)]
    assert stamp_catalog(de, english) == []

    english["loop_finished"] = ("{passes} pass done.", "{passes} passes.")
    assert stamp_catalog(de, english) == [("loop_finished", MARKED)]
    marked = de.get("loop_finished")
    assert marked is not None and marked.fuzzy
    assert recorded_digest(marked.user_comments) == english_digest(english["loop_finished"])
    assert de.get("cycle") is not None and de.get("cycle").user_comments == []  # type: ignore[union-attr]


def test_a_second_change_replaces_the_previous_english_note_and_keeps_the_translators_comments() -> None:
    long_english = (
        "Attempt {attempt} answered with status {status} after it had been given up at its timeout."
    )
    english = {"late": (long_english,)}
    comments = ["same as English: a note of the translator"]
    auto = [f"English: {long_english}", "Shown: in a run's journal"]
    de = catalog_with(
        "de", "late", "Versuch {attempt}: {status}.", user_comments=comments, auto_comments=auto
    )
    stamp_catalog(de, english)

    for shown, new in (
        (long_english, "Attempt {attempt}: {status}."),
        ("Attempt {attempt}: {status}.", "A."),
    ):
        de = written_and_read(de)  # Babel wraps the long note into several comments, as the file has it
        entry = de.get("late")
        assert entry is not None
        entry.auto_comments = [f"English: {shown}", "Shown: in a run's journal"]
        entry.flags.discard("fuzzy")
        assert stamp_catalog(de, {"late": (new,)}) == [("late", MARKED)]
        entry = written_and_read(de).get("late")
        assert entry is not None and entry.fuzzy
        assert (
            entry.user_comments[0] == comments[0]
            and entry.user_comments[-1] == f"english: {english_digest((new,))}"
        )
        note = " ".join(entry.user_comments[1:-1])
        assert note == f"previous english: {shown}"


def test_baseline_marks_nothing_and_an_up_to_date_english_comment_is_no_previous_english() -> None:
    auto = ["English: New.", "Shown: on a page"]
    de = catalog_with(
        "de", "k", "Alt.", user_comments=[f"english: {english_digest(('Old.',))}"], auto_comments=auto
    )
    assert stamp_catalog(de, {"k": ("New.",)}, baseline=True) == [("k", STAMPED)]
    entry = de.get("k")
    assert (
        entry is not None
        and not entry.fuzzy
        and entry.user_comments == [f"english: {english_digest(('New.',))}"]
    )

    entry.auto_comments = ["English: Newer.", "Shown: on a page"]  # as `pybabel update` already wrote it
    assert stamp_catalog(de, {"k": ("Newer.",)}) == [("k", MARKED)]
    assert entry.fuzzy and entry.user_comments == [f"english: {english_digest(('Newer.',))}"]
