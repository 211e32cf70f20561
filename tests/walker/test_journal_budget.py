"""The journal budget of a walk with sample input (issue 32): counted as lines are written, across the
stretches of one walk, failing with `walk_journal_too_large`; a walk without a budget is as before."""

from __future__ import annotations

import pytest

from backend.graph.model import Flow
from backend.walker import walk
from backend.walker.cli import walk_answering
from backend.walker.errors import WalkFailure
from backend.walker.sizes import JournalBudget, Limits, measure
from backend.walker.step import JournalLine
from tests.walker.walker_flows import approval, build, foreach, log, trigger

MESSAGE = "m" * 1000


def loud_loop() -> Flow:
    return build(
        {"t": trigger(), "each": foreach("{{trigger}}"), "say": log(MESSAGE)}, "t>each each.body>say"
    )


def test_the_walk_stops_at_the_first_visit_past_its_budget() -> None:
    step = walk(loud_loop(), None, trigger=list(range(100)), budget=JournalBudget(5000))
    assert (step.status, step.error) == ("failed", "walk_journal_too_large")
    # A pass writes a little over 1,000 bytes (its visit's line and the log's): past 5,000 at the fourth.
    assert step.visits.count("say") == 4
    last = step.journal[-1]
    assert (last.code, last.node, last.visit, last.data) == (
        "run_failed",
        "say",
        step.visit_count,
        {"error": "walk_journal_too_large", "limit": 5000},
    )
    counted = sum(measure(line.to_json(), 10**9) for line in step.journal[:-1])
    assert 5000 < counted < 5000 + 2 * len(MESSAGE)


def test_a_budget_the_walk_fits_in_changes_nothing() -> None:
    items = list(range(3))
    unbounded = walk(loud_loop(), None, trigger=items)
    budget = JournalBudget(10**6)
    bounded = walk(loud_loop(), None, trigger=items, budget=budget)
    assert bounded.status == unbounded.status == "succeeded"
    assert [line.to_json() for line in bounded.journal] == [line.to_json() for line in unbounded.journal]
    assert budget.used == sum(measure(line.to_json(), 10**9) for line in bounded.journal[:-1])


def test_the_budget_spans_the_stretches_of_one_walk() -> None:
    flow = build(
        {"t": trigger(), "a": log(MESSAGE), "ask": approval(), "b": log(MESSAGE), "c": log(MESSAGE)},
        "t>a a>ask ask.approve>b b>c",
    )
    answers = [("ask", "approve")]
    whole = walk_answering(flow, None, answers, Limits(), JournalBudget(10**6))
    assert whole.status == "succeeded"
    # Enough for the first stretch (up to the approval), not for both: the second stretch fails.
    first = walk(flow, None)
    needed = sum(measure(line.to_json(), 10**9) for line in first.journal)
    cut = walk_answering(flow, None, answers, Limits(), JournalBudget(needed + len(MESSAGE) // 2))
    assert (cut.status, cut.error) == ("failed", "walk_journal_too_large")
    assert cut.visits == ["t", "a", "ask", "b"]


def test_every_line_of_every_stretch_is_counted_once() -> None:
    """The resumed stretch's first line (the pause it answers) is counted too, and nothing twice."""
    flow = build({"t": trigger(), "ask": approval(), "b": log(MESSAGE)}, "t>ask ask.approve>b")
    budget = JournalBudget(10**6)
    whole = walk_answering(flow, None, [("ask", "approve")], Limits(), budget)
    assert whole.status == "succeeded" and "run_resumed" in [line.code for line in whole.journal]
    written = [line for line in whole.journal if line.code != "run_succeeded"]
    assert budget.used == sum(measure(line.to_json(), 10**9) for line in written)


def _line(visit: int, data: object) -> JournalLine:
    return JournalLine(code="log_written", node="n", visit=visit, data={"message": data})


def test_a_journal_exactly_as_large_as_its_budget_fits() -> None:
    size = measure(_line(1, "hi").to_json(), 10**6)
    budget = JournalBudget(2 * size)
    budget.spend([_line(1, "hi"), _line(1, "hi")])
    assert budget.used == budget.limit
    with pytest.raises(WalkFailure) as failed:
        budget.spend([_line(2, "")])
    assert failed.value.code == "walk_journal_too_large"


def test_a_line_past_the_budget_is_counted_only_as_far_as_the_budget_left() -> None:
    # Refusing a large line costs about what was left of the budget, not the line's size (3,919 bytes
    # would be counted in full: thirty texts of 100 characters).
    budget = JournalBudget(1000)
    budget.spend([_line(1, "x" * 700)])
    with pytest.raises(WalkFailure):
        budget.spend([_line(2, ["y" * 100] * 30)])
    assert 1000 < budget.used < 1200
