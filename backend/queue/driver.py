"""One claimed wait, walked: from what woke it to the walker's next pause or end.

The driver is the thin layer that acts for the pure walker: it thaws the continuation, answers the pause
the wait was for, and carries out the actions the walk asks for on the way (each under the effect key
(run, visit), so a retried walk presents the same keys). It writes nothing to the queue: the worker
writes the outcome in one transaction, guarded by its claim.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

from backend.errors import CodedError
from backend.graph.durations import check_moment, parse_duration, parse_moment
from backend.graph.model import Flow
from backend.queue.claims import MAX_ATTEMPTS, Claim, ClaimLost, WaitKind, backoff
from backend.queue.queries import QUERIES
from backend.queue.retries import failure_detail, request_from_json, request_to_json
from backend.queue.runs import RunStatus
from backend.store.queries import every, scalar
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
from backend.walker.sizes import DEFAULT_LIMITS


class WaitFailed(CodedError):
    """A resume that cannot go on now; retried with backoff, then fails the run with `code`."""

    @property
    def data(self) -> dict[str, Any]:
        return self.params


class Actions(Protocol):
    """Carries out an action the walk asks for, and says how it went.

    A failed action is a Resume with outcome "error" and an output whose "code" is the reason code; the
    driver follows the node's `error` port when it is wired and otherwise fails the visit (backoff), or,
    in a branch of a parallel, retries that branch alone (a `retry` pause). `again`: a retry pause's send,
    which tries an error of the visit again even though the run has effects after it (another branch's:
    nothing built on it). `perform` raises only when it cannot tell how the action went.
    """

    async def perform(
        self,
        run_id: int,
        request: ActionRequest,
        still_ours: StillOurs | None = None,
        *,
        again: bool = False,
    ) -> Resume: ...


class Approvals(Protocol):
    """The product side of an approval pause: its request row, and what a woken approval wait resumes with."""

    async def create_many(
        self, conn: AsyncConnection[Any], asks: Sequence[tuple[Run, ApprovalRequest, timedelta | None]]
    ) -> None:
        """Record each of `asks` with the mails it calls for, in one statement, in the transaction that
        parks the runs: an outcome batch's approvals."""

    async def resolution(self, conn: AsyncConnection[Any], claim: Claim) -> Resume | Undecided:
        """The decision, or the deadline's outcome; Undecided when woken before either."""

    async def decided(self, conn: AsyncConnection[Any], claim: Claim) -> bool:
        """Whether a decision stands now; holds the approval row's lock until the transaction ends."""

    async def close(self, conn: AsyncConnection[Any], run_id: int, keep: list[int], outcome: str) -> None:
        """Close the run's open approvals other than those at the `keep` visits as `outcome`
        (`run_failed`, `branch_cancelled`), in the transaction that writes the walk: no one can decide
        them any more, and their mails and reminders stop."""

    async def wake_decided(self, conn: AsyncConnection[Any], wait_ids: list[int]) -> list[int]:
        """Of these waits with several pauses, just parked, make due now the approval pauses decided while
        the wait was claimed (the decision's own wake-up was written over); the waits made due."""

    async def sweep(self, conn: AsyncConnection[Any], now: datetime | None, retention: timedelta) -> int:
        """Delete decided approvals older than `retention` (their own retention), a batch per
        transaction; how many went."""


class NoActions:
    """The driver's default until actions are configured: an action node fails its visit."""

    async def perform(
        self,
        run_id: int,
        request: ActionRequest,
        still_ours: StillOurs | None = None,
        *,
        again: bool = False,
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
    flow: Flow


@dataclass(frozen=True, slots=True)
class Wake:
    """When a paused run's wait falls due: at `at`, or `after` from now, or (neither) never by time."""

    kind: WaitKind  # "delay", "approval" or "event"
    at: datetime | None = None
    after: timedelta | None = None
    deadline: timedelta | None = None  # an approval's, for its product row


@dataclass(frozen=True, slots=True)
class Pause:
    """One pause a parked run waits on, and when it falls due: at `at`, or `after` from when the outcome
    is written, or (neither) never by time. A wait with several (a parallel open) keeps each one's due
    time in `waits.pauses`, keyed "node@visit" (`key`). A `retry` pause (a branch's failed action) keeps
    the tries made so far (`attempt`) and the request to send again (backend/queue/retries.py)."""

    node: str
    visit: int
    kind: WaitKind  # "approval", "delay", "event" or "retry"
    at: datetime | None = None
    after: timedelta | None = None
    attempt: int = 0
    request: dict[str, Any] | None = None

    @property
    def key(self) -> str:
        return f"{self.node}@{self.visit}"

    def to_json(self) -> dict[str, Any]:
        """As `park_pauses` reads it: the due time `at`, or `in_us` microseconds after the write."""
        at = self.at.isoformat() if self.at is not None else None
        after = self.after // timedelta(microseconds=1) if self.after is not None else None
        kept = {"node": self.node, "visit": self.visit, "kind": self.kind, "at": at, "in_us": after}
        if self.request is not None:
            kept |= {"attempt": self.attempt, "request": self.request}
        return kept


@dataclass(slots=True)
class Parked:
    """The walk paused again: the wait holds `step.continuation` until the first of its pauses is due.

    `wake`, `node` and `visit` are the wait row's (with one pause, its only one). `pauses` is None for a
    run waiting on one pause, as every sequential flow does; with a parallel open it lists every pending
    pause with its due time. `approvals` are the approval rows to create with the park, each with its
    deadline. `closes`: the outcome that closes the run's open approvals that are no longer pending (a
    branch cancelled by its parallel's wait rule), None when nothing of a parallel was walked."""

    step: Step
    journal: list[JournalLine]
    wake: Wake
    node: str
    visit: int
    approvals: list[tuple[ApprovalRequest, timedelta | None]] = field(default_factory=list)
    pauses: list[Pause] | None = None
    closes: str | None = None

    @property
    def keep(self) -> list[int]:
        """The visits of the approvals still pending: every other open approval of the run closes."""
        return [pause.visit for pause in self.pauses] if self.pauses is not None else [self.visit]


@dataclass(slots=True)
class Reparked:
    """Woken before anything was due (an approval undecided before its deadline), or only to retry a
    branch's action that failed again: parked again as it was, until `wake_at` (None: never by time).
    With several pauses, `pauses` are their due times now, and `journal` says what the retries did."""

    wake_at: datetime | None
    pauses: list[Pause] | None = None
    journal: list[JournalLine] = field(default_factory=list)


@dataclass(slots=True)
class Ended:
    """The run ended with this walk, as `status` and `error` say (the undos of a cancel end it otherwise
    than its step). `closes`: the outcome that closes the run's open approvals (`run_failed` when a branch
    failed the run, `branch_cancelled` when the rest was cancelled), None when no parallel was walked."""

    step: Step
    journal: list[JournalLine]
    status: RunStatus
    error: str | None
    closes: str | None = None


# What one claim's walk came to; the worker's outcome writers `match` on it.
Walked = Parked | Reparked | Ended


# Whether this claim still holds; asked before an action leaves.
StillOurs = Callable[[], Awaitable[bool]]


class FlowCache:
    """Parsed flow versions. A version never changes once saved, so an entry never goes stale."""

    def __init__(self, size: int = 256) -> None:
        self._flows: OrderedDict[tuple[int, int], Flow] = OrderedDict()
        self._size = size

    async def get(
        self, key: tuple[int, int], document: Callable[[], Awaitable[dict[str, Any] | None]]
    ) -> Flow | None:
        """The parsed version `key`; its `document` is read and parsed only for a version not seen yet
        (None: there is no such version)."""
        flow = self._flows.get(key)
        if flow is not None:
            self._flows.move_to_end(key)
            return flow
        found = await document()
        if found is None:
            return None
        flow = self._flows[key] = Flow.load(found)
        if len(self._flows) > self._size:
            self._flows.popitem(last=False)
        return flow


async def load_run(pool: AsyncConnectionPool[Any], claim: Claim, flows: FlowCache) -> Run:
    """The claim's run with its flow version parsed; the database is asked only for a version not seen yet."""

    async def document() -> dict[str, Any] | None:
        async with pool.connection() as conn:
            params = {"flow_id": claim.flow_id, "version": claim.version}
            found: dict[str, Any] | None = await scalar(conn, QUERIES["flow_document"], params)
            return found

    flow = await flows.get((claim.flow_id, claim.version), document)
    if flow is None:
        raise WaitFailed(code="run_missing", run=claim.run_id)
    return Run(claim.run_id, claim.flow_id, claim.version, claim.input, flow)


async def walk_claim(
    pool: AsyncConnectionPool[Any],
    claim: Claim,
    run: Run,
    actions: Actions,
    approvals: Approvals,
    still_ours: StillOurs,
    *,
    now: datetime | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> Walked:
    """Walk a claimed wait's run until it pauses at approvals or delays, or ends, within `limits`.

    Every action the walk asks for is sent and resumed in turn, those of several branches too. A wait
    with several pauses (a parallel open) resumes those due by `now` (None: the database's now), one
    `walk` call each (`_walk_due_pauses`). A connection is held only around each database step, never
    across an action's network I/O.
    """
    if claim.kind == "undo":
        from backend.queue.undo import undo_walk

        return await undo_walk(pool, claim, run, actions, still_ours, limits.value_bytes)
    walking = _Walking(claim, run, actions, still_ours, limits)
    if claim.kind == "start":
        step = walking.took(walk(run.flow, None, trigger=run.input, limits=limits))
    elif several(claim.continuation):
        return await _walk_due_pauses(pool, walking, approvals, now)
    else:
        resume = await _resume_for(pool, claim, approvals)
        if isinstance(resume, Undecided):
            return Reparked(resume.wake_at)
        walking.claimed(claim.node, claim.visit, claim.kind)
        step = walking.took(walk(run.flow, claim.continuation, resume=resume, limits=limits))
    return walking.came_to(await walking.act(step), {})


def several(continuation: dict[str, Any] | None) -> bool:
    """Whether a continuation may wait on several pauses at once: one written with a parallel open
    (`"v": 2`). Its wait keeps each pause's due time in `waits.pauses`; any other has one pause, whose
    due time is the wait's `wake_at`.

    Examples:
        >>> several({"v": 1, "at": {"node": "ask", "visit": 2}}), several({"v": 2}), several(None)
        (False, True, False)
    """
    return continuation is not None and continuation.get("v", 1) != 1


class _Walking:
    """One claim's walk, stretch after stretch: its journal, every pause it asked for, and whether it
    walked a parallel (then open approvals no longer pending close)."""

    def __init__(
        self, claim: Claim, run: Run, actions: Actions, still_ours: StillOurs, limits: Limits
    ) -> None:
        self.claim = claim
        self.run = run
        self.actions = actions
        self.still_ours = still_ours
        self.limits = limits
        self.journal: list[JournalLine] = []
        self.requested: dict[tuple[str, int], Request] = {}
        # The branches' actions that failed in this walk with no error port, each to be tried again.
        self.retries: dict[tuple[str, int], Pause] = {}
        self.parallel = several(claim.continuation)

    def claimed(self, node: str | None, visit: int | None, kind: str) -> None:
        """The queue's first line of a resumed stretch (docs/walker.md)."""
        data = {"kind": kind, "attempt": self.claim.attempts}
        self.journal.append(JournalLine(code="wait_claimed", node=node, visit=visit, data=data))

    def took(self, step: Step) -> Step:
        self.journal.extend(step.journal)
        for request in step.requests:
            self.requested[(request.node, request.visit)] = request
        if several(step.continuation):
            self.parallel = True
        return step

    async def act(self, step: Step) -> Step:
        """Send every action the walk asks for, each resumed in turn (in branch order, then those the
        resumes ask for), until the walk waits only on approvals and delays, or ends. An action whose
        branch was cancelled meanwhile (a parallel's wait rule met) is not sent."""
        todo = [request for request in step.requests if isinstance(request, ActionRequest)]
        while todo and step.status == "waiting":
            request = todo.pop(0)
            if (request.node, request.visit) not in step.pending:
                continue
            resume = await self.send(request, step.continuation, 1)
            if resume is None:
                continue  # its branch waits for the retry; the others walk on
            step = self.took(walk(self.run.flow, step.continuation, resume=resume, limits=self.limits))
            todo.extend(request for request in step.requests if isinstance(request, ActionRequest))
        return step

    async def send(
        self, request: ActionRequest, continuation: dict[str, Any] | None, attempt: int
    ) -> Resume | None:
        """Send an action (its `attempt`-th try); the Resume to walk on with, or None when it failed with
        no error port in a branch of a parallel: then its branch waits for a `retry` pause, after the
        queue's backoff, and the other branches go on. Without a parallel such a failure fails the claim
        (WaitFailed: the whole walk backs off), as it always did. At the last attempt the failure is the
        walk's to resume with: the walker fails the run."""
        resume = await _perform(
            self.claim, self.run, self.actions, request, self.still_ours, again=attempt > 1
        )
        if resume.outcome != "error" or self.run.flow.targets(request.node, "error"):
            return resume
        code, why = failure_detail(resume.output)
        if not several(continuation):
            raise WaitFailed(code=code, node=request.node, visit=request.visit, **why)
        node, visit = request.node, request.visit
        if attempt >= MAX_ATTEMPTS:
            data = {"attempts": attempt, "error": code}
            self.journal.append(
                JournalLine(code="branch_attempts_exhausted", node=node, visit=visit, data=data)
            )
            return resume
        wait = backoff(attempt)
        data = {
            **why,
            "error": code,
            "attempt": attempt,
            "attempts": MAX_ATTEMPTS,
            "retry_in_s": int(wait.total_seconds()),
        }
        self.journal.append(JournalLine(code="action_retry_later", node=node, visit=visit, data=data))
        kept = request_to_json(request)
        self.retries[(node, visit)] = Pause(node, visit, "retry", after=wait, attempt=attempt, request=kept)
        return None

    def came_to(self, step: Step, carried: dict[tuple[str, int], Pause]) -> Walked:
        """What the walk came to: the end of the run, or its pauses and when each is due. `carried` are
        the pauses the wait held that were not resumed, with their due times."""
        if step.status != "waiting":
            closes = None
            if self.parallel:
                closes = "run_failed" if step.status == "failed" else "branch_cancelled"
            return Ended(step, self.journal, step.status, step.error, closes)
        rows: list[tuple[ApprovalRequest, timedelta | None]] = []
        pauses: list[Pause] = []
        for key in step.pending:
            request = self.requested.get(key)
            if key in self.retries:
                pauses.append(self.retries[key])
            elif request is not None:
                wake = wake_of(request)
                pauses.append(Pause(key[0], key[1], wake.kind, wake.at, wake.after))
                if isinstance(request, ApprovalRequest):
                    rows.append((request, wake.deadline))
            elif key in carried:
                pauses.append(carried[key])
            else:
                raise WaitFailed(code="wait_corrupt", node=key[0], visit=key[1])
        if not pauses:
            raise WaitFailed(code="wait_corrupt", wait=self.claim.wait_id)
        first = pauses[0]
        if several(step.continuation):
            wake = Wake(kind=first.kind, at=first.at, after=first.after)
            closes = "branch_cancelled"
            return Parked(step, self.journal, wake, first.node, first.visit, rows, pauses, closes)
        request = self.requested.get((first.node, first.visit), step.request)
        wake = wake_of(request)
        closes = "branch_cancelled" if self.parallel else None
        return Parked(step, self.journal, wake, first.node, first.visit, rows, None, closes)


@dataclass(frozen=True, slots=True)
class _Pending:
    """A pending pause of a claimed wait with several (pauses_of_wait): its due time (None: never by
    time) and whether it is due now."""

    node: str
    visit: int
    kind: WaitKind
    due: datetime | None
    is_due: bool
    attempt: int = 0
    request: dict[str, Any] | None = None


async def _walk_due_pauses(
    pool: AsyncConnectionPool[Any], walking: _Walking, approvals: Approvals, now: datetime | None
) -> Walked:
    """A wait with several pauses: resume those due, earliest due first (then by visit), one `walk`
    call each, every action they ask for sent on the way.

    An approval due but undecided (woken for a reminder) is not resumed: it owes its reminders, gets its
    next due time, and the pauses after it wait for the next claim, which comes at once; so do those after
    a branch's retry that failed again. So a walk tried
    again after a crash resumes the pauses its first try resumed, in the same order, before any other:
    the visit numbers, and so the effect keys, are the ones the first try used.
    """
    claim, run = walking.claim, walking.run
    params = {"id": claim.wait_id, "attempts": claim.attempts, "now": now}
    async with pool.connection() as conn:
        pending = await every(conn, _Pending, QUERIES["pauses_of_wait"], params)
    if not pending:
        if not await walking.still_ours():
            raise ClaimLost(claim.wait_id)
        raise WaitFailed(code="wait_corrupt", wait=claim.wait_id)
    carried = {
        (p.node, p.visit): Pause(p.node, p.visit, p.kind, p.due, attempt=p.attempt, request=p.request)
        for p in pending
    }
    step: Step | None = None
    continuation = claim.continuation
    for each in pending:
        key = (each.node, each.visit)
        if not each.is_due or (step is not None and step.status != "waiting"):
            break
        if step is not None and key not in step.pending:
            continue  # its branch was cancelled by a resume before it
        pause = carried[key]
        answer: Resume | Undecided | None
        if pause.kind == "retry":
            walking.claimed(each.node, each.visit, each.kind)
            answer = await _retry(walking, pause, continuation)
        else:
            answer = await _answer(pool, claim, pause, approvals)
            if isinstance(answer, Undecided):
                carried[key] = replace(pause, at=answer.wake_at)
                break
            walking.claimed(each.node, each.visit, each.kind)
        del carried[key]
        if answer is None:
            # A retry that failed again: its next try is in walking.retries, and the wake ends here, as at
            # an undecided approval. A walk tried again sends the retry again and may find it succeed;
            # had this one gone on, the pauses after it would have taken the visits its branch takes then.
            break
        resume = answer
        step = walking.took(walk(run.flow, continuation, resume=resume, limits=walking.limits))
        step = await walking.act(step)
        continuation = step.continuation
    if step is None:
        return Reparked(None, [*carried.values(), *walking.retries.values()], walking.journal)
    return walking.came_to(step, carried)


async def _retry(walking: _Walking, pause: Pause, continuation: dict[str, Any] | None) -> Resume | None:
    """A due `retry` pause: its action sent again under its own effect key (run, visit), as kept."""
    if pause.request is None:
        raise WaitFailed(code="wait_corrupt", wait=walking.claim.wait_id, kind=pause.kind)
    request = request_from_json(pause.request, pause.node, pause.visit)
    return await walking.send(request, continuation, pause.attempt + 1)


async def _answer(
    pool: AsyncConnectionPool[Any], claim: Claim, pause: Pause, approvals: Approvals
) -> Resume | Undecided:
    """What a due pause of a wait with several resumes with."""
    if pause.kind == "delay":
        return Resume(node=pause.node, visit=pause.visit, outcome="passed")
    if pause.kind in ("approval", "event"):  # an event pause's answer: backend/events/wake.py
        async with pool.connection() as conn:
            # The claim round's read is of the wait's own visit, not necessarily this pause's.
            pause_claim = replace(claim, kind=pause.kind, node=pause.node, visit=pause.visit, approval=None)
            return await approvals.resolution(conn, pause_claim)
    raise WaitFailed(code="wait_corrupt", wait=claim.wait_id, kind=pause.kind)


async def _perform(
    claim: Claim,
    run: Run,
    actions: Actions,
    request: ActionRequest,
    still_ours: StillOurs,
    *,
    again: bool = False,
) -> Resume:
    """Send one action the walk asked for; its outcome, an error too (`_Walking.send` says what follows)."""
    if not await still_ours():
        raise ClaimLost(claim.wait_id)  # cancelled, or taken over: nothing more leaves from here
    return await actions.perform(run.id, request, still_ours, again=again)


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
