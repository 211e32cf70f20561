"""Issue 35, item 2 on the run page: one branch's action fails with no error port while the other branch
waits for an approval. The page shows both: the approval (its mail sent) and the failed action's next
try, and the journal says the action failed and will be tried again."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.actions.servers import Reply
from tests.browser.pages_support import Story, story_server
from tests.browser.support import log_in, screenshot, serious_violations


@pytest.fixture(scope="module")
def story(pg_server_url: str, template_database: str) -> Iterator[Story]:
    with story_server(pg_server_url, template_database, "branch_retry") as running:
        yield running


def branches(receiver_url: str) -> dict[str, object]:
    return {
        "format": "flowyard.flow/1",
        "name": "Contract and deposit",
        "nodes": [
            {"id": "start", "type": "trigger", "config": {"kind": "manual"}},
            {"id": "both", "type": "parallel", "config": {"wait": "all"}},
            {
                "id": "legal",
                "type": "approval",
                "config": {"title": "Sign contract {{trigger.contract}}?", "approvers": ["user:lea"]},
            },
            {
                "id": "deposit",
                "type": "http",
                "config": {"method": "POST", "url": f"{receiver_url}/deposit", "body": {"n": 1}},
            },
            {"id": "after", "type": "log", "config": {"message": "both done"}},
        ],
        "wires": [
            {"from": "start", "to": "both"},
            {"from": "both", "port": "branches", "to": "legal"},
            {"from": "both", "port": "branches", "to": "deposit"},
            {"from": "both", "port": "done", "to": "after"},
        ],
    }


def test_the_run_page_shows_the_open_approval_beside_the_branch_retrying_its_action(
    browser: Browser, story: Story
) -> None:
    story.server.user("rita", "edit", "run")
    story.server.user("lea", "decide", email="lea@example.test")
    story.receiver.routes["/deposit"] = lambda _r: Reply(503, b'{"error": "down for a moment"}')
    with story.api(story.token("rita")) as api:
        flow_id = api.post("/api/flows", json=branches(story.receiver.url)).json()["id"]
        started = api.post(f"/api/flows/{flow_id}/runs", json={"input": {"contract": "C-42"}})
        run_id = started.json()["run"]

    story.mailbox.wait_for_mail_to("lea@example.test")  # the approval was requested, its mail sent
    page = log_in(browser, story.server, "rita", at=f"/runs/{run_id}")
    retry = page.locator(".wait .branch-retry")
    expect(retry).to_contain_text(
        "The action at deposit failed; its branch tries it again at", timeout=60_000
    )
    expect(retry).to_contain_text("(attempt 2 of 5), while the other branches go on.")
    approval = page.locator('.wait .open-approval[data-node="legal"]')
    expect(approval).to_contain_text("Sign contract C-42?")
    expect(page.locator("[data-status]")).to_have_attribute("data-status", "waiting")
    waiting = page.locator(".run-node.waiting")  # on the canvas: both branches' pauses
    expect(waiting).to_have_count(2)
    expect(waiting.filter(has_text="legal")).to_have_count(1)
    expect(waiting.filter(has_text="deposit")).to_have_count(1)
    journal = page.locator("ol.journal")
    expect(journal).to_contain_text("The action at deposit failed: ")
    expect(journal).to_contain_text(
        "Its branch tries it again in 60 s (attempt 1 of 5); the other branches go on."
    )
    assert serious_violations(page) == []
    screenshot(page, "run-branch-retry")
    page.context.close()
