"""Limits are errors with reason codes, never truncation: 500 visits per run, 100 passes per loop."""

from __future__ import annotations

from backend.graph.model import Flow
from backend.walker import PASS_LIMIT, VISIT_LIMIT, walk
from tests.walker.walker_flows import approval, build, drive, foreach, log, repeat, trigger


def chain(length: int) -> Flow:
    """A trigger and a chain of `length` log nodes: `length + 1` visits."""
    nodes = {"t": trigger(), **{f"n{i}": log(f"{i}") for i in range(length)}}
    return build(nodes, " ".join(["t>n0", *(f"n{i}>n{i + 1}" for i in range(length - 1))]))


def test_the_limits_are_the_documented_ones() -> None:
    assert (VISIT_LIMIT, PASS_LIMIT) == (500, 100)


def test_a_run_of_exactly_500_visits_succeeds() -> None:
    step = walk(chain(499), None)
    assert (step.status, step.visit_count, len(step.visits)) == ("succeeded", 500, 500)


def test_the_501st_visit_fails_the_run_and_is_not_executed() -> None:
    step = walk(chain(500), None)
    assert (step.status, step.error, step.visit_count) == ("failed", "visit_limit_exceeded", 500)
    assert step.visits[-1] == "n498"
    last = step.journal[-1]
    assert (last.code, last.node, last.visit, last.data) == (
        "run_failed",
        "n499",
        None,
        {"error": "visit_limit_exceeded", "limit": 500},
    )
    assert "n499" not in [line.node for line in step.journal if line.code != "run_failed"]


def test_a_foreach_over_100_items_runs_every_pass() -> None:
    nodes = {"t": trigger(), "each": foreach("{{trigger}}"), "say": log()}
    step = walk(build(nodes, "t>each each.body>say"), None, trigger=list(range(100)))
    assert (step.status, step.visit_count) == ("succeeded", 102)


def test_a_foreach_over_101_items_fails_before_its_first_pass() -> None:
    nodes = {"t": trigger(), "each": foreach("{{trigger}}"), "say": log()}
    step = walk(build(nodes, "t>each each.body>say"), None, trigger=list(range(101)))
    assert (step.status, step.error, step.visits) == ("failed", "iteration_limit_exceeded", ["t", "each"])
    assert "loop_pass_started" not in [line.code for line in step.journal]
    assert step.journal[-1].data == {"error": "iteration_limit_exceeded", "limit": 100, "passes": 101}
    assert (step.journal[-1].node, step.journal[-1].visit) == ("each", 2)


def test_a_repeat_that_would_start_its_101st_pass_fails() -> None:
    nodes = {"t": trigger(), "again": repeat(1, "eq", 1), "say": log(), "after": log()}
    step = walk(build(nodes, "t>again again.body>say again.done>after"), None)
    assert (step.status, step.error) == ("failed", "iteration_limit_exceeded")
    assert step.visits.count("say") == 100 and "after" not in step.visits
    assert [line.code for line in step.journal].count("loop_pass_started") == 100
    assert step.journal[-1].data == {"error": "iteration_limit_exceeded", "limit": 100, "passes": 101}
    assert (step.journal[-1].node, step.journal[-1].visit) == ("again", 2)


def test_a_repeat_of_exactly_100_passes_succeeds() -> None:
    # The body's approval is the exit: it rejects on the 100th pass, and reject breaks the loop.
    nodes = {"t": trigger(), "again": repeat(1, "eq", 1), "ask": approval(), "out": ("break", {})}
    passes = iter(range(1, 101))
    run = drive(
        build(nodes, "t>again again.body>ask ask.reject>out"),
        answer=lambda request: ("reject" if next(passes) == 100 else "approve", None),
    )
    assert (run.status, run.visits.count("ask")) == ("succeeded", 100)


def test_the_pass_limit_is_per_loop_not_per_run() -> None:
    nodes = {"t": trigger(), "a": foreach("{{trigger}}"), "b": foreach("{{trigger}}"), "say": log()}
    step = walk(build(nodes, "t>a a.done>b b.body>say"), None, trigger=list(range(100)))
    assert (step.status, step.visit_count) == ("succeeded", 103)


def test_nested_loops_count_visits_against_the_run() -> None:
    nodes = {"t": trigger(), "rows": foreach("{{trigger}}"), "cells": foreach("{{trigger}}"), "say": log()}
    step = walk(build(nodes, "t>rows rows.body>cells cells.body>say"), None, trigger=list(range(30)))
    assert (step.status, step.error, step.visit_count) == ("failed", "visit_limit_exceeded", 500)


def test_the_visit_counter_survives_pauses() -> None:
    nodes = {"t": trigger(), "each": foreach("{{trigger}}"), "ask": approval(), "a": log(), "b": log()}
    flow = build(nodes, "t>each each.body>ask ask.approve>a a>b")
    run = drive(flow, list(range(99)))
    assert (run.status, run.last.visit_count) == ("succeeded", 2 + 3 * 99)
    # Five visits a pass: 2 + 5 x 100 = 502, over the limit, though no stretch makes 500 on its own.
    nodes = {**nodes, "c": log(), "d": log()}
    run = drive(build(nodes, "t>each each.body>ask ask.approve>a a>b b>c c>d"), list(range(100)))
    assert (run.status, run.error, run.last.visit_count) == ("failed", "visit_limit_exceeded", VISIT_LIMIT)
    assert max(len(step.visits) for step in run.steps) < 10
