"""Starting and cancelling runs: the two ways a person or a trigger changes a run from outside.

A start is one transaction: the `runs` row, a `start` wait due now, and a NOTIFY. A cancel is one
transaction too: the run's status, the deletion of its wait, and a journal line naming who cancelled.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from psycopg import AsyncConnection
from psycopg.errors import UniqueViolation

from backend.errors import CodedError
from backend.queue import store
from backend.queue.store import TriggerKind
from backend.queue.undo import start_undoing
from backend.walker import JournalLine

NOTIFY_CHANNEL = "flowyard_waits"


class FlowHasNoVersion(LookupError):
    """The flow does not exist, or has never been saved."""


class RunAlreadyParked(CodedError):
    """A second open wait for one run: the second layer of idempotency caught a bug, loudly."""

    def __init__(self, *, code: str, run: int) -> None:
        super().__init__(code=code, run=run)

    def __str__(self) -> str:
        return f"{self.code}: run {self.params['run']}"


@dataclass(frozen=True, slots=True)
class Started:
    run_id: int
    created: bool  # False when the idempotency key had started this run already


async def start_run(
    conn: AsyncConnection[Any],
    flow_id: int,
    *,
    input: Any = None,
    trigger_kind: TriggerKind = "manual",
    idempotency_key: str | None = None,
    started_by: str | None = None,
) -> Started:
    """Start a run of the flow's latest version, due at once. Commits.

    The same idempotency key twice starts one run, and the second call gets that run back.
    """
    async with conn.transaction():
        return await start_in_transaction(
            conn,
            flow_id,
            input=input,
            trigger_kind=trigger_kind,
            idempotency_key=idempotency_key,
            started_by=started_by,
        )


async def start_in_transaction(
    conn: AsyncConnection[Any],
    flow_id: int,
    *,
    input: Any,
    trigger_kind: TriggerKind,
    idempotency_key: str | None,
    started_by: str | None,
) -> Started:
    """`start_run` inside the caller's transaction: the run, its start wait and the NOTIFY commit with it."""
    version = await store.newest_version(conn, flow_id)
    if version is None:
        raise FlowHasNoVersion(flow_id)
    if idempotency_key is not None and not await store.claim_trigger_key(conn, flow_id, idempotency_key):
        existing = await store.run_by_key(conn, flow_id, idempotency_key)
        assert existing is not None, "a taken key without its run"
        return Started(existing, created=False)
    inserted = await store.insert_run(
        conn,
        flow_id,
        version,
        trigger_kind=trigger_kind,
        input=input,
        idempotency_key=idempotency_key,
        started_by=started_by,
    )
    assert inserted is not None, "a run's key is taken in trigger_keys first"
    run_id = inserted
    if idempotency_key is not None:
        await store.set_trigger_key_run(conn, flow_id, idempotency_key, run_id)
    await store.append_journal(
        conn,
        run_id,
        [JournalLine(code="run_created", node=None, visit=None, data={"trigger": trigger_kind})],
    )
    await park_first(conn, run_id)
    await store.notify(conn, str(run_id))
    return Started(run_id, created=True)


async def park_first(conn: AsyncConnection[Any], run_id: int) -> None:
    """The run's first wait, due now; `RunAlreadyParked` when it has an open wait already."""
    try:
        async with conn.transaction():
            await store.insert_start_wait(conn, run_id)
    except UniqueViolation as twice:
        if twice.diag.constraint_name != "waits_one_per_run":
            raise
        raise RunAlreadyParked(code="run_already_parked", run=run_id) from None


@dataclass(frozen=True, slots=True)
class StandingDecision:
    """A decision of the run's approval that the run has yet to go on with: a cancel now is refused."""

    id: int
    outcome: str
    decided_by: str | None
    decided_at: datetime


@dataclass(frozen=True, slots=True)
class WaitApproval:
    """The approval a run's wait is for; `outcome` None while it is open."""

    id: int
    outcome: str | None


# What else `flowyard runs show` says under a run's state, a sentence a line: the actions' late answers,
# handed in by backend/processes.py (the queue does not read the actions' tables).
RunNotes = Callable[[AsyncConnection[Any], int], Awaitable[list[str]]]


class RunApprovals(Protocol):
    """What cancelling, ending and showing a run need of its approvals, in the caller's transaction.

    The approvals own their table and its statements, and the queue imports nothing of them: whoever
    cancels, ends or shows a run hands these in (the API, and the CLI through backend/processes.py, give
    the approvals' port).
    """

    async def standing_decision(self, conn: AsyncConnection[Any], run_id: int) -> StandingDecision | None:
        """A decision the run has not gone on with yet (its approval wait still there and untried)."""

    async def cancel_open(self, conn: AsyncConnection[Any], run_id: int, by: str | None) -> None:
        """Mark the run's open approvals cancelled by `by`: they stay readable, no one can decide them."""

    async def fail_open(self, conn: AsyncConnection[Any], run_id: int) -> None:
        """Close the run's open approvals as `run_failed`: the run ended while it waited at them."""

    async def of_wait(self, conn: AsyncConnection[Any], run_id: int, visit: int) -> WaitApproval | None:
        """The approval the run's wait at `visit` is for, open or decided."""


class DecisionStands(Exception):
    """A cancel refused: the run's approval was decided and the run has yet to go on with the decision.

    Cancelling now would leave the audit saying `approved` of a run that never went on; the decision
    landed first, so it stands (a cancel once the run has gone on is taken as usual).
    """

    def __init__(self, approval_id: int, outcome: str, decided_by: str | None, decided_at: datetime) -> None:
        super().__init__(outcome)
        self.approval_id = approval_id
        self.outcome = outcome
        self.decided_by = decided_by
        self.decided_at = decided_at


async def cancel_run(
    conn: AsyncConnection[Any], run_id: int, *, by: str | None, approvals: RunApprovals
) -> bool:
    """Cancel a run that has not ended; False when it had ended (or never existed). Commits.

    A worker walking the run at this moment finds its claim gone and writes nothing. DecisionStands
    when a decision of its approval landed first and the run has not gone on with it yet.
    """
    try:
        async with conn.transaction():
            return await _cancel(conn, run_id, by, approvals)
    except _AlreadyUndoing:
        return True


class _AlreadyUndoing(Exception):
    """A cancel of a run already running its undos (a cancel or an end before): it rolls back."""


async def _cancel(conn: AsyncConnection[Any], run_id: int, by: str | None, approvals: RunApprovals) -> bool:
    if not await store.set_cancelled(conn, run_id):
        return False
    # A run that was cancelled (or ended) already and is running its undos: nothing more to do (a
    # second cancel, a retry of one that got no answer, would start its undos over and journal them
    # twice). Read once the run's row is locked, so a concurrent first cancel is seen.
    if await store.undoing(conn, run_id):
        raise _AlreadyUndoing
    # The run's row is locked now: a decision landing at this moment has either committed (and is
    # seen here) or waits for this transaction (and then finds its approval cancelled).
    decided = await approvals.standing_decision(conn, run_id)
    if decided is not None:  # rolls the status back with the transaction
        raise DecisionStands(decided.id, decided.outcome, decided.decided_by, decided.decided_at)
    # runs, then approvals, then waits: the order the worker and a decision take them in too.
    await approvals.cancel_open(conn, run_id, by)
    await store.close_open_effects(conn, run_id, "run_cancelled")
    # Succeeded actions that declare undos: the run ends `cancelled` once a worker has run them.
    if await start_undoing(conn, run_id, by=by, undo_for="cancel"):
        return True
    await store.delete_wait_of_run(conn, run_id)
    await store.append_journal(
        conn, run_id, [JournalLine(code="run_cancelled", node=None, visit=None, data={"by": by})]
    )
    return True
