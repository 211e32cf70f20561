"""Starting and naming flows, and running them with input (issue 33): New flow saves nothing until Save;
a template opens as a new flow; a rename makes no version; Run asks for the trigger's input, refuses text
that is not JSON with a sentence, and starts the run with it. In English and Japanese, and at 390 px."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.api.support import approval_and_delay_flow
from tests.browser.canvas import node, save_new
from tests.browser.support import Server, log_in, screenshot, serious_violations
from tests.browser.test_phone import overflow

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def flows(page: Page) -> list[tuple[int, str, int]]:
    """The flows the API lists for the page's user: id, name, newest version."""
    listed = page.request.get("/api/flows").json()["flows"]
    return [(f["id"], f["name"], f["version"]) for f in listed]


def versions(page: Page, flow_id: int) -> list[int]:
    answer = page.request.get(f"/api/flows/{flow_id}/versions").json()
    return [v["version"] for v in answer["versions"]]


def made_by_api(page: Page, document: dict[str, Any]) -> int:
    csrf = page.request.get("/api/me").json()["csrf_token"]
    headers = {"X-CSRF-Token": csrf, "Content-Type": "application/json"}
    return int(page.request.post("/api/flows", data=json.dumps(document), headers=headers).json()["id"])


def test_new_flow_asks_for_a_name_and_saves_nothing_until_save(browser: Browser, server: Server) -> None:
    server.user("nia", "edit", "run")
    page = log_in(browser, server, "nia")
    before = flows(page)

    # Cancelled: nothing made.
    page.get_by_role("button", name="New flow", exact=True).click()
    dialog = page.get_by_role("dialog", name="New flow")
    dialog.get_by_label("Name").fill("Never saved")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_have_count(0)
    assert flows(page) == before

    # A blank name is said, in a sentence, before anything is sent.
    page.get_by_role("button", name="New flow", exact=True).click()
    dialog.get_by_label("Name").fill("   ")
    dialog.get_by_role("button", name="Open in the editor").click()
    expect(dialog.get_by_role("alert")).to_have_text("Enter a name for the flow.")
    dialog.get_by_label("Name").fill("Drawn before saved")
    dialog.get_by_role("button", name="Open in the editor").click()
    page.wait_for_url("**/flows/new")
    expect(page.get_by_role("heading", name="Drawn before saved")).to_be_visible()
    expect(page.get_by_text("unsaved changes")).to_be_visible()
    expect(node(page, "start")).to_be_visible()
    assert flows(page) == before

    flow_id = save_new(page)
    assert flows(page) == [(flow_id, "Drawn before saved", 1), *before]
    expect(page.get_by_text("unsaved changes")).to_have_count(0)
    page.reload()  # the save said so once, not again
    expect(page.get_by_role("heading", name="Drawn before saved")).to_be_visible()
    expect(page.get_by_text("Saved as version 1")).to_have_count(0)

    # The new flow's address without a new flow to show goes back to the flows.
    page.goto("/flows/new")
    page.wait_for_url("**/flows")
    page.context.close()


@pytest.mark.console_errors(
    "a rename to a name another flow has is refused (409), and the page says so",
    allow=r"status of 409 .*/api/flows/\d+:",
)
def test_the_invoice_flow_from_a_template_saved_then_renamed_without_a_version(
    browser: Browser, server: Server
) -> None:
    server.user("tia", "edit", "run")
    page = log_in(browser, server, "tia")
    templates = page.get_by_role("region", name="Start from a template")
    expect(templates.get_by_role("heading", name="Invoice approval")).to_be_visible()
    expect(templates.get_by_role("listitem")).to_have_count(6)
    expect(templates).to_contain_text("Finance approves an invoice within three days, then it is paid.")
    templates.scroll_into_view_if_needed()
    screenshot(page, "templates-en")
    assert not serious_violations(page), serious_violations(page)

    page.get_by_label("Language").select_option("ja")
    templates = page.get_by_role("region", name="テンプレートから始める")
    expect(templates.get_by_role("heading", name="請求書の承認")).to_be_visible()
    expect(templates).to_contain_text("経理が 3 日以内に請求書を承認し、その後支払います。")
    templates.scroll_into_view_if_needed()
    screenshot(page, "templates-ja")
    page.get_by_label("言語").select_option("en")

    before = flows(page)
    page.get_by_role("button", name="Start a new flow from the template Invoice approval").click()
    page.wait_for_url("**/flows/new")
    expect(page.get_by_role("heading", name="Invoice approval")).to_be_visible()
    example = json.loads((EXAMPLES / "invoice-approval.json").read_text(encoding="utf-8"))
    expect(page.locator(".react-flow__node")).to_have_count(len(example["nodes"]))
    expect(page.get_by_text("No findings")).to_be_visible()
    # Laid out as a saved flow opens (the example has no positions): no card on top of another.
    boxes = [node(page, n["id"]).bounding_box() for n in example["nodes"]]
    corners = {(round(b["x"]), round(b["y"])) for b in boxes if b is not None}
    assert len(corners) == len(example["nodes"]), corners
    page.get_by_role("button", name="Zoom to fit").click()
    screenshot(page, "template-opened")
    assert flows(page) == before

    flow_id = save_new(page)
    saved = page.request.get(f"/api/flows/{flow_id}").json()["document"]
    assert (saved["name"], saved["description"]) == (
        "Invoice approval",
        "Finance approves an invoice within three days, then it is paid.",
    )
    assert [{k: v for k, v in n.items() if k != "position"} for n in saved["nodes"]] == example["nodes"]
    assert saved["wires"] == example["wires"]

    # Renamed in the editor, with a description: no new version, and nothing left unsaved.
    made_by_api(page, {**approval_and_delay_flow(), "name": "Taken name"})
    page.get_by_role("button", name="Rename", exact=True).click()
    dialog = page.get_by_role("dialog", name="Name and description")
    dialog.get_by_label("Name").fill("TAKEN NAME")
    dialog.get_by_role("button", name="Apply").click()
    expect(dialog.get_by_role("alert")).to_have_text(
        "Another flow is already called TAKEN NAME: choose another name."
    )
    dialog.get_by_label("Name").fill("Supplier invoices")
    dialog.get_by_label("Description (optional)").fill("Over 1000 EUR")
    dialog.get_by_role("button", name="Apply").click()
    expect(page.get_by_role("status")).to_have_text(
        "The flow is now called Supplier invoices; no new version was made."
    )
    expect(page.get_by_role("heading", name="Supplier invoices")).to_be_visible()
    expect(page.get_by_text("unsaved changes")).to_have_count(0)
    assert versions(page, flow_id) == [1]
    now = page.request.get(f"/api/flows/{flow_id}").json()
    assert (now["name"], now["description"], now["version"]) == ("Supplier invoices", "Over 1000 EUR", 1)

    # And on the flows page's row.
    page.goto("/flows")
    page.get_by_role("button", name="Rename Supplier invoices").click()
    page.get_by_label("New name").fill("Supplier invoices, EU")
    page.get_by_role("button", name="Save name").click()
    expect(page.get_by_role("link", name="Supplier invoices, EU")).to_be_visible()
    assert versions(page, flow_id) == [1]
    page.context.close()


def test_run_asks_for_the_input_refuses_what_is_not_json_and_starts_with_it(
    browser: Browser, server: Server
) -> None:
    server.user("rio", "edit", "run")
    page = log_in(browser, server, "rio", at="about:blank")
    flow_id = made_by_api(page, {**approval_and_delay_flow(), "name": "Run with input"})
    page.goto(f"/flows/{flow_id}")
    page.locator(".walk textarea").fill('{"invoice": "A-7"}')
    page.get_by_role("button", name="Run", exact=True).click()
    dialog = page.get_by_role("dialog", name="Run with input")
    field = dialog.get_by_label("The trigger's input, as JSON")
    expect(field).to_have_value('{"invoice": "A-7"}')  # the walk's sample
    screenshot(page, "run-dialog-en")

    field.fill('{"invoice": "A-7",\n "amount": }')
    dialog.get_by_role("button", name="Start the run").click()
    # With the place when the browser's parser tells it; the parser's own English never.
    expect(dialog.get_by_role("alert")).to_have_text(
        re.compile(r"^The input is not JSON(: see line 2, column \d+\. N|; n)othing was started\.$")
    )
    assert page.request.get(f"/api/runs?flow={flow_id}").json()["runs"] == []

    field.fill('{"invoice": "B-9", "amount": 1200}')
    dialog.get_by_role("button", name="Start the run").click()
    page.wait_for_url(re.compile(r".*/runs/\d+$"))
    run_id = int(page.url.rsplit("/", 1)[1])
    assert page.request.get(f"/api/runs/{run_id}").json()["run"]["input"] == {
        "invoice": "B-9",
        "amount": 1200,
    }

    # Opened again (the walk's sample gone with the reload): the last input, kept for this flow.
    page.goto(f"/flows/{flow_id}")
    page.get_by_label("Language").select_option("ja")
    page.get_by_role("button", name="実行", exact=True).click()
    dialog = page.get_by_role("dialog", name="入力を指定して実行")
    expect(dialog.get_by_label("トリガーの入力（JSON）")).to_have_value('{"invoice": "B-9", "amount": 1200}')
    dialog.get_by_label("トリガーの入力（JSON）").fill("invoice B-9")
    dialog.get_by_role("button", name="実行を開始").click()
    expect(dialog.get_by_role("alert")).to_contain_text("入力が JSON ではありません")
    screenshot(page, "run-dialog-ja")
    dialog.get_by_role("button", name="キャンセル").click()
    expect(dialog).to_have_count(0)
    assert len(page.request.get(f"/api/runs?flow={flow_id}").json()["runs"]) == 1
    page.get_by_label("言語").select_option("en")
    page.context.close()


def test_the_templates_and_the_new_flow_dialog_fit_a_phone(browser: Browser, server: Server) -> None:
    server.user("pho", "edit")
    page = log_in(browser, server, "pho", width=390, height=844)
    templates = page.get_by_role("region", name="Start from a template")
    expect(templates.get_by_role("listitem")).to_have_count(6)
    templates.scroll_into_view_if_needed()
    measured = overflow(page)
    assert measured["scroll"] <= measured["viewport"] and not measured["out"], measured
    screenshot(page, "templates-phone")
    page.get_by_role("button", name="New flow", exact=True).click()
    dialog = page.get_by_role("dialog", name="New flow")
    box = dialog.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    dialog.get_by_role("button", name="Cancel").click()

    # The editor on a phone only reads, but a template chosen there can be saved as it is.
    page.get_by_role("button", name="Start a new flow from the template Weekly report").click()
    page.wait_for_url("**/flows/new")
    expect(page.get_by_role("note")).to_be_visible()  # drawing needs a larger screen
    page.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_url(re.compile(r".*/flows/\d+$"))
    flow_id = int(page.url.rsplit("/", 1)[1])
    assert page.request.get(f"/api/flows/{flow_id}").json()["name"] == "Weekly report"
    page.context.close()
