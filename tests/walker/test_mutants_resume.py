"""Survivors of `make mutation` in backend/walker/walk.py: resuming, and the lines a stretch writes.

A resume that does not answer the pause is refused with exactly what was expected and what was got
(_path_to_10 to 25; resume_21, 23, 26 to 30, 64 to 72). A skipped approval, a failed action with no
error wire and an end reached after a resume journal their node, visit, outcome and message (resume_105,
124, 125, 163); a run that runs out of nodes succeeds with an empty message (_outcome_3 to 12). A
parallel over items that closed during the stretch leaves its variable as the walk after it set it
(resume_159). A continuation showing a branch that never walked is refused. An approval's journal line holds
its request's fields, rendered within the run's value limit (_approval_9 to 20); a log without a message
writes empty text (_log_14).
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from backend.walker import ContinuationInvalid, Resume, ResumeMismatch, walk
from backend.walker.sizes import Limits
from backend.walker.step import JournalLine
from tests.walker.walker_flows import approval, build, http, log, node, parallel, set_, trigger

ASK = {"t": trigger(), "ask": approval("Pay {{trigger}}?"), "paid": ("end", {"message": "paid {{trigger}}"})}
ASK_WIRES = "t>ask ask.approve>paid"


def paused(nodes: dict[str, Any], wires: str, payload: Any = None) -> dict[str, Any]:
    step = walk(build(nodes, wires), None, trigger=payload)
    assert step.status == "waiting" and step.continuation is not None
    thawed: dict[str, Any] = json.loads(json.dumps(step.continuation))
    return thawed


def refusal(nodes: dict[str, Any], wires: str, resume: Resume | None) -> tuple[str, dict[str, Any]]:
    continuation = paused(nodes, wires)
    with pytest.raises(ResumeMismatch) as raised:
        walk(build(nodes, wires), continuation, resume=resume)
    return raised.value.code, raised.value.params


def test_a_new_run_refuses_a_resume_naming_the_pause_it_got() -> None:
    with pytest.raises(ResumeMismatch) as raised:
        walk(build(ASK, ASK_WIRES), None, resume=Resume("ask", 2, "approve"))
    assert (raised.value.code, raised.value.params) == (
        "resume_mismatch",
        {"expected": "resume_expected_new_run", "got": "ask@2"},
    )


@pytest.mark.parametrize(
    ("resume", "got"),
    [(None, "nothing"), (Resume("ask", 3, "approve"), "ask@3"), (Resume("paid", 2, "approve"), "paid@2")],
)
def test_a_resume_of_no_pending_pause_is_refused_with_the_pause_expected(
    resume: Resume | None, got: str
) -> None:
    assert refusal(ASK, ASK_WIRES, resume) == ("resume_mismatch", {"expected": "ask@2", "got": got})


def test_an_outcome_the_paused_node_cannot_take_is_refused_with_its_type() -> None:
    expected = {"expected": "resume_expected_outcome", "type": "approval", "got": "passed"}
    assert refusal(ASK, ASK_WIRES, Resume("ask", 2, "passed")) == ("resume_mismatch", expected)


def test_a_timeout_of_an_approval_without_an_on_timeout_rule_is_refused() -> None:
    expected = {"expected": "resume_expected_timeout_rule", "got": "timeout"}
    assert refusal(ASK, ASK_WIRES, Resume("ask", 2, "timeout")) == ("resume_mismatch", expected)


def test_a_pause_at_a_node_that_is_no_pause_in_the_flow_resumed_is_refused_with_its_type() -> None:
    continuation = paused(ASK, ASK_WIRES)
    edited = build({**ASK, "ask": log("no longer asked")}, ASK_WIRES.replace("ask.approve", "ask"))
    with pytest.raises(ResumeMismatch) as raised:
        walk(edited, continuation, resume=Resume("ask", 2, "approve"))
    expected = {"expected": "resume_expected_outcome", "type": "log", "got": "approve"}
    assert (raised.value.code, raised.value.params) == ("resume_mismatch", expected)


def test_an_approval_that_times_out_with_skip_journals_its_node_and_visit_and_follows_nothing() -> None:
    nodes = {"t": trigger(), "ask": approval("Go?", "PT1H", "skip"), "no": log("no")}
    wires = "t>ask ask.reject>no"
    step = walk(build(nodes, wires), paused(nodes, wires), resume=Resume("ask", 2, "timeout"))
    assert (step.status, step.visits, step.journal) == (
        "succeeded",
        [],
        [
            JournalLine("approval_skipped", "ask", 2, {}),
            JournalLine("run_succeeded", None, None, {"message": ""}),
        ],
    )


def test_an_action_that_failed_without_an_error_wire_journals_the_outcome_and_fails_the_run() -> None:
    nodes = {"t": trigger(), "send": http()}
    step = walk(
        build(nodes, "t>send"), paused(nodes, "t>send"), resume=Resume("send", 2, "error", {"status": 500})
    )
    assert (step.status, step.error, step.journal) == (
        "failed",
        "action_failed",
        [
            JournalLine("run_resumed", "send", 2, {"outcome": "error", "port": None}),
            JournalLine("run_failed", "send", 2, {"error": "action_failed"}),
        ],
    )


def test_an_end_reached_after_a_resume_succeeds_with_its_message() -> None:
    flow = build(ASK, ASK_WIRES)
    step = walk(flow, paused(ASK, ASK_WIRES, 7), resume=Resume("ask", 2, "approve"))
    assert (step.status, step.journal) == (
        "succeeded",
        [
            JournalLine("run_resumed", "ask", 2, {"outcome": "approve", "port": "approve"}),
            JournalLine("node_visited", "paid", 3, {"type": "end", "port": None}),
            JournalLine("run_succeeded", "paid", 3, {"message": "paid 7"}),
        ],
    )


def test_a_run_that_runs_out_of_nodes_succeeds_with_an_empty_message() -> None:
    nodes = {"t": trigger(), "ask": approval("Go?"), "ok": log("ok")}
    wires = "t>ask ask.approve>ok"
    first = walk(build({"t": trigger()}), None)
    after = walk(build(nodes, wires), paused(nodes, wires), resume=Resume("ask", 2, "approve"))
    ended = JournalLine("run_succeeded", None, None, {"message": ""})
    assert (first.status, first.journal[-1], after.status, after.journal[-1]) == (
        "succeeded",
        ended,
        "succeeded",
        ended,
    )


def test_a_parallel_over_items_closed_by_a_resume_leaves_its_name_to_the_walk_after_it() -> None:
    nodes = {
        "t": trigger(),
        "each": ("parallel", {"items": "{{trigger}}", "as": "x"}),
        "ask": approval("Item {{x}}?"),
        "keep": set_(x="kept"),
        "after": approval("After?"),
        "say": log("x is {{x}}"),
    }
    wires = "t>each each.branches>ask each.done>keep keep>after after.approve>say"
    flow = build(nodes, wires)
    stretch = walk(flow, paused(nodes, wires, [1]), resume=Resume("ask", 3, "approve"))
    assert stretch.status == "waiting" and stretch.continuation is not None
    assert stretch.continuation["vars"]["x"] == "kept"
    last = walk(flow, json.loads(json.dumps(stretch.continuation)), resume=Resume("after", 5, "approve"))
    assert [line for line in last.journal if line.code == "log_written"] == [
        JournalLine("log_written", "say", 6, {"message": "x is kept", "level": "info"})
    ]


def test_a_continuation_showing_a_branch_that_never_walked_is_refused_not_left_waiting() -> None:
    # The walker never writes a branch that is walking: between stretches each has paused, opened a
    # parallel or ended. One that shows a branch still to walk would leave its run waiting on nothing.
    nodes = {
        "t": trigger(),
        "both": parallel(),
        "a": approval("A?"),
        "b": approval("B?"),
        "say": log("b skipped"),
        "pay": log("paid"),
    }
    wires = "t>both both.branches>a both.branches>b both.done>pay"
    continuation = paused(nodes, wires)
    unstarted = copy.deepcopy(continuation)
    unstarted["par"]["branches"][1] = {"stack": ["say"], "seen": [[]], "loops": []}
    with pytest.raises(ContinuationInvalid) as raised:
        walk(build(nodes, wires), unstarted, resume=Resume("a", 3, "approve"))
    assert (raised.value.code, raised.value.params) == (
        "continuation_invalid",
        {"reason": "continuation_damaged", "detail": "a branch paused, waiting on a parallel, or ended"},
    )


def test_an_approval_journals_its_request_rendered() -> None:
    nodes = {
        "t": trigger(),
        "ask": (
            "approval",
            {
                "title": "Pay {{trigger.id}}?",
                "explanation": "{{trigger.amount}} EUR",
                "approvers": ["group:{{trigger.team}}"],
                "deadline": "PT2H",
                "on_timeout": "reject",
            },
        ),
    }
    step = walk(build(nodes, "t>ask"), None, trigger={"id": "A-7", "amount": 1200, "team": "finance"})
    assert step.journal[-1] == JournalLine(
        "approval_requested",
        "ask",
        2,
        {
            "title": "Pay A-7?",
            "explanation": "1200 EUR",
            "approvers": ["group:finance"],
            "deadline": "PT2H",
            "on_timeout": "reject",
        },
    )


def test_an_approval_title_past_the_runs_value_limit_fails_the_run_with_that_limit() -> None:
    nodes = {"t": trigger(), "ask": approval("Pay {{trigger}}?")}
    step = walk(build(nodes, "t>ask"), None, trigger="x" * 60, limits=Limits(value_bytes=50))
    assert (step.status, step.journal[-1]) == (
        "failed",
        JournalLine("run_failed", "ask", 2, {"error": "value_too_large", "limit": 50, "what": "text"}),
    )


def test_a_log_without_a_message_writes_empty_text() -> None:
    step = walk(build({"t": trigger(), "say": node("log")}, "t>say"), None)
    assert [line for line in step.journal if line.code == "log_written"] == [
        JournalLine("log_written", "say", 2, {"message": "", "level": "info"})
    ]
