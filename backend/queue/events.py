"""The worker's approvals port, answering wait_event's waits itself (backend/events/wake.py) and passing
every other wait on to the approvals it wraps. `Worker` wraps whatever approvals it is given.

Every method of the port is written out (none is forwarded by name): what this wraps is what `Approvals`
says, and a method added to the port fails the type check here until it is wrapped."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from psycopg import AsyncConnection

from backend.errors import CodedError
from backend.events.wake import Answer, answer, answered_now, answered_pauses, close
from backend.queue.claims import Claim, Clock
from backend.queue.ports import Approvals
from backend.queue.store import wake_pauses
from backend.queue.walked import Run, Undecided, WaitFailed
from backend.walker import ApprovalRequest, Resume


class WithEvents:
    def __init__(self, approvals: Approvals, clock: Clock) -> None:
        self.approvals = approvals
        self.clock = clock

    async def create_many(
        self, conn: AsyncConnection[Any], asks: Sequence[tuple[Run, ApprovalRequest, timedelta | None]]
    ) -> None:
        await self.approvals.create_many(conn, asks)

    async def resolution(self, conn: AsyncConnection[Any], claim: Claim) -> Resume | Undecided:
        if claim.kind != "event":
            return await self.approvals.resolution(conn, claim)
        assert claim.node is not None and claim.visit is not None
        try:
            found = await answer(conn, claim.run_id, claim.visit, self.clock())
        except CodedError as failure:
            raise WaitFailed(code=failure.code, **failure.params) from None
        if isinstance(found, Answer):
            return Resume(node=claim.node, visit=claim.visit, outcome=found.outcome, output=found.output)
        return Undecided(wake_at=found)  # woken before an answer: parked again until its timeout

    async def decided(self, conn: AsyncConnection[Any], claim: Claim) -> bool:
        if claim.kind != "event":
            return await self.approvals.decided(conn, claim)
        assert claim.visit is not None
        try:
            return await answered_now(conn, claim.run_id, claim.visit, self.clock())
        except CodedError as failure:
            raise WaitFailed(code=failure.code, **failure.params) from None

    async def close(self, conn: AsyncConnection[Any], run_id: int, keep: list[int], outcome: str) -> None:
        await self.approvals.close(conn, run_id, keep, outcome)
        await close(conn, run_id, keep)  # a cancelled branch's event pause takes no event any more

    async def wake_decided(self, conn: AsyncConnection[Any], wait_ids: list[int]) -> list[int]:
        decided = await self.approvals.wake_decided(conn, wait_ids)
        answered = await wake_pauses(conn, await answered_pauses(conn, wait_ids), self.clock())
        return sorted(set(decided) | set(answered))

    async def sweep(self, conn: AsyncConnection[Any], now: datetime | None, retention: timedelta) -> int:
        return await self.approvals.sweep(conn, now, retention)


def with_events(approvals: Approvals, clock: Clock) -> Approvals:
    """`approvals` for approval waits, wait_event's own answers for event waits."""
    return approvals if isinstance(approvals, WithEvents) else WithEvents(approvals, clock)
