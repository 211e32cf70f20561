"""Survivors of `make mutation` in backend/walker/walk.py's `_Walk.__init__` and `_step`.

The loops count their variable in the walk's own ledger, with every variable the walk set before them
(__init___22, 27); a condition renders its operands within the run's value limit (__init___45, 48). A
step that ends the run (failed, or succeeded at an end) carries no requests, though a branch of a
parallel paused before it (_step_3).
"""

from __future__ import annotations

from backend.walker import walk
from backend.walker.sizes import Limits
from backend.walker.step import JournalLine
from tests.walker.walker_flows import approval, build, cond, foreach, join, log, parallel, set_, trigger


def test_a_foreach_counts_its_item_with_the_variables_set_before_it() -> None:
    nodes = {"t": trigger(), "s": set_(big="b" * 50), "each": foreach(["i" * 30], "x"), "say": log("{{x}}")}
    flow = build(nodes, "t>s s>each each.body>say")
    fits = walk(flow, None, limits=Limits(variables_bytes=179))
    past = walk(flow, None, limits=Limits(variables_bytes=178))
    assert (fits.status, fits.visits) == ("succeeded", ["t", "s", "each", "say"])
    assert (past.status, past.visits, past.journal[-1]) == (
        "failed",
        ["t", "s", "each"],
        JournalLine("run_failed", "each", 3, {"error": "value_too_large", "limit": 178, "what": "variables"}),
    )


def test_a_condition_renders_its_operands_within_the_runs_value_limit() -> None:
    nodes = {
        "t": trigger(),
        "c": cond("{{trigger}}", "eq", ["{{trigger}}", "{{trigger}}"]),  # ["x…x","x…x"]: 47 bytes
        "yes": log("yes"),
        "no": log("no"),
    }
    flow = build(nodes, "t>c c.true>yes c.false>no")
    fits = walk(flow, None, trigger="x" * 20, limits=Limits(value_bytes=47))
    past = walk(flow, None, trigger="x" * 20, limits=Limits(value_bytes=46))
    assert (fits.status, fits.visits) == ("succeeded", ["t", "c", "no"])
    assert (past.status, past.journal[-1]) == (
        "failed",
        JournalLine("run_failed", "c", 2, {"error": "value_too_large", "limit": 46, "what": "value"}),
    )


def test_a_run_that_fails_while_a_branch_is_paused_carries_no_requests() -> None:
    nodes = {"t": trigger(), "both": parallel(), "a": approval("A?"), "stop": ("end", {"status": "failed"})}
    step = walk(build(nodes, "t>both both.branches>a both.branches>stop"), None)
    assert (step.status, step.error, step.request, step.requests, step.pending, step.continuation) == (
        "failed",
        "run_ended_failed",
        None,
        (),
        (),
        None,
    )


def test_a_run_that_ends_while_a_branch_is_paused_carries_no_requests() -> None:
    nodes = {"t": trigger(), "both": parallel(), "a": approval("A?"), "ok": ("end", {"message": "ok"})}
    step = walk(build(nodes, "t>both both.branches>a both.branches>ok"), None)
    assert (step.status, step.request, step.requests, step.pending, step.continuation) == (
        "succeeded",
        None,
        (),
        (),
        None,
    )
    assert step.journal[1] == JournalLine("node_visited", "both", 2, {"type": "parallel", "port": "branches"})
    assert step.journal[-1] == JournalLine("run_succeeded", "ok", 4, {"message": "ok"})


def test_a_node_that_is_no_join_reached_again_is_passed_over_without_a_line_in_a_flow_with_joins() -> None:
    nodes = {"t": trigger(), "a": log("a"), "b": log("b"), "d": log("d"), "j": join()}
    step = walk(build(nodes, "t>a t>b a>d b>d d>j"), None)
    assert (step.status, step.visits) == ("succeeded", ["t", "a", "d", "j", "b"])
    assert [line.code for line in step.journal] == [
        "node_visited",
        "node_visited",
        "log_written",
        "node_visited",
        "log_written",
        "node_visited",
        "node_visited",
        "log_written",
        "run_succeeded",
    ]
