"""An approver on a phone (390 x 844), in German and in Japanese: the inbox, an approval page, a run page and
the runs list fit the width (nothing to scroll sideways), the question and the Approve and Reject buttons
are on the screen, every touch target is at least 44 px tall, and axe-core finds nothing serious at 390 or
at 1400 px. The editor on a phone says that drawing needs a larger screen and shows the flow as a list to
read, with no control that edits. A screenshot of each page in each language (looked at)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.pages_support import Story, invoice_flow, story_server
from tests.browser.support import log_in, screenshot, serious_violations

PHONE = {"width": 390, "height": 844}
# A long compound word and an amount: what a phone's narrow column must break or fold, not run past.
INPUT = {
    "invoice": "B-12-Donaudampfschifffahrtsgesellschaftskapitänsmützenlieferung",
    "amount": 98000,
    "vendor": "Kraftfahrzeughaftpflichtversicherungsgesellschaft Nordwest",
}
# What a finger presses: buttons, fields, the navigation's links and links that stand as items of a
# list or a table (a link inside a sentence is exempt, as WCAG 2.5.8 has it).
TARGETS = (
    "button, input:not([type=file]):not([type=checkbox]):not([type=radio]), select, textarea, summary,"
    " nav a, li > a, td > a"
)


@dataclass
class World:
    flow: int
    run: int


@pytest.fixture(scope="module")
def story(pg_server_url: str, template_database: str) -> Iterator[Story]:
    with story_server(pg_server_url, template_database, "phone") as running:
        yield running


@pytest.fixture(scope="module")
def world(story: Story) -> World:
    """The invoice flow, started by its author, on its way to the approval; approvers of finance."""
    story.server.user("fon-author", "edit", "run")
    for name in ("fon-de", "fon-ja", "fon-axe"):
        story.server.user(name, "decide", groups=("finance",))
    with story.api(story.token("fon-author")) as api:
        flow = api.post("/api/flows", json=invoice_flow(story.receiver.url)).json()["id"]
        run = api.post(f"/api/flows/{flow}/runs", json={"input": INPUT}).json()["run"]
    return World(flow, run)


def parked(page: Page, world: World) -> int:
    """The approval's id, once the inbox shows it (the worker parks the run in its own time)."""
    page.goto("/inbox")
    expect(page.locator("article.approval")).to_be_visible(timeout=60_000)
    approvals = page.request.get("/api/approvals").json()["approvals"]
    return int(next(a["id"] for a in approvals if a["run_id"] == world.run))


def overflow(page: Page) -> dict[str, Any]:
    """How wide the document is against the viewport, and the first few elements that stick out."""
    measured: dict[str, Any] = page.evaluate(
        """() => {
            const width = window.innerWidth;
            const out = [...document.querySelectorAll('body *')]
                .map((e) => [e, e.getBoundingClientRect()])
                .filter(([e, r]) => r.width > 0 && (r.right > width + 1 || r.left < -1)
                        && !e.closest('.react-flow'))
                .slice(0, 5)
                .map(([e, r]) => `${e.tagName}.${e.className} ${Math.round(r.left)}..${Math.round(r.right)}`);
            return {scroll: document.documentElement.scrollWidth, viewport: width, out};
        }"""
    )
    return measured


def small_targets(page: Page) -> list[str]:
    """Visible touch targets less than 44 px tall (the canvas's own drawing aside)."""
    found: list[str] = page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
            .filter((e) => !e.closest('.react-flow'))
            .map((e) => [e, e.getBoundingClientRect()])
            .filter(([e, r]) => r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden')
            .filter(([e, r]) => r.height < 44)
            .map(([e, r]) => `${e.tagName} "${(e.textContent || e.getAttribute('aria-label') || '').trim()
                .slice(0, 30)}" ${Math.round(r.height)}px`)""",
        TARGETS,
    )
    return found


def on_screen(page: Page, name: str) -> None:
    """The button lies within the viewport's width (nothing to scroll sideways for) and is 44 px tall."""
    button = page.get_by_role("button", name=name, exact=True)
    expect(button).to_be_visible()
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    assert box is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (name, box)
    assert box["height"] >= 44, (name, box)


def fits(page: Page, what: str) -> None:
    measured = overflow(page)
    assert measured["scroll"] <= measured["viewport"], (what, measured)
    assert small_targets(page) == [], what


@pytest.mark.parametrize("locale", ["de-DE", "ja-JP"])
def test_the_approvers_pages_fit_a_phone(browser: Browser, story: Story, world: World, locale: str) -> None:
    lang = locale[:2]
    page = log_in(
        browser, story.server, f"fon-{lang}", locale=locale, width=PHONE["width"], height=PHONE["height"]
    )
    words: dict[str, str] = page.request.get(f"/api/i18n/{lang}").json()
    # Where the login lands: the flows, as cards, with nothing an approver may not do.
    expect(page.locator("table.flows").get_by_role("link", name="Invoice approval")).to_be_visible()
    fits(page, "flows")
    screenshot(page, f"phone-flows-{lang}")
    approval = parked(page, world)
    pages = (
        ("inbox", "/inbox", "article.approval"),
        ("approval", f"/approvals/{approval}", "article.approval"),
        ("run", f"/runs/{world.run}", ".run-node.waiting"),
        ("runs", "/runs", f"[data-run='{world.run}']"),
    )
    found: list[str] = []
    for name, path, ready in pages:
        page.goto(path)
        expect(page.locator(ready)).to_be_visible(timeout=60_000)
        fits(page, name)
        if name in ("inbox", "approval"):
            question = page.locator("article.approval h2")
            expect(question).to_contain_text("Donaudampf")
            box = question.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
            on_screen(page, words["ui_inbox_approve"])
            on_screen(page, words["ui_inbox_reject"])
            page.evaluate("window.scrollTo(0, 0)")
        screenshot(page, f"phone-{name}-{lang}")
        if name == "run":  # the run's data, effects and journal, below the canvas
            page.get_by_role("heading", name=words["ui_run_input"]).scroll_into_view_if_needed()
            screenshot(page, f"phone-run-data-{lang}")
        found += [f"{name} at 390: {v}" for v in serious_violations(page)]

    # The header folds its pages behind one button; opened, they fit too, each a finger's height.
    menu = page.get_by_role("button", name=words["ui_nav_menu"])
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(page.get_by_role("navigation")).to_be_hidden()
    menu.click()
    expect(page.get_by_role("navigation").get_by_role("link", name=words["ui_nav_inbox"])).to_be_visible()
    fits(page, "menu")
    screenshot(page, f"phone-menu-{lang}")
    found += [f"menu at 390: {v}" for v in serious_violations(page)]

    page.set_viewport_size({"width": 1400, "height": 900})
    for name, path, ready in pages:
        page.goto(path)
        expect(page.locator(ready)).to_be_visible(timeout=60_000)
        screenshot(page, f"wide-{name}-{lang}")
        found += [f"{name} at 1400: {v}" for v in serious_violations(page)]
    expect(page.get_by_role("button", name=words["ui_nav_menu"])).to_be_hidden()
    page.context.close()
    assert found == []


@pytest.mark.parametrize("locale", ["de-DE", "ja-JP"])
def test_the_editor_on_a_phone_offers_the_list_to_read(
    browser: Browser, story: Story, world: World, locale: str
) -> None:
    lang = locale[:2]
    # The author may edit, yet a phone offers no edit: drawing needs the room.
    page = log_in(
        browser,
        story.server,
        "fon-author",
        locale=locale,
        width=PHONE["width"],
        height=PHONE["height"],
        at="about:blank",
    )
    words: dict[str, str] = page.request.get(f"/api/i18n/{lang}").json()
    page.goto(f"/flows/{world.flow}")
    notice = page.get_by_role("note")
    expect(notice).to_have_text(words["ui_editor_phone_notice"])
    outline = page.get_by_role("list", name=words["ui_list_title"])
    expect(outline.get_by_role("listitem")).to_have_count(5)
    expect(outline).to_contain_text(words["node_type_approval"])
    # Read-only: no canvas, palette or panel, and no button or field that would change the flow.
    expect(page.locator(".react-flow")).to_have_count(0)
    expect(page.locator("main").get_by_role("button")).to_have_count(0)
    expect(page.locator("main").locator("input, select, textarea")).to_have_count(0)
    fits(page, "editor")
    screenshot(page, f"phone-editor-{lang}")
    assert serious_violations(page) == []
    page.context.close()
