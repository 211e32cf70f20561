"""The invoice flow drawn with the mouse on the canvas, a finding fixed, saved, run; the run waits."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Route, expect

from tests.browser.canvas import add, arrange, new_flow, node, save_new, wire
from tests.browser.support import Server, log_in, screenshot


def test_draw_the_invoice_flow_with_the_mouse_fix_a_finding_save_and_run(
    browser: Browser, server: Server
) -> None:
    server.user("ann", "edit", "run")
    page = log_in(browser, server, "ann")
    new_flow(page, "Invoices drawn by hand")

    add(page, "Approval")
    add(page, "HTTP request")
    add(page, "Log")
    arrange(page)
    page.get_by_role("button", name="Zoom to fit").click()
    wire(page, "start", "out", "approval1")
    wire(page, "approval1", "approve", "http1")
    arrange(page)
    page.get_by_role("button", name="Zoom to fit").click()
    wire(page, "approval1", "reject", "log1")
    expect(page.locator(".react-flow__edge")).to_have_count(3)

    # A back wire is refused at the gesture, with the catalog's reason, and changes nothing.
    wire(page, "log1", "out", "approval1")
    expect(page.get_by_role("alert")).to_contain_text("cycle")
    expect(page.locator(".react-flow__edge")).to_have_count(3)

    # The approval's empty title is a finding shown on the node; the panel fixes it.
    arrange(page)
    expect(node(page, "approval1").locator(".card-findings")).to_be_visible()
    node(page, "approval1").click()
    panel = page.locator(".config")
    panel.get_by_label("Title").fill("Pay {{trigger.invoice}}?")
    approvers = panel.get_by_role("group", name="Who may decide", exact=True)
    approvers.get_by_label("Name of the user or group").fill("finance")
    approvers.get_by_role("button", name="Add", exact=True).click()
    panel.get_by_role("group", name="Deadline", exact=True).get_by_label("Amount").fill("2")
    panel.get_by_label("Reject", exact=True).check()
    node(page, "log1").click()
    panel.locator("textarea").fill("not paid: {{trigger.invoice}}")
    node(page, "http1").click()
    panel.get_by_label("URL").fill("https://payments.example/pay")
    expect(node(page, "approval1").locator(".card-findings")).to_have_count(0)
    expect(page.get_by_text("No findings")).to_be_visible()
    page.get_by_role("button", name="Zoom to fit").click()
    screenshot(page, "canvas-en")

    # In Japanese: the palette, the panel and the findings come from the Japanese catalog.
    page.get_by_label("Language").select_option("ja")
    palette = page.get_by_role("complementary")
    expect(palette.get_by_role("button").filter(has_text="承認").first).to_be_visible()
    expect(page.get_by_role("heading", name="指摘（0）")).to_be_visible()
    node(page, "approval1").click()
    expect(page.locator(".config").get_by_text("決定できる人")).to_be_visible()
    screenshot(page, "canvas-ja")
    page.get_by_label("言語").select_option("en")
    expect(page.get_by_role("button", name="Save")).to_be_visible()

    save_new(page)
    saved = page.request.get(page.url.replace("/flows/", "/api/flows/")).json()["document"]
    assert {(w["from"], w.get("port", "out"), w["to"]) for w in saved["wires"]} == {
        ("start", "out", "approval1"),
        ("approval1", "approve", "http1"),
        ("approval1", "reject", "log1"),
    }
    approval = next(n for n in saved["nodes"] if n["id"] == "approval1")
    assert approval["config"] == {
        "title": "Pay {{trigger.invoice}}?",
        "approvers": ["group:finance"],
        "deadline": "P2D",
        "on_timeout": "reject",
    }

    # Ctrl+K finds a node by any config value and selects it.
    node(page, "log1").click()
    page.keyboard.press("Control+k")
    page.get_by_label("Name, type or any setting").fill("finance")
    page.keyboard.press("Enter")
    expect(page.locator(".config h2")).to_have_text("Approval approval1")

    page.get_by_role("button", name="Run", exact=True).click()
    page.get_by_role("dialog").get_by_role("button", name="Start the run").click()
    page.wait_for_url(re.compile(r".*/runs/\d+$"))
    run_id = int(page.url.rsplit("/", 1)[1])
    # The run's page hears the worker park the run at its approval (the runs' event stream).
    expect(page.locator("[data-status]")).to_have_attribute("data-status", "waiting", timeout=60_000)
    assert page.request.get(f"/api/runs/{run_id}").json()["run"]["status"] == "waiting"
    page.context.close()


@pytest.mark.console_errors(
    "the server refuses to save a flow with a finding (422)", allow=r"status of 422 .*/api/flows/\d+"
)
def test_save_pressed_before_the_last_edit_is_checked_is_judged_by_the_server(
    browser: Browser, server: Server
) -> None:
    """The findings are checked by the server a moment after each edit; Save pressed in that moment (a fast
    hand, a slow server) must not be refused by the findings of the draft before the edit, nor let through
    a finding the edit made: the server judges what is saved."""
    server.user("nell", "edit")
    page = log_in(browser, server, "nell")
    new_flow(page, "Saved at once")
    add(page, "Approval")
    arrange(page)
    page.get_by_role("button", name="Zoom to fit").click()
    wire(page, "start", "out", "approval1")
    findings = page.get_by_role("heading", name="Findings (1)")
    expect(findings).to_be_visible()  # the approval has no title
    held: list[Route] = []
    # The check of the next edit is held at the browser: its answer has not come when Save is pressed.
    page.route("**/api/flows/validate", lambda route: held.append(route))
    node(page, "approval1").click()
    with page.expect_request("**/api/flows/validate"):
        page.locator(".config").get_by_label("Title").fill("Pay?")
    expect(findings).to_be_visible()  # still the earlier draft's
    flow_id = save_new(page)
    saved = page.request.get(f"/api/flows/{flow_id}").json()["document"]
    assert [n["config"]["title"] for n in saved["nodes"] if n["id"] == "approval1"] == ["Pay?"]

    # The other way round: an edit that makes a finding, saved before its check answers (still held). The
    # server refuses it, and the page counts the server's findings as it counts its own.
    node(page, "approval1").click()
    page.locator(".config").get_by_label("Title").fill("")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_text("Not saved: 1 finding must be fixed first.")).to_be_visible()
    kept = page.request.get(f"/api/flows/{flow_id}").json()
    assert (kept["version"], kept["document"]["nodes"][1]["config"]["title"]) == (1, "Pay?")
    page.context.close()
