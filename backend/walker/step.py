"""What goes into a walk besides the flow (a `Resume`) and what comes out of one stretch (a `Step`).

A stretch is the walk from a start or a resume to the next pause or the end. Its journal lines are this
stretch's only; the driver appends them to the run's journal.

Examples:
    >>> JournalLine(code="log_written", node="note", visit=3, data={"message": "hi"}).to_json()
    {'code': 'log_written', 'node': 'note', 'visit': 3, 'data': {'message': 'hi'}}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from backend.walker.requests import Request

Status = Literal["succeeded", "failed", "waiting"]


@dataclass(frozen=True, slots=True)
class Resume:
    """The answer to a pause: the node and visit it is for, the outcome, and the node's output if any.

    Outcomes: an approval takes "approve", "reject" or "timeout"; a delay "passed"; an action "out" or
    "error". `output` is stored in the variables under the node's id.
    """

    node: str
    visit: int
    outcome: str
    output: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True, init=False)
class JournalLine:
    """One event of a run: a reason code, the node and visit it is about, and JSON-able details."""

    code: str
    node: str | None
    visit: int | None
    data: dict[str, Any]

    def __init__(
        self, code: str, node: str | None, visit: int | None, data: dict[str, Any] | None = None
    ) -> None:
        # A walk writes about two lines a visit, and the generated frozen __init__ (object.__setattr__ per
        # field) cost as much as the rest of the visit; the slots' own setters do the same job in half.
        _set_code(self, code)
        _set_node(self, node)
        _set_visit(self, visit)
        _set_data(self, {} if data is None else data)

    def to_json(self) -> dict[str, Any]:
        """The line as a JSON object: `{"code", "node", "visit", "data"}`."""
        return {"code": self.code, "node": self.node, "visit": self.visit, "data": self.data}


_set_code, _set_node, _set_visit, _set_data = (
    JournalLine.__dict__[name].__set__ for name in ("code", "node", "visit", "data")
)


@dataclass(frozen=True, slots=True)
class Step:
    """The result of one stretch of a walk.

    `continuation` and `request` are set only while `waiting`; `error` is a reason code only when
    `failed`; `visits` are the node ids visited in this stretch; `visit_count` is the run's total so far.

    `requests` are the pauses this stretch asked for, in branch order (`request` is the first of them,
    or None); `pending` is every `(node, visit)` the continuation now waits on, in branch order: one
    outside a parallel, several while branches wait side by side. A resume of one branch may return
    `waiting` with no new request: the other pauses stay as they are. Both are empty unless `waiting`.
    """

    status: Status
    continuation: dict[str, Any] | None
    request: Request | None
    journal: list[JournalLine]
    visits: list[str]
    error: str | None
    visit_count: int
    requests: tuple[Request, ...] = ()
    pending: tuple[tuple[str, int], ...] = ()
