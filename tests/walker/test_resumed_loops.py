"""Loops across a pause: what a closing foreach gives back, and forged loop records that must be refused."""

from __future__ import annotations

import copy

import pytest

from backend.walker import ContinuationInvalid, Resume, walk
from tests.walker.test_continuation import paused_in_a_nested_loop
from tests.walker.walker_flows import approval, build, cond, drive, foreach, log, set_, trigger


def test_a_foreach_closed_after_a_pause_removes_its_variable() -> None:
    flow = build(
        {
            "t": trigger(),
            "each": foreach("{{trigger}}", "line"),
            "ask": approval("{{line}}"),
            "left": cond("{{line}}", "exists"),
            "kept": log("still there"),
            "gone": log("removed"),
        },
        "t>each each.body>ask each.done>left left.true>kept left.false>gone",
    )
    run = drive(flow, trigger=["a", "b"])
    assert run.status == "succeeded"
    assert len(run.steps) == 3
    assert run.visits[-2:] == ["left", "gone"]


def test_a_foreach_closed_after_a_pause_restores_the_variable_it_shadowed() -> None:
    flow = build(
        {
            "t": trigger(),
            "keep": set_(line="mine"),
            "each": foreach("{{trigger}}", "line"),
            "ask": approval("{{line}}"),
            "left": cond("{{line}}", "eq", "{{keep.line}}"),
            "same": log("restored"),
            "other": log("lost"),
        },
        "t>keep keep>each each.body>ask each.done>left left.true>same left.false>other",
    )
    run = drive(flow, trigger=["a"])
    assert run.status == "succeeded"
    assert run.visits[-2:] == ["left", "same"]


def test_a_nested_loop_whose_base_is_below_its_parents_is_refused() -> None:
    flow, continuation = paused_in_a_nested_loop()
    forged = copy.deepcopy(continuation)
    assert len(forged["loops"]) == 2
    forged["loops"][1]["base"] = forged["loops"][0]["base"] - 1 if forged["loops"][0]["base"] else 0
    forged["loops"][0]["base"] = max(forged["loops"][0]["base"], 1)
    with pytest.raises(ContinuationInvalid) as raised:
        walk(flow, forged, resume=Resume("ask", 5, "approve"))
    assert raised.value.code == "continuation_invalid"
    assert "above the enclosing loop" in str(raised.value.detail)


def test_a_loop_record_at_a_node_of_another_flow_is_refused() -> None:
    flow, continuation = paused_in_a_nested_loop()
    forged = copy.deepcopy(continuation)
    forged["loops"][0]["node"] = "elsewhere"
    with pytest.raises(ContinuationInvalid) as raised:
        walk(flow, forged, resume=Resume("ask", 5, "approve"))
    assert raised.value.code == "continuation_invalid"
    assert "an open loop of this flow" in str(raised.value.detail)
