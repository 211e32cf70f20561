"""A run's journal: numbered lines, appended in order in the caller's transaction, read a page at a time."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from psycopg import AsyncConnection
from psycopg.rows import scalar_row
from psycopg.types.json import Jsonb

from backend.queue.queries import QUERIES
from backend.walker import JournalLine


async def append(conn: AsyncConnection[Any], run_id: int, lines: Sequence[JournalLine]) -> None:
    """Write `lines` after the run's last line. Takes the run row's lock until the transaction ends."""
    if not lines:
        return
    cur = conn.cursor(row_factory=scalar_row)
    await cur.execute(QUERIES["take_journal_seq"], {"run_id": run_id, "count": len(lines)})
    last = await cur.fetchone()
    if last is None:
        raise LookupError(f"no run {run_id}")
    await conn.execute(
        QUERIES["append_journal"],
        {
            "run_id": run_id,
            "first": int(last) + 1,
            "codes": [line.code for line in lines],
            "nodes": [line.node for line in lines],
            "visits": [line.visit for line in lines],
            "datas": [Jsonb(line.data) for line in lines],
        },
    )
