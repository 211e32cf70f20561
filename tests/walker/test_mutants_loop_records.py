"""Survivors of `make mutation` in backend/walker/continuation.py: a continuation's open loops are read
back exactly (node, visit, base, pass, items, name, the shadowed value or none), and a forged loop
record is refused with `continuation_invalid` and the reason that names what is wrong."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from backend.walker.branches import from_json
from backend.walker.continuation import Loop
from backend.walker.errors import ContinuationInvalid
from backend.walker.templates import MISSING
from tests.walker.support import reason_of

NODES = {"t", "each", "inner", "ask", "x"}
BASE_REASON = "an open loop's base within the stack, above the enclosing loop's"


def paused() -> dict[str, Any]:
    """Paused at `ask` inside two loops: `each` (waypoint 1) and `inner` (waypoint 2), two nodes waiting."""
    return {
        "v": 1,
        "at": {"node": "ask", "visit": 4},
        "visits": 4,
        "stack": ["x", "x"],
        "seen": [["t", "each"], ["inner"], ["ask"]],
        "vars": {"row": [1, 2]},
        "loops": [
            {"node": "each", "visit": 2, "base": 1, "pass": 3, "items": [[1, 2], [3], []], "as": "row"},
            {"node": "inner", "visit": 3, "base": 2, "pass": 0},
        ],
    }


def refused(continuation: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    with pytest.raises(ContinuationInvalid) as raised:
        from_json(continuation, NODES)
    return raised.value.code, reason_of(raised.value.params)


def test_the_open_loops_are_read_back_field_by_field() -> None:
    state, at = from_json(paused(), NODES)
    assert at == ("ask", 4)
    assert state.stack == ["x", "x"]
    assert state.loops == [
        Loop(node="each", visit=2, base=1, passes=3, items=[[1, 2], [3], []], name="row", saved=MISSING),
        Loop(node="inner", visit=3, base=2, passes=0),
    ]
    assert state.loops[0].saved is MISSING  # the variable did not exist before: it goes when the loop closes
    assert state.loops[1].items is None and state.loops[1].name is None


def test_the_value_a_foreach_shadowed_is_read_back_even_when_it_is_null() -> None:
    continuation = paused()
    continuation["loops"][0]["saved"] = None
    state, _ = from_json(continuation, NODES)
    assert state.loops[0].saved is None
    continuation["loops"][0]["saved"] = {"kept": 1}
    state, _ = from_json(continuation, NODES)
    assert state.loops[0].saved == {"kept": 1}


@pytest.mark.parametrize(("outer", "inner"), [(0, 0), (2, 2), (0, 2), (1, 1)])
def test_a_base_at_the_enclosing_loops_or_at_the_stacks_height_is_read(outer: int, inner: int) -> None:
    continuation = paused()
    continuation["loops"][0]["base"], continuation["loops"][1]["base"] = outer, inner
    state, _ = from_json(continuation, NODES)
    assert [loop.base for loop in state.loops] == [outer, inner]


@pytest.mark.parametrize(("outer", "inner"), [(1, 0), (3, 3), (1, 3), (2, 1)])
def test_a_base_below_the_enclosing_loops_or_above_the_stack_is_refused(outer: int, inner: int) -> None:
    continuation = paused()
    continuation["loops"][0]["base"], continuation["loops"][1]["base"] = outer, inner
    assert refused(continuation) == ("continuation_invalid", {"reason": BASE_REASON})


@pytest.mark.parametrize(
    "record", [["each", 2, 1, 3], "each", None, {"node": "elsewhere", "visit": 2, "base": 1, "pass": 0}, {}]
)
def test_a_loop_record_that_is_no_object_or_names_no_node_of_the_flow_is_refused(record: Any) -> None:
    continuation = paused()
    continuation["loops"][0] = record
    assert refused(continuation) == ("continuation_invalid", {"reason": "an open loop of this flow"})


@pytest.mark.parametrize("key", ["base", "visit", "pass"])
@pytest.mark.parametrize("value", [-1, True, "1", 1.0, None])
def test_a_count_that_is_no_whole_number_from_0_is_refused_with_its_name(key: str, value: Any) -> None:
    continuation = paused()
    continuation["loops"][1][key] = value
    assert refused(continuation) == ("continuation_invalid", {"reason": f"a count as {key!r}"})
    del continuation["loops"][1][key]
    assert refused(continuation) == ("continuation_invalid", {"reason": f"a count as {key!r}"})


@pytest.mark.parametrize(("items", "name"), [("abc", "row"), ({"a": 1}, "row"), ([1], 5), ([1], None)])
def test_a_foreach_record_without_a_list_of_items_and_a_name_is_refused(items: Any, name: Any) -> None:
    continuation = paused()
    continuation["loops"][0]["items"], continuation["loops"][0]["as"] = items, name
    assert refused(continuation) == ("continuation_invalid", {"reason": "a foreach's items and name"})


def test_a_foreach_record_without_its_name_is_refused() -> None:
    continuation = paused()
    del continuation["loops"][0]["as"]
    assert refused(continuation) == ("continuation_invalid", {"reason": "a foreach's items and name"})


@pytest.mark.parametrize("stack", [["x", "nowhere"], ["x", 5], "x", {"x": 1}])
def test_a_stack_with_a_node_of_no_flow_or_no_list_is_refused(stack: Any) -> None:
    continuation = paused()
    continuation["stack"] = stack
    assert refused(continuation) == ("continuation_invalid", {"reason": "a list of this flow's node ids"})


def test_the_caller_s_continuation_is_not_changed_by_reading_it() -> None:
    continuation = paused()
    before = copy.deepcopy(continuation)
    state, _ = from_json(continuation, NODES)
    state.stack.append("x")
    state.seen[0]["ask"] = None
    state.variables["row"] = "changed"
    state.loops[0].passes += 1
    state.loops.pop()
    assert continuation == before
