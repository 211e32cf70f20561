"""A run whose journal is longer than a page: its page shows the first 100 lines and a button for the
next ones, which the keyboard reaches and presses until every line is shown (English and Japanese). A next
page that never reaches the server is said in the reader's language, not the browser's, and the button
tries again."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
from playwright.sync_api import Browser, Page, Route, expect

from backend.flows.store import create_flow
from tests.browser.support import Server, log_in, screenshot, serious_violations

LINES = 250
FLOW = {
    "format": "flowyard.flow/1",
    "name": "long journal",
    "nodes": [
        {"id": "start", "type": "trigger", "config": {"kind": "manual"}},
        {"id": "note", "type": "log", "config": {"message": "noted"}},
    ],
    "wires": [{"from": "start", "to": "note"}],
}


def long_run(server: Server, author: str) -> int:
    """A succeeded run with LINES journal lines, written as a long loop's would be."""

    async def write() -> int:
        async with await psycopg.AsyncConnection.connect(server.database_url, autocommit=True) as conn:
            flow_id = await create_flow(conn, FLOW, by=author)
            cur = await conn.execute(
                "INSERT INTO runs (flow_id, version, status, trigger_kind, journal_seq, started_by, ended_at)"
                " VALUES (%s, 1, 'succeeded', 'manual', %s, %s, now()) RETURNING id",
                (flow_id, LINES, author),
            )
            row = await cur.fetchone()
            assert row is not None
            await conn.execute(
                "INSERT INTO journal (run_id, seq, code, node, visit, data)"
                " SELECT %s, g, 'node_visited', 'note', g, jsonb_build_object('type', 'log', 'port', 'out')"
                " FROM generate_series(1, %s) AS g",
                (row[0], LINES),
            )
            return int(row[0])

    # Playwright's sync API keeps an event loop running in this thread: the flow's store is asynchronous.
    with ThreadPoolExecutor(1) as aside:
        return aside.submit(asyncio.run, write()).result()


def test_the_journal_is_read_a_page_at_a_time_with_the_keyboard(browser: Browser, server: Server) -> None:
    server.user("jules", "edit", "run")
    run_id = long_run(server, "jules")
    page = log_in(browser, server, "jules", at=f"/runs/{run_id}")
    lines = page.locator("ol.journal > li")
    expect(lines).to_have_count(100)
    expect(lines.last).to_have_attribute("data-seq", "100")
    more = page.get_by_role("button", name="Show the next lines")
    assert serious_violations(page) == []

    more.focus()
    page.keyboard.press("Enter")
    expect(lines).to_have_count(200)
    expect(lines.nth(100)).to_have_attribute("data-seq", "101")
    expect(more).to_be_focused()  # the next page is one more key away
    more.scroll_into_view_if_needed()
    screenshot(page, "run-journal-more-en")

    page.keyboard.press("Enter")
    expect(lines).to_have_count(LINES)
    expect(lines.last).to_have_attribute("data-seq", str(LINES))
    expect(lines.last).to_contain_text("Visited note")
    expect(more).to_have_count(0)  # every line is shown
    page.context.close()


def test_the_next_lines_in_japanese(browser: Browser, server: Server) -> None:
    server.user("haruto", "edit", "run")
    run_id = long_run(server, "haruto")
    page = log_in(browser, server, "haruto", locale="ja-JP", at=f"/runs/{run_id}")
    lines = page.locator("ol.journal > li")
    expect(lines).to_have_count(100)
    more = page.get_by_role("button", name="次の行を表示")
    more.click()
    expect(lines).to_have_count(200)
    more.scroll_into_view_if_needed()
    screenshot(page, "run-journal-more-ja")
    page.context.close()


def cut_off(page: Page, run_id: int) -> None:
    """Every next page of the run's journal fails as a lost connection would (the first page is read)."""

    def abort(route: Route) -> None:
        route.abort("internetdisconnected")

    page.route(f"**/api/runs/{run_id}?after=*", abort)


@pytest.mark.console_errors("the journal's next page is cut off", allow=r"net::ERR_INTERNET_DISCONNECTED")
def test_a_next_page_that_cannot_be_fetched_is_said_from_the_catalog(
    browser: Browser, server: Server
) -> None:
    server.user("nadia", "edit", "run")
    run_id = long_run(server, "nadia")
    page = log_in(browser, server, "nadia", at="about:blank")
    cut_off(page, run_id)
    page.goto(f"/runs/{run_id}")
    lines = page.locator("ol.journal > li")
    expect(lines).to_have_count(100)
    page.get_by_role("button", name="Show the next lines").click()
    expect(page.get_by_role("alert")).to_have_text(
        "The next lines could not be loaded because the server cannot be reached."
        " Please check your connection and try again."
    )
    expect(lines).to_have_count(100)
    page.get_by_role("button", name="Show the next lines").scroll_into_view_if_needed()
    screenshot(page, "run-journal-unreached-en")

    page.unroute(f"**/api/runs/{run_id}?after=*")
    page.get_by_role("button", name="Show the next lines").click()
    expect(lines).to_have_count(200)
    expect(page.get_by_role("alert")).to_have_count(0)
    page.context.close()


@pytest.mark.console_errors("the journal's next page is cut off", allow=r"net::ERR_INTERNET_DISCONNECTED")
def test_a_next_page_that_cannot_be_fetched_in_japanese(browser: Browser, server: Server) -> None:
    server.user("naoki", "edit", "run")
    run_id = long_run(server, "naoki")
    page = log_in(browser, server, "naoki", locale="ja-JP", at="about:blank")
    cut_off(page, run_id)
    page.goto(f"/runs/{run_id}")
    expect(page.locator("ol.journal > li")).to_have_count(100)
    page.get_by_role("button", name="次の行を表示").click()
    expect(page.get_by_role("alert")).to_have_text(
        "サーバーに接続できないため、次の行を読み込めませんでした。接続を確認して、もう一度お試しください。"
    )
    page.get_by_role("button", name="次の行を表示").scroll_into_view_if_needed()
    screenshot(page, "run-journal-unreached-ja")
    page.context.close()
