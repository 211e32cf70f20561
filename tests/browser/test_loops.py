"""A foreach with an approval inside: the loop's body is drawn as a tinted region around it."""

from __future__ import annotations

import json

from playwright.sync_api import Browser, expect

from tests.browser.support import Server, log_in, screenshot

FLOW = {
    "format": "flowyard.flow/1",
    "name": "Approve each invoice",
    "nodes": [
        {"id": "start", "type": "trigger", "config": {"kind": "manual"}},
        {"id": "each", "type": "foreach", "config": {"items": "{{trigger.invoices}}", "as": "invoice"}},
        {
            "id": "ask",
            "type": "approval",
            "config": {"title": "Pay {{invoice.id}}?", "approvers": ["group:fin"]},
        },
        {"id": "done", "type": "log", "config": {"message": "all asked"}},
    ],
    "wires": [
        {"from": "start", "to": "each"},
        {"from": "each", "port": "body", "to": "ask"},
        {"from": "each", "port": "done", "to": "done"},
    ],
}


def test_a_loop_body_with_an_approval_is_a_tinted_region_around_both(
    browser: Browser, server: Server
) -> None:
    server.user("lou", "edit")
    page = log_in(browser, server, "lou")
    csrf = page.request.get("/api/me").json()["csrf_token"]
    made = page.request.post(
        "/api/flows",
        data=json.dumps(FLOW),
        headers={"X-CSRF-Token": csrf, "Content-Type": "application/json"},
    )
    page.goto(f"/flows/{made.json()['id']}")
    region = page.locator('[data-region="each"]')
    expect(region).to_contain_text("Loop body of each")
    outer = region.bounding_box()
    for inside in ("each", "ask"):
        box = page.locator(f'.react-flow__node[data-id="{inside}"]').bounding_box()
        assert (
            outer
            and box
            and outer["x"] <= box["x"]
            and box["x"] + box["width"] <= outer["x"] + outer["width"]
        )
        assert outer["y"] <= box["y"] and box["y"] + box["height"] <= outer["y"] + outer["height"], inside
    done = page.locator('.react-flow__node[data-id="done"]').bounding_box()
    assert (
        outer
        and done
        and not (
            outer["y"] <= done["y"]
            and done["x"] >= outer["x"]
            and done["x"] + done["width"] <= outer["x"] + outer["width"]
            and done["y"] + done["height"] <= outer["y"] + outer["height"]
        )
    ), "done is outside"
    screenshot(page, "canvas-loop")
    page.context.close()
