"""`parallel` over `items`: one branch per item, side by side, the item in `as` while its branch walks."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backend.graph import validate
from backend.walker import ApprovalRequest, Request, Resume, walk
from backend.walker.branches import freeze, thaw
from backend.walker.errors import ContinuationInvalid
from tests.walker.walker_flows import Run, approval, build, document, drive_all, log, set_, trigger


def over(items: Any, name: str = "line", wait: Any = "all") -> tuple[str, dict[str, Any]]:
    return ("parallel", {"items": items, "as": name, "wait": wait})


# One approval per line, each followed in its own branch by a log of the line and its own decision.
LINES = {
    "t": trigger(),
    "each": over("{{trigger.lines}}"),
    "ask": approval("Line {{line}}?"),
    "said": log("{{line}}:{{ask.outcome}}"),
    "after": log("after [{{line}}]"),
    "last": approval("last"),
}
LINES_WIRES = "t>each each.branches>ask ask.approve>said ask.reject>said each.done>after after>last"


def thawed(continuation: Any) -> Any:
    return json.loads(json.dumps(continuation))


def answer_by_line(request: Request) -> tuple[str, dict[str, Any] | None] | None:
    """Reject line b, approve the others; leave the last approval open to read the variables."""
    assert isinstance(request, ApprovalRequest)
    if request.title == "last":
        return None
    outcome = "reject" if request.title == "Line b?" else "approve"
    return outcome, {"outcome": outcome}


def final_variables(run: Run) -> dict[str, Any]:
    continuation = run.last.continuation
    assert run.status == "waiting" and continuation is not None and continuation["v"] == 1
    variables: dict[str, Any] = continuation["vars"]
    return variables


def test_the_document_is_valid() -> None:
    assert validate(document(LINES, LINES_WIRES)) == []


def test_each_item_gets_its_own_branch_and_its_own_approval_all_pending_together() -> None:
    flow = build(LINES, LINES_WIRES)
    first = walk(flow, None, trigger={"lines": ["a", "b", "c"]})
    assert first.status == "waiting" and first.continuation is not None and first.continuation["v"] == 2
    titles = [r.title for r in first.requests if isinstance(r, ApprovalRequest)]
    assert titles == ["Line a?", "Line b?", "Line c?"]
    assert first.pending == (("ask", 3), ("ask", 4), ("ask", 5))
    assert first.visits == ["t", "each", "ask", "ask", "ask"]
    assert first.continuation["par"]["items"] == ["a", "b", "c"] and first.continuation["par"]["as"] == "line"
    assert "line" not in first.continuation["vars"], "between stretches no branch walks: no item is bound"


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
def test_answered_in_any_order_each_branch_sees_its_own_item_and_the_end_is_the_same(
    order: tuple[int, ...],
) -> None:
    flow = build(LINES, LINES_WIRES)
    first = walk(flow, None, trigger={"lines": ["a", "b", "c"]})
    steps = [first]
    pending = list(first.pending)
    for place in order:
        node, visit = first.pending[place]
        assert (node, visit) in pending
        outcome = "reject" if place == 1 else "approve"
        step = walk(
            flow, thawed(steps[-1].continuation), resume=Resume(node, visit, outcome, {"outcome": outcome})
        )
        assert step.requests == () or [r.node for r in step.requests] == ["last"]
        assert step.continuation is not None and "line" not in step.continuation["vars"]
        steps.append(step)
        pending.remove((node, visit))
        assert step.pending == (tuple(pending) if pending else (("last", 10),))
    run = Run(steps)
    said = sorted(line["message"] for line in run.lines("log_written") if ":" in line["message"])
    assert said == ["a:approve", "b:reject", "c:approve"]
    # The line variable did not exist before the parallel: it is gone after it.
    assert run.lines("log_written")[-1]["message"] == "after []"
    variables = final_variables(run)
    assert "line" not in variables and variables["trigger"] == {"lines": ["a", "b", "c"]}
    assert run.codes("each") == ["node_visited", "parallel_finished"]


def test_the_variable_gets_back_the_value_it_had_before_the_parallel() -> None:
    nodes = {**LINES, "keep": set_(line="{{trigger.line}}")}
    wires = LINES_WIRES.replace("t>each", "t>keep keep>each")
    run = drive_all(build(nodes, wires), trigger={"lines": ["a", "b"], "line": "kept"}, answer=answer_by_line)
    assert run.lines("log_written")[-1]["message"] == "after [kept]"
    assert final_variables(run)["line"] == "kept"


def test_missing_or_empty_items_start_no_branch_and_follow_done_at_once() -> None:
    flow = build(LINES, LINES_WIRES)
    given_triggers: list[dict[str, Any]] = [{}, {"lines": []}]
    for given_trigger in given_triggers:
        step = walk(flow, None, trigger=given_trigger)
        assert step.visits == ["t", "each", "after", "last"] and step.pending == (("last", 4),)
        assert [line.data["port"] for line in step.journal if line.node == "each"] == ["done"]
        assert step.continuation is not None and step.continuation["v"] == 1


@pytest.mark.parametrize(("items", "kind"), [("text", "a string"), (None, "null"), ({"a": 1}, "an object")])
def test_items_that_are_not_a_list_fail_the_run(items: Any, kind: str) -> None:
    step = walk(build(LINES, LINES_WIRES), None, trigger={"lines": items})
    assert (step.status, step.error, step.pending, step.requests) == (
        "failed",
        "parallel_items_invalid",
        (),
        (),
    )
    assert step.journal[-1].code == "run_failed" and step.journal[-1].node == "each"
    assert set(step.journal[-1].data) == {"error", "got"}


def test_more_items_than_the_pass_limit_fail_before_any_branch_starts() -> None:
    flow = build(LINES, LINES_WIRES)
    step = walk(flow, None, trigger={"lines": list(range(101))})
    assert (step.status, step.error) == ("failed", "iteration_limit_exceeded")
    assert step.journal[-1].data == {"error": "iteration_limit_exceeded", "limit": 100, "passes": 101}
    assert "approval_requested" not in [line.code for line in step.journal] and step.visits == ["t", "each"]
    full = walk(flow, None, trigger={"lines": list(range(100))})
    assert full.status == "waiting" and len(full.pending) == 100


def test_a_literal_list_of_items_works_too() -> None:
    nodes = {**LINES, "each": over(["x", "y"])}
    first = walk(build(nodes, LINES_WIRES), None)
    assert [r.title for r in first.requests if isinstance(r, ApprovalRequest)] == ["Line x?", "Line y?"]


def test_wait_first_goes_on_after_one_item_and_cancels_the_others() -> None:
    nodes = {**LINES, "each": over("{{trigger.lines}}", wait="first")}
    flow = build(nodes, LINES_WIRES)
    first = walk(flow, None, trigger={"lines": ["a", "b", "c"]})
    done = walk(flow, thawed(first.continuation), resume=Resume("ask", 4, "approve", {"outcome": "approve"}))
    assert [line.data["message"] for line in done.journal if line.code == "log_written"] == [
        "b:approve",
        "after []",
    ]
    cancelled = [
        (line.node, line.visit, line.data["branch"])
        for line in done.journal
        if line.code == "branch_cancelled"
    ]
    assert cancelled == [("ask", 3, 1), ("ask", 5, 3)]
    assert done.pending == (("last", 8),)


def test_wait_n_larger_than_the_items_waits_for_all_of_them() -> None:
    nodes = {**LINES, "each": over("{{trigger.lines}}", wait=5)}
    run = drive_all(build(nodes, LINES_WIRES), trigger={"lines": ["a", "b"]}, answer=answer_by_line)
    assert run.lines("parallel_finished") == [{"branches": 2, "ended": 2}]


def test_a_drawn_parallel_inside_each_item_branch_binds_the_item_for_both_inner_branches() -> None:
    nodes = {
        "t": trigger(),
        "each": over("{{trigger}}", name="who"),
        "both": ("parallel", {"wait": "all"}),
        "legal": approval("legal {{who}}"),
        "finance": approval("finance {{who}}"),
        "note": log("{{who}} done"),
        "after": log("after"),
    }
    wires = (
        "t>each each.branches>both both.branches>legal both.branches>finance both.done>note each.done>after"
    )
    flow = build(nodes, wires)
    first = walk(flow, None, trigger=["p", "q"])
    titles = [r.title for r in first.requests if isinstance(r, ApprovalRequest)]
    assert titles == ["legal p", "finance p", "legal q", "finance q"]
    for order in range(4):
        run = drive_all(flow, trigger=["p", "q"], order=lambda requests, order=order: order)  # type: ignore[misc]
        notes = sorted(line["message"] for line in run.lines("log_written"))
        assert run.status == "succeeded" and notes == ["after", "p done", "q done"]


def test_the_continuation_keeps_items_name_and_saved_value_through_json() -> None:
    nodes = {**LINES, "keep": set_(line="{{trigger.line}}")}
    flow = build(nodes, LINES_WIRES.replace("t>each", "t>keep keep>each"))
    first = walk(flow, None, trigger={"lines": ["a", "b"], "line": {"deep": [1]}})
    assert first.continuation is not None
    assert first.continuation["par"]["saved"] == {"deep": [1]}
    state, root = thaw(thawed(first.continuation), flow.nodes)
    assert freeze(state, root) == first.continuation


@pytest.mark.parametrize(
    "broken",
    [
        {"items": ["a"]},  # fewer items than branches
        {"items": "ab"},
        {"as": None},
    ],
)
def test_a_continuation_whose_items_do_not_fit_its_branches_is_refused(broken: dict[str, Any]) -> None:
    flow = build(LINES, LINES_WIRES)
    first = walk(flow, None, trigger={"lines": ["a", "b"]})
    continuation = thawed(first.continuation)
    continuation["par"].update(broken)
    with pytest.raises(ContinuationInvalid):
        walk(flow, continuation, resume=Resume("ask", 3, "approve"))


@settings(max_examples=60, deadline=None)
@given(
    items=st.lists(st.integers(0, 9), min_size=1, max_size=5),
    picks=st.lists(st.integers(0, 10), min_size=5, max_size=5),
    rejects=st.sets(st.integers(0, 4)),
)
def test_property_every_order_of_answers_logs_the_same_pairs_and_ends_the_same(
    items: list[int], picks: list[int], rejects: set[int]
) -> None:
    flow = build(LINES, LINES_WIRES)
    titles = [f"Line {item}?" for item in items]

    def answer(request: Request) -> tuple[str, dict[str, Any] | None] | None:
        assert isinstance(request, ApprovalRequest)
        if request.title == "last":
            return None
        # Each branch pauses once, so its visit tells which item it is (visits 3, 4, ...).
        outcome = "reject" if request.visit - 3 in rejects else "approve"
        assert request.title == titles[request.visit - 3]
        return outcome, {"outcome": outcome}

    turns = iter(picks)
    run = drive_all(flow, trigger={"lines": items}, answer=answer, order=lambda requests: next(turns, 0))
    said = sorted(line["message"] for line in run.lines("log_written") if ":" in line["message"])
    expected = sorted(
        f"{item}:{'reject' if place in rejects else 'approve'}" for place, item in enumerate(items)
    )
    assert said == expected
    variables = final_variables(run)
    assert "line" not in variables and set(variables) == {"trigger", "ask"}


def test_parallels_over_items_nest_and_each_level_puts_its_own_variable_back() -> None:
    nodes = {
        "t": trigger(),
        "outer": over("{{trigger.rows}}", name="row"),
        "inner": over("{{trigger.cols}}", name="col"),
        "ask": approval("{{row}}{{col}}"),
        "cell": log("cell {{row}}{{col}}"),
        "row_done": log("row {{row}} [{{col}}]"),
        "after": log("after [{{row}}][{{col}}]"),
    }
    wires = (
        "t>outer outer.branches>inner inner.branches>ask ask.approve>cell inner.done>row_done "
        "outer.done>after"
    )
    flow = build(nodes, wires)
    first = walk(flow, None, trigger={"rows": [1, 2], "cols": ["a", "b"]})
    assert [r.title for r in first.requests if isinstance(r, ApprovalRequest)] == ["1a", "1b", "2a", "2b"]
    for order in range(4):
        run = drive_all(
            flow,
            trigger={"rows": [1, 2], "cols": ["a", "b"]},
            order=lambda requests, order=order: order,  # type: ignore[misc]
        )
        messages = run.lines("log_written")
        assert run.status == "succeeded" and messages[-1]["message"] == "after [][]"
        assert sorted(m["message"] for m in messages[:-1]) == [
            "cell 1a",
            "cell 1b",
            "cell 2a",
            "cell 2b",
            "row 1 []",
            "row 2 []",
        ]


def test_a_foreach_inside_each_item_branch_keeps_both_variables_apart() -> None:
    nodes = {
        "t": trigger(),
        "each": over("{{trigger.orders}}", name="order"),
        "lines": ("foreach", {"items": "{{trigger.lines}}", "as": "line"}),
        "ask": approval("{{order}}/{{line}}"),
        "after": log("after [{{order}}][{{line}}]"),
    }
    flow = build(nodes, "t>each each.branches>lines lines.body>ask each.done>after")
    run = drive_all(
        flow, trigger={"orders": ["A", "B"], "lines": [1, 2]}, order=lambda requests: len(requests) - 1
    )
    titles = [r.title for step in run.steps for r in step.requests if isinstance(r, ApprovalRequest)]
    assert sorted(titles) == ["A/1", "A/2", "B/1", "B/2"] and titles[:2] == ["A/1", "B/1"]
    assert run.status == "succeeded" and run.lines("log_written") == [
        {"message": "after [][]", "level": "info"}
    ]


def test_a_parallel_inside_a_branch_gives_back_what_its_branch_set_before_it() -> None:
    nodes = {
        "t": trigger(),
        "outer": over(["a"], name="x"),
        "mark": set_(x="changed"),
        "inner": over(["c"], name="x"),
        "ask": approval("{{x}}?"),
        "after": log("{{x}}"),
    }
    flow = build(nodes, "t>outer outer.branches>mark mark>inner inner.branches>ask inner.done>after")
    first = walk(flow, None)
    assert first.pending == (("ask", 5),)
    # Resumed in a later stretch, the outer branch's item is bound again on the way down; the inner
    # parallel still gives back the value its branch held when it started.
    end = walk(flow, thawed(first.continuation), resume=Resume("ask", 5, "approve"))
    assert [line.data["message"] for line in end.journal if line.code == "log_written"] == ["changed"]
