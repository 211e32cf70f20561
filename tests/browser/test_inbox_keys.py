"""The inbox from the keyboard (docs/pages.md): j / ↓ next, k / ↑ previous, a approve, r reject (each opens
the confirmation), Escape steps back, and keys typed into the comment field are text."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.pages_support import Story, invoice_flow, story_server
from tests.browser.support import log_in


@pytest.fixture(scope="module")
def story(pg_server_url: str, template_database: str) -> Iterator[Story]:
    with story_server(pg_server_url, template_database, "keys") as running:
        yield running


def test_the_inbox_is_worked_from_the_keyboard(browser: Browser, story: Story) -> None:
    story.server.user("kim", "decide", groups=("finance",))
    # Someone else writes and starts the flows: nobody decides what they started themselves (four eyes).
    story.server.user("lou", "edit", "run")
    with story.api(story.token("lou")) as api:
        # The nearer deadline comes first in the inbox.
        for invoice, deadline in (("K-1", "PT1H"), ("K-2", "P1D")):
            made = api.post("/api/flows", json=invoice_flow(story.receiver.url, deadline=deadline)).json()
            api.post(f"/api/flows/{made['id']}/runs", json={"input": {"invoice": invoice, "amount": 1}})
    page = log_in(browser, story.server, "kim", at="/inbox")
    current = page.locator(".inbox-list li[aria-current='true']")
    expect(page.locator(".inbox-list li")).to_have_count(2, timeout=60_000)
    expect(current).to_have_text("Pay invoice K-1?")

    page.keyboard.press("j")
    expect(current).to_have_text("Pay invoice K-2?")
    page.keyboard.press("ArrowUp")
    expect(current).to_have_text("Pay invoice K-1?")
    page.keyboard.press("ArrowDown")
    expect(current).to_have_text("Pay invoice K-2?")

    confirm = page.get_by_role("group", name="Confirm your decision")
    page.keyboard.press("a")
    expect(confirm).to_contain_text("Approve")
    page.keyboard.press("Escape")
    expect(confirm).to_have_count(0)

    # Typed into the comment, "r" and "j" are letters, not commands.
    page.get_by_label("Comment").fill("")
    page.get_by_label("Comment").press_sequentially("rj ok")
    expect(confirm).to_have_count(0)
    expect(current).to_have_text("Pay invoice K-2?")
    page.get_by_label("Comment").blur()

    page.keyboard.press("r")
    expect(confirm).to_contain_text("Reject")
    confirm.get_by_role("button", name="Confirm").click()
    # Rejected, K-2 leaves the inbox; K-1 is what is left.
    expect(page.locator(".inbox-list li")).to_have_count(1)
    expect(current).to_have_text("Pay invoice K-1?")
    page.context.close()
