"""A large flow on the canvas: only the cards in view are drawn (React Flow is not made to draw all of them
once to measure them), the handles the canvas declares for cards not drawn yet are where a drawn card's
handles are (frontend/src/canvas/handles.ts), and zoom to fit takes in the cards never drawn."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.browser.support import Server, log_in, screenshot

# canvas/handles.ts and app.css: a 220 x 84 card with a 2 px border; the input handle 8 px, a port's 14 px.
WIDTH, HEIGHT, BORDER, IN_SIZE, PORT_SIZE = 220.0, 84.0, 2.0, 8.0, 14.0
PORTS = {
    "trigger": ["out"],
    "condition": ["true", "false"],
    "foreach": ["body", "done"],
    "approval": ["approve", "reject"],
    "http": ["out", "error"],
    "log": ["out"],
}
NODES = 300


def declared(node_type: str) -> dict[str, tuple[float, float, float, float]]:
    inner = WIDTH - 2 * BORDER
    ports = PORTS[node_type]
    handles = {
        port: (
            BORDER + inner * (i + 1) / (len(ports) + 1) - PORT_SIZE / 2,
            HEIGHT - BORDER - PORT_SIZE / 2,
            PORT_SIZE,
            PORT_SIZE,
        )
        for i, port in enumerate(ports)
    }
    if node_type != "trigger":
        handles["in"] = (BORDER + inner / 2 - IN_SIZE / 2, BORDER - IN_SIZE / 2, IN_SIZE, IN_SIZE)
    return handles


def large_flow() -> dict[str, Any]:
    """A node of each kind of ports near the top, a loop with a body of one, then a long chain of logs."""
    configs: dict[str, dict[str, Any]] = {
        "condition": {"left": "{{trigger.a}}", "op": "eq", "right": 1},
        "foreach": {"items": "{{trigger.items}}", "as": "item"},
        "approval": {"title": "Go on?", "approvers": ["group:finance"]},
        "http": {"method": "POST", "url": "https://example.org/hook"},
    }
    nodes: list[dict[str, Any]] = [{"id": "start", "type": "trigger", "config": {"kind": "manual"}}]
    nodes += [{"id": kind, "type": kind, "config": config} for kind, config in configs.items()]
    chain = [{"id": f"n{i}", "type": "log", "config": {"message": "x"}} for i in range(NODES - 6)]
    for i, node in enumerate(nodes + chain):
        node["position"] = {"x": 0, "y": 154 * i}
    inner = {
        "id": "inner",
        "type": "log",
        "config": {"message": "{{item}}"},
        "position": {"x": 300, "y": 462},
    }
    wires = [
        {"from": "start", "to": "condition"},
        {"from": "condition", "port": "true", "to": "foreach"},
        {"from": "foreach", "port": "body", "to": "inner"},
        {"from": "foreach", "port": "done", "to": "approval"},
        {"from": "approval", "port": "approve", "to": "http"},
        {"from": "http", "to": "n0"},
    ]
    wires += [{"from": f"n{i}", "to": f"n{i + 1}"} for i in range(len(chain) - 1)]
    return {
        "format": "flowyard.flow/1",
        "name": "A long flow",
        "nodes": [*nodes, inner, *chain],
        "wires": wires,
    }


MEASURE = """() => {
  const zoom = new DOMMatrixReadOnly(getComputedStyle(document.querySelector('.react-flow__viewport'))
    .transform).a;
  return [...document.querySelectorAll('.react-flow__node-card')].map((card) => {
    const box = card.getBoundingClientRect();
    return {
      id: card.dataset.id,
      type: card.querySelector('.card').className.match(/card-(\\w+)/)[1],
      height: box.height / zoom,
      handles: [...card.querySelectorAll('.react-flow__handle')].map((h) => {
        const r = h.getBoundingClientRect();
        return [h.dataset.handleid, (r.left - box.left) / zoom, (r.top - box.top) / zoom, r.width / zoom,
          r.height / zoom];
      }),
    };
  });
}"""


def test_a_large_flow_draws_the_cards_in_view_with_the_declared_handles(
    browser: Browser, server: Server
) -> None:
    server.user("lars", "edit", "run")
    page = log_in(browser, server, "lars")
    csrf = page.request.get("/api/me").json()["csrf_token"]
    headers = {"X-CSRF-Token": csrf, "Content-Type": "application/json"}
    flow_id = page.request.post("/api/flows", data=json.dumps(large_flow()), headers=headers).json()["id"]

    page.goto(f"/flows/{flow_id}")
    expect(page.get_by_role("heading", name="A long flow")).to_be_visible()
    expect(page.locator(".react-flow__node-card").first).to_be_visible()
    drawn = page.locator(".react-flow__node-card").count()
    assert 0 < drawn < NODES // 2, drawn

    # Each kind of card, centred by Find (which zooms in) and so drawn: its handles are the declared ones.
    for node_id in ("start", "condition", "foreach", "approval", "http", "n0"):
        _centre_on(page, node_id)
        card = next(card for card in page.evaluate(MEASURE) if card["id"] == node_id)
        assert abs(card["height"] - HEIGHT) < 0.5, card
        want = declared(card["type"])
        got = {h[0]: tuple(h[1:]) for h in card["handles"]}
        assert got.keys() == want.keys(), (node_id, got)
        for handle, box in want.items():
            assert all(abs(a - b) < 0.5 for a, b in zip(got[handle], box, strict=True)), (
                node_id,
                handle,
                got,
            )

    # Zoom to fit takes in the whole flow, the cards never drawn included: at the least zoom the view is
    # centred on the middle of the flow (fitting only the cards drawn so far would stay at the top).
    page.get_by_role("button", name="Zoom to fit").click()
    expect(page.locator('.react-flow__node-card[data-id="n145"]')).to_be_visible()
    expect(page.locator('.react-flow__node-card[data-id="start"]')).to_have_count(0)
    screenshot(page, "editor-large-flow")
    page.context.close()


def _centre_on(page: Page, node_id: str) -> None:
    """Find (Ctrl+K) selects the node and centres it on the canvas, zoomed in."""
    page.keyboard.press("Control+k")
    page.get_by_label("Name, type or any setting").fill(node_id)
    page.keyboard.press("Enter")
    expect(page.locator(f'.react-flow__node-card[data-id="{node_id}"]')).to_be_visible()
