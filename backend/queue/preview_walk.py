"""The walk a resume would take, with nothing sent: the pure half of a resume's preview (preview.py).

It walks as the worker's driver does (driver.py, `_Walking.act`), from the stopped wait's pause answered
as recorded, sending no action: an action whose recorded outcome stands (every success, and an error a
later visit built on) is given back as the driver's effects log would give it, and nothing would leave
for it; any other action is listed as what would be sent and assumed to succeed, taking `out` with an
empty output, as `flowyard walk` does. The walk stops where the worker's would: at the pauses it would
wait at (approvals, delays, event waits), or at the run's end or failure.

Examples:
    >>> from backend.graph.model import Flow
    >>> from backend.walker import Limits
    >>> flow = Flow.load({"format": "flowyard.flow/1", "name": "n", "nodes": [
    ...     {"id": "t", "type": "trigger", "config": {"kind": "manual"}},
    ...     {"id": "pay", "type": "http", "config": {"method": "POST", "url": "https://p.example/{{trigger}}"}},
    ...     {"id": "later", "type": "delay", "config": {"duration": "PT1H"}}],
    ...     "wires": [{"from": "t", "to": "pay"}, {"from": "pay", "to": "later"}]})
    >>> walked = walk_resume(flow, None, None, trigger="a-1", recorded={}, limits=Limits(10_000, 100_000))
    >>> [(a.node, a.type, a.destination, a.visit, a.sent) for a in walked.actions]
    [('pay', 'http', 'https://p.example/{{trigger}}', 2, True)]
    >>> walked.status, walked.pending
    ('waiting', (('later', 3),))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from backend.graph.model import Flow
from backend.walker import ActionRequest, Limits, Resume, Status, Step, walk
from backend.walker.sizes import JournalBudget

# The config field that says where an action goes, shown as the author wrote it (secrets stay refs).
DESTINATION_FIELDS: Mapping[str, str] = {"http": "url", "notify": "to", "command": "server"}


@dataclass(frozen=True, slots=True)
class Recorded:
    """An action visit's effects row: its node and key, and the outcome that stands (None: none does,
    so a resume tries again under the same key)."""

    visit: int
    node: str
    key: str
    outcome: str | None
    output: Any
    superseded: bool


@dataclass(frozen=True, slots=True)
class PreviewAction:
    """An action the resume would reach: sent (`sent`), or given back from its effects row (not sent).
    `key` is the row's key; None for a visit that has no row yet (a key is made when it is first sent)."""

    node: str
    label: str | None
    type: str
    destination: str | None
    visit: int
    key: str | None
    sent: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "node": self.node,
            "label": self.label,
            "type": self.type,
            "destination": self.destination,
            "visit": self.visit,
            "key": self.key,
            "sent": self.sent,
        }


@dataclass(slots=True)
class Walked:
    """Where the resume would stop: `waiting` at `pending` (node, visit), or ended as `status` says
    (`error` and `node`, for a failure); the actions on the way, in the order they would be reached."""

    status: Status
    pending: tuple[tuple[str, int], ...] = ()
    error: str | None = None
    node: str | None = None
    actions: list[PreviewAction] = field(default_factory=list)


def walk_resume(
    flow: Flow,
    continuation: Mapping[str, Any] | None,
    first: Resume | None,
    *,
    trigger: Any,
    recorded: Mapping[int, Recorded],
    limits: Limits,
    budget: JournalBudget | None = None,
) -> Walked:
    """Walk `flow` on from `continuation`, its pause answered by `first` (a start: both None), as the
    worker would, every action answered from `recorded` or assumed to succeed with an empty output."""
    if continuation is None:
        step = walk(flow, None, trigger=trigger, limits=limits, budget=budget)
    else:
        step = walk(flow, continuation, resume=first, limits=limits, budget=budget)
    actions: list[PreviewAction] = []
    todo = [request for request in step.requests if isinstance(request, ActionRequest)]
    while todo and step.status == "waiting":
        request = todo.pop(0)
        if (request.node, request.visit) not in step.pending:
            continue  # its branch was cancelled meanwhile: the worker would not send it either
        row = recorded.get(request.visit)
        if row is not None and row.node != request.node:
            # The worker refuses a visit that acted at another node (effects.py): so would the resume.
            return Walked("failed", error="action_effect_mismatch", node=request.node, actions=actions)
        stands = row is not None and (row.outcome == "out" or (row.outcome == "error" and row.superseded))
        actions.append(_listed(flow, request, row, sent=not stands))
        if stands and row is not None and row.outcome is not None:
            resume = Resume(request.node, request.visit, row.outcome, row.output)
        else:
            resume = Resume(request.node, request.visit, "out", {})
        step = walk(flow, step.continuation, resume=resume, limits=limits, budget=budget)
        todo.extend(request for request in step.requests if isinstance(request, ActionRequest))
    return _stopped(step, actions)


def _listed(flow: Flow, request: ActionRequest, row: Recorded | None, *, sent: bool) -> PreviewAction:
    node = flow.nodes[request.node]
    written = node.config.get(DESTINATION_FIELDS.get(request.type, ""))
    return PreviewAction(
        node=request.node,
        label=node.label,
        type=request.type,
        destination=written if isinstance(written, str) else None,
        visit=request.visit,
        key=row.key if row is not None else None,
        sent=sent,
    )


def _stopped(step: Step, actions: list[PreviewAction]) -> Walked:
    if step.status == "waiting":
        return Walked("waiting", pending=step.pending, actions=actions)
    failed = next((line for line in reversed(step.journal) if line.code == "run_failed"), None)
    node = failed.node if failed is not None else None
    return Walked(step.status, error=step.error, node=node, actions=actions)
