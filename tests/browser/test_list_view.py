"""The invoice flow drawn with the keyboard alone in the list view; axe on every editor page."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tests.browser.support import PASSWORD, Server, screenshot, serious_violations


def press(page: Page, name: str, *, exact: bool = False) -> None:
    """Focus a button and press Enter: no mouse."""
    page.get_by_role("button", name=name, exact=exact).focus()
    page.keyboard.press("Enter")


def type_into(page: Page, label: str, text: str) -> None:
    page.get_by_label(label).focus()
    page.keyboard.press("Control+a")
    page.keyboard.type(text)


def test_draw_the_invoice_flow_with_the_keyboard_in_the_list_view(browser: Browser, server: Server) -> None:
    server.user("kai", "edit", "run")
    context = browser.new_context(
        base_url=server.url, locale="en-US", viewport={"width": 1400, "height": 900}
    )
    page = context.new_page()
    page.goto("/login")
    assert not serious_violations(page), serious_violations(page)
    type_into(page, "User name", "kai")
    type_into(page, "Password", PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url("**/flows")
    assert not serious_violations(page), serious_violations(page)

    press(page, "New flow", exact=True)
    page.keyboard.type("Drawn with the keyboard")  # the name field has the focus
    page.keyboard.press("Enter")
    page.wait_for_url("**/flows/new")
    expect(page.locator(".react-flow__node")).to_have_count(1)
    assert not serious_violations(page), serious_violations(page)
    press(page, "List view")
    outline = page.get_by_role("list", name="The flow as a list")
    expect(outline.get_by_role("button")).to_have_count(1)

    press(page, "Trigger start", exact=True)
    page.get_by_label("New step").select_option("approval")
    press(page, "Add after the selected node")
    expect(outline.get_by_role("button", name="Approval approval1")).to_have_attribute("aria-pressed", "true")
    page.get_by_label("From port").select_option("approve")
    page.get_by_label("New step").select_option("http")
    press(page, "Add after the selected node")
    type_into(page, "URL", "https://payments.example/pay")
    press(page, "Approval approval1")
    page.get_by_label("From port").select_option("reject")
    page.get_by_label("New step").select_option("log")
    press(page, "Add after the selected node")
    page.locator(".config textarea").focus()
    page.keyboard.type("not paid: {{trigger.invoice}}")

    press(page, "Approval approval1")
    type_into(page, "Title", "Pay {{trigger.invoice}}?")
    # The approvers' picker (the escalation's has the same fields, in its own group).
    approvers = page.get_by_role("group", name="Who may decide", exact=True)
    approvers.get_by_label("Name of the user or group").focus()
    page.keyboard.type("finance")
    approvers.get_by_role("button", name="Add", exact=True).focus()
    page.keyboard.press("Enter")
    page.get_by_role("group", name="Deadline", exact=True).get_by_label("Amount").focus()
    page.keyboard.type("2")
    page.get_by_role("radio", name="Reject", exact=True).focus()
    page.keyboard.press("Space")
    expect(page.get_by_text("No findings")).to_be_visible()
    expect(outline.get_by_role("listitem")).to_have_count(4)
    assert not serious_violations(page), serious_violations(page)
    screenshot(page, "list-view")

    press(page, "Save")
    page.wait_for_url(re.compile(r".*/flows/\d+$"))
    expect(page.get_by_role("status").filter(has_text="Saved as version 1")).to_be_visible()
    saved = page.request.get(page.url.replace("/flows/", "/api/flows/")).json()["document"]
    assert {(w["from"], w.get("port", "out"), w["to"]) for w in saved["wires"]} == {
        ("start", "out", "approval1"),
        ("approval1", "approve", "http1"),
        ("approval1", "reject", "log1"),
    }
    assert next(n for n in saved["nodes"] if n["id"] == "approval1")["config"] == {
        "title": "Pay {{trigger.invoice}}?",
        "approvers": ["group:finance"],
        "deadline": "P2D",
        "on_timeout": "reject",
    }
    context.close()
