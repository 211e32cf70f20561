"""Each language's punctuation (docs/glossary.md, "Register"): Japanese sentences take full-width marks,
French puts a no-break space before its high marks. The guard (tests/i18n/test_register.py) finds the
slips with the functions here; `python -m backend.i18n.typography` mends them in the ja and fr catalogs
(a merge that brought sentences written the other way, say), and `make catalogs` normalises the files.

Examples:
    >>> full_width("実行 {run} は失敗しました: {error} (再試行 2 回目)")
    '実行 {run} は失敗しました：{error}（再試行 2 回目）'
    >>> french_spaces("Échéance : {deadline} ; voir « Délai » ?")
    'Échéance\\xa0: {deadline}\\u202f; voir «\\xa0Délai\\xa0»\\u202f?'
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from babel.messages.pofile import write_po

from backend.i18n.catalogs import LOCALES_DIR, po_file

PLACEHOLDER = re.compile(r"(\{[a-z_]+\})")
JAPANESE = "\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef"
# An ASCII mark that touches a Japanese letter (a space between them allowed), or ends the sentence.
HALF_WIDTH_IN_JAPANESE = re.compile(rf"[{JAPANESE}]\s*[:(),!?]|[:(),!?]\s*[{JAPANESE}]|[:!?]\s*$")
# A French : ; ! ? that ends a clause (a space, a closing mark or the end after it) without a no-break
# space before it; "9:00", "https://", "flow:12" are not clauses.
FRENCH_BARE_MARK = re.compile(r"(?<![\u00a0\u202f])[:;!?](?=\s|$|»|\))")
# Written as HTTP writes them, in every language.
HTTP_HEADERS = ("Authorization: ", "Content-Type: ")
NO_BREAK, NARROW_NO_BREAK = "\u00a0", "\u202f"


def half_width_slips(text: str) -> list[str]:
    """The ASCII marks of a Japanese sentence that should be full-width.

    Examples:
        >>> half_width_slips("実行 {run} は失敗しました: {error}。")
        [':']
        >>> half_width_slips("実行 {run} は失敗しました：{error}。"), half_width_slips("毎週 8:00 に")
        ([], [])
    """
    found = HALF_WIDTH_IN_JAPANESE.finditer(PLACEHOLDER.sub("X", text))
    return [mark for each in found for mark in re.findall(r"[:(),!?]", each.group(0))]


def bare_french_marks(text: str) -> list[str]:
    """The : ; ! ? of a French sentence without a no-break space before them.

    Examples:
        >>> bare_french_marks("Échéance : {deadline}"), bare_french_marks("Échéance\\u00a0: {deadline}")
        ([':'], [])
        >>> bare_french_marks("par exemple https://example.com/hook?x=1 ou 9:00.")
        []
    """
    for header in HTTP_HEADERS:
        text = text.replace(header, "")
    return FRENCH_BARE_MARK.findall(PLACEHOLDER.sub("X", text))


def full_width(text: str) -> str:
    """A Japanese sentence with its ASCII : , ? ! ( ) as full-width marks, placeholders and headers kept."""
    parts = PLACEHOLDER.split(text)
    for at in range(0, len(parts), 2):  # the text between placeholders
        part = re.sub(r":(\s+|$)", "：", parts[at])
        part = re.sub(r",\s+", "、", part)
        part = re.sub(r"\s*\?(\s+|$)", "？", part)
        part = re.sub(r"\s*!(\s+|$)", "！", part)
        part = re.sub(r"\s*\(", "（", part)
        parts[at] = re.sub(r"\)(\s+(?=[^\x00-\x7f]))?", "）", part)
    mended = re.sub(r"）\s+(?=[。、])", "）", "".join(parts))
    for header in HTTP_HEADERS:
        mended = mended.replace(header.replace(": ", "："), header)
    return mended


def french_spaces(text: str) -> str:
    """A French sentence with a no-break space before : and inside « », a narrow one before ; ! ?."""
    for header in HTTP_HEADERS:
        text = text.replace(header, header.replace(": ", "\0"))
    text = re.sub(r"[ \u00a0\u202f]*:(?=\s|$)", NO_BREAK + ":", text)
    text = re.sub(r"[ \u00a0\u202f]*([;!?])(?=\s|$|»|\))", NARROW_NO_BREAK + r"\1", text)
    text = text.replace("« ", "«" + NO_BREAK).replace(" »", NO_BREAK + "»")
    return text.replace("\0", ": ")


MENDERS = {"ja": full_width, "fr": french_spaces}
# Keys whose text is no sentence of the language: a language's own name, a placeholder's syntax.
UNTOUCHED = ("ui_language_", "cli_metavar_")


def mend(locale: str) -> int:
    """Mend the punctuation of one catalog in place; how many entries changed."""
    po = po_file(locale)
    assert po is not None
    changed = 0
    for m in po:
        if not m.id or str(m.id if isinstance(m.id, str) else m.id[0]).startswith(UNTOUCHED):
            continue
        forms = m.string if isinstance(m.string, tuple | list) else (m.string,)
        mended = tuple(MENDERS[locale](str(form)) for form in forms)
        if mended != tuple(forms):
            m.string = mended if isinstance(m.string, tuple | list) else mended[0]
            changed += 1
    with (Path(str(LOCALES_DIR)) / locale / "LC_MESSAGES" / "messages.po").open("wb") as file:
        write_po(file, po, width=0)
    return changed


if __name__ == "__main__":
    for each in MENDERS:
        print(f"{each}: {mend(each)} entries mended", file=sys.stderr)
