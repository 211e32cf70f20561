"""Leaving the editor with unsaved changes by the browser's Back button asks first, in the catalog's words,
like a link does; staying keeps the edits and the address, leaving goes back. Without changes Back asks
nothing."""

from __future__ import annotations

import json

from playwright.sync_api import Browser, expect

from tests.api.support import approval_and_delay_flow
from tests.browser.canvas import arrange
from tests.browser.support import Dialogs, Server, log_in, screenshot

QUESTION = "This flow has unsaved changes. Leave it and lose them?"


def test_back_button_asks_before_unsaved_changes_are_lost(browser: Browser, server: Server) -> None:
    server.user("bea", "edit", "run")
    page = log_in(browser, server, "bea")
    csrf = page.request.get("/api/me").json()["csrf_token"]
    headers = {"X-CSRF-Token": csrf, "Content-Type": "application/json"}
    # A name of its own: the browser tests share one server, and the list is read by the flow's name.
    document = {**approval_and_delay_flow(), "name": "Leave me unsaved"}
    flow_id = page.request.post("/api/flows", data=json.dumps(document), headers=headers).json()["id"]
    dialogs = Dialogs(page)

    # Into the editor by the list's link (one document, so Back stays in the app); nothing changed yet.
    page.reload()
    page.get_by_role("link", name=document["name"]).click()
    page.wait_for_url(f"**/flows/{flow_id}")
    expect(page.get_by_role("button", name="Arrange")).to_be_enabled()
    page.go_back()
    page.wait_for_url("**/flows")
    expect(page.get_by_role("link", name=document["name"])).to_be_visible()
    assert dialogs.asked == []

    page.go_forward()
    page.wait_for_url(f"**/flows/{flow_id}")
    arrange(page)
    expect(page.get_by_text("unsaved changes")).to_be_visible()

    # Back, and stay: the question in the catalog's words; the editor, its address and the edit remain.
    dialogs.answer_next(accept=False)
    with page.expect_event("dialog"):
        page.go_back()
    expect(page.get_by_text("unsaved changes")).to_be_visible()
    assert dialogs.asked == [QUESTION]
    assert page.url.endswith(f"/flows/{flow_id}")
    screenshot(page, "editor-back-stayed")

    # Back, and leave: the list; the edit was never saved.
    dialogs.answer_next(accept=True)
    page.go_back()
    page.wait_for_url("**/flows")
    expect(page.get_by_role("link", name=document["name"])).to_be_visible()
    assert dialogs.asked == [QUESTION, QUESTION]
    assert page.request.get(f"/api/flows/{flow_id}").json()["version"] == 1
    page.context.close()
