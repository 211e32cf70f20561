"""The pure half of a resume's preview (backend/queue/preview_walk.py): recorded outcomes given back as
the effects log gives them, a visit that acted at another node refused, a failure named with its node."""

from __future__ import annotations

from typing import Any

from backend.graph.model import Flow
from backend.queue.preview_walk import Recorded, walk_resume
from backend.walker import Limits, Resume, walk
from tests.support import flow

LIMITS = Limits(100_000, 1_000_000)


def paused_at_delay(document: dict[str, Any]) -> tuple[Flow, dict[str, Any], Resume]:
    loaded = Flow.load(document)
    step = walk(loaded, None, trigger={"n": 1}, limits=LIMITS)
    assert step.status == "waiting" and step.continuation is not None
    node, visit = step.pending[0]
    return loaded, step.continuation, Resume(node, visit, "passed")


def charge_then(*nodes: dict[str, Any], wires: str) -> dict[str, Any]:
    return flow(
        "start:trigger",
        {"id": "later", "type": "delay", "config": {"duration": "PT1M"}},
        {"id": "charge", "type": "http", "config": {"method": "POST", "url": "https://p.example/c"}},
        *nodes,
        wires="start>later later>charge " + wires,
    )


def test_an_error_a_later_visit_built_on_is_given_back_and_its_error_port_followed() -> None:
    document = charge_then(
        {"id": "refund", "type": "http", "config": {"method": "POST", "url": "https://p.example/r"}},
        {"id": "done", "type": "log", "config": {"message": "ok"}},
        wires="charge.error>refund charge>done",
    )
    loaded, continuation, first = paused_at_delay(document)
    recorded = {
        3: Recorded(3, "charge", "fy-1-3-a", "error", {"code": "http_status_error"}, superseded=True),
        4: Recorded(4, "refund", "fy-1-4-b", None, None, superseded=False),
    }
    walked = walk_resume(loaded, continuation, first, trigger=None, recorded=recorded, limits=LIMITS)
    assert [(a.node, a.sent, a.key) for a in walked.actions] == [
        ("charge", False, "fy-1-3-a"),
        ("refund", True, "fy-1-4-b"),
    ]
    assert walked.status == "succeeded"


def test_a_visit_that_acted_at_another_node_fails_the_preview_as_it_would_fail_the_resume() -> None:
    loaded, continuation, first = paused_at_delay(charge_then(wires=""))
    recorded = {3: Recorded(3, "elsewhere", "fy-1-3-a", "out", {}, superseded=False)}
    walked = walk_resume(loaded, continuation, first, trigger=None, recorded=recorded, limits=LIMITS)
    assert (walked.status, walked.error, walked.node, walked.actions) == (
        "failed",
        "action_effect_mismatch",
        "charge",
        [],
    )


def test_a_run_that_would_fail_names_the_node_and_the_reason() -> None:
    document = charge_then(
        {"id": "stop", "type": "end", "config": {"status": "failed", "message": "no"}},
        wires="charge>stop",
    )
    loaded, continuation, first = paused_at_delay(document)
    walked = walk_resume(loaded, continuation, first, trigger=None, recorded={}, limits=LIMITS)
    assert [(a.node, a.sent, a.key) for a in walked.actions] == [("charge", True, None)]
    assert (walked.status, walked.error, walked.node) == ("failed", "run_ended_failed", "stop")
