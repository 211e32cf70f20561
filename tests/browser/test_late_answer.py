"""The run page of a run whose http action timed out and whose answer came afterwards: in German, the
effect reads "answered late" with the status that came back and when, beside the timeout the run went on
with; the run's path is the timeout's."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.actions.servers import Received, Reply
from tests.browser.pages_support import Story, story_server
from tests.browser.support import log_in, screenshot


@pytest.fixture(scope="module")
def story(pg_server_url: str, template_database: str) -> Iterator[Story]:
    # The try's deadline bounds how long a request given up at its timeout is still listened to: wide, so
    # a loaded machine's answer lands within it.
    env = {"FLOWYARD_ACTIONS_ATTEMPT_MARGIN_S": "120"}
    with story_server(pg_server_url, template_database, "late", env) as running:
        yield running


def test_the_run_page_shows_an_answer_that_came_after_the_timeout(browser: Browser, story: Story) -> None:
    story.server.user("ann", "edit", "run")
    story.set_locale("ann", "de")
    may_answer = threading.Event()

    def after_the_timeout(_request: Received) -> Reply:
        may_answer.wait(120)  # released once the page shows the run ended on the timeout's path
        return Reply(status=202, body=b'{"accepted": true}')

    story.receiver.routes["/pay"] = after_the_timeout
    document = {
        "format": "flowyard.flow/1",
        "name": "Slow payment",
        "nodes": [
            {"id": "start", "type": "trigger", "config": {"kind": "manual"}},
            {
                "id": "pay",
                "type": "http",
                "config": {"method": "POST", "url": f"{story.receiver.url}/pay", "timeout_s": 1},
            },
            {"id": "paid", "type": "log", "config": {"message": "paid"}},
            {"id": "slow", "type": "log", "config": {"message": "no answer in time"}},
        ],
        "wires": [
            {"from": "start", "to": "pay"},
            {"from": "pay", "to": "paid"},
            {"from": "pay", "port": "error", "to": "slow"},
        ],
    }
    try:
        with story.api(story.token("ann")) as api:
            flow_id = api.post("/api/flows", json=document).json()["id"]
            run_id = api.post(f"/api/flows/{flow_id}/runs", json={"input": {}}).json()["run"]

        page = log_in(browser, story.server, "ann", locale="de-DE", at=f"/runs/{run_id}")
        expect(page.locator("[data-status]")).to_have_attribute("data-status", "succeeded", timeout=60_000)
        effect = page.locator("tr[data-effect='pay']")
        expect(effect).to_contain_text("Fehlgeschlagen", timeout=60_000)
    finally:
        may_answer.set()

    expect(effect).to_contain_text("Verspätet beantwortet", timeout=60_000)
    expect(effect.locator(".effect-late-answer")).to_contain_text(re.compile(r"mit Status 202"))
    expect(page.locator(".journal")).to_contain_text("no answer in time")
    expect(page.locator(".run-node:has([data-node='paid'])")).to_have_class(re.compile("unvisited"))
    expect(page.locator("[data-status]")).to_have_attribute("data-status", "succeeded")
    assert len(story.receiver.received) == 1
    screenshot(page, "run_late_answer_de")
