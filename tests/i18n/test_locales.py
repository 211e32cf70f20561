"""Which of the nine locales a reader gets: their setting, then Accept-Language by quality, then English."""

from __future__ import annotations

import pytest

from backend.i18n.locales import LOCALES, accept_language_tags, negotiate


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("de-CH", "de"),
        ("de-CH,de;q=0.9,en;q=0.8", "de"),
        ("pt-BR", "pt_BR"),
        ("pt", "pt_BR"),
        ("pt-PT,en;q=0.5", "pt_BR"),
        ("pt-PT", "pt_BR"),
        ("pt-AO", "pt_BR"),
        ("pt-MZ, en;q=0.9", "pt_BR"),
        ("en;q=0.5, pt-PT", "pt_BR"),
        ("ja-JP", "ja"),
        ("JA", "ja"),
        ("nl-BE", "nl"),
        ("fr;q=0.5, it;q=0.9", "it"),
        ("zh-CN, pl;q=0.3", "pl"),
        ("en-GB", "en"),
    ],
)
def test_the_header_picks_the_best_locale_we_ship(header: str, expected: str) -> None:
    assert negotiate(header) == expected


@pytest.mark.parametrize(
    "header", [None, "", "zh-TW", "*", "de;q=0", "de;q=nope", "de;q=2", ",,;;", "es;q=nan"]
)
def test_anything_else_falls_back_to_english(header: str | None) -> None:
    assert negotiate(header) == "en"


def test_the_users_own_setting_wins_when_it_is_one_of_ours() -> None:
    assert negotiate("de-DE", user_locale="ja") == "ja"
    assert negotiate("de-DE", user_locale="pt-BR") == "pt_BR"
    assert negotiate("de-DE", user_locale="tlh") == "de"
    assert negotiate(None, user_locale="") == "en"


def test_every_locale_we_ship_negotiates_to_itself() -> None:
    assert [negotiate(locale.replace("_", "-")) for locale in LOCALES] == list(LOCALES)


def test_tags_are_ranked_by_quality_and_keep_the_header_order_among_equals() -> None:
    header = "en;q=0.5, de-DE, fr;q=0.8, nl, ja;q=0, it;q=x"
    assert accept_language_tags(header) == ["de-DE", "nl", "fr", "en"]
