"""Survivors of `make mutation` in the walker's requests, secret slots and journal lines: the exact reason
code and parameters of each refused delay, an action's config without its undo, the pieces a secret
slot is joined from, and the data, node and visit of the lines a pause writes."""

from __future__ import annotations

from typing import Any

import pytest

from backend.graph.model import Node
from backend.walker import DelayRequest, walk
from backend.walker.errors import WalkFailure
from backend.walker.requests import ApprovalRequest, action_request, approval_request, delay_request
from backend.walker.secret_refs import SecretRef, secret_slots
from backend.walker.templates import kind_of
from tests.walker.walker_flows import (
    approval,
    build,
    drive,
    drive_all,
    http,
    join,
    log,
    node,
    parallel,
    trigger,
)


def delay_refused(config: dict[str, Any], variables: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    with pytest.raises(WalkFailure) as raised:
        delay_request(Node("d", "delay", config), 4, variables, 1000)
    return raised.value.code, dict(raised.value.params)


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        ({"duration": "P1M"}, ("node_config_invalid", {"field": "duration"})),
        ({"duration": 5}, ("node_config_invalid", {"field": "duration"})),
        ({}, ("node_config_invalid", {"field": "until"})),
        ({"until": "{{nowhere}}"}, ("delay_until_invalid", {"until": "missing"})),
        ({"until": "{{n}}"}, ("delay_until_invalid", {"until": "5"})),
        ({"until": "{{empty}}"}, ("delay_until_invalid", {"until": ""})),
        ({"until": "x{{big}}"}, ("value_too_large", {"limit": 1000, "what": "text"})),
    ],
)
def test_a_delay_the_walker_refuses(config: dict[str, Any], expected: tuple[str, dict[str, Any]]) -> None:
    variables = {"n": 5, "empty": "", "big": "a" * 2000}
    assert delay_refused(config, variables) == expected


def test_a_delay_until_a_variable_asks_for_its_text() -> None:
    request = delay_request(
        Node("d", "delay", {"until": "{{when}}"}), 4, {"when": "2031-05-01T09:00:00"}, 1000
    )
    assert request == DelayRequest(node="d", visit=4, duration=None, until="2031-05-01T09:00:00")


@pytest.mark.parametrize(
    ("config", "data"),
    [
        ({"duration": "PT5M"}, {"duration": "PT5M", "until": None}),
        ({"until": "2031-05-01T09:00:00"}, {"duration": None, "until": "2031-05-01T09:00:00"}),
    ],
)
def test_a_delay_journals_what_it_waits_for(config: dict[str, Any], data: dict[str, Any]) -> None:
    step = walk(build({"t": trigger(), "d": node("delay", **config)}, "t>d"), None)
    last = step.journal[-1]
    assert (last.code, last.node, last.visit, last.data) == ("delay_started", "d", 2, data)


def test_an_action_asks_with_its_config_rendered_and_without_its_undo() -> None:
    config = {"method": "POST", "url": "https://x.test/{{trigger.id}}", "undo": {"method": "DELETE"}}
    request = action_request(Node("h", "http", config), 3, {"trigger": {"id": 7}})
    assert (request.node, request.visit, request.type) == ("h", 3, "http")
    assert request.config == {"method": "POST", "url": "https://x.test/7"}
    assert config["undo"] == {"method": "DELETE"}


def test_an_action_asks_with_the_slots_of_its_secrets() -> None:
    config = {
        "method": "GET",
        "url": "https://x.test/",
        "headers": {"Authorization": "Bearer {{secrets.TOKEN}}"},
    }
    request = action_request(Node("h", "http", config), 3, {})
    assert request.secrets == ((("headers", "Authorization"), ("Bearer ", SecretRef("TOKEN"))),)


def test_an_action_journals_its_redacted_config_at_its_node_and_visit() -> None:
    step = walk(build({"t": trigger(), "h": http("https://u:pw@x.test/")}, "t>h"), None)
    last = step.journal[-1]
    assert (last.code, last.node, last.visit) == ("action_requested", "h", 2)
    assert last.data == {"type": "http", "config": {"method": "POST", "url": "https://u:[redacted]@x.test/"}}


def test_a_slot_joins_text_variables_and_secrets_and_renders_what_is_missing_as_nothing() -> None:
    variables = {"trigger": {"who": "ann", "none": None}}
    template = "{{trigger.who}}:{{secrets.KEY}}:{{secrets.a.b}}:{{trigger.none}}:{{trigger.gone}}"
    assert secret_slots({"t": template}, variables) == (
        (("t",), ("ann", ":", SecretRef("KEY"), ":", "", ":", "", ":", "")),
    )


def test_a_template_that_only_reads_a_variable_named_secrets_has_no_slot() -> None:
    assert secret_slots({"t": "{{trigger.secrets}}"}, {"trigger": {"secrets": "x"}}) == ()


def test_slots_are_in_the_order_of_their_paths_as_text() -> None:
    config = {"h": [f"{{{{secrets.S{i}}}}}" for i in range(11)]}
    paths = [path for path, _ in secret_slots(config, {})]
    assert paths == sorted((("h", i) for i in range(11)), key=lambda path: [str(part) for part in path])
    assert paths[:3] == [("h", 0), ("h", 1), ("h", 10)]


def test_a_value_that_is_no_json_type_is_of_kind_other() -> None:
    assert (kind_of(object()), kind_of({1}), kind_of((1,)), kind_of([1])) == (
        "other",
        "other",
        "array",
        "array",
    )


def test_a_break_outside_a_loop_fails_the_run_with_its_code() -> None:
    run = drive(build({"t": trigger(), "b": node("break")}, "t>b"))
    assert (run.status, run.error) == ("failed", "break_outside_loop")
    last = run.journal[-1]
    assert (last.code, last.node, last.visit, last.data) == (
        "run_failed",
        "b",
        2,
        {"error": "break_outside_loop"},
    )


def test_join_arrivals_in_a_paused_branch_survive_the_pause() -> None:
    nodes = {
        "t": trigger(),
        "p": parallel(),
        "s": log(),
        "x": log(),
        "ask": approval(),
        "j": join(2),
        "z": log(),
    }
    run = drive_all(build(nodes, "t>p p.branches>s s>x s>ask x>j ask.approve>j ask.reject>j j>z"))
    assert run.visits == ["t", "p", "s", "x", "ask", "j", "z"]
    assert run.lines("join_not_reached") == []
    finished = next(line for line in run.journal if line.code == "parallel_finished")
    assert (finished.node, finished.visit, finished.data) == ("p", 2, {"branches": 1, "ended": 1})


def test_an_approval_asks_with_every_rule_as_written_and_its_texts_rendered() -> None:
    config = {
        "title": "Pay {{invoice.id}}?",
        "explanation": "Because {{why}}",
        "approvers": ["group:{{team}}", "user:ann"],
        "deadline": "P2D",
        "on_timeout": "reject",
        "quorum": 2,
        "reject": "all",
        "allow_self_approval": True,
        "remind_after": ["P1D", "PT12H"],
        "escalate_after": "P3D",
        "escalate_to": ["user:{{boss}}", "group:board"],
        "show": [{"label": "Invoice of {{boss}}", "value": "invoice.id"}],
    }
    variables = {"invoice": {"id": "A-7"}, "why": "it is due", "team": "finance", "boss": "eve"}
    assert approval_request(Node("ask", "approval", config), 6, variables, 1000) == ApprovalRequest(
        node="ask",
        visit=6,
        title="Pay A-7?",
        explanation="Because it is due",
        approvers=["group:finance", "user:ann"],
        deadline="P2D",
        on_timeout="reject",
        quorum=2,
        reject="all",
        allow_self_approval=True,
        remind_after=("P1D", "PT12H"),
        escalate_after="P3D",
        escalate_to=("user:eve", "group:board"),
        shown=({"label": "Invoice of eve", "path": "invoice.id", "value": "A-7"},),
    )


def test_an_approval_with_nothing_but_its_node_asks_with_the_defaults() -> None:
    request = approval_request(Node("ask", "approval", {}), 3, {}, 1000)
    assert request == ApprovalRequest(
        node="ask",
        visit=3,
        title="",
        explanation="",
        approvers=[],
        deadline=None,
        on_timeout=None,
        quorum=1,
        reject="any",
        allow_self_approval=False,
        remind_after=(),
        escalate_after=None,
        escalate_to=(),
        shown=({"label": None, "path": "trigger", "value": None},),
    )
    nulls = {"approvers": None, "remind_after": None, "escalate_to": None}
    assert approval_request(Node("ask", "approval", nulls), 3, {}, 1000) == request


@pytest.mark.parametrize(
    "config",
    [
        {"title": "x{{big}}"},
        {"explanation": "x{{big}}"},
        {"approvers": ["user:{{big}}"]},
        {"escalate_to": ["user:{{big}}"]},
    ],
)
def test_every_text_of_an_approval_is_held_to_the_size_limit(config: dict[str, Any]) -> None:
    with pytest.raises(WalkFailure) as raised:
        approval_request(Node("ask", "approval", config), 3, {"big": "a" * 60}, 50)
    assert (raised.value.code, dict(raised.value.params)) == (
        "value_too_large",
        {"limit": 50, "what": "text"},
    )
