"""Undo on cancel: a cancelled run (or an ended stopped one) runs the undos of its succeeded actions first.

An http, notify or command node may declare `undo`, a config of its own type whose templates may also read
`{{result}}`, the action's output. Cancelling a run whose succeeded actions declare undos does not end it
at once: its wait becomes an `undo` wait, due now, holding the run's variables and why it undoes. A worker
claims it like any wait and sends the undos newest first, each through the effects log at the negative of
its action's visit (so each has its own key and is sent once, however often the walk is tried). When every
undo has succeeded the run ends `cancelled` (or `failed`, for an end). An undo that fails is a failed
resume: retried with backoff, then the run stops with the undos still to run listed in the journal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from psycopg import AsyncConnection

from backend.graph.model import Node
from backend.queue import journal
from backend.queue.claims import Claim, ClaimLost
from backend.queue.driver import Actions, Ended, Run, StillOurs, WaitFailed
from backend.queue.queries import QUERIES
from backend.store.queries import every, scalar
from backend.walker import JournalLine, Step
from backend.walker.errors import WalkFailure
from backend.walker.requests import action_request

# Why a run undoes: a person cancelled it, or ended it while it was stopped.
UndoFor = Literal["cancel", "end"]


@dataclass(frozen=True, slots=True)
class _Undo:
    """A succeeded action whose undo is still to run (undos_of_run, with its output); or, read back by its
    action's visit, an undo that succeeded with no `undo_done` line yet (undos_done_unjournaled)."""

    visit: int
    node: str
    output: Any = None


async def start_undoing(conn: AsyncConnection[Any], run_id: int, *, by: str | None, undo_for: UndoFor) -> int:
    """In the caller's transaction (the run's row locked): when the run has undos to run, turn its wait
    into them and return how many; 0 changes nothing."""
    nodes = [undo.node for undo in await every(conn, _Undo, QUERIES["undos_of_run"], {"run_id": run_id})]
    if not nodes:
        return 0
    params = {"run_id": run_id, "by": by, "undo_for": undo_for}
    await conn.execute(QUERIES["set_run_status"], {"run_id": run_id, "status": "waiting", "error": None})
    turned = await scalar(conn, QUERIES["wait_to_undo"], params)
    assert turned is not None, "a run that has not ended has its wait"
    data = {"by": by, "undos": ", ".join(nodes)}
    await journal.append(conn, run_id, [JournalLine(code="run_undoing", node=None, visit=None, data=data)])
    await conn.execute(QUERIES["notify"], {"payload": str(run_id)})
    return len(nodes)


async def undo_walk(
    conn_pool: Any, claim: Claim, run: Run, actions: Actions, still_ours: StillOurs, limit: int
) -> Ended:
    """Send a run's pending undos, newest first; the walk ends the run once they all have succeeded."""
    state = claim.continuation or {}
    variables = dict(state.get("vars") or {})
    async with conn_pool.connection() as conn:
        undos = await every(conn, _Undo, QUERIES["undos_of_run"], {"run_id": run.id})
        done = await every(conn, _Undo, QUERIES["undos_done_unjournaled"], {"run_id": run.id})
    pending = [undo for undo in undos if undo.node in run.flow.nodes]
    lines = [
        JournalLine(
            code="wait_claimed", node=None, visit=None, data={"kind": "undo", "attempt": claim.attempts}
        )
    ]
    # Undos an earlier walk sent and saw succeed, whose lines died with it: journaled now, not sent again.
    lines += [
        JournalLine(code="undo_done", node=undo.node, visit=undo.visit, data={"undo_visit": -undo.visit})
        for undo in done
    ]
    for index, undone in enumerate(pending):
        visit, node_id = undone.visit, undone.node
        node = run.flow.nodes[node_id]
        remaining = ", ".join(later.node for later in pending[index:])
        undo = Node(id=node.id, type=node.type, config=dict(node.config.get("undo") or {}))
        try:
            request = action_request(undo, -visit, {**variables, "result": undone.output}, limit)
        except WalkFailure as failure:
            raise WaitFailed(
                code="undo_failed", node=node_id, visit=visit, error=failure.code, remaining=remaining
            ) from None
        if not await still_ours():
            raise ClaimLost(claim.wait_id)
        resume = await actions.perform(run.id, request, still_ours)
        if resume.outcome != "out":
            error = str((resume.output or {}).get("code", "action_failed"))
            raise WaitFailed(code="undo_failed", node=node_id, visit=visit, error=error, remaining=remaining)
        lines.append(JournalLine(code="undo_done", node=node_id, visit=visit, data={"undo_visit": -visit}))
    by = state.get("by")
    # The walker took no step: the placeholder only says "finished"; the run ends as the undos say.
    step = Step("succeeded", None, None, [], [], None, 0)
    if state.get("undo_for") == "end":
        lines.append(JournalLine(code="run_ended_by", node=None, visit=None, data={"by": by}))
        return Ended(step, lines, "failed", "run_ended_by_person")
    lines.append(JournalLine(code="run_cancelled", node=None, visit=None, data={"by": by}))
    return Ended(step, lines, "cancelled", None)
