"""The actions package's statements, by name (see queries.sql), and the reads other packages make of its
tables, as typed functions."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from psycopg import AsyncConnection
from psycopg.rows import class_row

from backend.console import locale
from backend.i18n.catalogs import message
from backend.store.queries import load

QUERIES = load("backend.actions", "queries.sql")

EffectOutcome = Literal["out", "error"]


@dataclass(frozen=True, slots=True)
class EffectRow:
    """One action of a run as its page shows it: never the response body it kept."""

    visit: int
    node: str
    type: str
    key: str
    attempts: int
    outcome: EffectOutcome | None  # None: a try is under way, or died without an outcome
    request: Any
    status: Any  # the answer's HTTP status, when it had one
    code: str | None  # the failure's reason code
    created_at: datetime
    completed_at: datetime | None
    late_status: Any  # the HTTP status of an answer kept as late (its attempt given up), when it had one
    late_at: datetime | None  # when that answer came; None: no late answer kept


@dataclass(frozen=True, slots=True)
class LateAnswer:
    """An answer that came after its attempt was given up: kept for people, used by nothing."""

    node: str
    attempt: int
    status: Any  # its HTTP status, when it had one
    at: datetime


async def late_answers_of_run(conn: AsyncConnection[Any], run_id: int) -> list[LateAnswer]:
    """The late answers of a run's actions, in the order they came."""
    cur = conn.cursor(row_factory=class_row(LateAnswer))
    await cur.execute(QUERIES["late_answers_of_run"], {"run_id": run_id})
    return await cur.fetchall()


async def effects_of_run(conn: AsyncConnection[Any], run_id: int) -> list[EffectRow]:
    """A run's actions, in visit order."""
    cur = conn.cursor(row_factory=class_row(EffectRow))
    await cur.execute(QUERIES["effects_of_run"], {"run_id": run_id})
    return await cur.fetchall()


async def late_answer_lines(conn: AsyncConnection[Any], run_id: int) -> list[str]:
    """A run's late answers as `flowyard runs show` says them under the run's state, a sentence each, in
    the terminal's language: kept aside after their attempts were given up, used by nothing."""
    lines = []
    for late in await late_answers_of_run(conn, run_id):
        at = late.at.astimezone(UTC)
        if isinstance(late.status, int):
            lines.append(message("run_late_answer", locale(), node=late.node, status=late.status, at=at))
        else:
            lines.append(message("run_late_answer_plain", locale(), node=late.node, at=at))
    return lines
