"""The audit view: decisions filtered by flow, decider, outcome and time, keyset-paginated, exported.

Pages are ordered by (decided_at, id), which no later decision can reorder: a page read today is the
same page next year, and the cursor is the last row's key, not an offset.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import Any, NamedTuple, Protocol

from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

from backend.approvals.records import Approval, read_with_votes
from backend.errors import CodedError
from backend.i18n.catalogs import message
from backend.i18n.names import timeout_rule_name
from backend.i18n.zones import moment_writer
from backend.spreadsheets import safe_cell
from backend.store.queries import load, named_row

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
) -> Page:
    """One page of decisions, each with its votes; a limit over MAX_PAGE is refused, never cut. `window`:
    how many decisions a text is looked for in, in order, before the text index is asked for the rest
    (TEXT_WINDOW)."""
    if not 1 <= limit <= MAX_PAGE:
        raise AuditRefused(code="audit_page_too_large")
    after_at, after_id = decode_cursor(cursor) if cursor else (None, None)
    params = _params(where, after_at, after_id, limit + 1, window)
    rows = await read_with_votes(conn, QUERIES["audit"], params)
    more = len(rows) > limit
    rows = rows[:limit]
    last = rows[-1] if rows else None
    return Page(rows, encode_cursor(last.decided_at, last.id) if more and last and last.decided_at else None)


def _params(
    where: AuditFilter, after_at: datetime | None, after_id: int | None, limit: int, window: int
) -> dict[str, Any]:
    """The parameters of the `audit` and `audit_export` statements: the page starts after the later of the
    cursor's key and `since` (as the key just before its first decision: ids start at 1)."""
    if where.since is not None and (after_at is None or (after_at, after_id or 0) < (where.since, 0)):
        after_at, after_id = where.since, 0
    return {
        "flow_id": where.flow_id,
        "decider": where.decider,
        "outcome": where.outcome,
        "since": where.since,
        "until": where.until,
        "text": where.text,
        "after_at": after_at,
        "after_id": after_id,
        "limit": limit,
        "scan": window,
    }


class ExportRow(NamedTuple):
    """A decision as an export reads it (`audit_export`): the columns it writes and no others, by name."""

    id: int
    run_id: int
    flow_id: int
    version: int
    node: str
    title: str
    outcome: str | None
    decided_by: str | None
    decided_at: datetime | None
    comment: str | None
    requested_at: datetime
    deadline_at: datetime | None
    on_timeout: str | None
    started_by: str | None


class Exported(Protocol):
    """What an export writes of a decision: an `ExportRow`, or an `Approval` a search read."""

    @property
    def id(self) -> int: ...
    @property
    def run_id(self) -> int: ...
    @property
    def flow_id(self) -> int: ...
    @property
    def version(self) -> int: ...
    @property
    def node(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def outcome(self) -> str | None: ...
    @property
    def decided_by(self) -> str | None: ...
    @property
    def decided_at(self) -> datetime | None: ...
    @property
    def comment(self) -> str | None: ...
    @property
    def requested_at(self) -> datetime: ...
    @property
    def deadline_at(self) -> datetime | None: ...
    @property
    def on_timeout(self) -> str | None: ...
    @property
    def started_by(self) -> str | None: ...


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


def _utc(moment: datetime | None) -> str:
    if moment is None:
        return ""
    return (moment if moment.tzinfo is UTC else moment.astimezone(UTC)).isoformat()


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


class _Words:
    """A page's words in the reader's language, each looked up once per page, not once per row: an
    outcome's sentence, a deadline rule's name, and a moment in the reader's zone ("" for none)."""

    def __init__(self, locale: str, tz: tzinfo) -> None:
        self.locale, self.moment = locale, moment_writer(locale, tz)
        self.outcomes: dict[str | None, str] = {}
        self.rules: dict[str | None, str] = {}

    def outcome(self, outcome: str | None) -> str:
        said = self.outcomes.get(outcome)
        if said is None:
            said = self.outcomes[outcome] = outcome_text(outcome, self.locale)
        return said

    def rule(self, on_timeout: str | None) -> str:
        said = self.rules.get(on_timeout)
        if said is None:
            said = self.rules[on_timeout] = timeout_rule_name(on_timeout, self.locale)
        return said

    def local(self, moment: datetime | None) -> str:
        """A moment in the reader's zone and locale, the zone named: `01.03.2026, 15:05:00 MEZ`."""
        return "" if moment is None else self.moment(moment)


def export_rows(rows: Sequence[Exported], locale: str, tz: tzinfo = UTC) -> list[dict[str, Any]]:
    """The rows with machine keys: `outcome` is the reader's sentence, `outcome_code` the reason code;
    `on_timeout` is the rule's name in the reader's language, `on_timeout_code` the rule itself."""
    words = _Words(locale, tz)
    return [
        {
            "approval": r.id,
            "run": r.run_id,
            "flow": r.flow_id,
            "version": r.version,
            "node": r.node,
            "title": r.title,
            "outcome": words.outcome(r.outcome),
            "outcome_code": r.outcome,
            "decided_by": r.decided_by,
            "decided_at_utc": _utc(r.decided_at),
            "decided_at_local": words.local(r.decided_at),
            "comment": r.comment,
            "requested_at_utc": _utc(r.requested_at),
            "deadline_at_utc": _utc(r.deadline_at),
            "on_timeout": words.rule(r.on_timeout),
            "started_by": r.started_by,
            "requested_at_local": words.local(r.requested_at),
            "deadline_at_local": words.local(r.deadline_at),
            "on_timeout_code": r.on_timeout,
        }
        for r in rows
    ]


def export_csv(rows: Sequence[Exported], locale: str, tz: tzinfo = UTC) -> str:
    """CSV for spreadsheets and people: headers in the reader's language, times in UTC and in the
    reader's locale and zone, a column of reason codes for programs; no cell can be a formula."""
    return csv_header(locale) + csv_lines(rows, locale, tz)


def csv_header(locale: str) -> str:
    """The CSV's first line: the columns' names in the reader's language."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerow([column_label(column, locale) for column in COLUMNS])
    return out.getvalue()


def csv_lines(rows: Sequence[Exported], locale: str, tz: tzinfo = UTC) -> str:
    """The CSV's lines of these decisions, after the header (an export streamed a page at a time): the
    cells of `export_rows`, each that a person wrote made safe (`safe_cell`), in the order of COLUMNS.

    A row's cells are written straight from it (an export of a year writes millions; docs/audit.md), and
    only the text a person typed or named goes through `safe_cell`: the numbers are identities and
    versions, counted from 1; the codes are the table's CHECKed words; a UTC time starts with its year's
    digits; the words are the catalogs', made safe once per page; a local moment goes through it (its
    first text is the locale's). tests/approvals/test_export_bytes.py holds every byte to the plain
    writer.
    """
    words = _Words(locale, tz)
    safe_outcomes = {outcome: safe_cell(words.outcome(outcome)) for outcome in {r.outcome for r in rows}}
    safe_rules = {rule: safe_cell(words.rule(rule)) for rule in {r.on_timeout for r in rows}}
    out = io.StringIO()
    write = csv.writer(out, lineterminator="\r\n").writerow
    for r in rows:
        write(
            (
                r.id,
                r.run_id,
                r.flow_id,
                r.version,
                safe_cell(r.node),
                safe_cell(r.title),
                safe_outcomes[r.outcome],
                r.outcome,
                r.decided_by and safe_cell(r.decided_by),
                _utc(r.decided_at),
                _local_cell(words, r.decided_at),
                r.comment and safe_cell(r.comment),
                _utc(r.requested_at),
                _utc(r.deadline_at),
                safe_rules[r.on_timeout],
                r.started_by and safe_cell(r.started_by),
                _local_cell(words, r.requested_at),
                _local_cell(words, r.deadline_at),
                r.on_timeout,
            )
        )
    return out.getvalue()


def _local_cell(words: _Words, moment: datetime | None) -> str:
    return "" if moment is None else safe_cell(words.moment(moment))


def export_json(rows: Sequence[Exported], locale: str, tz: tzinfo = UTC) -> str:
    return json.dumps(export_rows(rows, locale, tz), ensure_ascii=False)


async def every_page(
    pool: AsyncConnectionPool[Any], where: AuditFilter, *, limit: int = MAX_PAGE
) -> AsyncIterator[list[ExportRow]]:
    """Every decision the filter finds, a page at a time in the audit's order, each page read on a
    connection of its own: an export of a year holds no connection while its reader is slow to take it,
    and keeps one page in memory, whatever its size. The pages come in binary (a moment is eight bytes,
    not a text to parse: a third of the time of reading them)."""
    after_at: datetime | None = None
    after_id: int | None = None
    while True:
        async with pool.connection() as conn:
            cur = conn.cursor(row_factory=named_row(ExportRow), binary=True)
            await cur.execute(QUERIES["audit_export"], _params(where, after_at, after_id, limit, TEXT_WINDOW))
            rows = await cur.fetchall()
        if not rows:
            return
        yield rows
        if len(rows) < limit:
            return
        after_at, after_id = rows[-1].decided_at, rows[-1].id
