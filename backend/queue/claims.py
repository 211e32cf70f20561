"""A claimed wait, the backoff of a resume that threw, and the clock they are measured by."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from datetime import datetime, timedelta
from typing import Any, Literal

from backend.outcomes import FinalOutcome

# A resume that throws is tried again 1, 2, 4 and 8 minutes on; the fifth failure fails the run.
MAX_ATTEMPTS = 5
FIRST_BACKOFF = timedelta(minutes=1)

# What a worker asks for the time. None means the database's own now(): one clock for every worker.
# Tests inject a clock of their own to walk through backoffs and deadlines without waiting.
Clock = Callable[[], datetime | None]


def database_clock() -> datetime | None:
    return None


def backoff(attempts: int) -> timedelta:
    """How long after its `attempts`-th failure a wait is tried again.

    Examples:
        >>> [int(backoff(n).total_seconds() // 60) for n in (1, 2, 3, 4)]
        [1, 2, 4, 8]
    """
    return FIRST_BACKOFF * int(2 ** (attempts - 1))


# What a wait waits for (waits.kind).
WaitKind = Literal["start", "approval", "delay", "undo", "event", "retry"]


@dataclass(frozen=True, slots=True)
class ApprovalRead:
    """An approval wait's approval, final (decided, timed out or cancelled), as its claim round read it.

    Its fields are those of the approvals' own read of a woken wait's approval (ApprovalsPort)."""

    id: int
    outcome: FinalOutcome
    decided_by: str | None
    decided_at: datetime
    comment: str | None
    past_deadline: bool = True  # not asked: a final outcome is resumed from, whatever its deadline


@dataclass(frozen=True, slots=True)
class Claim:
    """One row the claim statement returned: this worker's until it writes the outcome or its lease ends.

    It carries what walking it needs of its run (flow, version, trigger input), read in the same
    statement, so a claim costs no second round trip.
    """

    wait_id: int
    run_id: int
    kind: WaitKind
    continuation: dict[str, Any] | None
    node: str | None
    visit: int | None
    attempts: int
    wake_at: datetime
    flow_id: int
    version: int
    input: Any
    # Claimed because someone answered it (a decision, an event: waits.answered_at): its outcome is
    # written without waiting behind a batch in flight (OutcomeBatch).
    answered: bool = False
    # Its last claim was abandoned (its lease lapsed: waits.abandoned, migration 0025): it may be a run that
    # kills the worker that walks it, so its worker holds no other such claim while it holds this one.
    abandoned: bool = False
    # An approval wait's approval when the claim (or its round's `time_out_claimed`) found it final
    # (decided, timed out, cancelled): the wait resumes from it with no read of its own. None: not read,
    # or still undecided.
    approval: ApprovalRead | None = None

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> Claim:
        """A claim from a row read without a row factory, its columns in the claim statement's order (a
        test claiming by hand); the worker reads its claims as `Claimed` rows (`claim_due`)."""
        values = dict(zip(_COLUMNS, row, strict=False))
        for name in ("wait_id", "run_id", "attempts", "flow_id", "version"):
            values[name] = int(values[name])
        return Claimed(**values).claim()


@dataclass(frozen=True, slots=True)
class Claimed(Claim):
    """A row of the claim statement: the claim's columns, and its approval's
    when the wait is an approval wait whose approval is final (else all None)."""

    approval_id: int | None = None
    outcome: FinalOutcome | None = None
    decided_by: str | None = None
    decided_at: datetime | None = None
    comment: str | None = None

    def claim(self) -> Claim:
        approval = None
        if self.approval_id is not None and self.outcome is not None and self.decided_at is not None:
            read = (self.approval_id, self.outcome, self.decided_by, self.decided_at, self.comment)
            approval = ApprovalRead(*read)
        values = {field.name: getattr(self, field.name) for field in fields(Claim)}
        given = {"answered": bool(self.answered), "abandoned": bool(self.abandoned), "approval": approval}
        return Claim(**{**values, **given})


# The statements' columns in their order: the claim's (its `approval` is not one), then the approval's.
_COLUMNS = [field.name for field in fields(Claimed) if field.name != "approval"]


class ClaimLost(Exception):
    """The wait is no longer this claim's (lease taken over, or the run cancelled): write nothing more."""
