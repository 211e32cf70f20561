"""The audit trail: decisions filtered and paged in a stable order, exported with times an auditor reads."""

from __future__ import annotations

import asyncio
import csv
import io
import json
from collections.abc import Callable
from datetime import timedelta
from functools import partial
from typing import NamedTuple

import psycopg
import pytest

from backend.approvals.audit import (
    COLUMNS,
    AuditFilter,
    ExportRow,
    Page,
    column_label,
    every_page,
    export_csv,
    export_json,
    search,
)
from backend.approvals.decisions import ApprovalDecisions
from backend.queue.commands import open_pool
from backend.spreadsheets import FORMULA_STARTS
from backend.store.queries import named_row
from tests.approvals.test_decisions import approval_flow, decide, user
from tests.support import Queue


def audit(queue: Queue, where: AuditFilter, cursor: str | None = None, limit: int = 100) -> Page:
    return queue.aconn(lambda conn: search(conn, where, cursor=cursor, limit=limit))


@pytest.fixture(scope="module")
def decided(database_url: str) -> Queue:
    """Seven decisions on two flows by two deciders, one a day, and one approval still open."""
    queue = Queue(database_url)
    first, second = queue.save(approval_flow()), queue.save(approval_flow())
    ann, bob = user(queue, "ann", "decide"), user(queue, "bob", "decide")
    for i in range(8):
        run_id = queue.start(first if i % 2 == 0 else second, input={"id": f"=HYPERLINK({i})"})
        queue.drain()
        row = queue.one("SELECT id FROM approvals WHERE run_id = %s", run_id)
        assert row is not None
        if i < 7:
            decide(queue, row[0], "approved" if i % 3 else "rejected", ann if i < 4 else bob)
        queue.clock.advance(timedelta(days=1))
    return queue


def test_filters_by_flow_decider_outcome_and_time(decided: Queue) -> None:
    everything = audit(decided, AuditFilter()).rows
    assert len(everything) == 7, "the open approval is no decision"
    flow_id = everything[0].flow_id
    assert {r.flow_id for r in audit(decided, AuditFilter(flow_id=flow_id)).rows} == {flow_id}
    assert [r.decided_by for r in audit(decided, AuditFilter(decider="bob")).rows] == ["bob"] * 3
    rejected = audit(decided, AuditFilter(outcome="rejected")).rows
    assert len(rejected) == 3 and {r.outcome for r in rejected} == {"rejected"}
    since = everything[2].decided_at
    until = everything[5].decided_at
    window = audit(decided, AuditFilter(since=since, until=until)).rows
    assert [r.id for r in window] == [r.id for r in everything[2:5]]


def test_pages_follow_each_other_without_gaps_or_repeats(decided: Queue) -> None:
    seen: list[int] = []
    cursor: str | None = None
    while True:
        page = audit(decided, AuditFilter(), cursor=cursor, limit=3)
        seen.extend(r.id for r in page.rows)
        if page.next_cursor is None:
            break
        cursor = page.next_cursor
    assert seen == [r.id for r in audit(decided, AuditFilter()).rows]
    assert len(seen) == len(set(seen)) == 7
    with pytest.raises(ValueError, match="audit_page_too_large"):
        audit(decided, AuditFilter(), limit=1001)
    with pytest.raises(ValueError, match="audit_page_too_large"):
        audit(decided, AuditFilter(), limit=0)
    assert len(audit(decided, AuditFilter(), limit=1000).rows) == 7, "a thousand is the largest page"


def test_a_page_holding_the_last_decision_has_no_next_and_one_short_of_it_has(decided: Queue) -> None:
    assert audit(decided, AuditFilter(), limit=7).next_cursor is None, "exactly the rest: no next page"
    short = audit(decided, AuditFilter(), limit=6)
    assert len(short.rows) == 6 and short.next_cursor is not None
    rest = audit(decided, AuditFilter(), cursor=short.next_cursor, limit=6)
    assert (len(rest.rows), rest.next_cursor) == (1, None)
    with_votes = audit(decided, AuditFilter(), limit=1).rows[0]
    assert [vote.voter for vote in with_votes.votes] == [with_votes.decided_by], "search reads the votes"


def exported(queue: Queue, where: AuditFilter, limit: int) -> list[list[ExportRow]]:
    """Every page the streamed export reads for `where`, pages of `limit`."""

    async def pages() -> list[list[ExportRow]]:
        pool = open_pool(queue.url, size=2)
        await pool.open()
        try:
            return [page async for page in every_page(pool, where, limit=limit)]
        finally:
            await pool.close()

    return asyncio.run(pages())


def test_every_page_of_an_export_is_read_in_order_and_without_votes(decided: Queue) -> None:
    """The streamed export's reader: pages of `limit`, each on a connection of its own, to the end."""
    found = exported(decided, AuditFilter(decider="ann"), limit=2)
    assert [len(page) for page in found] == [2, 2]
    assert [r.id for page in found for r in page] == [
        r.id for r in audit(decided, AuditFilter(decider="ann")).rows
    ]
    assert all(type(r) is ExportRow for page in found for r in page), "an export has no column for votes"
    assert [len(page) for page in exported(decided, AuditFilter(), limit=7)] == [7], "no empty page after"


def test_the_export_reads_the_decisions_the_search_finds_for_every_filter(decided: Queue) -> None:
    """`audit_export` repeats `audit`'s filters with fewer columns: the two find the same decisions, with
    the same values in the columns they share."""
    everything = audit(decided, AuditFilter()).rows
    filters = [
        AuditFilter(),
        AuditFilter(flow_id=everything[0].flow_id),
        AuditFilter(decider="bob"),
        AuditFilter(outcome="rejected"),
        AuditFilter(since=everything[2].decided_at, until=everything[5].decided_at),
        AuditFilter(text="HYPERLINK(3"),
        AuditFilter(text="no such words anywhere"),
    ]
    for where in filters:
        searched = audit(decided, where).rows
        read = [r for page in exported(decided, where, limit=3) for r in page]
        assert [r._asdict() for r in read] == [
            {field: getattr(r, field) for field in ExportRow._fields} for r in searched
        ], where


def test_a_row_of_another_shape_is_refused_by_name(decided: Queue) -> None:
    """`named_row` reads a NamedTuple by the columns' names: a statement whose columns differ is an error,
    never a value in another field."""

    class Swapped(NamedTuple):
        run_id: int
        id: int

    async def read() -> None:
        async with await psycopg.AsyncConnection.connect(decided.url) as conn:
            cur = conn.cursor(row_factory=named_row(Swapped))
            await cur.execute("SELECT 1 AS id, 2 AS run_id")

    with pytest.raises(TypeError, match="Swapped reads the columns"):
        asyncio.run(read())


def read_csv(text: str, locale: str) -> list[dict[str, str]]:
    """The rows of an export by machine key, after checking its header is in the reader's language."""
    header, *rows = list(csv.reader(io.StringIO(text)))
    assert header == [column_label(column, locale) for column in COLUMNS]
    return [dict(zip(COLUMNS, row, strict=True)) for row in rows]


def test_a_german_auditors_csv_has_german_dates_utc_times_and_no_formulas(decided: Queue) -> None:
    rows = audit(decided, AuditFilter()).rows
    text = export_csv(rows, "de")
    assert text.startswith("Genehmigung,Lauf,Flow-Nummer,")
    records = read_csv(text, "de")
    assert len(records) == 7
    first = records[0]
    decided_at = rows[0].decided_at
    assert decided_at is not None
    assert first["decided_at_utc"].endswith("+00:00")
    assert first["decided_at_local"].startswith(
        f"{decided_at.day:02d}.{decided_at.month:02d}.{decided_at.year}"
    )
    assert first["title"] == "Pay =HYPERLINK(0)?", "a formula inside the text is no formula"
    as_json = json.loads(export_json(rows, "en"))
    assert as_json[0]["decided_at_local"] != first["decided_at_local"]
    assert [r["approval"] for r in as_json] == [r.id for r in rows]
    assert {r["outcome_code"] for r in records} <= {"approved", "rejected", "timed_out_rejected", "skipped"}
    assert all(r["outcome"] and r["outcome"] != r["outcome_code"] for r in records)


def test_the_text_filter_finds_words_in_title_and_comment_ignoring_case(decided: Queue) -> None:
    every = audit(decided, AuditFilter()).rows
    found = audit(decided, AuditFilter(text="hyperlink")).rows
    assert found and [r.id for r in found] == [r.id for r in every if "hyperlink" in r.title.lower()]
    assert audit(decided, AuditFilter(text="no such words anywhere")).rows == []


FORMULAS = ("=cmd()", "+1+1", "-2+3", "@SUM(A1)", "\t=1", "\r=1")


def test_a_cell_that_would_be_a_formula_is_quoted(migrated_databases: Callable[[], str]) -> None:
    """Titles and comments that are whole formulas, one for each start a spreadsheet runs, each read back
    from the export with the apostrophe in front; a text with a formula inside it stays as written."""
    assert sorted(text[0] for text in FORMULAS) == sorted(FORMULA_STARTS)
    queue = Queue(migrated_databases())
    flow_id = queue.save(approval_flow(title="{{trigger.text}}"))
    ann = user(queue, "ann", "decide")
    service = ApprovalDecisions(queue.clock)
    for text in (*FORMULAS, "Pay =cmd()"):
        run_id = queue.start(flow_id, input={"text": text})
        queue.drain()
        row = queue.one("SELECT id FROM approvals WHERE run_id = %s", run_id)
        assert row is not None
        queue.aconn(partial(service.decide, approval_id=row[0], outcome="approved", by=ann, comment=text))
    rows = audit(queue, AuditFilter(flow_id=flow_id)).rows
    records = read_csv(export_csv(rows, "en"), "en")
    assert [(r["title"], r["comment"]) for r in records] == [
        *(("'" + text, "'" + text) for text in FORMULAS),
        ("Pay =cmd()", "Pay =cmd()"),
    ]
