"""The pages offer a user only what their rights allow (the server's refusals stay as they are): a
decide-only approver sees no New flow, Import, Rename, Duplicate or People, and the editor without edit
buttons; an auditor sees the audit and the runs, without Cancel; the edit and run rights each bring their
own buttons, on the flow they are granted on."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.browser.support import Server, log_in, screenshot

PAGES = ("Flows", "Runs", "Inbox", "Audit", "People")


def flow_with_a_run(page: Page, name: str) -> tuple[int, int]:
    """A flow that parks at an approval, saved and started by the signed-in editor: its id and the run's."""
    csrf = page.request.get("/api/me").json()["csrf_token"]
    headers = {"X-CSRF-Token": csrf, "Content-Type": "application/json"}
    document: dict[str, Any] = {
        "format": "flowyard.flow/1",
        "name": name,
        "nodes": [
            {"id": "start", "type": "trigger", "config": {"kind": "manual"}},
            {"id": "ask", "type": "approval", "config": {"title": "Pay?", "approvers": ["group:rp"]}},
        ],
        "wires": [{"from": "start", "to": "ask"}],
    }
    made = page.request.post("/api/flows", data=json.dumps(document), headers=headers)
    assert made.ok, made.text()
    flow = int(made.json()["id"])
    started = page.request.post(f"/api/flows/{flow}/runs", data=json.dumps({"input": {}}), headers=headers)
    assert started.ok, started.text()
    return flow, int(started.json()["run"])


def navigation(page: Page) -> list[str]:
    nav = page.get_by_role("navigation")
    expect(nav.get_by_role("link", name="Flows")).to_be_visible()
    # The Inbox link's name goes on with the badge's count of waiting approvals.
    return [name for name in PAGES if nav.get_by_role("link", name=re.compile(f"^{name}")).count() == 1]


def test_a_decide_only_user_is_offered_nothing_to_create_change_or_administer(
    browser: Browser, server: Server
) -> None:
    server.user("rp-edda", "edit", "run")
    server.user("rp-dora", "decide", groups=("rp",))
    author = log_in(browser, server, "rp-edda")
    flow, _run = flow_with_a_run(author, "Rights for deciders")
    author.context.close()

    page = log_in(browser, server, "rp-dora")
    row = page.locator("tr", has=page.get_by_role("link", name="Rights for deciders"))
    expect(row).to_be_visible()
    expect(row.get_by_role("button", name="Export Rights for deciders as .json")).to_be_visible()
    expect(row.get_by_role("button", name="Rename Rights for deciders")).to_have_count(0)
    expect(row.get_by_role("button", name="Duplicate Rights for deciders")).to_have_count(0)
    expect(page.get_by_role("button", name="New flow", exact=True)).to_have_count(0)
    expect(page.get_by_text("Import .json", exact=True)).to_have_count(0)
    assert navigation(page) == ["Flows", "Runs", "Inbox"]
    screenshot(page, "rights-flows-decide-only")

    # The editor reads the flow; nothing in it would be refused.
    page.goto(f"/flows/{flow}")
    toolbar = page.get_by_role("toolbar")
    expect(toolbar.get_by_role("button", name="List view")).to_be_visible()
    for name in ("Save", "Run", "Undo", "Redo", "Arrange"):
        expect(toolbar.get_by_role("button", name=name, exact=True)).to_have_count(0)
    expect(page.locator(".palette")).to_have_count(0)
    expect(page.get_by_role("button", name=re.compile("^Restore version"))).to_have_count(0)
    toolbar.get_by_role("button", name="List view").click()
    page.get_by_role("button", name="Approval ask").click()
    expect(page.get_by_role("button", name="Add after the selected node")).to_have_count(0)
    expect(page.locator(".side [aria-busy]")).to_have_count(0)  # the node's panel has loaded
    screenshot(page, "rights-editor-decide-only")
    page.context.close()


def test_an_auditor_sees_the_audit_and_the_runs_and_cancels_nothing(browser: Browser, server: Server) -> None:
    server.user("rp-ezra", "edit", "run")
    server.user("rp-audrey", "audit")
    author = log_in(browser, server, "rp-ezra", at="about:blank")
    _flow, run = flow_with_a_run(author, "Rights for auditors")
    author.goto(f"/runs/{run}")
    expect(author.get_by_role("button", name="Cancel the run")).to_be_visible(timeout=60_000)
    author.context.close()

    page = log_in(browser, server, "rp-audrey")
    assert navigation(page) == ["Flows", "Runs", "Audit"]
    expect(page.get_by_role("button", name="New flow", exact=True)).to_have_count(0)
    page.get_by_role("navigation").get_by_role("link", name="Audit").click()
    expect(page.locator("table.audit")).to_be_visible()
    page.get_by_role("navigation").get_by_role("link", name="Runs").click()
    page.locator(f"[data-run='{run}']").get_by_role("link").click()
    expect(page.locator(".run-node.waiting")).to_be_visible(timeout=60_000)
    expect(page.get_by_role("button", name="Cancel the run")).to_have_count(0)
    page.context.close()


def test_the_edit_and_run_buttons_come_with_their_rights_on_the_flow(
    browser: Browser, server: Server
) -> None:
    server.user("rp-owen", "edit", "run", "admin")
    owner = log_in(browser, server, "rp-owen")
    assert navigation(owner) == ["Flows", "Runs", "People"]
    flow, _run = flow_with_a_run(owner, "Rights per flow")
    other, _ = flow_with_a_run(owner, "Rights elsewhere")
    owner.context.close()
    server.user("rp-edith", f"edit:{flow}")
    server.user("rp-rudi", "run")

    editor = log_in(browser, server, "rp-edith")
    expect(editor.get_by_role("button", name="Rename Rights per flow")).to_be_visible()
    expect(editor.get_by_role("button", name="New flow", exact=True)).to_have_count(
        0
    )  # creating takes edit everywhere
    expect(editor.get_by_role("button", name="Duplicate Rights per flow")).to_have_count(0)
    expect(editor.get_by_role("region", name="Start from a template")).to_have_count(0)
    expect(editor.get_by_role("link", name="Rights elsewhere")).to_have_count(0)  # not theirs to read
    editor.goto(f"/flows/{flow}")
    expect(editor.get_by_role("button", name="Save", exact=True)).to_be_visible()
    expect(editor.locator(".palette")).to_be_visible()
    expect(editor.get_by_role("button", name="Run", exact=True)).to_have_count(0)
    editor.context.close()

    runner = log_in(browser, server, "rp-rudi")
    expect(runner.get_by_role("link", name="Rights elsewhere")).to_be_visible()
    expect(runner.get_by_role("button", name="Rename Rights elsewhere")).to_have_count(0)
    runner.goto(f"/flows/{other}")
    expect(runner.get_by_role("button", name="Run", exact=True)).to_be_visible()
    expect(runner.get_by_role("button", name="Save", exact=True)).to_have_count(0)
    expect(runner.locator(".palette")).to_have_count(0)
    runner.context.close()
