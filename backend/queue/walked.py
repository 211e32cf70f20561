"""What a claim's walk comes to, as the driver hands it to the outcome's writer: the run parked again
at its pauses, parked again as it was, or ended; and the failure of a resume that cannot go on now.

These are values only: the driver (driver.py) builds them, the outcome (settle.py) writes them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from backend.errors import CodedError
from backend.graph.model import Flow
from backend.queue.claims import WaitKind
from backend.queue.store import RunStatus
from backend.walker import ApprovalRequest, JournalLine, Step


class WaitFailed(CodedError):
    """A resume that cannot go on now; retried with backoff, then fails the run with `code`."""

    @property
    def data(self) -> dict[str, Any]:
        return self.params


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
