"""One claimed wait, walked: from what woke it to the walker's next pause or end.

The driver is the thin layer that acts for the pure walker: it thaws the continuation, answers the pause
the wait was for, and carries out the actions the walk asks for on the way (each under the effect key
(run, visit), so a retried walk presents the same keys). It writes nothing to the queue: the worker
writes the outcome in one transaction, guarded by its claim.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

from backend.config import settings
from backend.errors import CodedError
from backend.graph.durations import check_moment, parse_duration, parse_moment
from backend.graph.model import Flow
from backend.queue.claims import Claim, ClaimLost
from backend.queue.queries import QUERIES
from backend.walker import (
    ActionRequest,
    ApprovalRequest,
    DelayRequest,
    EventRequest,
    JournalLine,
    Limits,
    Request,
    Resume,
    Step,
    walk,
)


class WaitFailed(CodedError):
    """A resume that cannot go on now; retried with backoff, then fails the run with `code`."""

    @property
    def data(self) -> dict[str, Any]:
        return self.params


class Actions(Protocol):
    """Carries out an action the walk asks for, and says how it went.

    A failed action is a Resume with outcome "error" and an output whose "code" is the reason code; the
    driver follows the node's `error` port when it is wired and otherwise fails the visit (backoff).
    `perform` raises only when it cannot tell how the action went.
    """

    async def perform(
        self, run_id: int, request: ActionRequest, still_ours: StillOurs | None = None
    ) -> Resume: ...


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

    async def perform(
        self, run_id: int, request: ActionRequest, still_ours: StillOurs | None = None
    ) -> Resume:
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


@dataclass(frozen=True, slots=True)
class Wake:
    """When a paused run's wait falls due: at `at`, or `after` from now, or (neither) never by time."""

    kind: str  # "delay" or "approval"
    at: datetime | None = None
    after: timedelta | None = None
    deadline: timedelta | None = None  # an approval's, for its product row


@dataclass(slots=True)
class Walked:
    """What one claim's walk came to: the last step, every journal line of every stretch, and the wake."""

    step: Step | None  # None: woken early, parked again as it was until `undecided.wake_at`
    undecided: Undecided | None = None
    journal: list[JournalLine] = field(default_factory=list)
    wake: Wake | None = None  # set when the step is waiting
    # A walk that ends the run otherwise than its step says (the undos of a cancel): (status, error).
    ended_as: tuple[str, str | None] | None = None


# Whether this claim still holds; asked before an action leaves.
StillOurs = Callable[[], Awaitable[bool]]


class FlowCache:
    """Parsed flow versions. A version never changes once saved, so an entry never goes stale."""

    def __init__(self, size: int = 256) -> None:
        self._flows: OrderedDict[tuple[int, int], Flow] = OrderedDict()
        self._size = size

    def cached(self, key: tuple[int, int]) -> Flow | None:
        flow = self._flows.get(key)
        if flow is not None:
            self._flows.move_to_end(key)
        return flow

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


async def load_run(pool: AsyncConnectionPool[Any], claim: Claim, flows: FlowCache) -> Run:
    """The claim's run with its flow version parsed; the database is asked only for a version not seen yet."""
    key = (claim.flow_id, claim.version)
    flow = flows.cached(key)
    if flow is None:
        async with pool.connection() as conn:
            cur = await conn.execute(
                QUERIES["flow_document"], {"flow_id": claim.flow_id, "version": claim.version}
            )
            row = await cur.fetchone()
        if row is None:
            raise WaitFailed(code="run_missing", run=claim.run_id)
        flow = flows.get(key, row[0])
    return Run(claim.run_id, claim.flow_id, claim.version, claim.input, "waiting", flow)


async def walk_claim(
    pool: AsyncConnectionPool[Any],
    claim: Claim,
    run: Run,
    actions: Actions,
    approvals: Approvals,
    still_ours: StillOurs,
) -> Walked:
    """Walk a claimed wait's run until it pauses at an approval or a delay, or ends.

    A connection is held only around each database step, never across an action's network I/O.
    """
    walked = Walked(step=None)
    config = settings()
    limits = Limits(config.max_value_bytes, config.max_variables_bytes)
    if claim.kind == "undo":
        from backend.queue.undo import undo_walk

        return await undo_walk(pool, claim, run, actions, still_ours)
    if claim.kind == "start":
        step = walk(run.flow, None, trigger=run.input, limits=limits)
    else:
        resume = await _resume_for(pool, claim, approvals)
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
        step = walk(run.flow, claim.continuation, resume=resume, limits=limits)
    walked.journal.extend(step.journal)
    while step.status == "waiting" and isinstance(step.request, ActionRequest):
        request = step.request
        if not await still_ours():
            raise ClaimLost(claim.wait_id)  # cancelled, or taken over: nothing more leaves from here
        resume = await actions.perform(run.id, request, still_ours)
        if resume.outcome == "error" and not run.flow.targets(request.node, "error"):
            # No error port to follow: the visit failed, and the worker's capped backoff tries again.
            output = dict(resume.output or {})
            # The journal keeps why, not what came back: a response body can be large and can hold anything.
            why = {k: v for k, v in output.items() if k not in ("code", "node", "body", "headers")}
            why = {k: v for k, v in why.items() if isinstance(v, str | int | float | bool) or v is None}
            why.pop("visit", None)
            raise WaitFailed(
                code=str(output.get("code", "action_failed")), node=request.node, visit=request.visit, **why
            )
        step = walk(run.flow, step.continuation, resume=resume, limits=limits)
        walked.journal.extend(step.journal)
    walked.step = step
    if step.status == "waiting":
        walked.wake = wake_of(step.request)
    return walked


def wake_of(request: Request | None) -> Wake:
    """When the pause a walk ended at falls due, worked out before anything is written: a delay's `until`
    that is no time fails here, as a resume failure with its reason, never inside the outcome's write.

    Examples:
        >>> from backend.walker import DelayRequest
        >>> wake_of(DelayRequest(node="d", visit=2, duration="PT1H", until=None)).after
        datetime.timedelta(seconds=3600)
        >>> wake_of(DelayRequest(node="d", visit=2, duration=None, until="2031-05-01T09:00:00")).at
        datetime.datetime(2031, 5, 1, 9, 0, tzinfo=datetime.timezone.utc)
    """
    if isinstance(request, DelayRequest):
        if request.duration is not None:
            return Wake(kind="delay", after=_duration(request.duration, request.node))
        return Wake(kind="delay", at=_timestamp(request.until, request.node))
    if isinstance(request, ApprovalRequest):
        deadline = _duration(request.deadline, request.node) if request.deadline else None
        # The first of the deadline, a reminder and an escalation; the approval owes the rest when woken.
        times = [
            _duration(after, request.node)
            for after in (*request.remind_after, request.escalate_after)
            if after
        ]
        first = min([*times, deadline] if deadline else times, default=None)
        return Wake(kind="approval", after=first, deadline=deadline)  # none of them: 'infinity'
    if isinstance(request, EventRequest):  # wait_event: due at its timeout, or when an event answers it
        return Wake(kind="event", after=_duration(request.timeout, request.node) if request.timeout else None)
    raise WaitFailed(code="wait_corrupt", request=type(request).__name__)


def _duration(text: str, node: str) -> timedelta:
    try:
        return parse_duration(text)
    except ValueError:
        raise WaitFailed(code="duration_invalid", node=node, duration=text) from None


def _timestamp(text: str | None, node: str) -> datetime:
    """A delay's `until`: ISO 8601; a time without an offset is UTC, as everywhere in our API.

    No further ahead than a duration may be (3,660 days): the validator holds a literal `until` to that,
    this holds a template's."""
    try:
        moment = parse_moment(text or "")
    except ValueError:
        raise WaitFailed(code="delay_until_invalid", node=node, until=text) from None
    try:
        check_moment(moment, datetime.now(UTC))
    except ValueError:
        raise WaitFailed(code="duration_invalid", node=node, duration=text) from None
    return moment


async def _resume_for(
    pool: AsyncConnectionPool[Any], claim: Claim, approvals: Approvals
) -> Resume | Undecided:
    if claim.node is None or claim.visit is None or claim.continuation is None:
        raise WaitFailed(code="wait_corrupt", wait=claim.wait_id)
    if claim.kind == "delay":
        return Resume(node=claim.node, visit=claim.visit, outcome="passed")
    if claim.kind in ("approval", "event"):  # an event wait's answer: backend/events/wake.py
        async with pool.connection() as conn:
            return await approvals.resolution(conn, claim)
    raise WaitFailed(code="wait_corrupt", wait=claim.wait_id)
