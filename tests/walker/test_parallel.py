"""`parallel`: branches that wait side by side in one continuation; `join` for branches drawn without it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from backend.walker import ApprovalRequest, Request, Resume, ResumeMismatch, walk
from tests.walker.walker_flows import (
    approval,
    build,
    cond,
    drive,
    drive_all,
    foreach,
    join,
    log,
    node,
    parallel,
    set_,
    trigger,
)

LEGAL_FINANCE = {
    "t": trigger(),
    "both": parallel(),
    "legal": approval("Legal?"),
    "finance": approval("Finance?"),
    "pay": log("paid"),
    "no": log("refused"),
}
LEGAL_FINANCE_WIRES = "t>both both.branches>legal both.branches>finance both.done>pay legal.reject>no"


def thawed(continuation: Any) -> Any:
    return json.loads(json.dumps(continuation))


def test_two_approvals_are_pending_together_and_done_follows_after_both() -> None:
    flow = build(LEGAL_FINANCE, LEGAL_FINANCE_WIRES)
    first = walk(flow, None)
    assert first.status == "waiting" and first.continuation is not None
    assert [r.node for r in first.requests] == ["legal", "finance"] and first.request == first.requests[0]
    assert first.pending == (("legal", 3), ("finance", 4)) and first.continuation["v"] == 2
    second = walk(flow, thawed(first.continuation), resume=Resume("finance", 4, "approve"))
    assert second.status == "waiting" and second.requests == () and second.request is None
    assert second.pending == (("legal", 3),) and second.visits == []
    third = walk(flow, thawed(second.continuation), resume=Resume("legal", 3, "approve"))
    assert third.status == "succeeded" and third.visits == ["pay"]
    assert [line.code for line in third.journal] == [
        "run_resumed",
        "parallel_finished",
        "node_visited",
        "log_written",
        "run_succeeded",
    ]


@pytest.mark.parametrize("first", [0, 1])
def test_either_order_of_decisions_reaches_the_same_end(first: int) -> None:
    run = drive_all(build(LEGAL_FINANCE, LEGAL_FINANCE_WIRES), order=lambda requests: first)
    assert run.status == "succeeded" and run.visits == ["t", "both", "legal", "finance", "pay"]


def test_a_rejection_follows_its_port_inside_the_branch_and_done_still_waits_for_the_other() -> None:
    def answer(request: Request) -> tuple[str, dict[str, Any] | None]:
        outcome = "reject" if request.node == "legal" else "approve"
        return outcome, {"outcome": outcome}

    run = drive_all(build(LEGAL_FINANCE, LEGAL_FINANCE_WIRES), answer=answer)
    assert run.status == "succeeded" and run.visits == ["t", "both", "legal", "finance", "no", "pay"]


def test_wait_first_cancels_the_other_branch_and_journals_the_pause_it_held() -> None:
    nodes = {**LEGAL_FINANCE, "both": parallel("first")}
    flow = build(nodes, LEGAL_FINANCE_WIRES)
    first = walk(flow, None)
    done = walk(flow, thawed(first.continuation), resume=Resume("finance", 4, "approve"))
    assert done.status == "succeeded" and done.visits == ["pay"]
    cancelled = [line for line in done.journal if line.code == "branch_cancelled"]
    assert [(line.node, line.visit, line.data) for line in cancelled] == [
        ("legal", 3, {"parallel": "both", "branch": 1, "paused": True})
    ]


def test_wait_n_follows_done_once_n_branches_ended() -> None:
    nodes = {
        "t": trigger(),
        "p": parallel(2),
        "a": approval(),
        "b": log("b"),
        "c": approval(),
        "after": log(),
    }
    flow = build(nodes, "t>p p.branches>a p.branches>b p.branches>c p.done>after")
    first = walk(flow, None)
    assert first.pending == (("a", 3), ("c", 5))
    done = walk(flow, thawed(first.continuation), resume=Resume("c", 5, "approve"))
    assert done.status == "succeeded" and done.visits == ["after"]
    assert [(line.node, line.data["branch"]) for line in done.journal if line.code == "branch_cancelled"] == [
        ("a", 1)
    ]


def test_branches_without_pauses_walk_one_after_another_then_done() -> None:
    nodes = {"t": trigger(), "p": parallel(), "a": set_(x=1), "b": set_(y=2), "after": log("{{x}}{{y}}")}
    run = drive(build(nodes, "t>p p.branches>a p.branches>b p.done>after"))
    assert run.status == "succeeded" and run.visits == ["t", "p", "a", "b", "after"]
    assert run.lines("log_written")[0]["message"] == "12"


def test_a_failing_branch_fails_the_run() -> None:
    nodes = {"t": trigger(), "p": parallel(), "a": approval(), "b": foreach("{{trigger}}")}
    step = walk(build(nodes, "t>p p.branches>a p.branches>b"), None, trigger="not a list")
    assert step.status == "failed" and step.error == "foreach_items_invalid" and step.pending == ()


def test_a_resume_must_name_a_pending_pause() -> None:
    flow = build(LEGAL_FINANCE, LEGAL_FINANCE_WIRES)
    first = walk(flow, None)
    with pytest.raises(ResumeMismatch) as refused:
        walk(flow, thawed(first.continuation), resume=Resume("legal", 4, "approve"))
    assert refused.value.params["expected"] == "legal@3 or finance@4"


def test_loops_inside_branches_keep_their_own_stacks() -> None:
    nodes = {
        "t": trigger(),
        "p": parallel(),
        "each": foreach("{{trigger.items}}"),
        "ask": approval("{{item}}?"),
        "other": approval("other"),
        "after": log(),
    }
    flow = build(nodes, "t>p p.branches>each each.body>ask p.branches>other p.done>after")
    run = drive_all(flow, trigger={"items": ["x", "y"]}, order=lambda requests: len(requests) - 1)
    titles = [r.title for step in run.steps for r in step.requests if isinstance(r, ApprovalRequest)]
    assert run.status == "succeeded" and titles == ["x?", "other", "y?"]
    assert run.visits == ["t", "p", "each", "ask", "other", "ask", "after"]


def test_a_parallel_inside_a_branch_nests() -> None:
    nodes = {
        "t": trigger(),
        "outer": parallel(),
        "inner": parallel(),
        "a": approval(),
        "b": approval(),
        "c": approval(),
        "after": log(),
    }
    wires = "t>outer outer.branches>inner inner.branches>a inner.branches>b outer.branches>c outer.done>after"
    flow = build(nodes, wires)
    first = walk(flow, None)
    assert first.pending == (("a", 4), ("b", 5), ("c", 6))
    for order in (0, 1, 2):
        run = drive_all(flow, order=lambda requests, order=order: order)  # type: ignore[misc]
        assert run.status == "succeeded" and run.visits[-1] == "after"


def test_join_all_waits_for_every_incoming_wire() -> None:
    nodes = {"t": trigger(), "a": log("a"), "b": log("b"), "j": join(), "after": log("after")}
    run = drive(build(nodes, "t>a t>b a>j b>j j>after"))
    # Without the join, the node after it would run between a and b.
    assert run.visits == ["t", "a", "b", "j", "after"]


def test_join_first_goes_on_at_the_first_arrival_and_ignores_the_rest() -> None:
    nodes = {"t": trigger(), "a": log("a"), "b": log("b"), "j": join("first"), "after": log("after")}
    run = drive(build(nodes, "t>a t>b a>j b>j j>after"))
    assert run.visits == ["t", "a", "j", "after", "b"]
    assert run.codes("j") == ["node_visited", "join_arrival_ignored"]


def test_join_all_after_an_exclusive_choice_is_a_synchronizing_merge() -> None:
    nodes = {
        "t": trigger(),
        "c": cond("{{trigger}}", "eq", 1),
        "a": log(),
        "b": log(),
        "j": join(),
        "z": log(),
    }
    run = drive(build(nodes, "t>c c.true>a c.false>b a>j b>j j>z"), trigger=1)
    assert run.status == "succeeded" and run.visits == ["t", "c", "a", "j", "z"]


def test_join_n_that_cannot_be_met_is_not_visited() -> None:
    nodes = {
        "t": trigger(),
        "c": cond("{{trigger}}", "eq", 1),
        "a": log(),
        "b": log(),
        "j": join(2),
        "z": log(),
    }
    run = drive(build(nodes, "t>c c.true>a c.false>b a>j b>j j>z"), trigger=1)
    assert run.visits == ["t", "c", "a"] and run.lines("join_not_reached") == [{"arrived": 1, "needed": 2}]


def test_join_arrivals_survive_a_pause() -> None:
    nodes = {"t": trigger(), "a": log(), "ask": approval(), "j": join(), "z": log()}
    flow = build(nodes, "t>a t>ask a>j ask.approve>j j>z")
    first = walk(flow, None)
    assert first.continuation is not None and first.continuation["v"] == 1
    assert first.continuation["arrivals"] == [[0, {"j": 1}]]
    done = walk(flow, thawed(first.continuation), resume=Resume("ask", 3, "approve"))
    assert done.visits == ["j", "z"]


def test_join_inside_a_loop_is_met_again_on_every_pass() -> None:
    nodes = {"t": trigger(), "each": foreach("{{trigger}}"), "a": log(), "b": log(), "j": join(), "z": log()}
    run = drive(build(nodes, "t>each each.body>a each.body>b a>j b>j j>z"), trigger=[1, 2])
    assert run.visits == ["t", "each", "a", "b", "j", "z", "a", "b", "j", "z"]


def test_a_wait_event_takes_its_event_names_and_timeout_as_outcomes() -> None:
    event = node("wait_event", events=["paid", "lost"], key="{{trigger}}")
    nodes = {"t": trigger(), "ask": approval(), "paid": log("paid"), "late": log("late")}
    flow = build({**nodes, "w": event}, "t>ask ask.approve>w w.paid>paid w.timeout>late")
    paused = walk(flow, None)
    # The wait_event itself pauses through h24ev's handler; here its continuation is built by hand.
    assert paused.continuation is not None
    at_event = {**thawed(paused.continuation), "at": {"node": "w", "visit": 3}, "visits": 3}
    with pytest.raises(ResumeMismatch):
        walk(flow, at_event, resume=Resume("w", 3, "approve"))
    paid = walk(flow, at_event, resume=Resume("w", 3, "paid", {"amount": 3}))
    assert paid.visits == ["paid"] and paid.status == "succeeded"
    late = walk(flow, at_event, resume=Resume("w", 3, "timeout"))
    assert late.visits == ["late"]


def test_a_parallel_without_branches_follows_done_at_once() -> None:
    run = drive(build({"t": trigger(), "p": parallel(), "after": log()}, "t>p p.done>after"))
    assert run.status == "succeeded" and run.visits == ["t", "p", "after"]
    assert run.codes("p") == ["node_visited", "parallel_finished"]


def test_wait_first_with_a_branch_that_does_not_pause_never_starts_the_others() -> None:
    nodes = {"t": trigger(), "p": parallel("first"), "quick": log(), "ask": approval(), "after": log()}
    run = drive(build(nodes, "t>p p.branches>quick p.branches>ask p.done>after"))
    assert run.status == "succeeded" and run.visits == ["t", "p", "quick", "after"]
    cancelled = [(line.node, line.data) for line in run.journal if line.code == "branch_cancelled"]
    assert cancelled == [("p", {"parallel": "p", "branch": 2, "paused": False})]


def test_a_parallel_inside_a_loop_opens_afresh_on_every_pass() -> None:
    nodes = {
        "t": trigger(),
        "each": foreach("{{trigger}}"),
        "p": parallel(),
        "a": approval("{{item}}"),
        "b": log(),
    }
    flow = build(nodes, "t>each each.body>p p.branches>a p.branches>b")
    first = walk(flow, None, trigger=[1, 2])
    assert first.continuation is not None and first.continuation["v"] == 2 and first.pending == (("a", 4),)
    second = walk(flow, thawed(first.continuation), resume=Resume("a", 4, "approve"))
    assert second.pending == (("a", 7),) and second.visits == ["p", "a", "b"]
    done = walk(flow, thawed(second.continuation), resume=Resume("a", 7, "approve"))
    assert done.status == "succeeded"


ROOT = {"v": 2, "visits": 1, "vars": {}, "stack": [], "seen": [[]], "loops": []}
GHOST = {"stack": ["ghost"], "seen": [[]], "loops": []}


@pytest.mark.parametrize(
    "broken",
    [
        {"v": 3},
        ROOT,
        {**ROOT, "par": {"node": "nope"}},
        {**ROOT, "par": {"node": "both", "visit": 2, "need": 1, "branches": [GHOST]}},
        {**ROOT, "at": {"node": "legal", "visit": 3}},
    ],
)
def test_a_continuation_this_release_did_not_write_is_refused(broken: dict[str, Any]) -> None:
    from backend.walker import ContinuationInvalid

    with pytest.raises(ContinuationInvalid):
        walk(build(LEGAL_FINANCE, LEGAL_FINANCE_WIRES), broken, resume=Resume("legal", 3, "approve"))
