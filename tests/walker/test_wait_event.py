"""A `wait_event` node in the walker alone (no queue, no database): the request it pauses with, the
journal line it writes, the port its answer takes, and the config and keys it refuses, each with its
exact reason code and parameters. `make mutation` found no walker test that reached it."""

from __future__ import annotations

from typing import Any

import pytest

from backend.graph.model import Node
from backend.walker import EventRequest, Resume, walk
from backend.walker.errors import WalkFailure
from backend.walker.requests import MAX_EVENT_KEY, event_request
from tests.walker.walker_flows import build, log, node, trigger

EARLY = "keep_early"
WAIT = {"events": ["paid", "cancelled"], "key": "{{trigger.order}}", "timeout": "P1D", "keep_early": "PT1H"}


def flow(**config: Any) -> Any:
    return build(
        {"t": trigger(), "w": node("wait_event", **{**WAIT, **config}), "a": log("paid"), "b": log("late")},
        "t>w w.paid>a w.timeout>b",
    )


def test_the_walk_pauses_with_the_event_request_and_journals_it() -> None:
    step = walk(flow(), None, trigger={"order": "A-7"})
    assert step.status == "waiting"
    assert step.request == EventRequest(
        node="w", visit=2, events=["paid", "cancelled"], key="A-7", timeout="P1D", keep_early="PT1H"
    )
    assert step.requests == (step.request,)
    last = step.journal[-1]
    assert (last.code, last.node, last.visit) == ("event_awaited", "w", 2)
    assert last.data == {"events": ["paid", "cancelled"], "key": "A-7", "timeout": "P1D"}


def test_the_event_named_in_the_answer_is_the_port_the_walk_takes() -> None:
    first = walk(flow(), None, trigger={"order": "A-7"})
    assert first.continuation is not None
    step = walk(flow(), first.continuation, resume=Resume("w", 2, "paid", {"amount": 3}))
    assert step.status == "succeeded"
    assert [(line.code, line.node) for line in step.journal if line.code == "node_visited"] == [
        ("node_visited", "a")
    ]
    resumed = next(line for line in step.journal if line.code == "run_resumed")
    assert resumed.data == {"outcome": "paid", "port": "paid"}


def test_the_timeout_takes_the_timeout_port() -> None:
    first = walk(flow(), None, trigger={"order": "A-7"})
    step = walk(flow(), first.continuation, resume=Resume("w", 2, "timeout", None))
    assert step.status == "succeeded"
    assert [line.node for line in step.journal if line.code == "node_visited"] == ["b"]


def test_without_timeout_or_keep_early_the_request_holds_none() -> None:
    request = event_request(Node("w", "wait_event", {"events": ["e"], "key": 42}), 1, {})
    assert request == EventRequest(node="w", visit=1, events=["e"], key="42", timeout=None, keep_early=None)
    explicit = {"events": ["e"], "key": "k", "timeout": None, "keep_early": None}
    assert event_request(Node("w", "wait_event", explicit), 3, {}).keep_early is None


def test_a_key_of_exactly_the_longest_length_is_kept() -> None:
    key = "k" * MAX_EVENT_KEY
    assert MAX_EVENT_KEY == 200
    assert event_request(Node("w", "wait_event", {"events": ["e"], "key": key}), 1, {}).key == key


def refusal(config: dict[str, Any], variables: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
    with pytest.raises(WalkFailure) as raised:
        event_request(Node("w", "wait_event", config), 1, variables or {})
    return raised.value.code, dict(raised.value.params)


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        ({"key": "k"}, ("node_config_invalid", {"field": "events"})),
        ({"events": "paid", "key": "k"}, ("node_config_invalid", {"field": "events"})),
        ({"events": [], "key": "k"}, ("node_config_invalid", {"field": "events"})),
        ({"events": ["paid", 3], "key": "k"}, ("node_config_invalid", {"field": "events"})),
        ({"events": ["e"], "key": "k", "timeout": "P1M"}, ("node_config_invalid", {"field": "timeout"})),
        ({"events": ["e"], "key": "k", "timeout": 5}, ("node_config_invalid", {"field": "timeout"})),
        ({"events": ["e"], "key": "k", "keep_early": "soon"}, ("node_config_invalid", {"field": EARLY})),
        ({"events": ["e"], "key": "k", "keep_early": ["PT1H"]}, ("node_config_invalid", {"field": EARLY})),
        ({"events": ["e"]}, ("event_key_missing", {})),
        ({"events": ["e"], "key": ""}, ("event_key_missing", {})),
        ({"events": ["e"], "key": "{{nothing}}"}, ("event_key_missing", {})),
        ({"events": ["e"], "key": "{{none}}"}, ("event_key_missing", {})),
        ({"events": ["e"], "key": "k" * 201}, ("event_key_too_long", {"limit": 200})),
    ],
)
def test_a_config_or_key_the_walker_refuses(
    config: dict[str, Any], expected: tuple[str, dict[str, Any]]
) -> None:
    assert refusal(config, {"none": None}) == expected


def test_a_refused_key_fails_the_run_with_its_code_in_the_journal() -> None:
    step = walk(flow(), None, trigger={"order": ""})
    assert (step.status, step.error) == ("failed", "event_key_missing")
    last = step.journal[-1]
    assert (last.code, last.node, last.visit) == ("run_failed", "w", 2)
    assert last.data == {"error": "event_key_missing"}
