"""Every sentence a user, approver or auditor reads, in nine languages, from the gettext catalogs.

docs/i18n.md says how a reason code is written so that the catalogs' guard finds it, and how to fill a
gap; `python -m backend.i18n.gaps` lists what the catalogs lack.
"""

from backend.i18n.catalogs import DEFAULT_LOCALE, LOCALES, catalog, catalog_json, message
from backend.i18n.formats import format_datetime, format_duration, format_number
from backend.i18n.locales import negotiate

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
