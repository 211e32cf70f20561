"""Every sentence a user, approver or auditor reads, in nine languages, from the gettext catalogs.

docs/i18n.md says how a reason code is written so that the catalogs' guard finds it, and how to fill a
gap; `python -m backend.i18n.gaps` lists what the catalogs lack.

The names below are imported when first used, so that a module of the package that needs no Babel
(`backend.i18n.terminal`, which `flowyard --help` reads) is imported without it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from backend.i18n.catalogs import DEFAULT_LOCALE, LOCALES, catalog, catalog_json, message
    from backend.i18n.formats import format_datetime, format_duration, format_number
    from backend.i18n.locales import negotiate

_HOMES = {
    "DEFAULT_LOCALE": "catalogs",
    "LOCALES": "catalogs",
    "catalog": "catalogs",
    "catalog_json": "catalogs",
    "message": "catalogs",
    "format_datetime": "formats",
    "format_duration": "formats",
    "format_number": "formats",
    "negotiate": "locales",
}

__all__ = [
    "DEFAULT_LOCALE",
    "LOCALES",
    "catalog",
    "catalog_json",
    "format_datetime",
    "format_duration",
    "format_number",
    "message",
    "negotiate",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"backend.i18n.{home}"), name)
