"""Survivors of `make mutation` in the walker's joins (walk.py `_arrived`, `_release`): a join without
`wait` waits for all, a join released at a scope's end waits again in the next pass of a loop, one join's
visit keeps another's arrivals, and a join that can no longer be met is named in `join_not_reached`."""

from __future__ import annotations

from tests.walker.walker_flows import build, cond, drive, foreach, join, log, trigger


def test_a_join_visited_keeps_the_arrivals_of_another_join_in_its_scope() -> None:
    nodes = {
        "t": trigger(),
        "a": log(),
        "b": log(),
        "c": log(),
        "j1": join(),
        "j2": join(),
        "z": log(),
        "y": log(),
    }
    run = drive(build(nodes, "t>a t>b t>c a>j2 a>j1 b>j1 b>z c>j2 c>y"))
    # j2 is visited at its second arrival (from c), before c's other target y: not when the scope ends.
    assert run.visits == ["t", "a", "b", "j1", "z", "c", "j2", "y"]
    assert "join_arrival_ignored" not in run.codes()


def test_a_join_without_wait_waits_for_all_and_is_visited_when_its_scope_ends() -> None:
    nodes = {"t": trigger(), "c": cond("{{trigger.x}}", "eq", 1), "a": log(), "j": ("join", {}), "z": log()}
    run = drive(build(nodes, "t>c c.true>a c.false>j a>j t>z"), {"x": 2})
    assert run.visits == ["t", "c", "z", "j"]
    assert run.lines("join_not_reached") == []


def test_a_join_that_can_no_longer_be_met_is_named_in_the_journal() -> None:
    nodes = {
        "t": trigger(),
        "c": cond("{{trigger.x}}", "eq", 1),
        "a": log(),
        "b": log(),
        "d": log(),
        "j": join(2),
        "z": log(),
    }
    run = drive(build(nodes, "t>c c.true>a c.false>b a>j b>j d>j j>z"), {"x": 2})
    assert run.visits == ["t", "c", "b"]
    line = next(line for line in run.journal if line.code == "join_not_reached")
    assert (line.node, line.visit, line.data) == ("j", None, {"arrived": 1, "needed": 2})


def test_a_join_released_in_one_pass_waits_for_all_its_arrivals_in_the_next() -> None:
    nodes = {
        "t": trigger(),
        "f": foreach([2, 1, 1]),
        "s": log(),
        "x": log(),
        "c": cond("{{item}}", "eq", 1),
        "j": join(),
        "e": log(),
    }
    run = drive(build(nodes, "t>f f.body>s s>x s>c x>j c.true>j j>e"))
    assert run.visits == ["t", "f", *["s", "x", "c", "j", "e"] * 3]
    assert "join_arrival_ignored" not in run.codes()
