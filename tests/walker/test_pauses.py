"""Pauses: approvals, delays and actions become requests; a resume takes the outcome and walks on."""

from __future__ import annotations

import json
from typing import Any

import pytest

from backend.walker import (
    ActionRequest,
    ApprovalRequest,
    DelayRequest,
    Request,
    Resume,
    ResumeMismatch,
    walk,
)
from tests.walker.walker_flows import approval, build, drive, foreach, http, log, node, trigger

APPROVE_FLOW = {"t": trigger(), "ask": approval(), "yes": log("yes"), "no": log("no"), "other": log("other")}
APPROVE_WIRES = "t>ask t>other ask.approve>yes ask.reject>no"


def test_an_approval_pauses_with_its_request_rendered() -> None:
    nodes = {
        "t": trigger(),
        "ask": (
            "approval",
            {
                "title": "Pay {{trigger.id}}?",
                "explanation": "{{trigger.amount}} over the limit",
                "approvers": ["group:finance", "user:{{trigger.owner}}"],
                "deadline": "P2D",
                "on_timeout": "skip",
            },
        ),
    }
    step = walk(build(nodes, "t>ask"), None, trigger={"id": "A-7", "amount": 1200, "owner": "ann"})
    assert step.status == "waiting" and step.error is None
    assert step.request == ApprovalRequest(
        node="ask",
        visit=2,
        title="Pay A-7?",
        explanation="1200 over the limit",
        approvers=["group:finance", "user:ann"],
        deadline="P2D",
        on_timeout="skip",
        shown=({"label": None, "path": "trigger", "value": {"id": "A-7", "amount": 1200, "owner": "ann"}},),
    )
    assert [line.code for line in step.journal] == ["node_visited", "node_visited", "approval_requested"]
    assert step.journal[1].data == {"type": "approval", "port": None}
    assert step.journal[2].data["title"] == "Pay A-7?"


@pytest.mark.parametrize(
    ("outcome", "on_timeout", "expected"),
    [
        ("approve", None, ["t", "ask", "yes", "other"]),
        ("reject", None, ["t", "ask", "no", "other"]),
        ("timeout", "approve", ["t", "ask", "yes", "other"]),
        ("timeout", "reject", ["t", "ask", "no", "other"]),
        ("timeout", "skip", ["t", "ask", "other"]),
    ],
)
def test_an_approval_outcome_chooses_its_port(
    outcome: str, on_timeout: str | None, expected: list[str]
) -> None:
    nodes = {**APPROVE_FLOW, "ask": approval(deadline="P1D" if on_timeout else None, on_timeout=on_timeout)}
    run = drive(build(nodes, APPROVE_WIRES), answer=lambda request: (outcome, None))
    assert (run.status, run.visits) == ("succeeded", expected)


def test_a_skipped_approval_says_so_and_follows_neither_port() -> None:
    nodes = {**APPROVE_FLOW, "ask": approval(deadline="PT1H", on_timeout="skip")}
    run = drive(build(nodes, APPROVE_WIRES), answer=lambda request: ("timeout", None))
    assert run.codes("ask") == ["node_visited", "approval_requested", "approval_skipped"]
    assert "yes" not in run.visits and "no" not in run.visits


def test_a_resume_journals_its_outcome_and_port_and_stores_the_output() -> None:
    nodes = {"t": trigger(), "ask": approval(), "say": log("{{ask.outcome}} by {{ask.decided_by}}")}
    output = {"outcome": "approve", "decided_by": "ann", "comment": None}
    run = drive(build(nodes, "t>ask ask.approve>say"), answer=lambda request: ("approve", output))
    resumed = [line for line in run.journal if line.code == "run_resumed"]
    assert [(line.node, line.visit, line.data) for line in resumed] == [
        ("ask", 2, {"outcome": "approve", "port": "approve"})
    ]
    assert run.lines("log_written") == [{"message": "approve by ann", "level": "info"}]


def test_the_pausing_node_is_counted_once_and_not_visited_again_on_resume() -> None:
    run = drive(build(APPROVE_FLOW, APPROVE_WIRES))
    assert [step.visits for step in run.steps] == [["t", "ask"], ["yes", "other"]]
    assert [step.visit_count for step in run.steps] == [2, 4]


def test_an_approval_inside_a_foreach_pauses_once_per_item_with_its_item() -> None:
    nodes = {
        "t": trigger(),
        "each": foreach("{{trigger}}", "invoice"),
        "ask": approval(title="Pay {{invoice}}?"),
        "paid": log("paid {{invoice}}"),
        "after": log("after"),
    }
    titles: list[str] = []

    def answer(request: Request) -> tuple[str, dict[str, Any] | None]:
        assert isinstance(request, ApprovalRequest)
        titles.append(request.title)
        return ("reject" if request.title == "Pay B?" else "approve"), None

    run = drive(
        build(nodes, "t>each each.body>ask ask.approve>paid each.done>after"), ["A", "B", "C"], answer
    )
    assert titles == ["Pay A?", "Pay B?", "Pay C?"]
    assert [line["message"] for line in run.lines("log_written")] == ["paid A", "paid C", "after"]
    assert [request.visit for request in (step.request for step in run.steps) if request] == [3, 5, 6]


def test_a_delay_asks_for_its_duration_as_written_and_passes() -> None:
    nodes = {"t": trigger(), "wait": ("delay", {"duration": "PT30M"}), "after": log()}
    run = drive(build(nodes, "t>wait wait>after"))
    assert run.steps[0].request == DelayRequest(node="wait", visit=2, duration="PT30M", until=None)
    assert run.visits == ["t", "wait", "after"]
    assert run.codes("wait") == ["node_visited", "delay_started", "run_resumed"]


def test_a_delay_until_asks_for_the_rendered_timestamp_text() -> None:
    nodes = {"t": trigger(), "wait": ("delay", {"until": "{{trigger.due}}"})}
    step = walk(build(nodes, "t>wait"), None, trigger={"due": "2030-01-02T03:04:05Z"})
    assert step.request == DelayRequest(node="wait", visit=2, duration=None, until="2030-01-02T03:04:05Z")


@pytest.mark.parametrize("payload", [{}, {"due": 5}, {"due": ""}])
def test_a_delay_until_with_nothing_to_wait_for_fails_the_run(payload: dict[str, Any]) -> None:
    nodes = {"t": trigger(), "wait": ("delay", {"until": "{{trigger.due}}"})}
    step = walk(build(nodes, "t>wait"), None, trigger=payload)
    assert (step.status, step.error, step.journal[-1].node) == ("failed", "delay_until_invalid", "wait")


def test_a_delay_with_an_invalid_duration_fails_the_run() -> None:
    step = walk(build({"t": trigger(), "wait": ("delay", {"duration": "P1M"})}, "t>wait"), None)
    assert (step.status, step.error) == ("failed", "node_config_invalid")


def test_an_action_asks_for_its_config_with_every_template_rendered() -> None:
    nodes = {
        "t": trigger(),
        "send": http(
            "https://pay.test/{{trigger.id}}", headers={"X-Id": "{{trigger.id}}"}, body={"n": "{{trigger.n}}"}
        ),
    }
    step = walk(build(nodes, "t>send"), None, trigger={"id": "A-7", "n": 3})
    assert step.request == ActionRequest(
        node="send",
        visit=2,
        type="http",
        config={
            "method": "POST",
            "url": "https://pay.test/A-7",
            "headers": {"X-Id": "A-7"},
            "body": {"n": 3},
        },
    )
    assert step.journal[-1].code == "action_requested"
    assert step.journal[-1].data == {"type": "http", "config": step.request.config}


@pytest.mark.parametrize("kind", ["http", "notify", "command"])
def test_every_action_type_is_a_request(kind: str) -> None:
    step = walk(build({"t": trigger(), "act": node(kind, message="{{trigger}}")}, "t>act"), None, trigger="x")
    assert isinstance(step.request, ActionRequest)
    assert (step.request.type, step.request.config) == (kind, {"message": "x"})


def test_an_action_result_follows_out_and_its_output_is_stored() -> None:
    nodes = {"t": trigger(), "send": http(), "ok": log("{{send.status}}"), "bad": log("bad")}
    run = drive(build(nodes, "t>send send>ok send.error>bad"), answer=lambda r: ("out", {"status": 201}))
    assert run.visits == ["t", "send", "ok"]
    assert run.lines("log_written") == [{"message": "201", "level": "info"}]


def test_an_action_error_follows_the_error_port_when_wired() -> None:
    nodes = {"t": trigger(), "send": http(), "ok": log(), "bad": log("{{send.status}}")}
    run = drive(build(nodes, "t>send send>ok send.error>bad"), answer=lambda r: ("error", {"status": 503}))
    assert (run.status, run.visits) == ("succeeded", ["t", "send", "bad"])
    assert run.lines("log_written") == [{"message": "503", "level": "info"}]


def test_an_action_error_with_no_error_port_fails_the_run_with_action_failed() -> None:
    nodes = {"t": trigger(), "send": http(), "ok": log(), "other": log()}
    run = drive(build(nodes, "t>send t>other send>ok"), answer=lambda r: ("error", None))
    assert (run.status, run.error, run.visits) == ("failed", "action_failed", ["t", "send"])
    assert run.last.journal[-1].code == "run_failed"
    assert (run.last.journal[-1].node, run.last.journal[-1].data) == ("send", {"error": "action_failed"})


def test_visits_of_pausing_nodes_are_unique_and_stable_per_run() -> None:
    nodes = {
        "t": trigger(),
        "each": foreach("{{trigger}}"),
        "send": http(),
        "wait": ("delay", {"duration": "PT1S"}),
    }
    flow = build(nodes, "t>each each.body>send send>wait")
    first = drive(flow, [1, 2, 3])
    again = drive(flow, [1, 2, 3])
    keys = [(step.request.node, step.request.visit) for step in first.steps if step.request]
    assert len(keys) == len(set(keys)) == 6
    assert keys == [(step.request.node, step.request.visit) for step in again.steps if step.request]


def paused() -> tuple[Any, dict[str, Any]]:
    flow = build(APPROVE_FLOW, APPROVE_WIRES)
    step = walk(flow, None)
    assert step.continuation is not None
    return flow, step.continuation


@pytest.mark.parametrize(
    "resume",
    [
        None,
        Resume("yes", 2, "approve"),
        Resume("ask", 3, "approve"),
        Resume("ask", 2, "passed"),
        Resume("ask", 2, "out"),
        Resume("ask", 2, "timeout"),  # this approval has no on_timeout: it cannot time out
    ],
)
def test_a_resume_that_does_not_answer_the_pause_is_refused(resume: Resume | None) -> None:
    flow, continuation = paused()
    with pytest.raises(ResumeMismatch) as raised:
        walk(flow, continuation, resume=resume)
    assert raised.value.code == "resume_mismatch"
    assert isinstance(raised.value, ValueError)


def test_a_new_run_takes_no_resume() -> None:
    with pytest.raises(ResumeMismatch):
        walk(build(APPROVE_FLOW, APPROVE_WIRES), None, resume=Resume("ask", 2, "approve"))


def test_resuming_leaves_the_callers_continuation_unchanged() -> None:
    flow, continuation = paused()
    before = json.dumps(continuation)
    walk(flow, continuation, resume=Resume("ask", 2, "approve", {"outcome": "approve"}))
    walk(flow, continuation, resume=Resume("ask", 2, "reject"))
    assert json.dumps(continuation) == before


def test_the_same_continuation_resumed_twice_gives_the_same_step() -> None:
    flow, continuation = paused()
    first = walk(flow, json.loads(json.dumps(continuation)), resume=Resume("ask", 2, "reject"))
    second = walk(flow, json.loads(json.dumps(continuation)), resume=Resume("ask", 2, "reject"))
    assert first == second


def test_a_request_shares_nothing_with_the_runs_variables() -> None:
    nodes = {"t": trigger(), "send": http(body="{{trigger.order}}")}
    step = walk(build(nodes, "t>send"), None, trigger={"order": {"id": 1}})
    assert isinstance(step.request, ActionRequest) and step.continuation is not None
    step.request.config["body"]["signed"] = True
    assert step.continuation["vars"]["trigger"] == {"order": {"id": 1}}


def test_a_sequential_pause_lists_its_one_request_and_pending_pause() -> None:
    flow = build(APPROVE_FLOW, APPROVE_WIRES)
    step = walk(flow, None)
    assert step.status == "waiting" and step.request is not None
    assert step.requests == (step.request,) and step.pending == (("ask", 2),)
    done = walk(flow, json.loads(json.dumps(step.continuation)), resume=Resume("ask", 2, "approve"))
    assert done.status == "succeeded" and done.requests == () and done.pending == ()
