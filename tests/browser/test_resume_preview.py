"""A stopped run's Preview on its page, in German: what resuming would send (each action by its label, its
kind, where it goes as written, its effect key) and where it would stop, nothing sent; then the real
Resume sends it. Screenshots at 1400 and 390 pixels (resume-preview-de-1400.png, -390.png)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.actions.servers import Reply
from tests.browser.pages_support import Story, story_server
from tests.browser.support import log_in, screenshot, serious_violations
from tests.observability.live import wait_for

LIVE = 60_000  # the worker must claim the run's wait, and the event stream bring it to the page
IDS = ("check", "pay", "receipt", "wait_day")


@pytest.fixture(scope="module")
def story(pg_server_url: str, template_database: str) -> Iterator[Story]:
    with story_server(pg_server_url, template_database, "preview") as running:
        yield running


def invoice(receiver_url: str) -> dict[str, Any]:
    """Ask finance, pay, send the receipt, then wait a day: every node labelled in German."""

    def post(node: str, label: str, url: str) -> dict[str, Any]:
        return {"id": node, "type": "http", "label": label, "config": {"method": "POST", "url": url}}

    ask = {"title": "Rechnung {{trigger.invoice}} bezahlen?", "approvers": ["group:finance"]}
    return {
        "format": "flowyard.flow/1",
        "name": "Rechnungen",
        "nodes": [
            {"id": "start", "type": "trigger", "config": {"kind": "manual"}},
            {"id": "check", "type": "approval", "label": "Rechnung prüfen", "config": ask},
            post("pay", "Rechnung bezahlen", receiver_url + "/zahlung/{{trigger.invoice}}"),
            post("receipt", "Beleg senden", receiver_url + "/beleg"),
            {"id": "wait_day", "type": "delay", "label": "Einen Tag warten", "config": {"duration": "P1D"}},
        ],
        "wires": [
            {"from": "start", "to": "check"},
            {"from": "check", "port": "approve", "to": "pay"},
            {"from": "pay", "to": "receipt"},
            {"from": "receipt", "to": "wait_day"},
        ],
    }


def stopped_after_its_decision(story: Story) -> int:
    """A run stopped at its approval (every claim of its wait died without a word), then approved."""
    story.server.user("olaf", "edit", "run")
    story.server.user("gina", "edit", "run", "decide", groups=("finance",))
    story.set_locale("gina", "de")
    with story.api(story.token("olaf")) as api:
        flow_id = api.post("/api/flows", json=invoice(story.receiver.url)).json()["id"]
        run_id = int(api.post(f"/api/flows/{flow_id}/runs", json={"input": {"invoice": "R-7"}}).json()["run"])
    url = story.server.database_url
    wait_for(url, "SELECT 1 FROM waits WHERE run_id = %s AND kind = 'approval'", run_id)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("UPDATE waits SET attempts = 5, wake_at = now() WHERE run_id = %s", (run_id,))
    wait_for(url, "SELECT 1 FROM runs WHERE id = %s AND status = 'stopped'", run_id)
    with story.api(story.token("gina")) as api:
        [asked] = [a for a in api.get("/api/approvals").json()["approvals"] if a["run_id"] == run_id]
        decided = api.post(f"/api/approvals/{asked['id']}/decision", json={"outcome": "approve"})
        assert decided.status_code == 200, decided.text
    return run_id


def previewed(page: Page, de: dict[str, str]) -> None:
    """What the preview says, every word German, and no node id in it."""
    preview = page.locator(".resume-preview")
    expect(preview).to_contain_text(de["ui_run_preview_assumed"])
    rows = preview.locator("tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Rechnung bezahlen")
    expect(rows.nth(0)).to_contain_text(de["node_type_http"])
    expect(rows.nth(0)).to_contain_text("/zahlung/{{trigger.invoice}}")
    expect(rows.nth(0)).to_contain_text(de["ui_run_preview_new_key"])
    expect(rows.nth(0)).to_contain_text(de["ui_run_preview_sent"])
    expect(rows.nth(1)).to_contain_text("Beleg senden")
    stop = de["ui_run_preview_waits"].format(node="Einen Tag warten", type=de["node_type_delay"])
    expect(preview.locator(".preview-stop")).to_have_text(stop)
    text = preview.inner_text()
    for english in ("Preview", "would be sent", "HTTP request", "new key", "Delay", "Resume"):
        assert english not in text
    for node_id in IDS:
        assert not re.search(rf"\b{node_id}\b", text), node_id
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), "no reason code or key shown"


def test_the_preview_lists_in_german_what_resuming_would_send_then_resume_sends_it(
    browser: Browser, story: Story
) -> None:
    story.receiver.routes["/zahlung/R-7"] = lambda _request: Reply()
    story.receiver.routes["/beleg"] = lambda _request: Reply()
    run_id = stopped_after_its_decision(story)
    received = len(story.receiver.received)

    page = log_in(browser, story.server, "gina", locale="de-DE", at="about:blank")
    de: dict[str, str] = page.request.get("/api/i18n/de").json()
    page.goto(f"/runs/{run_id}")
    expect(page.locator("[data-status]")).to_have_attribute("data-status", "stopped", timeout=LIVE)
    actions = page.get_by_role("group", name=de["ui_run_stopped_actions"])
    actions.get_by_role("button", name=de["ui_run_preview"], exact=True).click()
    previewed(page, de)
    assert serious_violations(page) == []
    page.locator(".resume-preview").scroll_into_view_if_needed()
    screenshot(page, "resume-preview-de-1400")
    assert len(story.receiver.received) == received, "the preview sent nothing"
    expect(page.locator("[data-status]")).to_have_attribute("data-status", "stopped")

    phone = log_in(browser, story.server, "gina", locale="de-DE", width=390, height=844, at=f"/runs/{run_id}")
    phone_actions = phone.get_by_role("group", name=de["ui_run_stopped_actions"])
    phone_actions.get_by_role("button", name=de["ui_run_preview"], exact=True).click()
    previewed(phone, de)
    phone.locator(".resume-preview").scroll_into_view_if_needed()
    screenshot(phone, "resume-preview-de-390")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    phone.context.close()

    resume = de["ui_run_preview_resume"].format(version=1)
    page.locator(".resume-preview").get_by_role("button", name=resume).click()
    expect(page.locator("[data-status]")).to_have_attribute("data-status", "waiting", timeout=LIVE)
    expect(page.locator(".run-node.waiting")).to_have_attribute("data-id", "wait_day", timeout=LIVE)
    paths = [request.path for request in story.receiver.received[received:]]
    assert paths == ["/zahlung/R-7", "/beleg"], "what the preview listed, sent by the real resume"
    page.context.close()
