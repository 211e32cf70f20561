"""The audit view: decisions filtered by flow, decider, outcome and time, keyset-paginated, exported.

Pages are ordered by (decided_at, id), which no later decision can reorder: a page read today is the
same page next year, and the cursor is the last row's key, not an offset.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import Any, LiteralString

from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

from backend.approvals.records import Approval, read_with_votes
from backend.errors import CodedError
from backend.i18n.catalogs import message
from backend.i18n.names import timeout_rule_name
from backend.i18n.zones import format_moment
from backend.spreadsheets import safe_cell
from backend.store.queries import every, load

QUERIES = load("backend.approvals", "queries.sql")
MAX_PAGE = 1000


class AuditRefused(CodedError, ValueError):
    """An audit search the filters cannot express (a bad cursor, an unknown column)."""

    status = 422  # a refusal of what was asked


@dataclass(frozen=True, slots=True)
class AuditFilter:
    flow_id: int | None = None
    decider: str | None = None
    outcome: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    text: str | None = None  # in the title, the explanation or the comment, ignoring case


@dataclass(frozen=True, slots=True)
class Page:
    rows: list[Approval]
    next_cursor: str | None  # None on the last page


def encode_cursor(moment: datetime, row_id: int) -> str:
    """The key of the last row of a page: its time and its id.

    Examples:
        >>> from datetime import UTC
        >>> decode_cursor(encode_cursor(datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC), 17))
        (datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc), 17)
    """
    return f"{moment.isoformat()}/{row_id}"


def decode_cursor(cursor: str) -> tuple[datetime, int]:
    """A cursor made by `encode_cursor`; `audit_cursor_invalid` for anything else."""
    at, _, row_id = cursor.rpartition("/")
    try:
        moment, number = datetime.fromisoformat(at), int(row_id)
    except ValueError:
        raise AuditRefused(code="audit_cursor_invalid") from None
    if not 0 <= number < 2**63 or moment.tzinfo is None:
        raise AuditRefused(code="audit_cursor_invalid")
    return moment, number


# With a text, the decisions looked through in order before the text index is asked (queries.sql, audit):
# a text in one decision in 20 or more fills a page of 100 there; a rarer one is the index's (each
# decision looked through costs a few microseconds, the index a lookup of every piece: bench/audit_year.py).
TEXT_WINDOW = 2_000


async def search(
    conn: AsyncConnection[Any],
    where: AuditFilter,
    *,
    cursor: str | None = None,
    limit: int = 100,
    window: int = TEXT_WINDOW,
    votes: bool = True,
) -> Page:
    """One page of decisions; a limit over MAX_PAGE is refused, never cut. `window`: how many decisions a
    text is looked for in, in order, before the text index is asked for the rest (TEXT_WINDOW). Without
    `votes` each decision's votes are left unread (an export has no column for them)."""
    if not 1 <= limit <= MAX_PAGE:
        raise AuditRefused(code="audit_page_too_large")
    after_at, after_id = decode_cursor(cursor) if cursor else (None, None)
    read = read_with_votes if votes else _without_votes
    rows = await read(
        conn,
        QUERIES["audit"],
        {
            "flow_id": where.flow_id,
            "decider": where.decider,
            "outcome": where.outcome,
            "since": where.since,
            "until": where.until,
            "text": where.text,
            "after_at": after_at,
            "after_id": after_id,
            "limit": limit + 1,
            "scan": window,
        },
    )
    more = len(rows) > limit
    rows = rows[:limit]
    last = rows[-1] if rows else None
    return Page(rows, encode_cursor(last.decided_at, last.id) if more and last and last.decided_at else None)


async def _without_votes(
    conn: AsyncConnection[Any], query: LiteralString, params: dict[str, Any]
) -> list[Approval]:
    return await every(conn, Approval, query, params)


COLUMNS = (
    "approval",
    "run",
    "flow",
    "version",
    "node",
    "title",
    "outcome",
    "outcome_code",
    "decided_by",
    "decided_at_utc",
    "decided_at_local",
    "comment",
    "requested_at_utc",
    "deadline_at_utc",
    "on_timeout",
    "started_by",
    # Added after the first release's columns, so that a program reading by position still finds them.
    "requested_at_local",
    "deadline_at_local",
    "on_timeout_code",
)


def _local(moment: datetime | None, locale: str, tz: tzinfo) -> str:
    """A moment in the reader's zone and locale, the zone named: `01.03.2026, 15:05:00 MEZ`."""
    return "" if moment is None else format_moment(moment, locale, tz=tz)


def _utc(moment: datetime | None) -> str:
    return "" if moment is None else moment.astimezone(UTC).isoformat()


def _cell(value: Any) -> str:
    return safe_cell("" if value is None else str(value))


def outcome_text(outcome: str | None, locale: str) -> str:
    """An outcome as a reader says it; the code stays beside it for programs.

    Examples:
        >>> outcome_text("timed_out_rejected", "de")
        'Nach Fristablauf abgelehnt'
    """
    if outcome is None:
        return ""
    code = {
        "approved": "outcome_approved",
        "rejected": "outcome_rejected",
        "timed_out_approved": "outcome_timed_out_approved",
        "timed_out_rejected": "outcome_timed_out_rejected",
        "skipped": "outcome_skipped",
        "cancelled": "outcome_cancelled",
        "branch_cancelled": "outcome_branch_cancelled",
    }.get(outcome, "outcome_run_failed")
    return message(code, locale)


def column_label(column: str, locale: str) -> str:
    """A CSV column's header in the reader's language."""
    code = {
        "approval": "audit_column_approval",
        "run": "audit_column_run",
        "flow": "audit_column_flow",
        "version": "audit_column_version",
        "node": "audit_column_node",
        "title": "audit_column_title",
        "outcome": "audit_column_outcome",
        "outcome_code": "audit_column_outcome_code",
        "decided_by": "audit_column_decided_by",
        "decided_at_utc": "audit_column_decided_at_utc",
        "decided_at_local": "audit_column_decided_at_local",
        "comment": "audit_column_comment",
        "requested_at_utc": "audit_column_requested_at_utc",
        "deadline_at_utc": "audit_column_deadline_at_utc",
        "on_timeout": "audit_column_on_timeout",
        "requested_at_local": "audit_column_requested_at_local",
        "deadline_at_local": "audit_column_deadline_at_local",
        "on_timeout_code": "audit_column_on_timeout_code",
    }.get(column, "audit_column_started_by")
    return message(code, locale)


def export_rows(rows: Sequence[Approval], locale: str, tz: tzinfo = UTC) -> list[dict[str, Any]]:
    """The rows with machine keys: `outcome` is the reader's sentence, `outcome_code` the reason code;
    `on_timeout` is the rule's name in the reader's language, `on_timeout_code` the rule itself (each
    word looked up once per page, not once per row)."""
    outcomes: dict[str | None, str] = {}
    rules: dict[str | None, str] = {}

    def said(outcome: str | None) -> str:
        if outcome not in outcomes:
            outcomes[outcome] = outcome_text(outcome, locale)
        return outcomes[outcome]

    def rule(on_timeout: str | None) -> str:
        if on_timeout not in rules:
            rules[on_timeout] = timeout_rule_name(on_timeout, locale)
        return rules[on_timeout]

    return [
        {
            "approval": r.id,
            "run": r.run_id,
            "flow": r.flow_id,
            "version": r.version,
            "node": r.node,
            "title": r.title,
            "outcome": said(r.outcome),
            "outcome_code": r.outcome,
            "decided_by": r.decided_by,
            "decided_at_utc": _utc(r.decided_at),
            "decided_at_local": _local(r.decided_at, locale, tz),
            "comment": r.comment,
            "requested_at_utc": _utc(r.requested_at),
            "deadline_at_utc": _utc(r.deadline_at),
            "on_timeout": rule(r.on_timeout),
            "started_by": r.started_by,
            "requested_at_local": _local(r.requested_at, locale, tz),
            "deadline_at_local": _local(r.deadline_at, locale, tz),
            "on_timeout_code": r.on_timeout,
        }
        for r in rows
    ]


def export_csv(rows: Sequence[Approval], locale: str, tz: tzinfo = UTC) -> str:
    """CSV for spreadsheets and people: headers in the reader's language, times in UTC and in the
    reader's locale and zone, a column of reason codes for programs; no cell can be a formula."""
    return csv_header(locale) + csv_lines(rows, locale, tz)


def csv_header(locale: str) -> str:
    """The CSV's first line: the columns' names in the reader's language."""
    return _csv([[column_label(column, locale) for column in COLUMNS]])


def csv_lines(rows: Sequence[Approval], locale: str, tz: tzinfo = UTC) -> str:
    """The CSV's lines of these decisions, after the header (an export streamed a page at a time)."""
    return _csv([_cell(row[column]) for column in COLUMNS] for row in export_rows(rows, locale, tz))


def _csv(lines: Iterable[list[str]]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(lines)
    return out.getvalue()


def export_json(rows: Sequence[Approval], locale: str, tz: tzinfo = UTC) -> str:
    return json.dumps(export_rows(rows, locale, tz), ensure_ascii=False)


async def every_page(
    pool: AsyncConnectionPool[Any], where: AuditFilter, *, limit: int = MAX_PAGE
) -> AsyncIterator[list[Approval]]:
    """Every decision the filter finds, a page at a time in the audit's order, each page read on a
    connection of its own: an export of a year holds no connection while its reader is slow to take it,
    and keeps one page in memory, whatever its size."""
    cursor: str | None = None
    while True:
        async with pool.connection() as conn:
            page = await search(conn, where, cursor=cursor, limit=limit, votes=False)
        yield page.rows
        if page.next_cursor is None:
            return
        cursor = page.next_cursor
