"""Survivors of `make mutation` in backend/walker/walk.py: a parallel over items counts its variable
against the run's variables limit exactly as a foreach does, while a branch walks and after it closes
(the variable gone, or its earlier value back): the smallest limit a run passes is the same."""

from __future__ import annotations

from typing import Any

from backend.graph.model import Flow
from backend.walker import walk
from backend.walker.sizes import Limits
from tests.walker.walker_flows import NodeSpec, build, foreach, log, node, set_, trigger

ITEMS = ["a" * 200, "c" * 10]


def over(kind: str) -> NodeSpec:
    if kind == "foreach":
        return foreach("{{trigger.items}}", "it")
    return node("parallel", items="{{trigger.items}}", **{"as": "it"})


def smallest_limit(flow: Flow, payload: Any) -> int:
    """The smallest variables limit the run succeeds under; a smaller one fails it with value_too_large."""
    low, high = 0, 4000
    assert walk(flow, None, trigger=payload, limits=Limits(variables_bytes=high)).status == "succeeded"
    while low + 1 < high:
        middle = (low + high) // 2
        step = walk(flow, None, trigger=payload, limits=Limits(variables_bytes=middle))
        if step.status == "succeeded":
            high = middle
        else:
            assert (step.error, step.journal[-1].data["what"]) == ("value_too_large", "variables")
            low = middle
    return high


def flows(before: dict[str, NodeSpec], wires: str) -> tuple[Flow, Flow]:
    made = []
    for kind in ("parallel", "foreach"):
        port = "branches" if kind == "parallel" else "body"
        nodes = {
            "t": trigger(),
            **before,
            "each": over(kind),
            "say": log("{{it}}"),
            "s": set_(y="{{trigger.pad}}"),
        }
        made.append(build(nodes, f"{wires} each.{port}>say each.done>s"))
    return made[0], made[1]


def test_a_branchs_item_counts_as_a_passs_item() -> None:
    # The largest moment is the first branch, holding the 200 characters: a smaller pad after it.
    parallel, loop = flows({}, "t>each")
    payload = {"items": ITEMS, "pad": "b"}
    assert smallest_limit(parallel, payload) == smallest_limit(loop, payload)


def test_a_closed_parallels_variable_no_longer_counts() -> None:
    # The largest moment is the end, after the pad: the item's size must be gone by then.
    parallel, loop = flows({}, "t>each")
    payload = {"items": ["a" * 100], "pad": "b" * 300}
    assert smallest_limit(parallel, payload) == smallest_limit(loop, payload)


def test_a_closed_parallels_variable_counts_its_earlier_value_again() -> None:
    parallel, loop = flows({"keep": set_(it="{{trigger.keep}}")}, "t>keep keep>each")
    payload = {"items": ["a"], "pad": "b" * 300, "keep": "k" * 150}
    assert smallest_limit(parallel, payload) == smallest_limit(loop, payload)
