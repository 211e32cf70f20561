"""The editor's approval panel: quorum, reject rule, four eyes, reminders and escalation go into the flow
document; a quorum the named users cannot reach is a finding on the node until it is fixed."""

from __future__ import annotations

import psycopg
from playwright.sync_api import Browser, expect

from tests.browser.canvas import add, arrange, new_flow, node, save_new, wire
from tests.browser.support import Server, log_in, screenshot


def test_the_panel_writes_the_rules_and_the_validator_finds_an_unreachable_quorum(
    browser: Browser, server: Server
) -> None:
    server.user("rae", "edit", "run")
    page = log_in(browser, server, "rae")
    new_flow(page, "Signed by two")
    add(page, "Approval")
    arrange(page)
    page.get_by_role("button", name="Zoom to fit").click()
    wire(page, "start", "out", "approval1")
    node(page, "approval1").click()
    panel = page.locator(".config")
    panel.get_by_label("Title").fill("Sign?")
    approvers = panel.get_by_role("group", name="Who may decide", exact=True)
    approvers.get_by_label("Approver type").select_option("user")
    for name in ("ann", "bob"):
        approvers.get_by_label("Name of the user or group").fill(name)
        approvers.get_by_role("button", name="Add", exact=True).click()
    for chip in ("User ann", "User bob"):  # each chip in words, its remove button named after it
        expect(approvers.get_by_role("button", name=f"Remove {chip}", exact=True)).to_be_visible()
    panel.get_by_label("Approvals needed (distinct approvers)").fill("3")
    expect(
        page.locator(".findings, [aria-label]").get_by_text(
            "needs 3 approvers, more than the users it names (2)"
        )
    ).to_be_visible()
    panel.get_by_label("Approvals needed (distinct approvers)").fill("2")
    panel.get_by_label("A reject decides").select_option("quorum")
    # Reminders and escalation are durations in words: a number and a unit each.
    panel.get_by_role("button", name="Add a reminder").click()
    first = panel.get_by_role("group", name="Reminder 1", exact=True)
    first.get_by_label("Unit").select_option("hours")
    first.get_by_label("Amount").fill("4")
    panel.get_by_role("button", name="Add a reminder").click()
    expect(panel.get_by_role("group", name="Reminder 2", exact=True).get_by_label("Unit")).to_have_value(
        "days"
    )
    panel.get_by_role("group", name="Escalate after (duration)", exact=True).get_by_label("Amount").fill("2")
    # Escalation names its users and groups as the approvers do: a group reads "Group leads", never
    # the document's group:leads, and nothing asks the author to type that syntax.
    escalate = panel.get_by_role("group", name="Escalate to", exact=True)
    escalate.get_by_label("Name of the user or group").fill("leads")
    escalate.get_by_role("button", name="Add", exact=True).click()
    expect(escalate.get_by_role("button", name="Remove Group leads", exact=True)).to_be_visible()
    expect(panel.get_by_text("group:leads")).to_have_count(0)
    panel.get_by_label("Title").click()  # the text fields are taken when they lose the focus
    expect(page.get_by_text("No findings")).to_be_visible()
    screenshot(page, "approval-panel-en")
    flow_id = save_new(page)

    with psycopg.connect(server.database_url) as conn:
        row = conn.execute(
            "SELECT document FROM flow_versions WHERE flow_id = %s ORDER BY version DESC LIMIT 1", (flow_id,)
        ).fetchone()
    assert row is not None
    config = next(n["config"] for n in row[0]["nodes"] if n["id"] == "approval1")
    assert config == {
        "title": "Sign?",
        "approvers": ["user:ann", "user:bob"],
        "quorum": 2,
        "reject": "quorum",
        "remind_after": ["PT4H", "P1D"],
        "escalate_after": "P2D",
        "escalate_to": ["group:leads"],
    }
    page.context.close()
