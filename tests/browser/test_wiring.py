"""Wiring on the canvas connects every time: by dragging from a port, by clicking a port and then an input,
and with the keyboard alone, at zoom 0.6 and 1.5 and with the canvas scrolled so that the ports sit at its
bottom edge (where React Flow used to pan the canvas under the pointer). Each gesture's wire is read back
from the saved document."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.canvas import click_wire, key_wire, pan_by, port, wire, zoom_to
from tests.browser.support import Server, log_in

# Two rows: the trigger and the approval below, the two logs above them (wires may run upwards), close
# enough that at zoom 1.5 everything fits in the canvas of a 1400 x 900 window.
DOCUMENT: dict[str, Any] = {
    "format": "flowyard.flow/1",
    "name": "Wiring",
    "nodes": [
        {"id": "start", "type": "trigger", "config": {"kind": "manual"}, "position": {"x": 0, "y": 260}},
        {
            "id": "ask",
            "type": "approval",
            "label": "Finance approves",
            "config": {"title": "Pay?", "approvers": ["group:finance"]},
            "position": {"x": 250, "y": 260},
        },
        {"id": "paid", "type": "log", "config": {"message": "paid"}, "position": {"x": 0, "y": 0}},
        {"id": "refused", "type": "log", "config": {"message": "refused"}, "position": {"x": 250, "y": 0}},
    ],
    # A saved flow has no findings, so it is saved wired and the test takes the wires away first.
    "wires": [
        {"from": "start", "to": "ask"},
        {"from": "ask", "port": "approve", "to": "paid"},
        {"from": "ask", "port": "reject", "to": "refused"},
    ],
}


def open_flow(browser: Browser, server: Server, user: str) -> Page:
    server.user(user, "edit", "run")
    page = log_in(browser, server, user)
    csrf = page.request.get("/api/me").json()["csrf_token"]
    headers = {"X-CSRF-Token": csrf, "Content-Type": "application/json"}
    flow_id = page.request.post("/api/flows", data=json.dumps(DOCUMENT), headers=headers).json()["id"]
    page.goto(f"/flows/{flow_id}")
    edges = page.locator(".react-flow__edge")
    expect(edges).to_have_count(3)
    for left in (2, 1, 0):
        edges.first.focus()
        page.keyboard.press("Enter")
        page.keyboard.press("Delete")
        expect(edges).to_have_count(left)
    # Unwired, the three nodes cannot be reached: the findings say so before the test wires them again.
    expect(page.get_by_role("heading", name="Findings (3)")).to_be_visible()
    return page


def to_bottom_edge(page: Page) -> None:
    """Scroll the canvas until the trigger's port is 12 px above the canvas's bottom edge."""
    canvas = page.locator(".react-flow").bounding_box()
    handle = port(page, "start", "out").bounding_box()
    assert canvas is not None and handle is not None
    bottom = canvas["y"] + canvas["height"] - 12
    pan_by(page, 0, bottom - (handle["y"] + handle["height"] / 2))


@pytest.mark.parametrize("where", ["zoom 0.6", "zoom 1.5", "scrolled to the edge"])
def test_drag_click_and_keyboard_wiring_connect(browser: Browser, server: Server, where: str) -> None:
    page = open_flow(browser, server, f"wirer{where.split()[-1].replace('.', '')}")
    if where.startswith("zoom"):
        zoom_to(page, float(where.split()[1]))
    else:
        to_bottom_edge(page)

    wire(page, "start", "out", "ask")
    expect(page.locator(".react-flow__edge")).to_have_count(1)
    click_wire(page, "ask", "approve", "paid")
    expect(page.locator(".react-flow__edge")).to_have_count(2)
    key_wire(page, "ask", "reject", "refused")
    expect(page.locator(".react-flow__edge")).to_have_count(3)

    expect(page.get_by_role("heading", name="Findings (0)")).to_be_visible()
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status").filter(has_text="Saved as version 2")).to_be_visible()
    saved = page.request.get(page.url.replace("/flows/", "/api/flows/")).json()["document"]
    assert {(w["from"], w.get("port", "out"), w["to"]) for w in saved["wires"]} == {
        ("start", "out", "ask"),
        ("ask", "approve", "paid"),
        ("ask", "reject", "refused"),
    }
    page.context.close()
