"""Properties: the stack machine is the recursive walk, and a pause through JSON changes nothing.

The recursive reference below lives only here. It is the walk as FLOW_FORMAT.md states it: visit a
node, mark it, and call itself on each target of the chosen port, in document order, as its last act; a
loop runs its body with a fresh scope per pass and a `break` is an exception caught by the innermost loop.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backend.graph.model import Flow
from backend.walker import Request, walk
from tests.walker.walker_flows import drive

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
OPTIONS = {"approval": ("approve", "reject", "timeout"), "delay": ("passed",), "http": ("out", "error")}
COMPARE = {
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
    "lt": lambda a, b: a < b,
    "gt": lambda a, b: a > b,
}


class Picker:
    """Answers pauses from a drawn list, in the order they come, the same for both walkers."""

    def __init__(self, picks: list[int]) -> None:
        self.picks = itertools.cycle(picks)

    def pick(self, node_type: str) -> str:
        options = OPTIONS[node_type]
        return options[next(self.picks) % len(options)]


class _Break(Exception):
    pass


class _Stop(Exception):
    def __init__(self, status: str, error: str | None) -> None:
        self.status, self.error = status, error


def reference(flow: Flow, payload: dict[str, Any], picker: Picker) -> tuple[list[str], str, str | None]:
    """The visits, status and error of the recursive walk, answering every pause on the spot."""
    order: list[str] = []
    items: dict[str, Any] = {}

    def follow(node_id: str, port: str, scope: set[str]) -> None:
        for target in flow.targets(node_id, port):
            visit(target, scope)

    def visit(node_id: str, scope: set[str]) -> None:
        if node_id in scope:
            return
        if len(order) == 500:
            raise _Stop("failed", "visit_limit_exceeded")
        scope.add(node_id)
        order.append(node_id)
        node = flow.nodes[node_id]
        config = node.config
        if node.type == "foreach":
            for item in config["items"]:
                items[config["as"]] = item
                try:
                    follow(node_id, "body", set())
                except _Break:
                    break
            follow(node_id, "done", scope)
        elif node.type == "break":
            raise _Break
        elif node.type == "end":
            raise _Stop(config["status"], "run_ended_failed" if config["status"] == "failed" else None)
        elif node.type == "condition":
            left = config["left"][2:-2]
            if left.startswith("trigger.flags."):
                holds = payload["flags"].get(left.removeprefix("trigger.flags.")) is True
            else:
                holds = COMPARE[config["op"]](items[left], config["right"])
            follow(node_id, "true" if holds else "false", scope)
        elif node.type in OPTIONS:
            outcome = picker.pick(node.type)
            port: str = {"timeout": config.get("on_timeout", ""), "passed": "out"}.get(outcome, outcome)
            if port == "error" and not flow.targets(node_id, "error"):
                raise _Stop("failed", "action_failed")
            if port != "skip":
                follow(node_id, port, scope)
        else:
            follow(node_id, "out", scope)

    try:
        visit(flow.trigger, set())
    except _Stop as stop:
        return order, stop.status, stop.error
    return order, "succeeded", None


PORTS = {"condition": ("true", "false"), "approval": ("approve", "reject"), "http": ("out", "error")}


@st.composite
def flows(draw: st.DrawFn, *, loops: bool, pauses: bool) -> tuple[Flow, dict[str, Any]]:
    """A valid flow: a DAG of regions, where a foreach's body is a closed region of its own (<= 3 deep)."""
    numbers = itertools.count()
    nodes: list[dict[str, Any]] = [{"id": "t", "type": "trigger", "config": {"kind": "manual"}}]
    wires: list[dict[str, str]] = []
    flags: dict[str, bool] = {}

    def region(depth: int, loop_var: str | None) -> list[str]:
        types = ["log", "log", "set", "condition"]
        types += ["end"] if depth == 0 else ["break"]
        types += ["approval", "approval", "delay", "http", "http"] if pauses else []
        types += ["foreach", "foreach"] if loops and depth < 3 else []
        ids: list[str] = []
        for _ in range(draw(st.integers(1, 6 if depth == 0 else 4))):
            id_, type_ = f"n{next(numbers)}", draw(st.sampled_from(types))
            config: dict[str, Any] = {"message": id_}
            if type_ == "set":
                config = {"values": {"last": id_}}
            elif type_ == "condition" and loop_var is None:
                config = {"left": f"{{{{trigger.flags.{id_}}}}}", "op": "eq", "right": True}
                if draw(st.booleans()):
                    flags[id_] = draw(st.booleans())
            elif type_ == "condition":
                op = draw(st.sampled_from(sorted(COMPARE)))
                config = {"left": f"{{{{{loop_var}}}}}", "op": op, "right": draw(st.integers(0, 2))}
            elif type_ == "end":
                config = {"status": draw(st.sampled_from(["succeeded", "failed"])), "message": id_}
            elif type_ == "approval":
                on_timeout = draw(st.sampled_from(["approve", "reject", "skip"]))
                config = {"title": id_, "approvers": [], "deadline": "PT1H", "on_timeout": on_timeout}
            elif type_ == "delay":
                config = {"duration": "PT1S"}
            elif type_ == "foreach":
                config = {"items": list(range(draw(st.integers(0, 3)))), "as": f"v_{id_}"}
            nodes.append({"id": id_, "type": type_, "config": config})
            if type_ == "foreach":
                body = region(depth + 1, config["as"])
                for target in draw(st.lists(st.sampled_from(body), min_size=1, max_size=2)):
                    wires.append({"from": id_, "port": "body", "to": target})
            ids.append(id_)
        types_by_id = {node["id"]: node["type"] for node in nodes}
        for index, id_ in enumerate(ids):
            later = ids[index + 1 :]
            type_ = types_by_id[id_]
            ports = {"foreach": ("done",), "break": (), "end": ()}.get(type_, PORTS.get(type_, ("out",)))
            for port in ports if later else ():
                for target in draw(st.lists(st.sampled_from(later), max_size=2)):
                    wires.append({"from": id_, "port": port, "to": target})
        return ids

    top = region(0, None)
    for target in draw(st.lists(st.sampled_from(top), min_size=1, max_size=3)):
        wires.append({"from": "t", "port": "out", "to": target})
    wires = draw(st.permutations(wires))
    flow = Flow.load({"format": "flowyard.flow/1", "name": "p", "nodes": nodes, "wires": wires})
    return flow, {"flags": flags}


@SETTINGS
@given(flows(loops=False, pauses=False))
def test_on_loop_free_dags_the_visit_order_is_the_recursive_walks(drawn: tuple[Flow, dict[str, Any]]) -> None:
    flow, payload = drawn
    step = walk(flow, None, trigger=payload)
    visits, status, error = reference(flow, payload, Picker([0]))
    assert step.visits == visits
    assert (step.status, step.error, step.visit_count) == (status, error, len(visits))


@SETTINGS
@given(flows(loops=True, pauses=False))
def test_with_loops_and_break_the_visit_order_is_the_recursive_walks(
    drawn: tuple[Flow, dict[str, Any]],
) -> None:
    flow, payload = drawn
    step = walk(flow, None, trigger=payload)
    visits, status, error = reference(flow, payload, Picker([0]))
    assert (step.visits, step.status, step.error) == (visits, status, error)


@SETTINGS
@given(flows(loops=True, pauses=True), st.lists(st.integers(0, 5), min_size=1, max_size=8))
def test_freezing_and_thawing_at_every_pause_gives_the_visits_of_never_pausing(
    drawn: tuple[Flow, dict[str, Any]], picks: list[int]
) -> None:
    flow, payload = drawn

    def answerer() -> Any:
        picker = Picker(picks)

        def answer(request: Request) -> tuple[str, None]:
            return picker.pick(flow.nodes[request.node].type), None

        return answer

    frozen = drive(flow, payload, answerer(), freeze=True)
    in_memory = drive(flow, payload, answerer(), freeze=False)
    visits, status, error = reference(flow, payload, Picker(picks))
    assert (frozen.visits, frozen.status, frozen.error) == (visits, status, error)
    assert frozen.last.visit_count == len(visits)
    journal = [line.to_json() for line in frozen.journal]
    assert journal == [line.to_json() for line in in_memory.journal]
    assert json.loads(json.dumps(journal)) == journal
