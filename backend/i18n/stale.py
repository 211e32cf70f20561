"""Stale translations: each translated entry records which English it translated, so that a changed English
sentence sends every translation of it back to a translator.

A msgid is a key (`cycle`), not the English sentence, so gettext's own tools never notice that the English
changed. Each translated entry of the eight other catalogs therefore carries a translator comment with a
digest of the English it translated (`# english: 1a2b3c4d5e6f`, the first 12 hex digits of the SHA-256 of
the `en` catalog's msgstr, plural forms included). Translator comments are the part of an entry that
Poedit, Weblate, Lokalize and msgmerge all keep; the `#.` comments are rewritten from the template.

`python -m backend.i18n.stale` (the first step of `make catalogs`) then, in each catalog:
- records the current digest on a translated entry that has none yet (the first stamping is the baseline);
- marks `fuzzy` an entry whose digest is not the current English's, records the new digest and keeps the
  English it translated in a `# previous english: ...` comment, read from the entry's `#. English:`
  comment before `pybabel update` rewrites it. A translator who confirms the entry (clears fuzzy, in
  Poedit "needs work") ends the round trip: the digest is already current, so the next run changes nothing.

Only the catalogs it changes are rewritten, with Babel's writer as `pybabel update --no-wrap` writes them,
so every other entry keeps its bytes and a catalog it does not change is not written at all.
`--baseline` records the current English on every translated entry and marks nothing: for a tree whose
translations are known to match their English (a merge of branches that changed an English sentence and
its translations together).

Examples:
    >>> english_digest(("The database at {host} cannot be reached.",))
    '8ba8cfbbee20'
    >>> english_digest(("{count} finding", "{count} findings")) != english_digest(("{count} findings",))
    True
    >>> recorded_digest(["same as English: the word is French", "english: 8ba8cfbbee20"])
    '8ba8cfbbee20'
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po, write_po

from backend.i18n.locales import DEFAULT_LOCALE, LOCALES

DIGEST, PREVIOUS = "english: ", "previous english: "
_DIGEST_LINE = re.compile(re.escape(DIGEST) + r"([0-9a-f]{12})")
STAMPED, MARKED = "stamped", "marked fuzzy: its English changed"
# The `#.` comments the extractor writes: the English sentence, wrapped, then always `Shown: ...`.
_ENGLISH_COMMENT, _AFTER_ENGLISH = "English: ", "Shown: "
CHECKOUT_LOCALES = Path(__file__).resolve().parents[2] / "locales"


def english_digest(forms: Sequence[str]) -> str:
    """The digest of an English sentence, given as its forms (one for a sentence that counts nothing)."""
    return hashlib.sha256("\0".join(forms).encode("utf-8")).hexdigest()[:12]


def recorded_digest(comments: Sequence[str]) -> str | None:
    """The digest an entry's translator comments record, or None when they record none."""
    found = (_DIGEST_LINE.fullmatch(comment) for comment in comments)
    return next((match.group(1) for match in found if match), None)


def forms(message: Message) -> tuple[str, ...]:
    """An entry's msgstr as its forms: one for a plain entry, one per plural form otherwise."""
    if isinstance(message.string, str):
        return (message.string,)
    return tuple(str(form) for form in message.string or ())


def english_forms(english: Catalog) -> dict[str, tuple[str, ...]]:
    """The `en` catalog's confirmed sentences by key, as forms: neither fuzzy nor with an empty form."""
    found: dict[str, tuple[str, ...]] = {}
    for message in english:
        if message.id and not message.fuzzy and all(written := forms(message)):
            found[key_of(message)] = written
    return found


def key_of(message: Message) -> str:
    return str(message.id[0]) if isinstance(message.id, tuple | list) else str(message.id)


def is_translated(message: Message) -> bool:
    return bool(message.id) and any(forms(message))


@dataclass(frozen=True, slots=True, order=True)
class Change:
    """What a run did to one entry: `STAMPED` (a first digest, or `--baseline`) or `MARKED` (fuzzy)."""

    locale: str
    key: str
    change: str

    def __str__(self) -> str:
        return f"{self.locale}: {self.key}: {self.change}"


def stamp_catalog(
    po: Catalog, english: Mapping[str, tuple[str, ...]], *, baseline: bool = False
) -> list[tuple[str, str]]:
    """Stamp one catalog in place against `english` (`english_forms`); the changes, as (key, change)."""
    changes = []
    for message in po:
        key = key_of(message)
        if not is_translated(message) or key not in english:
            continue
        current, recorded = english_digest(english[key]), recorded_digest(message.user_comments)
        if recorded == current:
            continue
        if recorded is None or baseline:
            message.user_comments = _with_digest(message.user_comments, current)
            changes.append((key, STAMPED))
            continue
        previous = previous_english(message, english[key])
        note = [] if previous is None else [PREVIOUS + previous]
        message.user_comments = [*_without_ours(message.user_comments), *note, DIGEST + current]
        message.flags.add("fuzzy")
        changes.append((key, MARKED))
    return changes


def previous_english(message: Message, english: tuple[str, ...]) -> str | None:
    """The English the entry's `#. English:` comment still shows, unless that is already `english`.

    The extractor writes a counting key's last form there, so that is what a plural entry shows.
    """
    comments = list(message.auto_comments)
    start = next((i for i, c in enumerate(comments) if c.startswith(_ENGLISH_COMMENT)), None)
    if start is None:
        return None
    end = next((i for i in range(start + 1, len(comments)) if comments[i].startswith(_AFTER_ENGLISH)), None)
    shown = " ".join(comments[start:end]).removeprefix(_ENGLISH_COMMENT)
    return None if shown == " ".join(english[-1].split()) else shown


def _with_digest(comments: Sequence[str], digest: str) -> list[str]:
    """The comments with `digest` recorded: in place of a recorded one, else added at the end."""
    if recorded_digest(comments) is None:
        return [*comments, DIGEST + digest]
    return [DIGEST + digest if _DIGEST_LINE.fullmatch(c) else c for c in comments]


def _without_ours(comments: Sequence[str]) -> list[str]:
    """The translator's own comments: without the digest, and without a previous English note, which
    Babel wraps into several comments running up to the digest."""
    kept, in_note = [], False
    for comment in comments:
        if _DIGEST_LINE.fullmatch(comment):
            in_note = False
        elif comment.startswith(PREVIOUS) or in_note:
            in_note = True
        else:
            kept.append(comment)
    return kept


def stamp(
    locales_dir: Path = CHECKOUT_LOCALES, locales: Sequence[str] = LOCALES, *, baseline: bool = False
) -> list[Change]:
    """Stamp the catalogs under `locales_dir` against its `en` catalog; rewrite only those that change."""
    english = english_forms(read_catalog(locales_dir, DEFAULT_LOCALE))
    changes: list[Change] = []
    for locale in locales:
        if locale == DEFAULT_LOCALE:
            continue
        po = read_catalog(locales_dir, locale)
        done = stamp_catalog(po, english, baseline=baseline)
        if done:
            buffer = BytesIO()
            write_po(buffer, po, width=0)  # as `pybabel update --no-wrap` writes: no reflowed lines
            po_path(locales_dir, locale).write_bytes(buffer.getvalue())
        changes += [Change(locale, key, change) for key, change in done]
    return changes


def po_path(locales_dir: Path, locale: str) -> Path:
    return locales_dir / locale / "LC_MESSAGES" / "messages.po"


def read_catalog(locales_dir: Path, locale: str) -> Catalog:
    with po_path(locales_dir, locale).open("rb") as f:
        return read_po(f, locale=locale)


def main(argv: Sequence[str] | None = None) -> int:
    """Stamp the checkout's catalogs (or those of `--locales`), printing each marked entry; always 0:
    a marked entry is a gap, which the guard and `python -m backend.i18n.gaps` report."""
    parser = argparse.ArgumentParser(
        prog="python -m backend.i18n.stale",
        description="Record the English each translation translates; mark fuzzy one whose English changed.",
    )
    parser.add_argument("--locales", type=Path, default=CHECKOUT_LOCALES, help="the locales/ directory")
    parser.add_argument("--baseline", action="store_true", help="record the current English, mark nothing")
    args = parser.parse_args(argv)
    changes = stamp(args.locales, baseline=args.baseline)
    for change in changes:
        if change.change == MARKED:
            print(change)
    stamped = sum(change.change == STAMPED for change in changes)
    print(f"{stamped} entries stamped, {len(changes) - stamped} marked fuzzy", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
