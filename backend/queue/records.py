"""Run records: what an auditor asks of a run after the run itself is gone.

Every run has one, written by the database in the transaction that starts the run and kept in step with
its status (migration 0010): flow, version, trigger kind, who or which key started it, start and end,
final status, the SHA-256 digest of its input and, unless the flow's trigger says `record_input: false`,
the input itself. The run's sweep leaves it; only its own retention (FLOWYARD_RUN_RECORD_RETENTION_DAYS,
off unless set) deletes it. The export pages it like the decisions' audit: by (started_at, run_id).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from psycopg import AsyncConnection

from backend.errors import CodedError
from backend.i18n.catalogs import message
from backend.queue import store
from backend.queue.store import RunRecord
from backend.queue.sweep import BATCH
from backend.spreadsheets import safe_cell

MAX_PAGE = 1000
COLUMNS = (
    "run",
    "flow",
    "flow_name",
    "version",
    "trigger",
    "started_by",
    "trigger_key",
    "started_at_utc",
    "ended_at_utc",
    "status",
    "error",
    "input_digest",
    "input",
)


class RecordsRefused(CodedError, ValueError):
    """An audit export asked for with a cursor or a page size it cannot have."""

    status = 422  # a refusal of what was asked


async def sweep_run_records(conn: AsyncConnection[Any], now: datetime | None, retention: timedelta) -> int:
    """Delete records of runs that ended before `retention`, a batch per statement; how many went."""
    deleted = 0
    while True:
        batch = await store.sweep_run_records_batch(conn, now, retention, BATCH)
        deleted += batch
        if batch < BATCH:
            return deleted


def _cursor(cursor: str) -> tuple[datetime, int]:
    at, _, run_id = cursor.rpartition("/")
    try:
        moment, number = datetime.fromisoformat(at), int(run_id)
    except ValueError:
        raise RecordsRefused(code="audit_cursor_invalid") from None
    if not 0 <= number < 2**63 or moment.tzinfo is None:
        raise RecordsRefused(code="audit_cursor_invalid")
    return moment, number


async def search(
    conn: AsyncConnection[Any],
    *,
    flow_id: int | None,
    since: datetime | None,
    until: datetime | None,
    cursor: str | None,
    limit: int,
) -> tuple[list[RunRecord], str | None]:
    """One page of records and the next page's cursor; a limit over MAX_PAGE is refused, never cut."""
    if not 1 <= limit <= MAX_PAGE:
        raise RecordsRefused(code="audit_page_too_large")
    after = _cursor(cursor) if cursor else None
    rows = await store.run_records(
        conn, flow_id=flow_id, since=since, until=until, after=after, limit=limit + 1
    )
    more, rows = len(rows) > limit, rows[:limit]
    last = rows[-1] if rows else None
    return rows, f"{last.started_at.isoformat()}/{last.run_id}" if more and last else None


def _cell(value: Any) -> str:
    if isinstance(value, dict | list):
        value = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return safe_cell("" if value is None else str(value))


def column_label(column: str, locale: str) -> str:
    """A CSV column's header in the reader's language."""
    code = {
        "run": "run_record_column_run",
        "flow": "run_record_column_flow",
        "flow_name": "run_record_column_flow_name",
        "version": "run_record_column_version",
        "trigger": "run_record_column_trigger",
        "started_by": "run_record_column_started_by",
        "trigger_key": "run_record_column_trigger_key",
        "started_at_utc": "run_record_column_started_at_utc",
        "ended_at_utc": "run_record_column_ended_at_utc",
        "status": "run_record_column_status",
        "error": "run_record_column_error",
        "input_digest": "run_record_column_input_digest",
    }.get(column, "run_record_column_input")
    return message(code, locale)


def export_csv(records: Sequence[RunRecord], locale: str) -> str:
    """CSV with headers in the reader's language; no cell can be a formula."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([column_label(column, locale) for column in COLUMNS])
    for record in records:
        row = record.to_json()
        writer.writerow([_cell(row[column]) for column in COLUMNS])
    return out.getvalue()


def export_json(records: Sequence[RunRecord]) -> str:
    return json.dumps([record.to_json() for record in records], ensure_ascii=False)
