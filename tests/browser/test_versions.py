"""Versions in the editor: an old one opened read-only and restored as the newest; a stale save is
refused with who saved what, and the author chooses."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser, expect

from tests.api.support import approval_and_delay_flow
from tests.browser.canvas import arrange
from tests.browser.support import Server, log_in


@pytest.mark.console_errors(
    "a restore over a newer version is refused (409)", allow=r"status of 409 .*/api/flows/\d+\?base="
)
def test_open_an_old_version_read_only_and_restore_it(browser: Browser, server: Server) -> None:
    server.user("vera", "edit", "run")
    page = log_in(browser, server, "vera")
    csrf = page.request.get("/api/me").json()["csrf_token"]
    headers = {"X-CSRF-Token": csrf, "Content-Type": "application/json"}
    document = approval_and_delay_flow()
    flow_id = page.request.post("/api/flows", data=json.dumps(document), headers=headers).json()["id"]
    document["name"] = "Renamed later"
    page.request.put(f"/api/flows/{flow_id}", data=json.dumps(document), headers=headers)

    page.goto(f"/flows/{flow_id}")
    expect(page.get_by_role("heading", name="Renamed later")).to_be_visible()
    page.get_by_role("button", name="Open version 1").click()
    expect(page.get_by_text("version 1, read only")).to_be_visible()
    expect(page.get_by_role("heading", name="Pay approved invoices")).to_be_visible()
    expect(page.get_by_role("button", name="Save")).to_be_disabled()
    page.get_by_role("button", name="Back to the newest version").click()
    expect(page.get_by_role("heading", name="Renamed later")).to_be_visible()

    page.get_by_role("button", name="Restore version 1 as the newest").click()
    expect(page.get_by_text("Version 3: vera")).to_be_visible()
    newest = page.request.get(f"/api/flows/{flow_id}").json()
    assert (newest["version"], newest["document"]["name"]) == (3, "Pay approved invoices")

    # Someone else saves meanwhile: this author's save names the version it started from and is refused.
    document["name"] = "Saved elsewhere"
    page.request.put(f"/api/flows/{flow_id}", data=json.dumps(document), headers=headers)
    arrange(page)
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status")).to_contain_text("vera saved version 4")
    assert page.request.get(f"/api/flows/{flow_id}").json()["version"] == 4
    page.get_by_role("button", name="Save mine as the newest anyway").click()
    expect(page.get_by_role("status").filter(has_text="Saved as version 5")).to_be_visible()
    page.context.close()
