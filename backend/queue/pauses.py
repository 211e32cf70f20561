"""A run's pause made due now by whoever answers it: the queue's writes of `waits` for the approvals
(a decision) and wait_event (an event, a timeout), which own what answers a pause but not the wait.

- A decided approval's wait (and its pause, with several) is made due by the decision's own statement
  (`decide_approval`, migration 0028), in the database.
- `wake_pauses`: of a wait just parked with several pauses, those answered while it was claimed (whose own
  wake-up the park wrote over); the approvals and wait_event each name theirs, reading their own table
  beside `waits`.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any, Protocol

from psycopg import AsyncConnection

from backend.queue.queries import QUERIES
from backend.store.queries import scalars


class PauseOfWait(Protocol):
    """One pending pause of a wait: the wait's id and the pause's key in `waits.pauses` (`node@visit`)."""

    @property
    def wait_id(self) -> int: ...

    @property
    def key(self) -> str: ...


async def wake_pauses(
    conn: AsyncConnection[Any], pauses: Iterable[PauseOfWait], now: datetime | None
) -> list[int]:
    """Make each of `pauses` due now, unless it is already, and its wait with it; the ids of the waits
    made due. In the caller's transaction, the waits' claims held (the runs' rows locked)."""
    listed = list(pauses)
    if not listed:
        return []
    params = {"wait_ids": [p.wait_id for p in listed], "keys": [p.key for p in listed], "now": now}
    return sorted(int(wait_id) for wait_id in await scalars(conn, QUERIES["wake_pauses"], params))
