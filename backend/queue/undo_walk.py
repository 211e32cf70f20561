"""An `undo` wait's walk: the run's pending undos sent newest first, each at the negative of its action's
visit; the walk ends the run once they all have succeeded (undo.py says how a run comes to undo).
"""

from __future__ import annotations

from typing import Any

from backend.graph.model import Node
from backend.queue import store
from backend.queue.claims import Claim, ClaimLost
from backend.queue.ports import Actions, StillOurs
from backend.queue.walked import Ended, Run, WaitFailed
from backend.walker import JournalLine, Step
from backend.walker.errors import WalkFailure
from backend.walker.requests import action_request


async def undo_walk(
    conn_pool: Any, claim: Claim, run: Run, actions: Actions, still_ours: StillOurs, limit: int
) -> Ended:
    """Send a run's pending undos, newest first; the walk ends the run once they all have succeeded."""
    state = claim.continuation or {}
    variables = dict(state.get("vars") or {})
    async with conn_pool.connection() as conn:
        undos = await store.undos_of_run(conn, run.id)
        done = await store.undos_done_unjournaled(conn, run.id)
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
