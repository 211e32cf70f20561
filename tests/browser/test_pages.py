"""The runs, run, inbox, audit and people pages beyond the story: a deadline that passes takes the timeout
exit, a cancelled run keeps its approval readable, and axe-core finds no serious or critical violation
on any of them, in English and in Japanese."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from tests.browser.pages_support import Story, invoice_flow, story_server
from tests.browser.support import log_in

SERIOUS = ("serious", "critical")


@pytest.fixture(scope="module")
def story(pg_server_url: str, template_database: str) -> Iterator[Story]:
    with story_server(pg_server_url, template_database, "pages") as running:
        yield running


def start(story: Story, token: str, **flow: str) -> tuple[int, int]:
    with story.api(token) as api:
        flow_id = api.post("/api/flows", json=invoice_flow(story.receiver.url, **flow)).json()["id"]
        run_id = api.post(
            f"/api/flows/{flow_id}/runs", json={"input": {"invoice": "B-2", "amount": 9}}
        ).json()["run"]
    return flow_id, run_id


def test_a_deadline_that_passes_takes_the_timeout_exit(browser: Browser, story: Story) -> None:
    story.server.user("olga", "edit", "run")
    _flow, run_id = start(story, story.token("olga"), deadline="PT2S", on_timeout="reject")
    page = log_in(browser, story.server, "olga", at=f"/runs/{run_id}")
    # The worker wakes the run at its deadline; the page hears of it through the event stream.
    expect(page.locator("[data-status]")).to_have_attribute("data-status", "succeeded", timeout=60_000)
    expect(page.locator(".run-node:has([data-node='refused'])")).to_have_class(re.compile("visited"))
    expect(page.locator(".run-node:has([data-node='pay'])")).to_have_class(re.compile("unvisited"))
    # Under the status, and in the run's list of approvals: nobody decided, the deadline did.
    expect(page.locator(".run-decision")).to_contain_text(
        "Last decision: Rejected when the deadline passed for “Pay invoice B-2?”, at "
    )
    expect(page.get_by_role("listitem").filter(has_text="Rejected when the deadline passed")).to_be_visible()
    page.context.close()


def test_a_cancelled_run_keeps_its_approval_readable(browser: Browser, story: Story) -> None:
    story.server.user("pia", "edit", "run")
    _flow, run_id = start(story, story.token("pia"))
    page = log_in(browser, story.server, "pia", at=f"/runs/{run_id}")
    expect(page.locator(".run-node.waiting")).to_contain_text("ask", timeout=60_000)
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Cancel the run").click()
    expect(page.locator("[data-status]")).to_have_attribute("data-status", "cancelled")
    page.get_by_role("link", name="Pay invoice B-2?").first.click()
    expect(page.get_by_role("status")).to_contain_text("Cancelled with its run: decided by pia")
    page.context.close()


def serious_violations(page: Page) -> list[str]:
    results = Axe().run(page)
    return [
        f"{page.url}: {v['id']} ({v['impact']}): {v['help']}"
        for v in results.response["violations"]
        if v["impact"] in SERIOUS
    ]


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_no_serious_accessibility_violation(browser: Browser, story: Story, locale: str) -> None:
    name = f"axe{locale[:2]}"
    story.server.user(name, "edit", "run", "decide", "audit", "admin", groups=("finance",))
    # Another person starts the run: its starter could not decide it (four eyes), and the inbox would
    # have nothing to show.
    story.server.user(f"{name}-starter", "edit", "run")
    _flow, run_id = start(story, story.token(f"{name}-starter"))
    page = log_in(browser, story.server, name, locale=locale)
    found: list[str] = []
    for path, ready in (
        ("/runs", f"tr[data-run='{run_id}']"),
        (f"/runs/{run_id}", ".run-node.waiting"),
        ("/inbox", "article.approval"),
        ("/audit", "table.audit"),
        ("/people", "tbody tr"),
    ):
        page.goto(path)
        expect(page.locator(ready).first).to_be_visible(timeout=60_000)
        found += serious_violations(page)
    page.context.close()
    assert found == []
