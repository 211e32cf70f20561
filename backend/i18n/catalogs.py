"""Sentences by reason code, read from the gettext catalogs under locales/ (through importlib.resources,
so an installed wheel, which carries them inside the package, reads them as the checkout does).

A catalog's msgid is the reason code itself (`cycle`, `decide_right_missing`) and its msgstr the sentence,
with named placeholders in braces (`{node}`). Keys never contain dots, so the frontend's flat JSON view of
a catalog never splits one into an object. The runtime reads the `.po` files, which are what translators
edit and what git holds; the compiled `.mo` files are for gettext tools, and nothing here needs them.

A fuzzy entry (one a tool guessed, or a translator has not confirmed) counts as missing, as it does for
gettext itself.

Examples:
    >>> message("database_unreachable", "en", host="db.example")
    'The database at db.example cannot be reached.'
    >>> message("database_unreachable", "de", host="db.example")
    'Die Datenbank unter db.example ist nicht erreichbar.'
    >>> message("database_unreachable", "xx")
    'The database at {host} cannot be reached.'
    >>> message("no_such_code_anywhere", "en")
    'no_such_code_anywhere'
    >>> catalog_json("ja")["node_type_approval"]
    '承認'
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, timedelta
from decimal import Decimal
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from babel.dates import format_date
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from backend.i18n.formats import format_datetime, format_duration, format_number
from backend.i18n.locales import DEFAULT_LOCALE, LOCALES
from backend.i18n.placeholders import fill

__all__ = [
    "DEFAULT_LOCALE",
    "LOCALES",
    "LOCALES_DIR",
    "catalog",
    "catalog_json",
    "message",
    "po_file",
    "sentences",
]


def _locales_dir() -> Traversable:
    """Where the catalogs are: inside the installed package (a built wheel carries locales/ as
    `backend/locales`, see pyproject.toml), else the checkout's locales/ beside backend/."""
    shipped = resources.files("backend").joinpath("locales")
    if shipped.is_dir():
        return shipped
    return Path(__file__).resolve().parents[2] / "locales"


LOCALES_DIR: Traversable = _locales_dir()


@cache
def po_file(locale: str) -> Catalog | None:
    """The parsed `.po` file of one of our locales, fuzzy entries and comments included; else None."""
    if locale not in LOCALES:
        return None
    path = LOCALES_DIR.joinpath(locale, "LC_MESSAGES", "messages.po")
    if not path.is_file():
        return None
    with path.open("rb") as f:
        return read_po(f, locale=locale)


@cache
def catalog(locale: str) -> Mapping[str, str]:
    """Every translated sentence of one locale, by reason code; empty for a locale we do not ship."""
    po = po_file(locale)
    return {} if po is None else sentences(po)


def sentences(po: Catalog) -> dict[str, str]:
    """The confirmed sentences of a parsed catalog, by key: neither empty nor fuzzy."""
    return {
        m.id: m.string
        for m in po
        if m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string and not m.fuzzy
    }


def message(code: str, locale: str = DEFAULT_LOCALE, /, **params: Any) -> str:
    """The sentence for `code` in `locale`, falling back to English, then to the code itself.

    The last fallback exists so that a gap never hides an error from a user; the catalog guard test is
    what keeps gaps from landing. A placeholder that `params` lacks stays visible as `{name}`; dates,
    durations and fractional numbers among `params` are written as the locale writes them. Integers
    are left alone: most are identifiers (run 12345), which no reader groups into thousands.
    """
    template = catalog(locale).get(code) or catalog(DEFAULT_LOCALE).get(code)
    if template is None:
        return code
    return fill(template, params, lambda value: _render(value, locale))


def catalog_json(locale: str) -> dict[str, str]:
    """The catalog the frontend loads: every English key, with `locale`'s sentence or else the English one.

    Flat and sorted by key; the keys are reason codes and `node_type_*`/`port_*` names, never dotted.
    """
    english, ours = catalog(DEFAULT_LOCALE), catalog(locale)
    return {key: ours.get(key) or english[key] for key in sorted(english)}


def _render(value: object, locale: str) -> str:
    if isinstance(value, str):  # most values are: node ids, codes, names
        return value
    if isinstance(value, datetime):
        return format_datetime(value, locale)
    if isinstance(value, date):
        return format_date(value, format="medium", locale=locale if locale in LOCALES else DEFAULT_LOCALE)
    if isinstance(value, timedelta):
        return format_duration(value, locale)
    if isinstance(value, float | Decimal):
        return format_number(value, locale)
    return str(value)
