"""The pseudo-locale en-XA (docs/i18n.md): every catalog sentence accented, longer and in brackets. Any
visible text without brackets is a string that did not come from the catalogs (user data aside: names,
ids, numbers). The browser asks for it by its language alone, as a tester's browser would."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page

from tests.browser.support import PASSWORD, Server, screenshot

# Text that is no sentence: counts, and the approvers' remove button's symbol (its name is in aria-label).
DATA = re.compile(r"^(\d+|\u00d7|\*)$")
UNMARKED = """() => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const element = node.parentElement;
    // Findings are the server's sentences (its catalogs, held full by tests/i18n), not the editor's;
    // .data marks what users wrote: flow names, user names, node ids.
    if (!text || !element || element.closest('script, style, option, .finding, .data')) continue;
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (!(text.startsWith('[') && text.endsWith(']'))) found.push(text);
  }
  return found;
}"""


def unmarked(page: Page) -> list[str]:
    found: list[str] = page.evaluate(UNMARKED)
    return [text for text in found if not DATA.match(text)]


def test_every_visible_string_comes_from_the_catalogs(browser: Browser, server: Server) -> None:
    server.user("pia", "edit", "run")
    context = browser.new_context(
        base_url=server.url, locale="en-XA", timezone_id="Asia/Tokyo", viewport={"width": 1400, "height": 900}
    )
    page = context.new_page()
    page.goto("/login")
    page.locator("input[name=password]").wait_for()
    assert unmarked(page) == []
    page.locator("input[name=name]").fill("pia")
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("button[type=submit]").click()
    page.wait_for_url("**/flows")
    page.locator("table.flows").wait_for()
    assert unmarked(page) == []
    assert page.locator("html").get_attribute("lang") == "en-XA"
    screenshot(page, "pseudo-locale-flows")

    page.locator("button.primary").click()
    page.locator(".modal input").fill("pseudo")
    page.locator(".modal button.primary").click()
    page.wait_for_url("**/flows/new")
    page.locator('.react-flow__node[data-id="start"]').wait_for()
    page.locator(".palette button[data-type=approval]").click()
    page.locator('.react-flow__node[data-id="approval1"]').click()
    page.locator(".approval-panel").wait_for()
    page.locator(".finding").first.wait_for()
    assert unmarked(page) == []
    screenshot(page, "pseudo-locale-editor")
    context.close()


def test_the_first_login_gives_a_user_the_browsers_time_zone(browser: Browser, server: Server) -> None:
    server.user("tomo", "edit")
    context = browser.new_context(base_url=server.url, locale="ja-JP", timezone_id="Asia/Tokyo")
    page = context.new_page()
    page.goto("/login")
    page.locator("input[name=name]").fill("tomo")
    page.locator("input[name=password]").fill(PASSWORD)
    # The page stores the browser's zone once it has read the user (PUT /api/me): that answer is the sync.
    with page.expect_response(
        lambda answer: answer.url.endswith("/api/me") and answer.request.method == "PUT", timeout=60_000
    ) as stored:
        page.locator("button[type=submit]").click()
    assert stored.value.ok
    page.wait_for_url("**/flows")
    me = page.request.get("/api/me").json()
    assert me["time_zone"] == "Asia/Tokyo"
    context.close()
