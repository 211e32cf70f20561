"""A stopped run on its page: the holder of the run right sees why it stopped and the buttons to resume
it (on its version, or on a newer one, refused with the missing nodes when that lacks some) or end it."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest
from playwright.sync_api import Browser, expect

from tests.browser.pages_support import Story, invoice_flow, story_server
from tests.browser.support import log_in, screenshot, serious_violations
from tests.observability.live import wait_for


@pytest.fixture(scope="module")
def story(pg_server_url: str, template_database: str) -> Iterator[Story]:
    with story_server(pg_server_url, template_database, "stopped") as running:
        yield running


def stop_at_its_approval(story: Story, run_id: int) -> None:
    """Every claim of the run's wait died without a word: the worker's next claim stops the run."""
    url = story.server.database_url
    wait_for(url, "SELECT 1 FROM waits WHERE run_id = %s AND kind = 'approval'", run_id)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("UPDATE waits SET attempts = 5, wake_at = now() WHERE run_id = %s", (run_id,))


@pytest.mark.console_errors(
    "the resume on a version without the nodes is refused (409)",
    allow=r"status of 409 .*/api/runs/\d+/resume",
)
def test_a_stopped_run_is_resumed_refused_on_a_version_without_its_nodes_and_ended(
    browser: Browser, story: Story
) -> None:
    story.server.user("sam", "edit", "run")
    with story.api(story.token("sam")) as api:
        flow_id = api.post("/api/flows", json=invoice_flow(story.receiver.url)).json()["id"]
        run_id = api.post(
            f"/api/flows/{flow_id}/runs", json={"input": {"invoice": "C-3", "amount": 5}}
        ).json()["run"]
        without_ask = invoice_flow(story.receiver.url)
        without_ask["nodes"] = [n for n in without_ask["nodes"] if n["id"] not in ("ask", "refused")]
        without_ask["wires"] = [{"from": "start", "to": "pay"}, {"from": "pay", "to": "paid"}]
        saved = api.put(f"/api/flows/{flow_id}", json=without_ask)
        assert saved.status_code in (200, 201), saved.text
    stop_at_its_approval(story, run_id)

    page = log_in(browser, story.server, "sam", at=f"/runs/{run_id}")
    expect(page.locator("[data-status]")).to_have_attribute("data-status", "stopped", timeout=60_000)
    expect(
        # The cited code reads as its own sentence (claim_abandoned: every earlier attempt died silently).
        page.get_by_text("The run stopped after its last attempt failed (Every earlier attempt to go on")
    ).to_be_visible()
    actions = page.get_by_role("group", name="What to do with the stopped run")
    expect(actions).to_be_visible()
    expect(page.locator(".wait .retry")).to_have_count(0)  # no next try is coming by itself
    assert serious_violations(page) == []
    screenshot(page, "run-stopped")

    actions.get_by_label("Version").fill("2")
    actions.get_by_role("button", name="Resume on this version").click()
    expect(actions.get_by_role("alert")).to_contain_text("ask")
    expect(page.locator("[data-status]")).to_have_attribute("data-status", "stopped")

    actions.get_by_role("button", name="Resume", exact=True).click()
    # The worker claims the wait at once and finds the approval still open: the page may read the run
    # `running` in between, then hears of the claim let go (queue/settle.py `_repark`, notify_run_shown).
    expect(page.locator("[data-status]")).to_have_attribute("data-status", "waiting", timeout=60_000)
    expect(page.locator(".run-node.waiting")).to_contain_text("ask", timeout=60_000)

    stop_at_its_approval(story, run_id)
    page.reload()
    expect(page.locator("[data-status]")).to_have_attribute("data-status", "stopped", timeout=60_000)
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="End the run as failed").click()
    expect(page.locator("[data-status]")).to_have_attribute("data-status", "failed", timeout=60_000)
    expect(page.get_by_text("The stopped run was ended as failed by sam.")).to_be_visible()
    page.context.close()
