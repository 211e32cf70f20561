"""Seed 004's story with three people in three browsers: an English author runs the invoice flow; the
German approver gets the mail from the local SMTP server, follows its link and approves; the run page
shows the path and the http action's effect; the Japanese auditor finds the decision and exports CSV with
Japanese headers; a second approver's late click reads "already decided". Screenshots for docs/. And the
runs page shows a change committed while it was still connecting to the change stream."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from email.header import decode_header, make_header
from pathlib import Path
from typing import cast

import pytest
from playwright.sync_api import Browser, Request, Response, Route, expect

from backend.approvals.audit import COLUMNS, column_label
from tests.browser.pages_support import Story, invoice_flow, story_server
from tests.browser.support import log_in, screenshot
from tests.observability.live import wait_for


@pytest.fixture(scope="module")
def story(pg_server_url: str, template_database: str) -> Iterator[Story]:
    with story_server(pg_server_url, template_database, "story") as running:
        yield running


@pytest.mark.console_errors(
    "a second decision on a decided approval is refused (409)",
    allow=r"status of 409 .*/api/approvals/\d+/decision",
)
def test_three_people_one_invoice(browser: Browser, story: Story, tmp_path: Path) -> None:
    server = story.server
    server.user("ann", "edit", "run")
    server.user("bea", "decide", groups=("finance",), email="bea@example.com")
    server.user("cid", "decide", groups=("finance",), email="cid@example.com")
    server.user("kai", "audit")
    story.set_locale("bea", "de")
    story.set_locale("kai", "ja")
    with story.api(story.token("ann")) as api:
        flow_id = api.post("/api/flows", json=invoice_flow(story.receiver.url)).json()["id"]

        # The author watches the runs page while the run starts: it appears without a reload.
        author = log_in(browser, server, "ann", at="/runs")
        expect(author.get_by_role("heading", name="Runs")).to_be_visible()
        run_id = api.post(
            f"/api/flows/{flow_id}/runs", json={"input": {"invoice": "A-7", "amount": 1200}}
        ).json()["run"]
    row = author.locator(f"tr[data-run='{run_id}']")
    expect(row).to_be_visible(timeout=30_000)
    expect(row).to_contain_text("Waiting", timeout=30_000)

    # The approver's mail: German, with the question and a link that decides nothing by itself.
    mail = story.mailbox.wait_for_mail_to("bea@example.com")
    assert str(make_header(decode_header(mail["Subject"]))) == "Genehmigung erbeten: Pay invoice A-7?"
    body = cast(bytes, mail.get_payload(decode=True)).decode()
    assert "Amount 1200 EUR is over the limit" in body and "abgelehnt" in body
    match = re.search(r"(http://\S+/approvals/(\d+))", body)
    assert match is not None, body
    link, approval_id = match.group(1), match.group(2)

    # The second approver opens the same link first, and waits.
    late = log_in(browser, server, "cid", at=link)
    expect(late.get_by_role("heading", name="Pay invoice A-7?")).to_be_visible()

    approver = log_in(browser, server, "bea", locale="de-DE", at="/inbox")
    expect(approver.get_by_role("heading", name="Pay invoice A-7?")).to_be_visible()
    expect(approver.get_by_test_id("inbox-count")).to_have_text("1")
    screenshot(approver, "inbox-de")
    approver.goto(link)
    expect(approver.get_by_text("Amount 1200 EUR is over the limit")).to_be_visible()
    assert approver.url.endswith(f"/approvals/{approval_id}")
    approver.get_by_role("button", name="Genehmigen").click()
    approver.get_by_role("button", name="Bestätigen").click()
    # The card then shows the decision that stands, in German.
    expect(approver.get_by_role("status")).to_contain_text("Genehmigt: entschieden von bea am")

    late.get_by_role("button", name="Approve").click()
    late.get_by_role("button", name="Confirm").click()
    expect(late.get_by_role("alert")).to_contain_text("Already decided by bea at")

    # The run page: the path through the approval and the payment, and the payment's effect.
    author.goto(f"/runs/{run_id}")
    expect(author.locator("[data-status]")).to_have_attribute("data-status", "succeeded", timeout=60_000)
    for node in ("start", "ask", "pay", "paid"):
        expect(author.locator(f".run-node:has([data-node='{node}'])")).to_have_class(re.compile("visited"))
    expect(author.locator(".run-node:has([data-node='refused'])")).to_have_class(re.compile("unvisited"))
    effect = author.locator("tr[data-effect='pay']")
    expect(effect).to_contain_text("Sent")
    expect(effect).to_contain_text("200")
    expect(author.locator(".journal")).to_contain_text("paid A-7")
    assert [r.path for r in story.receiver.received] == ["/pay"]
    screenshot(author, "run")

    # The auditor, in Japanese, finds the decision and exports it.
    auditor = log_in(browser, server, "kai", locale="ja-JP", at="/audit")
    auditor.get_by_label("質問またはコメント内のテキスト").fill("A-7")
    auditor.get_by_role("button", name="検索").click()
    found = auditor.locator(f"tr[data-approval='{approval_id}']")
    expect(found).to_contain_text("承認済み")
    expect(found).to_contain_text("bea")
    screenshot(auditor, "audit-ja")
    with auditor.expect_download() as download:
        auditor.get_by_role("link", name="CSV でエクスポート").click()
    saved = tmp_path / "audit.csv"
    download.value.save_as(saved)
    # A byte-order mark first, so that Excel on a Japanese Windows reads the file as UTF-8.
    assert saved.read_bytes().startswith("\ufeff".encode()), saved.read_bytes()[:8]
    header, *rows = list(csv.reader(io.StringIO(saved.read_text(encoding="utf-8-sig"))))
    assert header == [column_label(column, "ja") for column in COLUMNS]
    assert header[:3] == ["承認", "実行", "フロー"]
    [record] = [dict(zip(COLUMNS, r, strict=True)) for r in rows]
    assert (record["approval"], record["outcome_code"], record["outcome"], record["decided_by"]) == (
        approval_id,
        "approved",
        "承認済み",
        "bea",
    )
    for page in (author, late, approver, auditor):
        page.context.close()


def _parked_run(story: Story, author: str) -> int:
    """A run of the invoice flow, started through the API and parked at its approval; its id."""
    with story.api(story.token(author)) as api:
        flow_id = api.post("/api/flows", json=invoice_flow(story.receiver.url)).json()["id"]
        run_id = int(
            api.post(f"/api/flows/{flow_id}/runs", json={"input": {"invoice": "A-8", "amount": 90}}).json()[
                "run"
            ]
        )
    wait_for(story.server.database_url, "SELECT status FROM runs WHERE id = %s", run_id, want=("waiting",))
    return run_id


def _a_list(response: Response | Request) -> bool:
    return bool(re.search(r"/api/runs(\?|$)", response.url))


def test_a_run_parked_while_the_runs_page_connects_is_shown_waiting(browser: Browser, story: Story) -> None:
    """The runs page reads its list, then its change stream starts listening: a run that parked in between
    (a busy server, a slow network) was shown as the list had it ("Running") until its next change, which
    for an approval is days away. The stream's `ready` has the page read its runs again."""
    story.server.user("lou", "edit", "run")
    story.server.user("lia", "decide", groups=("finance",))
    page = log_in(browser, story.server, "lou", at="about:blank")
    held: list[Route] = []
    # The page's stream is held at the browser until the run has parked: the change it would have heard
    # is committed before it listens, as on a machine where connecting is slow.
    page.route("**/api/runs/stream*", lambda route: held.append(route))
    with page.expect_request("**/api/runs/stream*"), page.expect_response(_a_list):
        page.goto("/runs")
    # One more call to Playwright, and the route's handler has run (its message came before this answer).
    expect(page.get_by_role("heading", name="Runs")).to_be_visible()
    assert len(held) == 1
    run_id = _parked_run(story, "lou")
    row = page.locator(f"tr[data-run='{run_id}']")
    expect(row).to_have_count(0)  # the list was read before the run began
    held[0].continue_()
    expect(row).to_contain_text("Waiting")
    page.context.close()


def test_a_run_parked_while_the_runs_list_is_on_its_way_is_shown_waiting(
    browser: Browser, story: Story
) -> None:
    """The other order: the stream says `ready` while the list, read by the server before the run parked,
    is still on its way to the page. The page reads the list again rather than wait for that answer."""
    story.server.user("lev", "edit", "run")
    story.server.user("lin", "decide", groups=("finance",))
    page = log_in(browser, story.server, "lev", at="about:blank")
    streams: list[Route] = []
    lists: list[Route] = []

    def hold_the_first_list(route: Route) -> None:
        if lists:
            route.continue_()
        else:
            lists.append(route)

    page.route("**/api/runs/stream*", lambda route: streams.append(route))
    page.route(re.compile(r".*/api/runs(\?.*)?$"), hold_the_first_list)
    with page.expect_request("**/api/runs/stream*"), page.expect_request(_a_list):
        page.goto("/runs")
    # One more call to Playwright, and the routes' handlers have run (their messages came before its answer).
    expect(page.get_by_role("heading", name="Runs")).to_be_visible()
    assert (len(streams), len(lists)) == (1, 1)
    stale = lists[0].fetch()  # the server reads the list now, before the run; the page still waits for it
    run_id = _parked_run(story, "lev")
    with page.expect_request(_a_list):  # ready: the page asks for the list again at once
        streams[0].continue_()
    lists[0].fulfill(response=stale)  # the old answer comes last, and is not what the page shows
    expect(page.locator(f"tr[data-run='{run_id}']")).to_contain_text("Waiting")
    page.context.close()
