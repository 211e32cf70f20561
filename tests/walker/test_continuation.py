"""The continuation: plain JSON with a version, small, and refused when it is not one we wrote."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from backend.graph.model import Flow
from backend.walker import VERSION, ContinuationInvalid, Resume, walk
from tests.walker.walker_flows import approval, build, foreach, log, set_, trigger


def paused_in_a_nested_loop() -> tuple[Flow, dict[str, Any]]:
    nodes = {
        "t": trigger(),
        "keep": set_(x="outer"),
        "rows": foreach("{{trigger}}", "x"),
        "cells": foreach("{{x}}", "y"),
        "ask": approval("{{x}} {{y}}"),
        "after": log("{{x}}"),
    }
    flow = build(nodes, "t>keep keep>rows rows.body>cells cells.body>ask rows.done>after")
    step = walk(flow, None, trigger=[[1, 2], [3]])
    assert step.continuation is not None
    return flow, step.continuation


def test_the_continuation_is_plain_json_with_the_version_and_the_pause() -> None:
    _, continuation = paused_in_a_nested_loop()
    assert continuation == json.loads(json.dumps(continuation))
    assert continuation["v"] == VERSION == 1
    assert continuation["at"] == {"node": "ask", "visit": 5}
    assert continuation["visits"] == 5
    assert continuation["seen"] == [["t", "keep", "rows"], ["cells"], ["ask"]]
    assert continuation["vars"] == {"trigger": [[1, 2], [3]], "x": [1, 2], "keep": {"x": "outer"}, "y": 1}
    assert continuation["loops"] == [
        {
            "node": "rows",
            "visit": 3,
            "base": 0,
            "pass": 1,
            "items": [[1, 2], [3]],
            "as": "x",
            "saved": "outer",
        },
        {"node": "cells", "visit": 4, "base": 0, "pass": 1, "items": [1, 2], "as": "y"},
    ]
    assert continuation["stack"] == []


def test_a_thawed_continuation_walks_on_as_if_it_never_stopped() -> None:
    flow, continuation = paused_in_a_nested_loop()
    step = walk(flow, json.loads(json.dumps(continuation)), resume=Resume("ask", 5, "approve"))
    assert step.request is not None and (step.request.node, step.request.visit) == ("ask", 6)
    assert step.request.title == "[1,2] 2"  # type: ignore[union-attr]


def test_a_continuation_of_a_big_loop_stays_small() -> None:
    nodes = {"t": trigger(), "each": foreach("{{trigger}}"), "ask": approval(), "a": log(), "b": log()}
    flow = build(nodes, "t>each each.body>ask ask.approve>a a>b")
    step = walk(flow, None, trigger=[{"id": i} for i in range(100)])
    for _ in range(99):
        assert step.request is not None and step.continuation is not None
        step = walk(flow, step.continuation, resume=Resume(step.request.node, step.request.visit, "approve"))
    assert step.continuation is not None
    assert len(json.dumps(step.continuation)) < 16_000


@pytest.mark.parametrize(
    "change",
    [
        {"v": 2},
        {"v": None},
        {"v": "1"},
        {"at": {"node": "nowhere", "visit": 5}},
        {"at": {"node": "ask", "visit": -1}},
        {"stack": ["nowhere"]},
        {"stack": "t"},
        {"seen": [["t"]]},
        {"seen": [["t"], ["x"], ["y"]]},
        {"vars": []},
        {"visits": "5"},
        {"visits": True},
        {"loops": [{"node": "rows", "visit": 3, "base": 9, "pass": 1, "items": [], "as": "x"}]},
        {"loops": [{"node": "rows", "visit": 3, "base": 0, "pass": 1, "items": "abc", "as": "x"}]},
        {"loops": [{"visit": 3, "base": 0, "pass": 1}]},
    ],
)
def test_a_continuation_that_is_not_one_we_wrote_is_refused(change: dict[str, Any]) -> None:
    flow, continuation = paused_in_a_nested_loop()
    with pytest.raises(ContinuationInvalid) as raised:
        walk(flow, {**continuation, **change}, resume=Resume("ask", 5, "approve"))
    assert raised.value.code == "continuation_invalid"
    assert isinstance(raised.value, ValueError)


def test_a_continuation_missing_a_field_is_refused() -> None:
    flow, continuation = paused_in_a_nested_loop()
    for field in continuation:
        broken = {key: value for key, value in continuation.items() if key != field}
        with pytest.raises(ContinuationInvalid):
            walk(flow, broken, resume=Resume("ask", 5, "approve"))


def test_the_visited_marks_of_a_pass_survive_a_pause() -> None:
    # `join` is reached twice in the pass, once before the pause and once after: one visit per pass.
    nodes = {"t": trigger(), "each": foreach("{{trigger}}"), "a": log(), "join": log(), "ask": approval()}
    flow = build(nodes, "t>each each.body>a a>join a>ask ask.approve>join")
    step = walk(flow, None, trigger=[1, 2])
    visits = list(step.visits)
    while step.status == "waiting":
        assert step.request is not None and step.continuation is not None
        thawed = json.loads(json.dumps(step.continuation))
        step = walk(flow, thawed, resume=Resume(step.request.node, step.request.visit, "approve"))
        visits += step.visits
    assert visits == ["t", "each", "a", "join", "ask", "a", "join", "ask"]


SCRIPT = """
import json
from tests.walker.test_continuation import paused_in_a_nested_loop
print(json.dumps(paused_in_a_nested_loop()[1]))
"""


def test_freezing_gives_the_same_text_in_every_process() -> None:
    # Visited marks are ordered: a set's order would change with the string hash seed.
    texts = {
        subprocess.run(
            [sys.executable, "-c", SCRIPT],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2")
    }
    assert len(texts) == 1 and json.loads(texts.pop())["v"] == 1
