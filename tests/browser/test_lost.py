"""A person who types or follows a wrong address sees "this page does not exist" in their language, in the
signed-in shell with its menu to go on, not a JSON error (backend/api/static.py answers a browser's HTML
request for an unknown path with the page and a 404)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.support import Server, log_in, screenshot

# (browser locale, ui_page_not_found from the catalogs, the window's width: a phone or a desk).
READERS = [
    pytest.param("de-DE", "Diese Seite existiert nicht.", 390, id="de-phone"),
    pytest.param("ja-JP", "このページは存在しません。", 390, id="ja-phone"),
    pytest.param("ja-JP", "このページは存在しません。", 1400, id="ja-desk"),
    pytest.param("en-US", "This page does not exist.", 1400, id="en-desk"),
]


@pytest.mark.console_errors(
    "the wrong address itself answers 404, which chromium reports", allow=r"status of 404 .*/nowhere/at/all"
)
@pytest.mark.parametrize(("locale", "sentence", "width"), READERS)
def test_a_wrong_address_is_a_page_that_says_so_in_the_readers_language(
    browser: Browser, server: Server, locale: str, sentence: str, width: int
) -> None:
    name = server.user(f"lost-{locale}-{width}", "edit")
    page = log_in(browser, server, name, locale=locale, width=width, height=844 if width < 600 else 900)
    answer = page.goto("/nowhere/at/all")
    assert answer is not None and answer.status == 404
    expect(page.get_by_text(sentence)).to_be_visible()
    expect(page.locator("body")).not_to_contain_text("not_found")
    screenshot(page, f"lost-{locale}-{width}")
    page.context.close()
