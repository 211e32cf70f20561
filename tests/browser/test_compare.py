"""A visual diff of two versions: the canvas compared with an older version marks the nodes added and
changed, and the panel lists those, the nodes removed, the changed settings and the wires."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Browser, expect

from tests.api.support import approval_and_delay_flow
from tests.browser.canvas import node
from tests.browser.support import Server, log_in, screenshot


def test_compare_the_newest_version_with_an_older_one(browser: Browser, server: Server) -> None:
    server.user("cleo", "edit")
    page = log_in(browser, server, "cleo")
    csrf = page.request.get("/api/me").json()["csrf_token"]
    headers = {"X-CSRF-Token": csrf, "Content-Type": "application/json"}
    document = approval_and_delay_flow()
    flow_id = page.request.post("/api/flows", data=json.dumps(document), headers=headers).json()["id"]
    document["nodes"][1]["config"]["title"] = "Pay {{trigger.invoice}} today?"
    document["nodes"] = [n for n in document["nodes"] if n["id"] != "cool"]
    document["nodes"].append({"id": "thanks", "type": "log", "config": {"message": "thanks"}})
    document["wires"] = [
        {"from": "start", "to": "ask"},
        {"from": "ask", "port": "approve", "to": "paid"},
        {"from": "paid", "to": "thanks"},
    ]
    page.request.put(f"/api/flows/{flow_id}", data=json.dumps(document), headers=headers)

    page.goto(f"/flows/{flow_id}")
    page.get_by_role("button", name="Compare version 1 with the canvas").click()
    panel = page.get_by_role("region", name="Changes since version 1")
    expect(panel.locator(".diff-added")).to_have_text("thanks")
    expect(panel.locator(".diff-removed")).to_have_text("cool")
    expect(panel.get_by_text("Settings changed in ask")).to_be_visible()
    # Settings and ports in the reader's words, never the document's keys (title, approve, out).
    expect(panel.locator(".diff-changed")).to_have_text("Title")
    expect(panel).to_contain_text("ask → paid (Approved)")
    expect(panel).to_contain_text("cool → paid (Next)")
    expect(node(page, "thanks").locator(".card")).to_have_class(re.compile(r"\bdiff-added\b"))
    expect(node(page, "ask").locator(".card")).to_have_class(re.compile(r"\bdiff-changed\b"))
    expect(node(page, "paid").locator(".card")).not_to_have_class(re.compile(r"\bdiff-"))
    screenshot(page, "editor-compare")

    panel.get_by_role("button", name="Stop comparing").click()
    expect(panel).to_have_count(0)
    expect(node(page, "thanks").locator(".card")).not_to_have_class(re.compile(r"\bdiff-"))
    page.context.close()
