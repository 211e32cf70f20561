"""Walk with sample input: the author types the trigger's input, answers the approval the walk pauses at
(or the several a parallel waits at together), and sees the path on the canvas and each visit in the
panel; no run is started."""

from __future__ import annotations

import json
import re
from pathlib import Path

import psycopg
from playwright.sync_api import Browser, expect

from backend.i18n.catalogs import message
from tests.api.support import approval_and_delay_flow
from tests.api.test_walk_sample import parallel_approvals
from tests.browser.canvas import add, arrange, node
from tests.browser.support import Server, log_in, screenshot, serious_violations

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _runs(server: Server) -> int:
    with psycopg.connect(server.database_url) as conn:
        row = conn.execute("SELECT count(*) FROM runs").fetchone()
    assert row is not None
    return int(row[0])


def test_walk_a_flow_with_sample_input_and_answer_its_approval(browser: Browser, server: Server) -> None:
    server.user("wim", "edit", "run")
    page = log_in(browser, server, "wim")
    csrf = page.request.get("/api/me").json()["csrf_token"]
    headers = {"X-CSRF-Token": csrf, "Content-Type": "application/json"}
    created = page.request.post("/api/flows", data=json.dumps(approval_and_delay_flow()), headers=headers)
    flow_id = created.json()["id"]
    runs_before = _runs(server)

    page.goto(f"/flows/{flow_id}")
    walk = page.get_by_role("region", name="Walk with sample input")
    sample = walk.get_by_label("Sample input of the trigger (JSON)")
    sample.fill("{invoice: 'INV-9'}")
    walk.get_by_role("button", name="Walk", exact=True).click()
    expect(walk.get_by_role("alert")).to_have_text("The sample input is not JSON: see line 1, column 2.")
    screenshot(page, "walk-input-invalid")

    sample.fill('{"invoice": "INV-9"}')
    walk.get_by_role("button", name="Walk", exact=True).click()
    expect(walk.locator(".walk-result")).to_contain_text("The walk waits at approval ask")
    expect(node(page, "ask").locator(".card")).to_have_class(re.compile(r"\bpaused\b"))
    expect(node(page, "start").locator(".card")).to_have_class(re.compile(r"\bwalked\b"))
    expect(node(page, "paid").locator(".card")).not_to_have_class(re.compile(r"\bwalked\b"))

    walk.get_by_role("button", name="Approve").click()
    expect(walk.locator(".walk-result")).to_contain_text("The walk reached its end (visits: 4)")
    visits = walk.get_by_role("list", name="Visits of the walk, in order")
    expect(visits.locator(":scope > li")).to_have_count(4)
    expect(visits.locator('li[data-node="paid"]')).to_contain_text("paid INV-9")
    expect(node(page, "paid").locator(".card-order")).to_have_text("4")
    expect(node(page, "ask").locator(".card")).not_to_have_class(re.compile(r"\bpaused\b"))
    assert serious_violations(page) == []
    screenshot(page, "editor-walk")

    # Moving the cards keeps the walk (its path does not depend on where they stand); an edit clears it:
    # it showed the flow as it was.
    arrange(page)
    expect(node(page, "paid").locator(".card-order")).to_have_text("4")
    add(page, "Log")
    expect(visits).to_have_count(0)
    expect(node(page, "start").locator(".card")).not_to_have_class(re.compile(r"\bwalked\b"))
    assert _runs(server) == runs_before
    page.context.close()


def test_a_walk_answers_the_approvals_a_parallel_waits_at_together(browser: Browser, server: Server) -> None:
    server.user("parvati", "edit")
    page = log_in(browser, server, "parvati")
    csrf = page.request.get("/api/me").json()["csrf_token"]
    headers = {"X-CSRF-Token": csrf, "Content-Type": "application/json"}
    document = {**parallel_approvals(), "name": "Two signatures, walked"}
    flow_id = page.request.post("/api/flows", data=json.dumps(document), headers=headers).json()["id"]

    page.goto(f"/flows/{flow_id}")
    walk = page.get_by_role("region", name="Walk with sample input")
    walk.get_by_role("button", name="Walk", exact=True).click()
    expect(walk.locator(".walk-result")).to_contain_text("The walk waits at 2 nodes at once")
    legal = walk.get_by_role("group", name="Approval legal")
    finance = walk.get_by_role("group", name="Approval finance")
    for waiting in ("legal", "finance"):
        expect(node(page, waiting).locator(".card")).to_have_class(re.compile(r"\bpaused\b"))
    screenshot(page, "editor-walk-parallel")

    # One answer chosen, the walk goes on with it alone: legal is still waited for.
    finance.get_by_role("button", name="Reject").click()
    expect(finance.get_by_role("button", name="Reject")).to_have_attribute("aria-pressed", "true")
    walk.get_by_role("button", name="Walk on with the answers chosen").click()
    expect(finance).to_have_count(0)
    expect(legal).to_contain_text("The walk waits at approval legal")
    expect(node(page, "finance").locator(".card")).not_to_have_class(re.compile(r"\bpaused\b"))

    legal.get_by_role("button", name="Approve").click()
    expect(walk.locator(".walk-result")).to_contain_text("The walk reached its end (visits: 5)")
    visits = walk.get_by_role("list", name="Visits of the walk, in order")
    expect(visits.locator('li[data-node="pay"]')).to_have_count(1)
    page.context.close()

    # The same two pending approvals in Japanese: one group of answers each, named from the catalog.
    server.user("parvati-ja", "edit")
    japanese = log_in(browser, server, "parvati-ja", locale="ja-JP", at=f"/flows/{flow_id}")
    japanese.locator("section.walk .row button").first.click()
    pauses = japanese.locator("section.walk .walk-pause [role=group]")
    expect(pauses).to_have_count(2)
    legal_ja = japanese.get_by_role("group", name=message("ui_walk_pause_node", "ja", node="legal"))
    expect(legal_ja).to_be_visible()
    screenshot(japanese, "editor-walk-parallel-ja")
    japanese.context.close()


def test_an_author_with_edit_on_one_flow_walks_it(browser: Browser, server: Server) -> None:
    """The walk takes a right (issue 32): the editor names the flow it walks a draft of, so that `edit`
    on that flow alone is enough."""
    server.user("owner-all", "edit")
    owner = log_in(browser, server, "owner-all")
    csrf = owner.request.get("/api/me").json()["csrf_token"]
    headers = {"X-CSRF-Token": csrf, "Content-Type": "application/json"}
    document = {**approval_and_delay_flow(), "name": "Walked by its one author"}
    flow_id = owner.request.post("/api/flows", data=json.dumps(document), headers=headers).json()["id"]
    owner.context.close()

    server.user("one-flow-author", f"edit:{flow_id}")
    page = log_in(browser, server, "one-flow-author", at=f"/flows/{flow_id}")
    walk = page.get_by_role("region", name="Walk with sample input")
    walk.get_by_label("Sample input of the trigger (JSON)").fill('{"invoice": "INV-12"}')
    walk.get_by_role("button", name="Walk", exact=True).click()
    expect(walk.locator(".walk-result")).to_contain_text("The walk waits at approval ask", timeout=60_000)
    expect(walk.get_by_role("alert")).to_have_count(0)
    screenshot(page, "editor-walk-one-flow-author")
    page.context.close()


def test_a_walk_waiting_for_an_event_offers_the_events_the_node_lists(
    browser: Browser, server: Server
) -> None:
    """Issue 35, item 1: the deferred choice's wait_event is answered like an approval, by its events."""
    # A name of its own: the session's server is shared with test_parallel.py, which adds eve.
    server.user("ewa", "edit")
    page = log_in(browser, server, "ewa")
    csrf = page.request.get("/api/me").json()["csrf_token"]
    headers = {"X-CSRF-Token": csrf, "Content-Type": "application/json"}
    document = json.loads((EXAMPLES / "patterns-events" / "16-deferred-choice.json").read_text("utf-8"))
    flow_id = page.request.post("/api/flows", data=json.dumps(document), headers=headers).json()["id"]

    page.goto(f"/flows/{flow_id}")
    walk = page.get_by_role("region", name="Walk with sample input")
    walk.get_by_label("Sample input of the trigger (JSON)").fill('{"offer": "O-7"}')
    walk.get_by_role("button", name="Walk", exact=True).click()
    waiting = walk.get_by_role("group", name="Wait for an event answer")
    expect(waiting).to_contain_text("The walk waits at answer for an event. Which one should arrive?")
    answers = ["Event accepted arrives", "Event declined arrives", "No event before the timeout"]
    expect(waiting.get_by_role("button")).to_have_text(answers)
    expect(node(page, "answer").locator(".card")).to_have_class(re.compile(r"\bpaused\b"))
    assert serious_violations(page) == []
    screenshot(page, "editor-walk-event")

    waiting.get_by_role("button", name="Event declined arrives").click()
    expect(walk.locator(".walk-result")).to_contain_text("The walk reached its end (visits: 4)")
    visits = walk.get_by_role("list", name="Visits of the walk, in order")
    expect(visits.locator('li[data-node="close"]')).to_contain_text("offer O-7 declined")
    expect(visits.locator('li[data-node="book"]')).to_have_count(0)
    page.context.close()

    # In German the answers are the catalog's sentences around the node's own event names.
    server.user("eve-de", "edit")
    german = log_in(browser, server, "eve-de", locale="de-DE", at=f"/flows/{flow_id}")
    german.locator("section.walk textarea").fill('{"offer": "O-8"}')
    german.locator("section.walk .row button").first.click()
    pause = german.locator("section.walk .walk-pause [role=group]")
    expect(pause.get_by_role("button")).to_have_text(
        [message("ui_walk_answer_event", "de", event=name) for name in ("accepted", "declined")]
        + [message("ui_walk_answer_event_timeout", "de")]
    )
    screenshot(german, "editor-walk-event-de")
    pause.get_by_role("button", name=message("ui_walk_answer_event_timeout", "de")).click()
    expect(german.locator("section.walk .walk-visits li[data-node=lapse]")).to_contain_text(
        "offer O-8 lapsed"
    )
    german.context.close()
