"""One claimed wait, walked: from what woke it to the walker's next pause or end.

The driver is the thin layer that acts for the pure walker: it thaws the continuation, answers the pause
the wait was for, and carries out the actions the walk asks for on the way (each under the effect key
(run, visit), so a retried walk presents the same keys). It writes nothing to the queue: the worker
writes the outcome in one transaction, guarded by its claim.

Its parts beside it: the ports it acts through (ports.py), what a walk comes to (walked.py), the parsed
flow versions (flow_cache.py), when a pause falls due (wake_times.py), and an undo claim's walk
(undo_walk.py).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from psycopg_pool import AsyncConnectionPool

from backend.queue import store
from backend.queue.claims import MAX_ATTEMPTS, Claim, ClaimLost, backoff
from backend.queue.ports import Actions, Approvals, StillOurs
from backend.queue.retries import failure_detail, request_from_json, request_to_json
from backend.queue.undo_walk import undo_walk
from backend.queue.wake_times import wake_of
from backend.queue.walked import Ended, Parked, Pause, Reparked, Run, Undecided, WaitFailed, Wake, Walked
from backend.walker import ActionRequest, ApprovalRequest, JournalLine, Limits, Request, Resume, Step, walk
from backend.walker.sizes import DEFAULT_LIMITS


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
    async with pool.connection() as conn:
        pending = await store.pauses_of_wait(conn, claim.wait_id, claim.attempts, now)
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
