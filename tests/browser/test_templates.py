"""Template completion in the config panel: `{{` offers what is in scope at the node (the sample input's
trigger fields, a set's names, an approval's output), the keyboard takes one, and an unknown name is named."""

from __future__ import annotations

import json

from playwright.sync_api import Browser, expect

from tests.api.support import approval_and_delay_flow
from tests.browser.canvas import node
from tests.browser.support import Server, log_in, screenshot


def test_typing_braces_offers_the_names_in_scope(browser: Browser, server: Server) -> None:
    server.user("tess", "edit")
    page = log_in(browser, server, "tess")
    csrf = page.request.get("/api/me").json()["csrf_token"]
    headers = {"X-CSRF-Token": csrf, "Content-Type": "application/json"}
    created = page.request.post("/api/flows", data=json.dumps(approval_and_delay_flow()), headers=headers)
    flow_id = created.json()["id"]
    page.goto(f"/flows/{flow_id}")
    page.get_by_label("Sample input of the trigger (JSON)").fill('{"invoice": "INV-3", "amount": 120}')

    node(page, "paid").click()
    message = page.locator(".config").get_by_label("Message")
    # The level's choices are a select with words from the catalog (rjsf needs the field's type for it).
    expect(page.locator(".config").get_by_label("Level").locator("option")).to_contain_text(["Debug"])
    message.fill("")
    message.press_sequentially("Paid {{tr")
    options = page.get_by_role("listbox")
    expect(options.get_by_role("option")).to_have_text(["trigger", "trigger.invoice", "trigger.amount"])
    message.press("ArrowDown")
    message.press("Enter")
    expect(message).to_have_value("Paid {{trigger.invoice}}")
    expect(options).to_be_hidden()

    # The approval before this node has an output; the names after it are offered too.
    message.press_sequentially(" by {{ask.d")
    expect(options.get_by_role("option")).to_have_text(["ask.decided_by", "ask.decided_at"])
    screenshot(page, "editor-template-completion")
    message.press("Enter")
    expect(message).to_have_value("Paid {{trigger.invoice}} by {{ask.decided_by}}")

    # A name nothing before the node provides is named under the field.
    message.press_sequentially(" {{totl}}")
    unknown = page.locator(".template-unknown")
    expect(unknown).to_have_text("Nothing before this node sets totl: check the name.")
    message.press("Control+a")
    message.press("Backspace")
    message.press_sequentially("{{ask.comment}}")
    expect(unknown).to_have_count(0)
    page.context.close()
