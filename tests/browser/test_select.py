"""Selecting nodes is not an edit: clicking a card, or finding it with Ctrl+K, opens its panel and leaves
the flow unchanged (no "unsaved changes", nothing to undo), whatever the node's form fills in by default."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.browser.canvas import node
from tests.browser.support import Server, log_in


def _flow() -> dict[str, Any]:
    configs: list[tuple[str, str, dict[str, Any]]] = [
        ("start", "trigger", {"kind": "manual"}),
        ("note", "log", {"message": "hello"}),
        ("check", "condition", {"left": "{{trigger.a}}", "op": "eq", "right": 1}),
        ("ask", "approval", {"title": "Go on?", "approvers": ["group:finance"]}),
        ("both", "parallel", {"wait": "all"}),
        ("pay", "http", {"method": "POST", "url": "https://example.org/pay"}),
    ]
    nodes = [
        {"id": i, "type": kind, "config": config, "position": {"x": 0, "y": 150 * n}}
        for n, (i, kind, config) in enumerate(configs)
    ]
    ids = [n["id"] for n in nodes]
    wires: list[dict[str, str]] = [{"from": "start", "to": "note"}, {"from": "note", "to": "check"}]
    wires += [{"from": "check", "port": "true", "to": "ask"}]
    wires += [{"from": "ask", "port": "approve", "to": "both"}]
    wires += [{"from": "both", "port": "branches", "to": "pay"}]
    assert {w["to"] for w in wires} | {"start"} == set(ids)
    return {"format": "flowyard.flow/1", "name": "Select me", "nodes": nodes, "wires": wires}


# The panels made by hand (panel/ownPanels.tsx, ApprovalPanel); every other type's is the form generated
# from its schema, fetched first, its fields' ids prefixed with the node's (`config-<id>`).
OWN_PANELS = {"ask": ".approval-panel", "both": ".wait-panel"}

# Resolves once the page has drawn two frames and run a task after them: whatever a form mounted in the
# last frame does by itself then (writing defaults, an effect's state) has been rendered.
TWO_FRAMES = (
    "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done))))"
)


def _settled(page: Page, node_id: str) -> None:
    """The node's panel is open and its form drawn (its schema fetched), with frames after it to write
    anything it writes on its own: "nothing to undo" checked before then would pass however it behaves."""
    expect(page.locator(".config h2")).to_contain_text(node_id)
    drawn = OWN_PANELS.get(node_id, f'form [id^="config-{node_id}"]')
    expect(page.locator(f".config {drawn}").first).to_be_visible()
    page.evaluate(TWO_FRAMES)


def _unchanged(page: Page) -> None:
    expect(page.get_by_text("unsaved changes")).to_have_count(0)
    expect(page.get_by_role("button", name="Undo")).to_be_disabled()


def test_selecting_a_node_does_not_change_the_flow(browser: Browser, server: Server) -> None:
    server.user("sel", "edit")
    page = log_in(browser, server, "sel")
    csrf = page.request.get("/api/me").json()["csrf_token"]
    headers = {"X-CSRF-Token": csrf, "Content-Type": "application/json"}
    flow_id = page.request.post("/api/flows", data=json.dumps(_flow()), headers=headers).json()["id"]
    page.goto(f"/flows/{flow_id}")
    page.get_by_role("button", name="Zoom to fit").click()
    for node_id in ("note", "check", "ask", "both", "pay", "start"):
        node(page, node_id).click()
        _settled(page, node_id)
        _unchanged(page)
    page.keyboard.press("Control+k")
    page.get_by_label("Name, type or any setting").fill("hello")
    page.keyboard.press("Enter")
    expect(page.locator(".config h2")).to_have_text("Log note")
    _settled(page, "note")
    _unchanged(page)
    page.context.close()
