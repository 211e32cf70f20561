"""Appending to a run's journal: numbered lines, in order, in the caller's transaction."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from psycopg import AsyncConnection
from psycopg.types.json import Jsonb

from backend.queue.queries import QUERIES
from backend.walker import JournalLine


async def append(conn: AsyncConnection[Any], run_id: int, lines: Sequence[JournalLine]) -> None:
    """Write `lines` after the run's last line. Takes the run row's lock until the transaction ends."""
    if not lines:
        return
    cur = await conn.execute(QUERIES["take_journal_seq"], {"run_id": run_id, "count": len(lines)})
    row = await cur.fetchone()
    if row is None:
        raise LookupError(f"no run {run_id}")
    await conn.execute(
        QUERIES["append_journal"],
        {
            "run_id": run_id,
            "first": int(row[0]) + 1,
            "codes": [line.code for line in lines],
            "nodes": [line.node for line in lines],
            "visits": [line.visit for line in lines],
            "datas": [Jsonb(line.data) for line in lines],
        },
    )
