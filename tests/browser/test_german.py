"""A flow edited end to end in German, every label looked up in the German catalog the editor loads:
nodes added from the palette, wired, configured, copied and pasted, walked with a sample input, the
unsaved-changes question on leaving, saved."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Browser, Dialog, expect

from tests.browser.canvas import add, arrange, node, wire
from tests.browser.support import Server, log_in, screenshot


def test_edit_a_flow_in_german_from_the_palette_to_the_save(browser: Browser, server: Server) -> None:
    server.user("greta", "edit", "run")
    page = log_in(browser, server, "greta")
    de: dict[str, str] = page.request.get("/api/i18n/de").json()
    en: dict[str, str] = page.request.get("/api/i18n/en").json()
    assert de["ui_toolbar_save"] != en["ui_toolbar_save"]
    csrf = page.request.get("/api/me").json()["csrf_token"]
    headers = {"X-CSRF-Token": csrf, "Content-Type": "application/json"}
    document: dict[str, Any] = {
        "format": "flowyard.flow/1",
        "name": "Rechnungen",
        "nodes": [{"id": "start", "type": "trigger", "config": {"kind": "manual"}}],
        "wires": [],
    }
    flow_id = page.request.post("/api/flows", data=json.dumps(document), headers=headers).json()["id"]
    # The choice is stored on the user (PUT /api/me); once it is, a new page load reads it too.
    with page.expect_response(lambda r: r.url.endswith("/api/me") and r.request.method == "PUT"):
        page.get_by_label("Language").select_option("de")
    expect(page.get_by_label(de["ui_language"])).to_be_visible()
    page.goto(f"/flows/{flow_id}")
    expect(page.get_by_role("button", name=de["ui_toolbar_save"])).to_be_visible()

    add(page, de["node_type_approval"])
    add(page, de["node_type_log"])
    # Arrange answers from a worker: fitting the view before the nodes have moved left the last node
    # outside the canvas, and the second wire was dragged to where its input was not (issue 33).
    arrange(page, de["ui_toolbar_layout"])
    page.get_by_role("button", name=de["ui_toolbar_fit"]).click()
    wire(page, "start", "out", "approval1")
    wire(page, "approval1", "reject", "log1")
    expect(page.locator(".react-flow__edge")).to_have_count(2)
    expect(page.locator(".react-flow__edge").last).to_contain_text(de["port_reject"])

    node(page, "approval1").click()
    panel = page.locator(".config")
    panel.get_by_label(de["ui_field_title"]).fill("Rechnung {{trigger.nummer}} bezahlen?")
    approvers = panel.get_by_role("group", name=de["ui_field_approvers"], exact=True)
    approvers.get_by_label(de["ui_approvers_name"]).fill("finanzen")
    approvers.get_by_role("button", name=de["ui_approvers_add"], exact=True).click()
    node(page, "log1").click()
    panel.get_by_label(de["ui_field_message"]).fill("abgelehnt: {{trigger.nummer}}")
    expect(page.get_by_text(de["ui_findings_none"])).to_be_visible()

    # Copy and paste the log node (the canvas has the focus, not a field); undo takes the copy away.
    node(page, "log1").click()
    page.keyboard.press("Control+c")
    page.keyboard.press("Control+v")
    expect(node(page, "log2")).to_be_visible()
    page.keyboard.press("Control+z")
    expect(node(page, "log2")).to_have_count(0)

    # Walk it with a sample input, answering the approval with a rejection.
    walk = page.get_by_role("region", name=de["ui_walk_title"])
    walk.get_by_label(de["ui_walk_input"]).fill('{"nummer": "R-17"}')
    walk.get_by_role("button", name=de["ui_walk_start"], exact=True).click()
    expect(walk.locator(".walk-result")).to_contain_text(de["ui_walk_paused"].split("{node}")[0])
    walk.get_by_role("button", name=de["ui_walk_answer_reject"]).click()
    expect(walk.locator(".walk-result")).to_contain_text(de["ui_walk_succeeded"].replace("{count}", "3"))
    expect(walk.locator('li[data-node="log1"]')).to_contain_text("abgelehnt: R-17")
    screenshot(page, "editor-de")

    # Leaving with unsaved changes asks first, in German; staying keeps the edits.
    asked: list[str] = []

    def stay(dialog: Dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", stay)
    with page.expect_event("dialog"):  # asked once the router has held the navigation, not during the click
        page.get_by_role("link", name=de["ui_nav_runs"]).click()
    expect(page.get_by_role("button", name=de["ui_toolbar_save"])).to_be_visible()
    assert asked == [de["ui_leave_confirm"]]
    assert page.url.endswith(f"/flows/{flow_id}")

    page.get_by_role("button", name=de["ui_toolbar_save"]).click()
    saved = de["ui_save_done"].replace("{version}", "2")
    expect(page.get_by_role("status").filter(has_text=saved)).to_be_visible()
    stored = page.request.get(f"/api/flows/{flow_id}").json()["document"]
    assert sorted(n["id"] for n in stored["nodes"]) == ["approval1", "log1", "start"]
    assert stored["nodes"][1]["config"]["approvers"] == ["group:finanzen"]

    # Saved: leaving asks nothing.
    page.get_by_role("link", name=de["ui_nav_runs"]).click()
    page.wait_for_url("**/runs")
    page.context.close()
