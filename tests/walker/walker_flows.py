"""Small flows for the walker's tests, written the way one draws them, and a driver that answers pauses.

`document({"t": trigger(), "a": log()}, "t>a a.error>b")` builds a flow document: wires are
`from>to` (port `out`) or `from.port>to`, in document order.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from backend.graph.model import Flow
from backend.walker import ActionRequest, ApprovalRequest, DelayRequest, Request, Resume, Step, walk
from tests.support import flow

NodeSpec = tuple[str, dict[str, Any]]


def trigger() -> NodeSpec:
    return ("trigger", {"kind": "manual"})


def log(message: str = "", level: str | None = None) -> NodeSpec:
    config: dict[str, Any] = {"message": message}
    if level is not None:
        config["level"] = level
    return ("log", config)


def cond(left: Any, op: str, right: Any = None) -> NodeSpec:
    return ("condition", {"left": left, "op": op, "right": right})


def foreach(items: Any, name: str = "item") -> NodeSpec:
    return ("foreach", {"items": items, "as": name})


def repeat(left: Any, op: str, right: Any = None) -> NodeSpec:
    return ("repeat", {"while": {"left": left, "op": op, "right": right}})


def set_(**values: Any) -> NodeSpec:
    return ("set", {"values": values})


def approval(title: str = "Approve?", deadline: str | None = None, on_timeout: str | None = None) -> NodeSpec:
    config: dict[str, Any] = {"title": title, "explanation": "", "approvers": ["group:finance"]}
    if deadline is not None:
        config.update(deadline=deadline, on_timeout=on_timeout)
    return ("approval", config)


def http(url: str = "https://example.test/", **config: Any) -> NodeSpec:
    return ("http", {"method": "POST", "url": url, **config})


def node(type_: str, **config: Any) -> NodeSpec:
    return (type_, config)


def document(nodes: Mapping[str, NodeSpec], wires: str = "") -> dict[str, Any]:
    """The one flow builder (`tests.support.flow`), fed nodes named by id as the walker tests write them."""
    specs = [{"id": id_, "type": type_, "config": config} for id_, (type_, config) in nodes.items()]
    return flow(*specs, wires=wires)


def build(nodes: Mapping[str, NodeSpec], wires: str = "") -> Flow:
    return Flow.load(document(nodes, wires))


def default_answer(request: Request) -> tuple[str, dict[str, Any] | None]:
    """Approve every approval, let every delay pass, and let every action succeed."""
    if isinstance(request, ApprovalRequest):
        return "approve", {"outcome": "approve"}
    if isinstance(request, DelayRequest):
        return "passed", None
    assert isinstance(request, ActionRequest)
    return "out", {"status": 200}


class Run:
    """A whole run driven to its end: every stretch, and their visits and journal put together."""

    def __init__(self, steps: list[Step]) -> None:
        self.steps = steps
        self.last = steps[-1]
        self.status = self.last.status
        self.error = self.last.error
        self.visits = [visit for step in steps for visit in step.visits]
        self.journal = [line for step in steps for line in step.journal]

    def codes(self, node: str | None = None) -> list[str]:
        return [line.code for line in self.journal if node is None or line.node == node]

    def lines(self, code: str) -> list[dict[str, Any]]:
        return [line.data for line in self.journal if line.code == code]


def drive(
    flow: Flow,
    trigger: Any = None,
    answer: Callable[[Request], tuple[str, dict[str, Any] | None] | None] = default_answer,
    *,
    freeze: bool = True,
) -> Run:
    """Walk `flow` to its end, answering each pause with `answer` (None leaves the run waiting).

    With `freeze`, each continuation goes through JSON text before the next stretch, as in the database.
    """
    steps = [walk(flow, None, trigger=trigger)]
    while steps[-1].status == "waiting":
        step = steps[-1]
        assert step.request is not None and step.continuation is not None
        given = answer(step.request)
        if given is None:
            break
        outcome, output = given
        continuation = json.loads(json.dumps(step.continuation)) if freeze else step.continuation
        resume = Resume(step.request.node, step.request.visit, outcome, output)
        steps.append(walk(flow, continuation, resume=resume))
    return Run(steps)


def parallel(wait: Any = "all") -> NodeSpec:
    return ("parallel", {"wait": wait})


def join(wait: Any = "all") -> NodeSpec:
    return ("join", {"wait": wait})


def drive_all(
    flow: Flow,
    trigger: Any = None,
    answer: Callable[[Request], tuple[str, dict[str, Any] | None] | None] = default_answer,
    *,
    order: Callable[[list[Request]], int] = lambda open_requests: 0,
) -> Run:
    """Walk `flow` to its end answering every pending pause, several at once inside a parallel.

    `order` picks which of the open requests is answered next (an index); every continuation goes
    through JSON text. A request `answer` leaves alone (None) stays open; the run then stays waiting.
    """
    steps = [walk(flow, None, trigger=trigger)]
    open_requests: list[Request] = list(steps[0].requests)
    asked: dict[int, tuple[str, dict[str, Any] | None] | None] = {}
    while steps[-1].status == "waiting" and open_requests:
        step = steps[-1]
        assert step.continuation is not None
        pending = set(step.pending)
        open_requests = [r for r in open_requests if (r.node, r.visit) in pending]
        assert {(r.node, r.visit) for r in open_requests} == pending
        # `answer` is asked once for each request it answers: it may take its answers from a list.
        alive = {id(r) for r in open_requests}
        asked = {key: value for key, value in asked.items() if key in alive}  # ids of gone ones get reused
        answers = {id(r): answer(r) for r in open_requests if id(r) not in asked}
        asked.update((key, value) for key, value in answers.items())
        answerable = [r for r in open_requests if asked[id(r)] is not None]
        if not answerable:
            break
        request = answerable[order(answerable) % len(answerable)]
        given = asked.pop(id(request))
        assert given is not None
        outcome, output = given
        continuation = json.loads(json.dumps(step.continuation))
        resume = Resume(request.node, request.visit, outcome, output)
        steps.append(walk(flow, continuation, resume=resume))
        open_requests = [r for r in open_requests if r is not request] + list(steps[-1].requests)
    return Run(steps)
