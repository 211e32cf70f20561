"""A pseudo-locale: every catalog sentence wrapped in markers. Any visible text without them is a string
that did not come from the catalogs (user data aside: names, ids, numbers)."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Browser, Page, Route

from backend.i18n import catalog_json
from tests.browser.support import PASSWORD, Server

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
    if (!(text.startsWith('[[') && text.endsWith(']]'))) found.push(text);
  }
  return found;
}"""


def pseudo(route: Route) -> None:
    wrapped = {key: f"[[{sentence}]]" for key, sentence in catalog_json("en").items()}
    route.fulfill(status=200, content_type="application/json", body=json.dumps(wrapped))


def unmarked(page: Page) -> list[str]:
    found: list[str] = page.evaluate(UNMARKED)
    return [text for text in found if not DATA.match(text)]


def test_every_visible_string_comes_from_the_catalogs(browser: Browser, server: Server) -> None:
    server.user("pia", "edit", "run")
    context = browser.new_context(
        base_url=server.url, locale="en-US", viewport={"width": 1400, "height": 900}
    )
    context.route("**/api/i18n/*", pseudo)
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

    page.locator("button.primary").click()
    page.wait_for_url(re.compile(r".*/flows/\d+$"))
    page.locator('.react-flow__node[data-id="start"]').wait_for()
    page.locator(".palette button[data-type=approval]").click()
    page.locator('.react-flow__node[data-id="approval1"]').click()
    page.locator(".approval-panel").wait_for()
    page.locator(".finding").first.wait_for()
    assert unmarked(page) == []
    context.close()
