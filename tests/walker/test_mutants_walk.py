"""Survivors of `make mutation` in walk.py, loops.py and conditions.py: `end`, `set`, a parallel over
items and a condition, each refusal with its exact code and parameters, the limits at their boundary, and
the ledger of the variables exact after sets, removals and loops (the run holds exactly the JSON size)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from backend.walker import Limits, walk
from backend.walker.conditions import holds
from backend.walker.errors import WalkFailure
from backend.walker.sizes import DEFAULT_LIMITS
from tests.walker.walker_flows import approval, build, foreach, log, node, set_, trigger


def failed(
    nodes: dict[str, Any], wires: str, limits: Limits = DEFAULT_LIMITS, trig: Any = None
) -> dict[str, Any]:
    step = walk(build(nodes, wires), None, trigger=trig, limits=limits)
    assert step.status == "failed", step.journal
    last = step.journal[-1]
    assert last.code == "run_failed"
    return {"node": last.node, **last.data}


def test_an_end_without_status_or_message_succeeds_with_an_empty_message() -> None:
    step = walk(build({"t": trigger(), "e": node("end")}, "t>e"), None)
    assert step.status == "succeeded"
    last = step.journal[-1]
    assert (last.code, last.node, last.visit, last.data) == ("run_succeeded", "e", 2, {"message": ""})


def test_an_end_with_an_unknown_status_or_a_message_past_the_limit_fails() -> None:
    nodes = {"t": trigger(), "e": node("end", status="paused")}
    assert failed(nodes, "t>e") == {"node": "e", "error": "node_config_invalid", "field": "status"}
    nodes = {"t": trigger(), "e": node("end", message="a{{trigger}}")}
    assert failed(nodes, "t>e", Limits(value_bytes=50), "x" * 60) == {
        "node": "e",
        "error": "value_too_large",
        "limit": 50,
        "what": "text",
    }


def test_a_set_without_values_or_past_the_limit_fails_with_the_name() -> None:
    assert failed({"t": trigger(), "s": node("set", values=[1])}, "t>s") == {
        "node": "s",
        "error": "node_config_invalid",
        "field": "values",
    }
    limits = Limits(value_bytes=50)
    # A string of 48 characters is 50 bytes of JSON: exactly the limit, accepted; one more is refused.
    step = walk(
        build({"t": trigger(), "s": set_(v="{{trigger}}")}, "t>s"), None, trigger="x" * 48, limits=limits
    )
    assert step.status == "succeeded"
    assert failed({"t": trigger(), "s": set_(v="{{trigger}}")}, "t>s", limits, "x" * 49) == {
        "node": "s",
        "error": "value_too_large",
        "limit": 50,
        "what": "value",
        "name": "v",
    }
    assert failed({"t": trigger(), "s": set_(v="a{{trigger}}")}, "t>s", limits, "x" * 60) == {
        "node": "s",
        "error": "value_too_large",
        "limit": 50,
        "what": "text",
    }


def held(nodes: dict[str, Any], wires: str, trig: Any, sets: int) -> int:
    """The size the run counts for its variables when it pauses at its approval: their JSON size as the
    continuation holds them, and a comma after the last entry of the variables and of each of the `sets`
    set nodes' outputs (the ledger counts one after every entry, sizes.py)."""
    step = walk(build(nodes, wires), None, trigger=trig)
    assert step.status == "waiting" and step.continuation is not None
    return len(json.dumps(step.continuation["vars"], separators=(",", ":")).encode()) + 1 + sets


def walks_within(nodes: dict[str, Any], wires: str, trig: Any, size: int) -> None:
    fits = walk(build(nodes, wires), None, trigger=trig, limits=Limits(variables_bytes=size))
    assert fits.status == "waiting", fits.journal[-1]
    over = walk(build(nodes, wires), None, trigger=trig, limits=Limits(variables_bytes=size - 1))
    assert (over.status, over.error) == ("failed", "value_too_large")
    assert over.journal[-1].data["what"] == "variables"


def test_the_variables_may_fill_their_limit_after_sets_that_assign_and_remove() -> None:
    # Each step makes the variables larger than before: the last one is where the limit bites.
    nodes = {
        "t": trigger(),
        "s1": set_(a="{{trigger}}", b=1),
        "s2": set_(a="{{gone}}", c="{{s1.b}}"),
        "s3": set_(d="{{trigger}}{{trigger}}{{trigger}}"),
        "ask": approval(),
    }
    wires = "t>s1 s1>s2 s2>s3 s3>ask"
    walks_within(nodes, wires, "x" * 40, held(nodes, wires, "x" * 40, sets=3))


def test_the_variables_may_fill_their_limit_after_a_loop_gives_its_name_back() -> None:
    nodes = {
        "t": trigger(),
        "keep": set_(it="{{trigger}}"),
        "each": foreach(["a", "b"], "it"),
        "say": log("{{it}}"),
        "grow": set_(more="{{trigger}}{{trigger}}"),
        "ask": approval(),
    }
    wires = "t>keep keep>each each.body>say each.done>grow grow>ask"
    walks_within(nodes, wires, "y" * 40, held(nodes, wires, "y" * 40, sets=2))


def test_the_variables_may_fill_their_limit_after_a_loop_removes_its_name() -> None:
    nodes = {
        "t": trigger(),
        "each": foreach(["z" * 30], "it"),
        "say": log("{{it}}"),
        "grow": set_(more="{{trigger}}{{trigger}}"),
        "ask": approval(),
    }
    wires = "t>each each.body>say each.done>grow grow>ask"
    walks_within(nodes, wires, "y" * 40, held(nodes, wires, "y" * 40, sets=1))


def test_a_loop_whose_body_removed_its_name_finishes() -> None:
    nodes = {"t": trigger(), "each": foreach([1], "it"), "drop": set_(it="{{gone}}"), "a": log()}
    step = walk(build(nodes, "t>each each.body>drop each.done>a"), None)
    assert step.status == "succeeded"
    finished = next(line for line in step.journal if line.code == "loop_finished")
    assert (finished.node, finished.visit, finished.data) == ("each", 2, {"passes": 1})


def test_a_broken_loop_journals_its_node_and_visit() -> None:
    nodes = {"t": trigger(), "each": foreach([1, 2], "it"), "out": node("break")}
    step = walk(build(nodes, "t>each each.body>out"), None)
    broken = next(line for line in step.journal if line.code == "loop_broken")
    assert (broken.node, broken.visit, broken.data) == ("each", 2, {"passes": 1})


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        ({"items": [1]}, {"error": "node_config_invalid", "field": "as"}),
        ({"items": [1], "as": ""}, {"error": "node_config_invalid", "field": "as"}),
        ({"items": "{{trigger}}", "as": "it"}, {"error": "parallel_items_invalid", "got": "string"}),
        ({"items": "a{{trigger}}", "as": "it"}, {"error": "value_too_large", "limit": 50, "what": "text"}),
    ],
)
def test_a_parallel_over_items_the_walker_refuses(config: dict[str, Any], expected: dict[str, Any]) -> None:
    nodes = {"t": trigger(), "p": node("parallel", wait="all", **config), "a": log()}
    assert failed(nodes, "t>p p.branches>a", Limits(value_bytes=50), "x" * 60) == {"node": "p", **expected}


def test_a_condition_refuses_an_operator_that_is_not_text_and_a_right_past_the_limit() -> None:
    with pytest.raises(WalkFailure) as raised:
        holds({"left": 1, "op": ["eq"], "right": 1}, {})
    assert (raised.value.code, raised.value.params) == ("node_config_invalid", {"field": "op"})
    with pytest.raises(WalkFailure) as raised:
        holds({"left": "a", "op": "eq", "right": "a{{big}}"}, {"big": "x" * 100}, 50)
    assert (raised.value.code, raised.value.params) == ("value_too_large", {"limit": 50, "what": "text"})
