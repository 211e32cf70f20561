"""The catalogs' `.po` files, found and parsed: read by the sentences (catalogs.py) and by the plural
forms (plurals.py) alike, so neither imports the other for them.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from backend.i18n.locales import LOCALES


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
