"""The trigger's panel: a webhook address made on demand, shown once, copied, and replaced (the old one
stops working); a schedule's next five fire times in the reader's own time zone, named."""

from __future__ import annotations

import json
import re
from typing import Any

import psycopg
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.canvas import node
from tests.browser.support import PASSWORD, Server, screenshot


def _flow(kind: dict[str, Any]) -> dict[str, Any]:
    return {
        "format": "flowyard.flow/1",
        "name": f"Started by {kind['kind']}",
        "nodes": [
            {"id": "start", "type": "trigger", "config": kind},
            {"id": "note", "type": "log", "config": {"message": "hello"}},
        ],
        "wires": [{"from": "start", "to": "note"}],
    }


def _open(browser: Browser, server: Server, name: str, flow: dict[str, Any], **context: Any) -> Page:
    page = browser.new_context(
        base_url=server.url, viewport={"width": 1400, "height": 900}, **context
    ).new_page()
    page.goto("/login")
    page.locator("input[name=name]").fill(name)
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("button[type=submit]").click()
    page.wait_for_url("**/flows")
    csrf = page.request.get("/api/me").json()["csrf_token"]
    headers = {"X-CSRF-Token": csrf, "Content-Type": "application/json"}
    flow_id = page.request.post("/api/flows", data=json.dumps(flow), headers=headers).json()["id"]
    page.goto(f"/flows/{flow_id}")
    node(page, "start").click()
    return page


def test_a_webhook_address_is_shown_once_copied_and_replaced(browser: Browser, server: Server) -> None:
    server.user("hugo", "edit", "run")
    page = _open(
        browser,
        server,
        "hugo",
        _flow({"kind": "webhook"}),
        permissions=["clipboard-read", "clipboard-write"],
    )
    panel = page.get_by_role("region", name="Webhook address")
    expect(panel).to_contain_text("This flow has no webhook address yet.")
    panel.get_by_role("button", name="Make the address").click()
    address = panel.get_by_label("The flow's webhook address")
    expect(address).to_have_value(re.compile(rf"^{re.escape(server.url)}/hooks/\d+/\S{{20,}}$"))
    first = address.input_value()
    panel.get_by_role("button", name="Copy the address").click()
    expect(panel.locator(".trigger-said")).to_have_text("The address is copied.")
    assert page.evaluate("navigator.clipboard.readText()") == first
    assert page.request.post(first, data="{}", headers={"Content-Type": "application/json"}).status == 202

    page.once("dialog", lambda dialog: dialog.accept())
    panel.get_by_role("button", name="Make a new address").click()
    expect(address).not_to_have_value(first)
    second = address.input_value()
    assert page.request.post(first, data="{}", headers={"Content-Type": "application/json"}).status == 404
    assert page.request.post(second, data="{}", headers={"Content-Type": "application/json"}).status == 202

    # Once the page is left, the address is never shown again: only that one is set.
    page.reload()
    node(page, "start").click()
    expect(panel).to_contain_text("This flow has a webhook address.")
    expect(panel.get_by_label("The flow's webhook address")).to_have_count(0)
    page.context.close()


@pytest.mark.console_errors(
    "a cron that is not one is refused by /api/schedules/next (422)",
    allow=r"status of 422 .*/api/schedules/next",
)
def test_a_schedule_shows_its_next_five_fire_times_in_the_readers_zone(
    browser: Browser, server: Server
) -> None:
    server.user("sita", "edit")
    schedule = {"kind": "schedule", "cron": "30 9 * * 1", "timezone": "Europe/Berlin"}
    page = _open(browser, server, "sita", _flow(schedule), timezone_id="America/New_York")
    panel = page.get_by_role("region", name=re.compile("Next five runs"))
    # The zone named in words, not by its IANA id.
    expect(panel.get_by_role("heading")).to_have_text("Next five runs, in your time zone (Eastern Time)")
    times = panel.locator("time")
    expect(times).to_have_count(5)
    fires = page.request.get(
        "/api/schedules/next", params={"cron": "30 9 * * 1", "timezone": "Europe/Berlin"}
    ).json()["fires"]
    assert [times.nth(i).get_attribute("datetime") for i in range(5)] == fires
    # 9:30 in Berlin is the early morning of the same Monday in New York.
    for i in range(5):
        expect(times.nth(i)).to_contain_text("Monday")
    screenshot(page, "editor-schedule")

    page.locator(".config").get_by_label("Cron expression").fill("not a cron")
    expect(panel.get_by_role("alert")).to_contain_text("cron")
    page.context.close()


def test_the_schedule_reads_the_users_own_zone_not_the_browsers(browser: Browser, server: Server) -> None:
    server.user("taro", "edit")
    # Taro's setting says Tokyo; the browser he reads on is in New York.
    with psycopg.connect(server.database_url, autocommit=True) as conn:
        conn.execute("UPDATE users SET time_zone = 'Asia/Tokyo' WHERE name = %s", ("taro",))
    schedule = {"kind": "schedule", "cron": "30 9 * * 1", "timezone": "Europe/Berlin"}
    page = _open(browser, server, "taro", _flow(schedule), timezone_id="America/New_York")
    panel = page.get_by_role("region", name=re.compile("Next five runs"))
    tokyo = "Next five runs, in your time zone (Japan Standard Time)"
    expect(panel.get_by_role("heading")).to_have_text(tokyo)
    # 9:30 in Berlin is 17:30 (winter) or 16:30 (summer) of the same Monday in Tokyo.
    times = panel.locator("time")
    expect(times).to_have_count(5)
    for i in range(5):
        expect(times.nth(i)).to_contain_text(re.compile(r"Monday, .* (5|4):30\sPM"))
    page.context.close()
