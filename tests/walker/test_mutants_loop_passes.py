"""Survivors of `make mutation` in backend/walker/loops.py: what entering a foreach records (its loop,
its visited scope, its journal line, its variable and the size the ledger counts), what each pass
resets, and the exact failure of a foreach without a name, without a list or with too many items."""

from __future__ import annotations

import json
from typing import Any

import pytest

from backend.graph.model import Node
from backend.walker import walk
from backend.walker.continuation import Loop, State
from backend.walker.errors import WalkFailure
from backend.walker.loops import PASS_LIMIT, Loops
from backend.walker.sizes import Limits
from backend.walker.step import JournalLine
from backend.walker.templates import MISSING
from tests.walker.walker_flows import build, foreach, log, repeat, set_, trigger

ALONE = build({"t": trigger()})  # entering a foreach reads only its node, never the flow


def entered(config: dict[str, Any], variables: dict[str, Any]) -> tuple[str, State, list[JournalLine], Loops]:
    state = State(stack=["x", "y"], seen=[{"t": None}], variables=variables, visits=6, loops=[])
    journal: list[JournalLine] = []
    loops = Loops(ALONE, state, journal)
    port = loops.enter_foreach(Node("each", "foreach", config), 7)
    return port, state, journal, loops


def json_size(variables: dict[str, Any]) -> int:
    """What the ledger counts for these variables: their compact JSON, and a comma after every entry."""
    return len(json.dumps(variables, separators=(",", ":")).encode()) + 1


def test_entering_a_foreach_opens_its_loop_scope_and_first_pass() -> None:
    port, state, journal, loops = entered({"items": "{{rows}}", "as": "row"}, {"rows": [{"a": 1}, [2, 3]]})
    assert port == "body"
    assert state.loops == [Loop("each", 7, 2, 1, [{"a": 1}, [2, 3]], "row", MISSING)]
    assert state.loops[0].saved is MISSING
    assert state.seen == [{"t": None}, {}]
    assert state.variables == {"rows": [{"a": 1}, [2, 3]], "row": {"a": 1}}
    assert journal == [JournalLine(code="loop_pass_started", node="each", visit=7, data={"pass": 1})]
    assert loops.ledger.total == json_size(state.variables)


def test_a_foreach_over_a_name_in_use_keeps_its_value_to_give_back() -> None:
    _, state, _, _ = entered({"items": [5, 6], "as": "row"}, {"row": None})
    assert state.loops[0].saved is None
    assert state.variables["row"] == 5
    _, state, _, _ = entered({"items": [5, 6], "as": "row"}, {"row": "mine"})
    assert state.loops[0].saved == "mine"


def test_each_pass_takes_the_next_item_and_forgets_the_visits_of_the_last() -> None:
    flow = build(
        {"t": trigger(), "each": foreach("{{trigger}}", "row"), "say": log("{{row}}")}, "t>each each.body>say"
    )
    state = State(
        stack=[],
        seen=[{"t": None}, {"x": None}],
        variables={"trigger": ["a", "bb", "ccc"]},
        visits=1,
        loops=[],
    )
    journal: list[JournalLine] = []
    loops = Loops(flow, state, journal)
    assert loops.enter_foreach(flow.nodes["each"], 2) == "body"
    assert state.seen == [{"t": None}, {"x": None}, {}]
    state.seen[-1]["say"] = None
    state.stack.clear()
    loops.pass_over(state.loops[0])
    assert state.stack == ["say"]
    # Only the loop's own scope starts again: the enclosing ones keep what they visited.
    assert state.seen == [{"t": None}, {"x": None}, {}]
    assert state.variables["row"] == "bb"
    assert state.loops[0].passes == 2
    assert journal[-1] == JournalLine(code="loop_pass_started", node="each", visit=2, data={"pass": 2})
    assert loops.ledger.total == json_size(state.variables)
    state.stack.clear()
    loops.pass_over(state.loops[0])
    assert (state.variables["row"], state.loops[0].passes) == ("ccc", 3)
    assert loops.ledger.total == json_size(state.variables)
    state.stack.clear()
    loops.pass_over(state.loops[0])
    assert state.loops == [] and "row" not in state.variables
    assert journal[-1] == JournalLine(code="loop_finished", node="each", visit=2, data={"passes": 3})
    assert loops.ledger.total == json_size(state.variables)


def test_an_item_past_the_variables_limit_fails_the_pass_that_takes_it() -> None:
    state = State(stack=[], seen=[{}], variables={"rows": ["ab", "x" * 40]}, visits=0, loops=[])
    loops = Loops(ALONE, state, [], Limits(value_bytes=1000, variables_bytes=60))
    # {"rows":["ab","x…x"]} is 54 bytes; `"row":"ab",` makes it 65: the first pass is past the limit.
    with pytest.raises(WalkFailure) as raised:
        loops.enter_foreach(Node("each", "foreach", {"items": "{{rows}}", "as": "row"}), 1)
    assert (raised.value.code, raised.value.params) == ("value_too_large", {"limit": 60, "what": "variables"})


@pytest.mark.parametrize("config", [{"items": [1]}, {"items": [1], "as": ""}, {"items": [1], "as": 5}])
def test_a_foreach_without_a_name_fails_with_the_field(config: dict[str, Any]) -> None:
    with pytest.raises(WalkFailure) as raised:
        entered(config, {})
    assert (raised.value.code, raised.value.params) == ("node_config_invalid", {"field": "as"})


@pytest.mark.parametrize(
    ("items", "kind"), [("abc", "string"), ({"a": 1}, "object"), (3, "number"), (None, "null")]
)
def test_a_foreach_over_no_list_fails_with_the_kind_it_got(items: Any, kind: str) -> None:
    with pytest.raises(WalkFailure) as raised:
        entered({"items": "{{v}}", "as": "row"}, {"v": items})
    assert (raised.value.code, raised.value.params) == ("foreach_items_invalid", {"got": kind})


def test_a_foreach_over_exactly_the_pass_limit_runs_and_one_more_fails() -> None:
    port, state, _, _ = entered({"items": list(range(PASS_LIMIT)), "as": "row"}, {})
    assert port == "body" and state.loops[0].passes == 1
    with pytest.raises(WalkFailure) as raised:
        entered({"items": list(range(PASS_LIMIT + 1)), "as": "row"}, {})
    assert (raised.value.code, raised.value.params) == (
        "iteration_limit_exceeded",
        {"limit": 100, "passes": 101},
    )


@pytest.mark.parametrize(
    "config", [{"items": "{{absent}}", "as": "row"}, {"as": "row"}, {"items": [], "as": "row"}]
)
def test_a_foreach_over_missing_or_no_items_follows_done_and_opens_nothing(config: dict[str, Any]) -> None:
    port, state, journal, _ = entered(config, {"row": 1})
    assert port == "done"
    assert (state.loops, state.seen, state.variables, journal) == ([], [{"t": None}], {"row": 1}, [])


def test_a_repeats_test_before_a_later_pass_is_held_to_the_runs_value_limit() -> None:
    # The first test renders "" (v starts empty); the second 180 characters, past the 100 allowed.
    flow = build(
        {
            "t": trigger(),
            "v": set_(v=""),
            "r": repeat("{{v}}{{v}}", "ne", "stop"),
            "s": set_(v="{{trigger.big}}"),
        },
        "t>v v>r r.body>s",
    )
    step = walk(flow, None, trigger={"big": "x" * 90}, limits=Limits(value_bytes=100))
    assert (step.status, step.error) == ("failed", "value_too_large")
    assert step.journal[-1] == JournalLine(
        code="run_failed", node="r", visit=3, data={"error": "value_too_large", "limit": 100, "what": "text"}
    )
