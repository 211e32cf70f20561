"""`walk_through`, the editor's sample walk (POST /api/flows/walk): answers given by node, the status,
error, visits and journal of the whole walk, and the node it waits at. `make mutation` found only the API's
tests reaching it, and they need a database."""

from __future__ import annotations

from backend.graph.model import Flow
from backend.walker.cli import walk_through
from backend.walker.sizes import DEFAULT_LIMITS
from tests.walker.walker_flows import approval, build, log, trigger


def flow() -> Flow:
    return build(
        {"t": trigger(), "first": approval(), "second": approval(), "yes": log("ok"), "no": log("no")},
        "t>first first.approve>second first.reject>no second.approve>yes second.reject>no",
    )


def test_the_answers_given_by_node_carry_the_walk_to_its_end() -> None:
    status, error, visits, journal, waiting_at = walk_through(
        flow(), {"k": 1}, {"first": ["approve"], "second": ["approve"]}, DEFAULT_LIMITS
    )
    assert (status, error, waiting_at) == ("succeeded", None, None)
    assert visits == ["t", "first", "second", "yes"]
    assert journal[-1].code == "run_succeeded"
    assert [line.data for line in journal if line.code == "run_resumed"] == [
        {"outcome": "approve", "port": "approve"},
        {"outcome": "approve", "port": "approve"},
    ]


def test_without_an_answer_left_the_walk_waits_at_the_pending_node() -> None:
    status, error, visits, journal, waiting_at = walk_through(
        flow(), None, {"first": ["approve"]}, DEFAULT_LIMITS
    )
    assert (status, error, waiting_at) == ("waiting", None, "second")
    assert visits == ["t", "first", "second"]
    assert journal[-1].code == "approval_requested"
