"""Logging in and out through the editor's pages, in a real browser against a real server."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.support import PASSWORD, Server, log_in, screenshot


@pytest.mark.console_errors(
    "a wrong password is refused (401), and a page without a session learns it from /api/me's 401",
    allow=r"status of 401 .*/api/(me|session):",
)
def test_a_wrong_password_is_refused_and_the_right_one_opens_the_flows(
    browser: Browser, server: Server
) -> None:
    server.user("lena", "edit", "run", "decide", "audit", "admin")
    context = browser.new_context(base_url=server.url, locale="en-US")
    page = context.new_page()
    page.goto("/flows")
    page.wait_for_url("**/login")
    page.get_by_label("User name").fill("lena")
    page.get_by_label("Password").fill("not it")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("alert")).to_contain_text("password is not right")
    screenshot(page, "login")

    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/flows")
    nav = page.get_by_role("navigation")
    for name in ("Flows", "Runs", "Inbox", "Audit", "People"):  # each page her rights open
        expect(nav.get_by_role("link", name=name)).to_be_visible()

    page.get_by_role("button", name="Log out").click()
    page.wait_for_url("**/login")
    page.goto("/flows")
    page.wait_for_url("**/login")
    context.close()


def test_the_language_menu_switches_and_is_stored_on_the_user(browser: Browser, server: Server) -> None:
    server.user("jun", "edit")
    page = log_in(browser, server, "jun")
    page.get_by_label("Language").select_option("ja")
    expect(page.get_by_role("navigation").get_by_role("link", name="フロー")).to_be_visible()
    # A new context (another device) follows the stored setting.
    again = log_in(browser, server, "jun", locale="de-DE")
    expect(again.get_by_role("navigation").get_by_role("link", name="実行")).to_be_visible()
    page.context.close()
    again.context.close()
