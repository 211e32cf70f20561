"""Each catalog's header is filled for its locale: no template placeholders, CLDR's plural rule."""

from __future__ import annotations

import pytest
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from backend.i18n.catalogs import LOCALES
from tests.i18n.test_guard import ROOT

TEMPLATE_PLACEHOLDERS = ("EMAIL@ADDRESS", "FULL NAME", "YEAR-MO-DA", "LL@li.org", "PROJECT VERSION")


@pytest.mark.parametrize("locale", LOCALES)
def test_the_header_names_the_locale_its_team_and_its_plural_rule(locale: str) -> None:
    path = ROOT / "locales" / locale / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as file:
        catalog = read_po(file, locale=locale)
    header = path.read_text(encoding="utf-8").split("\n\n", 1)[0]

    assert not [text for text in TEMPLATE_PLACEHOLDERS if text in header]
    assert f"Language: {locale}\\n" in header
    assert f"({locale})" in dict(catalog.mime_headers)["Language-Team"]
    assert f"Plural-Forms: {get_plural(locale).plural_forms}\\n" in header
    assert catalog.num_plurals == get_plural(locale).num_plurals
