"""The outcome that matters beside a run's status (issue 31): a run whose invoice was rejected is not only
"Succeeded"; the runs list tags it with its latest decision and the run page says what was decided, by
whom and when, in the reader's language. And a page offers deciding only to a decider: a reader of the
flow without the decide right sees the request and a sentence saying why there is nothing to press."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.pages_support import Story, invoice_flow, story_server
from tests.browser.support import log_in, screenshot

LIVE = 60_000  # the worker must ask the approval, and go on after the decision


@pytest.fixture(scope="module")
def story(pg_server_url: str, template_database: str) -> Iterator[Story]:
    with story_server(pg_server_url, template_database, "decided") as running:
        yield running


def test_a_rejected_run_says_so_beside_its_status(browser: Browser, story: Story) -> None:
    story.server.user("ria", "edit", "run")
    story.server.user("rex", "decide", groups=("finance",))
    with story.api(story.token("ria")) as api:
        made = api.post("/api/flows", json=invoice_flow(story.receiver.url)).json()
        runs = {
            invoice: api.post(
                f"/api/flows/{made['id']}/runs", json={"input": {"invoice": invoice, "amount": 7}}
            ).json()["run"]
            for invoice in ("R-1", "R-2")
        }
    approver = log_in(browser, story.server, "rex", at="/inbox")
    expect(approver.locator(".inbox-list li")).to_have_count(2, timeout=LIVE)
    with story.api(story.token("rex")) as api:
        asked = {a["title"]: a for a in api.get("/api/approvals").json()["approvals"]}
        refused = api.post(
            f"/api/approvals/{asked['Pay invoice R-1?']['id']}/decision",
            json={"outcome": "reject", "comment": "duplicate"},
        )
        assert refused.status_code == 200, refused.text
    approver.context.close()

    page = log_in(browser, story.server, "ria", at="/runs")
    rejected_row = page.locator(f"tr[data-run='{runs['R-1']}']")
    # The run ended well (its reject path logged), and the list says the invoice was rejected.
    expect(rejected_row.locator(".status")).to_have_text("Succeeded", timeout=LIVE)
    expect(rejected_row.locator(".decision-tag")).to_have_text("Rejected")
    waiting_row = page.locator(f"tr[data-run='{runs['R-2']}']")
    expect(waiting_row.locator(".status")).to_have_text("Waiting")
    expect(waiting_row.locator(".decision-tag")).to_have_count(0)

    page.goto(f"/runs/{runs['R-1']}")
    line = page.locator(".run-decision")
    expect(line).to_contain_text("Last decision: Rejected for “Pay invoice R-1?”, by rex at")
    # Each approval of the run: one sentence, not "Rejected (rex, …)" glued together.
    expect(page.locator(".approval-outcome")).to_have_text(re.compile(r"^Rejected: decided by rex at .+\.$"))
    screenshot(page, "run-decision-en")

    # Ria may read the waiting request (she edits the flow) but not decide it: nothing offers to.
    page.goto(f"/approvals/{asked['Pay invoice R-2?']['id']}")
    expect(page.get_by_role("heading", name="Pay invoice R-2?")).to_be_visible()
    expect(page.locator(".not-yours")).to_have_text(
        "You can read this request, but deciding it needs the decide right on this flow."
    )
    expect(page.get_by_role("button", name="Approve")).to_have_count(0)
    expect(page.get_by_label("Comment (optional)")).to_have_count(0)
    page.context.close()

    story.set_locale("ria", "de")
    german = log_in(browser, story.server, "ria", locale="de-DE", at=f"/runs/{runs['R-1']}")
    expect(german.locator(".run-decision")).to_contain_text(
        "Letzte Entscheidung: Abgelehnt für „Pay invoice R-1?“, von rex am"
    )
    # The run diagram names its ports in the reader's words, as the editor does (not "approve"/"reject").
    ports = german.locator(".run-canvas .react-flow__edge-text")
    expect(ports).to_have_count(2)
    assert sorted(ports.all_text_contents()) == ["Abgelehnt", "Genehmigt"]
    german.goto("/runs")
    expect(german.locator(f"tr[data-run='{runs['R-1']}'] .decision-tag")).to_have_text("Abgelehnt")
    screenshot(german, "runs-decision-de")
    german.context.close()
