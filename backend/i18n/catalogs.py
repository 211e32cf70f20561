"""Sentences by reason code, read from the gettext catalogs under locales/.

A catalog's msgid is the reason code itself (`cycle`, `decide_right_missing`) and its msgstr the sentence,
with named placeholders in braces (`{node}`). Keys never contain dots, so the frontend's flat JSON view of
a catalog never splits one into an object.

Examples:
    >>> message("database_unreachable", "en", host="db.example")
    'The database at db.example cannot be reached.'
    >>> message("no_such_code_anywhere", "en")
    'no_such_code_anywhere'
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

LOCALES: tuple[str, ...] = ("en", "de", "fr", "es", "it", "nl", "pl", "pt_BR", "ja")
DEFAULT_LOCALE = "en"
LOCALES_DIR = Path(__file__).resolve().parents[2] / "locales"


@cache
def catalog(locale: str) -> Mapping[str, str]:
    """Every translated sentence of one locale, by reason code; empty for a locale we do not ship."""
    if locale not in LOCALES:
        return {}
    path = LOCALES_DIR / locale / "LC_MESSAGES" / "messages.po"
    if not path.exists():
        return {}
    with path.open("rb") as f:
        po = read_po(f, locale=locale)
    return {str(m.id): str(m.string) for m in po if m.id and isinstance(m.string, str) and m.string}


def message(code: str, locale: str = DEFAULT_LOCALE, /, **params: Any) -> str:
    """The sentence for `code` in `locale`, falling back to English, then to the code itself.

    The last fallback exists so that a gap never hides an error from a user; the catalog guard test is
    what keeps gaps from landing.
    """
    template = catalog(locale).get(code) or catalog(DEFAULT_LOCALE).get(code)
    if template is None:
        return code
    try:
        return template.format_map(params)
    except (KeyError, IndexError, ValueError):
        return template
