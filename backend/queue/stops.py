"""A stopped run, taken on by a person: resumed (on its own version or a newer one), or ended as failed.

A run stops when its resume failed at every attempt (outcome.py). Its wait stays, out of every claim, with
the continuation of its last pause. Resuming puts that wait back in the queue with its attempts counted
afresh: the walk goes on from the same pause, so it reaches the node that failed at the same visit, and an
action there is tried again under the effect key it had (a receiver that saw the first try deduplicates).

Resuming on a newer version moves the run to that version when it still has every node the continuation
names (its stack, visited marks, open loops and pause); otherwise nothing changes and the refusal lists
what is missing. Ending closes the run's open approval and deletes its wait, as a failure does.

Each is one transaction that locks the run's row first, the order a worker, a cancel and a decision take
too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from psycopg import AsyncConnection

from backend.errors import CodedError
from backend.i18n.listed import AllOf
from backend.queue import store
from backend.queue.runs import RunApprovals
from backend.queue.store import StoppedRun
from backend.queue.undo import start_undoing
from backend.walker import JournalLine


class StopRefused(CodedError):
    """A resume or an end that changes nothing, with its reason code and what the message names."""

    status = 422  # a refusal of what was asked


def continuation_nodes(continuation: Mapping[str, Any] | None) -> set[str]:
    """Every node id a continuation names: the pause, the stack, the visited marks and the open loops,
    and with a parallel open (`"v": 2`) the parallel and the same of each of its branches.

    Examples:
        >>> sorted(continuation_nodes({"at": {"node": "ask", "visit": 2}, "stack": ["b"],
        ...     "seen": [["t", "ask"]], "loops": [{"node": "each"}]}))
        ['ask', 'b', 'each', 't']
        >>> sorted(continuation_nodes({"v": 2, "stack": [], "seen": [["t", "p"]], "loops": [],
        ...     "par": {"node": "p", "branches": [{"ended": True},
        ...                                       {"stack": [], "seen": [["d"]], "loops": [],
        ...                                        "at": {"node": "d", "visit": 4}}]}}))
        ['d', 'p', 't']
        >>> continuation_nodes(None)
        set()
    """
    if not continuation or "undo_for" in continuation:
        return set()  # an undo wait's continuation holds variables only
    names: set[str] = set()
    if "at" in continuation:
        names.add(str(continuation["at"].get("node")))
    names.update(continuation.get("stack", []))
    for scope in continuation.get("seen", []):
        names.update(scope)
    names.update(str(loop.get("node")) for loop in continuation.get("loops", []))
    # The parallel open here, and those it went on past whose branches still run (`rest: continue`).
    for par in [continuation.get("par"), *continuation.get("rest", [])]:
        if not isinstance(par, Mapping):
            continue
        names.add(str(par.get("node")))
        for branch in par.get("branches", []):
            # An ended branch may still hold parallels it left running.
            if isinstance(branch, Mapping) and (not branch.get("ended") or branch.get("rest")):
                names |= continuation_nodes(branch)
    return names


async def resume_run(
    conn: AsyncConnection[Any], run_id: int, *, by: str | None, version: int | None = None
) -> int:
    """Put a stopped run's wait back in the queue, due now; the version it goes on with. Commits."""
    async with conn.transaction():
        stopped = await _stopped(conn, run_id)
        current, continuation, node, visit = (
            stopped.version,
            stopped.continuation,
            stopped.node,
            stopped.visit,
        )
        target = current if version is None else version
        if target != current:
            await version_document(conn, stopped.flow_id, current, target, continuation)
            await store.move_run_to_version(conn, run_id, target)
        await store.set_run_status(conn, run_id, "waiting", None)
        await store.resume_stopped_wait(conn, run_id)
        data = {"by": by, "version": target, "from_version": current}
        await store.append_journal(
            conn, run_id, [JournalLine(code="run_resumed_by", node=node, visit=visit, data=data)]
        )
        await store.notify(conn, str(run_id))
    return target


async def version_document(
    conn: AsyncConnection[Any], flow_id: int, current: int, target: int, continuation: Any
) -> dict[str, Any]:
    """The document of version `target` of the flow, refused unless a run stopped on version `current`
    with `continuation` may go on with it: not older, and every node the continuation names still there."""
    if target < current:
        raise StopRefused(code="run_version_not_newer", version=target, current=current)
    document = await store.version_document(conn, flow_id, target)
    if document is None:
        raise StopRefused(code="run_version_not_found", version=target)
    present = {str(n.get("id")) for n in document.get("nodes", []) if isinstance(n, dict)}
    missing = sorted(continuation_nodes(continuation) - present)
    if missing:
        raise StopRefused(code="run_resume_nodes_missing", version=target, missing=AllOf(missing))
    return dict(document)


async def end_run(
    conn: AsyncConnection[Any], run_id: int, *, by: str | None, approvals: RunApprovals
) -> None:
    """End a stopped run as failed: its open approval closed, its wait gone; when it has undos to run, a
    worker runs them first (the run waits meanwhile). Commits."""
    async with conn.transaction():
        stopped = await _stopped(conn, run_id)
        node, visit, kind = stopped.node, stopped.visit, stopped.kind
        await store.close_open_effects(conn, run_id, "run_ended_by_person")
        # Undos run first (queue/undo.py); a run stopped *in* its undos ends as it is, what failed listed.
        if kind != "undo" and await start_undoing(conn, run_id, by=by, undo_for="end"):
            return
        code = "run_ended_by_person"
        await store.set_run_status(conn, run_id, "failed", code)
        await approvals.fail_open(conn, run_id)
        await store.delete_wait_of_run(conn, run_id)
        await store.append_journal(
            conn, run_id, [JournalLine(code="run_ended_by", node=node, visit=visit, data={"by": by})]
        )


async def _stopped(conn: AsyncConnection[Any], run_id: int) -> StoppedRun:
    run = await store.lock_stopped_run(conn, run_id)
    refuse_unless_stopped(None if run is None else run.status)
    assert run is not None
    return run


def refuse_unless_stopped(status: str | None) -> None:
    """Refuse a run that is not there (`status` None) or not stopped: what a resume and its preview ask."""
    if status is None:
        raise StopRefused(code="run_not_found")
    if status != "stopped":
        raise StopRefused(code="run_not_stopped", state=status)
