"""A resume's preview: what resuming a stopped run would send, and where it would stop, with nothing
written and nothing sent (`flowyard runs resume RUN --dry-run`, `POST /api/runs/{id}/resume/preview`).

Two halves, so that the walk can run off the API's event loop: `read_resume` reads, in one transaction
declared READ ONLY (a write by mistake is an error, never a change), what the resume would start from:
the stopped wait, the version it would go on with (refused as a resume refuses it: stops.py), how the
wait's pause would be answered, and the run's effects rows. `preview_resume` then walks it (preview_walk).

The pause is answered as the worker would answer it: a delay has passed; an approval by its decision (one
past its deadline by the time-out its rule names); an event wait by its event (or its timeout, due or
recorded). An approval or event wait with no answer yet stays where it is: the resume would park again.

A run stopped in its undos, or with a parallel open (a wait on several pauses), is refused with a reason
code of its own: the preview does not walk them (docs/runs.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from psycopg import AsyncConnection

from backend.events import wake
from backend.graph.model import Flow
from backend.queue import store
from backend.queue.driver import several
from backend.queue.preview_walk import PreviewAction, Recorded, walk_resume
from backend.queue.stops import StopRefused, refuse_unless_stopped, version_document
from backend.queue.store import StoppedRun
from backend.walker import Limits, Resume
from backend.walker.sizes import JournalBudget

_RESUMES = {"approved": "approve", "rejected": "reject"}  # any other decision is a time-out's


@dataclass(frozen=True, slots=True)
class ResumeStart:
    """What a resume would start from: the run, the version's document, the wait's continuation and how
    its pause would be answered (`first`; None with `stays` when it would wait on, or for a start)."""

    run: int
    version: int
    from_version: int
    document: Mapping[str, Any]
    trigger: Any
    continuation: Mapping[str, Any] | None
    first: Resume | None
    stays: tuple[str, int] | None
    recorded: Mapping[int, Recorded]


@dataclass(frozen=True, slots=True)
class ResumePreview:
    """Where the resume would stop (`status`: waiting at `pending`, succeeded, or failed with `error` at
    `node`) and the actions it would reach on the way."""

    run: int
    version: int
    from_version: int
    status: str
    pending: tuple[tuple[str, int, str, str | None], ...]
    error: str | None
    node: str | None
    node_label: str | None
    actions: list[PreviewAction]

    def to_json(self) -> dict[str, Any]:
        return {
            "run": self.run,
            "version": self.version,
            "from_version": self.from_version,
            "status": self.status,
            "pending": [
                {"node": n, "visit": v, "type": t, "label": label} for n, v, t, label in self.pending
            ],
            "error": self.error,
            "node": self.node,
            "node_label": self.node_label,
            "actions": [action.to_json() for action in self.actions],
        }


async def read_resume(conn: AsyncConnection[Any], run_id: int, version: int | None) -> ResumeStart:
    """Read what resuming `run_id` (on `version`, None: its own) would start from; refused as the resume
    itself would be (`StopRefused`). `conn` is in autocommit: the reads are one READ ONLY transaction."""
    async with conn.transaction():
        await store.read_only(conn)
        stopped = await store.stopped_run_read(conn, run_id)
        refuse_unless_stopped(None if stopped is None else stopped.status)
        assert stopped is not None
        if stopped.kind == "undo":
            raise StopRefused(code="run_preview_undo")
        if several(stopped.continuation):
            raise StopRefused(code="run_preview_parallel")
        if stopped.kind is None or (stopped.kind != "start" and stopped.visit is None):
            raise StopRefused(code="wait_corrupt")
        target = stopped.version if version is None else version
        document = await version_document(
            conn, stopped.flow_id, stopped.version, target, stopped.continuation
        )
        first = await _answer(conn, run_id, stopped)
        rows = await store.effects_of_run_read(conn, run_id)
    stays = None
    if first is None and stopped.kind != "start" and stopped.node is not None and stopped.visit is not None:
        stays = (stopped.node, stopped.visit)  # undecided, unanswered: the resume would park it again
    return ResumeStart(
        run=run_id,
        version=target,
        from_version=stopped.version,
        document=document,
        trigger=stopped.input,
        continuation=None if stopped.kind == "start" else stopped.continuation,
        first=first,
        stays=stays,
        recorded={row.visit: row for row in rows},
    )


def preview_resume(start: ResumeStart, limits: Limits, budget: JournalBudget | None) -> ResumePreview:
    """Walk what `read_resume` read, sending nothing: the preview. CPU only (a flow of up to a thousand
    nodes parsed and walked): the API runs it on a worker thread."""
    flow = Flow.load(start.document)
    base = {"run": start.run, "version": start.version, "from_version": start.from_version}
    if start.stays is not None:
        node, visit = start.stays
        stays: tuple[tuple[str, int, str, str | None], ...] = (_pause(flow, node, visit),)
        return ResumePreview(
            **base, status="waiting", pending=stays, error=None, node=None, node_label=None, actions=[]
        )
    walked = walk_resume(
        flow,
        start.continuation,
        start.first,
        trigger=start.trigger,
        recorded=start.recorded,
        limits=limits,
        budget=budget,
    )
    pending = tuple(_pause(flow, node, visit) for node, visit in walked.pending)
    failed_at = flow.nodes.get(walked.node) if walked.node is not None else None
    return ResumePreview(
        **base,
        status=walked.status,
        pending=pending,
        error=walked.error,
        node=walked.node,
        node_label=failed_at.label if failed_at is not None else None,
        actions=walked.actions,
    )


def _pause(flow: Flow, node: str, visit: int) -> tuple[str, int, str, str | None]:
    return node, visit, flow.nodes[node].type, flow.nodes[node].label


async def _answer(conn: AsyncConnection[Any], run_id: int, stopped: StoppedRun) -> Resume | None:
    """How the stopped wait's pause would be answered by its resume; None: it would not be (yet)."""
    node, visit, kind = stopped.node, stopped.visit, stopped.kind
    if kind == "start" or node is None or visit is None:
        return None
    if kind == "delay":
        return Resume(node, visit, "passed")
    if kind == "event":
        answer = await wake.recorded(conn, run_id, visit)
        return None if answer is None else Resume(node, visit, answer.outcome, answer.output)
    approval = await store.approval_answer_read(conn, run_id, visit)
    if approval is None or approval.outcome == "cancelled":
        return None
    if approval.outcome is None and not (approval.past_deadline and approval.on_timeout):
        return None
    output = {
        "approval": approval.id,
        "outcome": approval.outcome,
        "decided_by": approval.decided_by,
        "decided_at": approval.decided_at.isoformat() if approval.decided_at else None,
        "comment": approval.comment,
    }
    return Resume(node, visit, _RESUMES.get(approval.outcome or "", "timeout"), output)
