"""The run page's read (`GET /api/runs/{id}`): the run, a page of its journal, its wait, its variables,
the pinned document and the visits, in one statement (run_page.sql). Read part by part, a statement each,
the round trips cost more than the parts.

The journal comes as the API answers it: each line a dict (seq, at as ISO 8601, code, node, visit, data),
the page made by the database as one JSON value and decoded at once; read a row at a time, it cost more
than the rest of the page.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from psycopg import AsyncConnection
from psycopg.rows import class_row

from backend.queue.store import RunRow
from backend.store.queries import load

QUERIES = load("backend.queue", "run_page.sql")


@dataclass(frozen=True, slots=True)
class RunPage(RunRow):
    """One run as its page shows it; `journal` the lines after the page's `after`, one more than its
    `limit` when more follow."""

    journal: list[dict[str, Any]] = field(default_factory=list)
    # kind, node, visit, wake_at, status, attempts, last_error, and `retries`: each branch's failed action
    # to be sent again (node, visit, due, the attempts made), whichever pause is the wait's first.
    wait: dict[str, Any] | None = None
    variables: Any = None  # a paused run's, from its continuation; None once it has ended
    flow_name: str | None = None
    document: dict[str, Any] | None = None  # the pinned version's
    visits: dict[str, int] = field(default_factory=dict)
    failure: dict[str, Any] | None = None  # node and data of its last run_failed line, if it failed


async def run_page(conn: AsyncConnection[Any], run_id: int, *, after: int, limit: int) -> RunPage | None:
    """The run with up to `limit` lines of its journal after line `after`; None when there is no such run."""
    cur = conn.cursor(row_factory=class_row(RunPage))
    await cur.execute(QUERIES["run_page"], {"run_id": run_id, "after": after, "limit": limit})
    return await cur.fetchone()
