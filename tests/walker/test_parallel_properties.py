"""Properties of `parallel`: the order in which pending pauses are answered does not change where a run
ends up when its branches write disjoint names, and a continuation with several pending branches goes
through JSON and back unchanged."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backend.graph import validate
from backend.graph.model import Flow
from backend.walker import ApprovalRequest, DelayRequest, Request
from backend.walker.branches import freeze, thaw
from tests.walker.walker_flows import document, drive_all

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
KINDS = ("set", "approval", "delay", "log", "loop")


@st.composite
def parallel_flows(draw: st.DrawFn) -> dict[str, Any]:
    """trigger > parallel(all) > 2-4 branches of 1-4 steps each (sets of the branch's own names, approvals,
    delays, logs, a foreach around an approval) > done > a last approval, where the variables are read."""
    nodes: dict[str, tuple[str, dict[str, Any]]] = {
        "t": ("trigger", {"kind": "manual"}),
        "p": ("parallel", {"wait": "all"}),
    }
    wires = ["t>p"]
    for branch in range(draw(st.integers(2, 4))):
        previous = None
        for step in range(draw(st.integers(1, 4))):
            kind = draw(st.sampled_from(KINDS))
            node_id = f"b{branch}s{step}"
            if kind == "set":
                # Each branch writes its own names, reading the trigger and its own earlier names.
                source = f"{{{{b{branch}v{step - 1}}}}}" if step else "{{trigger.n}}"
                nodes[node_id] = ("set", {"values": {f"b{branch}v{step}": source}})
            elif kind == "approval":
                nodes[node_id] = ("approval", {"title": node_id, "approvers": ["group:g"]})
            elif kind == "delay":
                nodes[node_id] = ("delay", {"duration": "PT1M"})
            elif kind == "log":
                nodes[node_id] = ("log", {"message": f"{{{{b{branch}v0}}}}"})
            else:
                nodes[node_id] = ("foreach", {"items": "{{trigger.items}}", "as": f"item{branch}"})
                nodes[f"{node_id}ask"] = (
                    "approval",
                    {"title": f"{{{{item{branch}}}}}", "approvers": ["group:g"]},
                )
                wires.append(f"{node_id}.body>{node_id}ask")
            port = (
                {"approval": ".approve", "foreach": ".done"}.get(nodes[previous][0], "") if previous else ""
            )
            wires.append(f"{previous}{port}>{node_id}" if previous else f"p.branches>{node_id}")
            previous = node_id
    nodes["last"] = ("approval", {"title": "last", "approvers": ["group:g"]})
    wires.append("p.done>last")
    return document(nodes, " ".join(wires))


def answer(request: Request) -> tuple[str, dict[str, Any] | None] | None:
    """Approve every approval but the last (the run waits there), let delays pass, actions succeed."""
    if isinstance(request, ApprovalRequest):
        if request.node == "last":
            return None
        return "approve", {"outcome": "approve", "title": request.title}
    if isinstance(request, DelayRequest):
        return "passed", None
    return "out", None


def final_variables(flow: Flow, picks: list[int]) -> dict[str, Any]:
    choices = iter(picks * 50)
    run = drive_all(flow, {"n": 7, "items": ["x", "y"]}, answer, order=lambda requests: next(choices, 0))
    assert run.status == "waiting" and run.last.pending == (("last", run.last.visit_count),)
    assert run.last.continuation is not None and run.last.continuation["v"] == 1
    variables: dict[str, Any] = run.last.continuation["vars"]
    return variables


@SETTINGS
@given(parallel_flows(), st.lists(st.integers(0, 7), min_size=1, max_size=10))
def test_every_order_of_answers_reaches_the_same_variables(
    document_: dict[str, Any], picks: list[int]
) -> None:
    assert validate(document_) == []
    flow = Flow.load(document_)
    assert final_variables(flow, picks) == final_variables(flow, [0])


@SETTINGS
@given(parallel_flows())
def test_a_continuation_with_pending_branches_freezes_and_thaws_unchanged(document_: dict[str, Any]) -> None:
    flow = Flow.load(document_)
    run = drive_all(flow, {"n": 7, "items": ["x"]}, lambda request: None)
    continuation = run.last.continuation
    assert continuation is not None
    text = json.dumps(continuation)
    state, root = thaw(json.loads(text), flow.nodes)
    assert json.dumps(freeze(state, root)) == text
    assert tuple(root.pending()) == run.last.pending
    assert (continuation["v"] == 2) is (len(run.last.pending) > 1 or "par" in continuation)
