"""One claimed wait, walked: from what woke it to the walker's next pause or end.

The driver is the thin layer that acts for the pure walker: it thaws the continuation, answers the pause
the wait was for, and carries out the actions the walk asks for on the way (each under the effect key
(run, visit), so a retried walk presents the same keys). It writes nothing to the queue: the worker
writes the outcome in one transaction, guarded by its claim.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

from psycopg import AsyncConnection

from backend.graph.model import Flow
from backend.queue.claims import Claim
from backend.queue.queries import QUERIES
from backend.walker import ActionRequest, ApprovalRequest, JournalLine, Resume, Step, walk


class WaitFailed(Exception):
    """A resume that cannot go on now; retried with backoff, then fails the run with `code`."""

    def __init__(self, code: str, **data: Any) -> None:
        super().__init__(code)
        self.code = code
        self.data = data


class Actions(Protocol):
    """Carries out an action the walk asks for, and says how it went.

    A failed action is a Resume with outcome "error" and an output whose "code" is the reason code; the
    driver follows the node's `error` port when it is wired and otherwise fails the visit (backoff).
    `perform` raises only when it cannot tell how the action went.
    """

    async def perform(self, run_id: int, request: ActionRequest) -> Resume: ...


class Approvals(Protocol):
    """The product side of an approval pause: its request row, and what a woken approval wait resumes with."""

    async def create(
        self, conn: AsyncConnection[Any], run: Run, request: ApprovalRequest, deadline: timedelta | None
    ) -> None:
        """Record the request, in the transaction that parks the run."""

    async def resolution(self, conn: AsyncConnection[Any], claim: Claim) -> Resume | Undecided:
        """The decision, or the deadline's outcome; Undecided when woken before either."""

    async def decided(self, conn: AsyncConnection[Any], claim: Claim) -> bool:
        """Whether a decision stands now; holds the approval row's lock until the transaction ends."""


class NoActions:
    """The driver's default until actions are configured: an action node fails its visit."""

    async def perform(self, run_id: int, request: ActionRequest) -> Resume:
        output = {"code": "action_unavailable", "type": request.type}
        return Resume(node=request.node, visit=request.visit, outcome="error", output=output)


@dataclass(frozen=True, slots=True)
class Undecided:
    """An approval wait woken with no decision and its deadline not passed: park it again until then."""

    wake_at: datetime | None  # None: no deadline, wait for a decision forever


@dataclass(slots=True)
class Run:
    id: int
    flow_id: int
    version: int
    input: Any
    status: str
    flow: Flow


@dataclass(slots=True)
class Walked:
    """What one claim's walk came to: the last step, and every journal line of every stretch."""

    step: Step | None  # None: woken early, parked again as it was until `undecided.wake_at`
    undecided: Undecided | None = None
    journal: list[JournalLine] = field(default_factory=list)


class FlowCache:
    """Parsed flow versions. A version never changes once saved, so an entry never goes stale."""

    def __init__(self, size: int = 256) -> None:
        self._flows: OrderedDict[tuple[int, int], Flow] = OrderedDict()
        self._size = size

    def get(self, key: tuple[int, int], document: dict[str, Any]) -> Flow:
        flow = self._flows.get(key)
        if flow is None:
            flow = Flow.load(document)
            self._flows[key] = flow
            if len(self._flows) > self._size:
                self._flows.popitem(last=False)
        else:
            self._flows.move_to_end(key)
        return flow


async def load_run(conn: AsyncConnection[Any], run_id: int, flows: FlowCache) -> Run:
    cur = await conn.execute(QUERIES["run_for_walk"], {"run_id": run_id})
    row = await cur.fetchone()
    if row is None:
        raise WaitFailed(code="run_missing", run=run_id)
    run_id, flow_id, version, input_, status, document = row
    return Run(run_id, flow_id, version, input_, status, flows.get((flow_id, version), document))


async def walk_claim(
    conn: AsyncConnection[Any], claim: Claim, run: Run, actions: Actions, approvals: Approvals
) -> Walked:
    """Walk a claimed wait's run until it pauses at an approval or a delay, or ends."""
    walked = Walked(step=None)
    if claim.kind == "start":
        step = walk(run.flow, None, trigger=run.input)
    else:
        resume = await _resume_for(conn, claim, approvals)
        if isinstance(resume, Undecided):
            walked.undecided = resume
            return walked
        walked.journal.append(
            JournalLine(
                code="wait_claimed",
                node=claim.node,
                visit=claim.visit,
                data={"kind": claim.kind, "attempt": claim.attempts},
            )
        )
        step = walk(run.flow, claim.continuation, resume=resume)
    walked.journal.extend(step.journal)
    while step.status == "waiting" and isinstance(step.request, ActionRequest):
        request = step.request
        resume = await actions.perform(run.id, request)
        if resume.outcome == "error" and not run.flow.targets(request.node, "error"):
            # No error port to follow: the visit failed, and the worker's capped backoff tries again.
            output = dict(resume.output or {})
            # The journal keeps why, not what came back: a response body can be large and can hold anything.
            why = {k: v for k, v in output.items() if k not in ("code", "node", "body", "headers")}
            why = {k: v for k, v in why.items() if isinstance(v, str | int | float | bool) or v is None}
            raise WaitFailed(code=str(output.get("code", "action_failed")), node=request.node, **why)
        step = walk(run.flow, step.continuation, resume=resume)
        walked.journal.extend(step.journal)
    walked.step = step
    return walked


async def _resume_for(conn: AsyncConnection[Any], claim: Claim, approvals: Approvals) -> Resume | Undecided:
    if claim.node is None or claim.visit is None or claim.continuation is None:
        raise WaitFailed(code="wait_corrupt", wait=claim.wait_id)
    if claim.kind == "delay":
        return Resume(node=claim.node, visit=claim.visit, outcome="passed")
    if claim.kind == "approval":
        return await approvals.resolution(conn, claim)
    raise WaitFailed(code="wait_corrupt", wait=claim.wait_id)
