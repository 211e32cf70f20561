"""`POST /api/flows/walk` answers a `wait_event` as `flowyard walk` does (issue 35, item 1): an event's
name or `timeout` as the outcome, an unanswered wait leaves the walk waiting, and an answer the wait
cannot take is a 422 with its reason code, before anything is walked."""

from __future__ import annotations

from typing import Any

from tests.api.support import app_client, auth, make_user
from tests.support import Queue


def deferred_choice(timeout: str | None = "P14D") -> dict[str, Any]:
    wait: dict[str, Any] = {"events": ["accepted", "declined"], "key": "{{trigger.offer}}"}
    if timeout:
        wait["timeout"] = timeout
    return {
        "format": "flowyard.flow/1",
        "name": "Deferred choice",
        "nodes": [
            {"id": "start", "type": "trigger", "config": {"kind": "manual"}},
            {"id": "answer", "type": "wait_event", "config": wait},
            {"id": "book", "type": "log", "config": {"message": "booked {{trigger.offer}}"}},
            {"id": "close", "type": "log", "config": {"message": "declined"}},
            {"id": "lapse", "type": "log", "config": {"message": "lapsed"}},
        ],
        "wires": [
            {"from": "start", "to": "answer"},
            {"from": "answer", "port": "accepted", "to": "book"},
            {"from": "answer", "port": "declined", "to": "close"},
            {"from": "answer", "port": "timeout", "to": "lapse"},
        ],
    }


def test_a_walk_answers_a_wait_with_an_event_or_its_timeout_and_waits_without(queue: Queue) -> None:
    token = make_user(queue.url, "evan", "edit")
    with app_client(queue.url) as api:

        def walk(*outcomes: str) -> dict[str, Any]:
            answers = [{"node": "answer", "outcome": outcome} for outcome in outcomes]
            body = {"document": deferred_choice(), "input": {"offer": "O-1"}, "answers": answers}
            answered = api.post("/api/flows/walk", json=body, headers=auth(token))
            assert answered.status_code == 200, answered.text
            result: dict[str, Any] = answered.json()
            return result

        waiting = walk()
        assert (waiting["status"], waiting["waiting_at"]) == ("waiting", "answer")
        assert waiting["pending"] == [{"node": "answer", "visit": 2}]
        for outcome, then in (("accepted", "book"), ("declined", "close"), ("timeout", "lapse")):
            result = walk(outcome)
            assert (result["status"], result["visits"]) == ("succeeded", ["start", "answer", then]), outcome


def test_an_answer_a_wait_cannot_take_is_refused_with_its_reason(queue: Queue) -> None:
    token = make_user(queue.url, "erin", "edit")
    cases = [
        (deferred_choice(), "shipped", "walk_sample_event_unknown"),
        (deferred_choice(), "approve", "walk_sample_event_unknown"),
        (deferred_choice(timeout=None), "timeout", "walk_sample_event_cannot_time_out"),
        (deferred_choice(), "Accepted", "request_invalid"),
    ]
    with app_client(queue.url) as api:
        for document, outcome, code in cases:
            body = {
                "document": document,
                "input": {"offer": "O-1"},
                "answers": [{"node": "answer", "outcome": outcome}],
            }
            answer = api.post("/api/flows/walk", json=body, headers=auth(token, **{"Accept-Language": "de"}))
            assert (answer.status_code, answer.json()["error"]["code"]) == (422, code), outcome
            error = answer.json()["error"]
            assert error["message"] != code, outcome
            if code != "request_invalid":  # the node is named, for the editor to point at it
                assert error["detail"] == {"node": "answer", "outcome": outcome}
                assert "answer" in error["message"], outcome
