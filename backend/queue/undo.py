"""Undo on cancel: a cancelled run (or an ended stopped one) runs the undos of its succeeded actions first.

An http, notify or command node may declare `undo`, a config of its own type whose templates may also read
`{{result}}`, the action's output. Cancelling a run whose succeeded actions declare undos does not end it
at once: its wait becomes an `undo` wait, due now, holding the run's variables and why it undoes. A worker
claims it like any wait and sends the undos newest first, each through the effects log at the negative of
its action's visit (so each has its own key and is sent once, however often the walk is tried). When every
undo has succeeded the run ends `cancelled` (or `failed`, for an end). An undo that fails is a failed
resume: retried with backoff, then the run stops with the undos still to run listed in the journal.

This module turns a run's wait into its undos (a cancel, an end); undo_walk.py is the claim's walk that
sends them.
"""

from __future__ import annotations

from typing import Any, Literal

from psycopg import AsyncConnection

from backend.queue import store
from backend.walker import JournalLine

# Why a run undoes: a person cancelled it, or ended it while it was stopped.
UndoFor = Literal["cancel", "end"]


async def start_undoing(conn: AsyncConnection[Any], run_id: int, *, by: str | None, undo_for: UndoFor) -> int:
    """In the caller's transaction (the run's row locked): when the run has undos to run, turn its wait
    into them and return how many; 0 changes nothing."""
    nodes = [undo.node for undo in await store.undos_of_run(conn, run_id)]
    if not nodes:
        return 0
    await store.set_run_status(conn, run_id, "waiting", None)
    turned = await store.wait_to_undo(conn, run_id, by, undo_for)
    assert turned, "a run that has not ended has its wait"
    data = {"by": by, "undos": ", ".join(nodes)}
    await store.append_journal(
        conn, run_id, [JournalLine(code="run_undoing", node=None, visit=None, data=data)]
    )
    await store.notify(conn, str(run_id))
    return len(nodes)
