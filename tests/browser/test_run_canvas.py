"""The run page draws the flow as the editor does: the author's labels on cards with the type's icon and
name, top to bottom (laid out as the editor would, or where the author saved the nodes), wires from the
same ports; a large flow has a minimap and zoom buttons named in the reader's language. Screenshots of
the canvas and the run page in English and Japanese."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.canvas import node
from tests.browser.pages_support import Story, invoice_flow, story_server
from tests.browser.support import log_in, screenshot

LABELS = {
    "start": "Invoice arrives",
    "ask": "Finance approves",
    "pay": "Send to payment",
    "paid": "Note the payment",
    "refused": "Note the refusal",
}


@pytest.fixture(scope="module")
def story(pg_server_url: str, template_database: str) -> Iterator[Story]:
    with story_server(pg_server_url, template_database, "runcanvas") as running:
        yield running


def labelled(story: Story, positions: dict[str, dict[str, int]] | None = None) -> dict[str, Any]:
    flow = invoice_flow(story.receiver.url)
    for n in flow["nodes"]:
        n["label"] = LABELS[n["id"]]
        if positions:
            n["position"] = positions[n["id"]]
    return flow


def start(story: Story, user: str, flow: dict[str, Any]) -> tuple[int, int]:
    with story.api(story.token(user)) as api:
        flow_id = api.post("/api/flows", json=flow).json()["id"]
        run_id = api.post(f"/api/flows/{flow_id}/runs", json={"input": {"invoice": "B-7"}}).json()["run"]
    return flow_id, run_id


def top(page: Page, node_id: str) -> tuple[float, float]:
    box = page.locator(f".run-canvas [data-node='{node_id}']").bounding_box()
    assert box is not None, f"{node_id} is not drawn"
    return box["x"], box["y"]


def test_the_run_page_draws_labels_top_to_bottom(browser: Browser, story: Story) -> None:
    story.server.user("rhea", "edit", "run")
    flow_id, run_id = start(story, "rhea", labelled(story))
    page = log_in(browser, story.server, "rhea", at=f"/runs/{run_id}")
    waiting = page.locator(".run-node.waiting")
    expect(waiting).to_contain_text("Finance approves", timeout=60_000)
    expect(waiting).to_contain_text("Approval")  # the type, second
    for node_id, label in LABELS.items():
        card = page.locator(f".run-canvas [data-node='{node_id}']")
        expect(card.locator(".card-id")).to_have_text(label)
        expect(card.locator(".card-icon svg")).to_be_visible()
    # Down the flow: each step below the one before it, approve's branch left of reject's.
    assert top(page, "start")[1] < top(page, "ask")[1] < top(page, "pay")[1] < top(page, "paid")[1]
    assert top(page, "pay")[0] < top(page, "refused")[0]
    # Wires leave from the ports the editor draws, named in the reader's words.
    expect(page.locator(".run-canvas .react-flow__edge-text")).to_have_text(["Approved", "Rejected"])
    screenshot(page, "run-canvas-en")

    # The editor draws the same cards, the label first.
    page.goto(f"/flows/{flow_id}")
    expect(node(page, "ask").locator(".card-id")).to_have_text("Finance approves")
    expect(node(page, "ask").locator(".card-type")).to_have_text("Approval")
    screenshot(page, "canvas-en")
    page.context.close()


def test_the_run_page_keeps_the_positions_the_author_saved(browser: Browser, story: Story) -> None:
    story.server.user("sven", "edit", "run")
    saved = {
        "start": {"x": 0, "y": 0},
        "ask": {"x": 0, "y": 150},
        "pay": {"x": 600, "y": 300},  # far right, where dagre would never put it
        "paid": {"x": 600, "y": 450},
        "refused": {"x": -300, "y": 300},
    }
    _flow, run_id = start(story, "sven", labelled(story, saved))
    page = log_in(browser, story.server, "sven", at=f"/runs/{run_id}")
    expect(page.locator(".run-node.waiting")).to_be_visible(timeout=60_000)
    (sx, sy), (ax, ay), (px, py), (rx, ry) = (top(page, n) for n in ("start", "ask", "pay", "refused"))
    scale = (ay - sy) / 150
    assert scale > 0
    assert abs(ax - sx) < 1 and abs(py - ry) < 1
    assert abs((px - ax) - 600 * scale) < 2 and abs((ax - rx) - 300 * scale) < 2
    page.context.close()


def test_japanese_cards_and_screenshots(browser: Browser, story: Story) -> None:
    story.server.user("yui", "edit", "run")
    story.set_locale("yui", "ja")
    flow_id, run_id = start(story, "yui", labelled(story))
    ja: dict[str, str] = json.loads(
        browser.new_context(base_url=story.server.url).request.get("/api/i18n/ja").text()
    )
    for width, height in ((1400, 900), (390, 844)):
        page = log_in(
            browser, story.server, "yui", locale="ja-JP", width=width, height=height, at=f"/runs/{run_id}"
        )
        waiting = page.locator(".run-node.waiting")
        expect(waiting).to_contain_text("Finance approves", timeout=60_000)
        expect(waiting.locator(".card-type")).to_have_text(ja["node_type_approval"])
        screenshot(page, f"run-canvas-ja-{width}")
        page.goto(f"/flows/{flow_id}")
        if width > 768:
            expect(node(page, "ask").locator(".card-type")).to_have_text(ja["node_type_approval"])
        else:
            expect(page.get_by_text(ja["ui_editor_phone_notice"])).to_be_visible()
        screenshot(page, f"canvas-ja-{width}")
        page.context.close()


def large_flow(count: int) -> dict[str, Any]:
    nodes: list[dict[str, Any]] = [{"id": "start", "type": "trigger", "config": {"kind": "manual"}}]
    nodes += [{"id": f"log{i}", "type": "log", "config": {"message": f"step {i}"}} for i in range(count)]
    wires = [{"from": a["id"], "to": b["id"]} for a, b in itertools.pairwise(nodes)]
    return {"format": "flowyard.flow/1", "name": "Long", "nodes": nodes, "wires": wires}


def test_a_large_flow_has_a_minimap_and_zoom_buttons_named_in_german(browser: Browser, story: Story) -> None:
    story.server.user("gerd", "edit", "run")
    story.set_locale("gerd", "de")
    flow_id, run_id = start(story, "gerd", large_flow(24))
    page = log_in(browser, story.server, "gerd")
    de: dict[str, str] = page.request.get("/api/i18n/de").json()
    en: dict[str, str] = page.request.get("/api/i18n/en").json()
    assert de["ui_canvas_minimap"] != en["ui_canvas_minimap"]
    for path in (f"/flows/{flow_id}", f"/runs/{run_id}"):
        page.goto(path)
        expect(page.get_by_role("img", name=de["ui_canvas_minimap"])).to_be_visible()
        expect(page.get_by_role("button", name=de["ui_canvas_zoom_in"])).to_be_visible()
        expect(page.get_by_role("button", name=de["ui_canvas_zoom_out"])).to_be_visible()
        # React Flow's own English names are nowhere on the page.
        for english in ("Mini Map", "Zoom In", "Zoom Out", "Fit View", "Control Panel"):
            expect(page.locator(f"[aria-label='{english}'], title:text-is('{english}')")).to_have_count(0)
        screenshot(page, "minimap-de-" + path.split("/")[1])
    page.goto(f"/flows/{flow_id}")
    zoom_in = page.get_by_role("button", name=de["ui_canvas_zoom_in"])
    before = page.locator(".react-flow__viewport").evaluate("e => e.style.transform")
    zoom_in.click()
    page.wait_for_function(
        "old => document.querySelector('.react-flow__viewport').style.transform !== old", arg=before
    )
    page.context.close()
