"""The driver's ports: what it asks of the product around a walk (actions sent, approvals kept), given to
the worker by backend/processes.py or the app factory, so the queue imports none of those packages.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

from psycopg import AsyncConnection

from backend.queue.claims import Claim
from backend.queue.walked import Run, Undecided
from backend.walker import ActionRequest, ApprovalRequest, Resume

# Whether this claim still holds; asked before an action leaves.
StillOurs = Callable[[], Awaitable[bool]]


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
