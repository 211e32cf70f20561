"""The pseudo-locale `en_XA` (BCP 47 `en-XA`): English, accented, about 40% longer, in brackets.

A page or an answer read in it shows at once which text did not come from the catalogs (no brackets,
no accents) and which layout breaks on a longer language. It is not one of the nine `LOCALES`: nobody
translates it, the guard does not hold it, and a reader gets it only by asking for it by name (the
first tag of `Accept-Language`, a user's setting, or `/api/i18n/en-XA`). Placeholders and `{{` stay as
they are, so a pseudo sentence is filled like the English one.

Examples:
    >>> pseudo("Loop {node} finished after {passes} passes.")
    '[Ŀööööööþ {node} ƒîîîñîîîšĥéééð àààƒţéééŕ {passes} þàààššéééš.]'
    >>> pseudo("{message}")
    '[{message}]'
"""

from __future__ import annotations

import re

PSEUDO_LOCALE = "en_XA"
_ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "àƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÀƁÇÐÉƑĜĤÎĴĶĿṀÑÖÞǪŔŠŢÛṼŴẊÝŽ",
)
_VOWELS = set("aeiouAEIOU")
# A placeholder, an escaped brace, or a run of other text.
_PIECES = re.compile(r"(\{\{|\}\}|\{[^{}]*\})")


def pseudo(sentence: str) -> str:
    """`sentence` accented, with each vowel of a word of four letters or more tripled, in brackets."""
    out: list[str] = []
    for piece in _PIECES.split(sentence):
        if piece.startswith("{") or piece.startswith("}"):
            out.append(piece)
        else:
            out.append(re.sub(r"[A-Za-z]{4,}", _stretch, piece).translate(_ACCENTED))
    return "[" + "".join(out) + "]"


def _stretch(word: re.Match[str]) -> str:
    return "".join(c * 3 if c in _VOWELS else c for c in word.group(0))
