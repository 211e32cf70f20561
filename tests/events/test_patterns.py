"""The workflow patterns wait_event enables (docs/patterns.md, "With outside events"), each flow in
examples/patterns-events/ validated and walked through the real queue with events posted as a sender
would."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from backend.graph import check_flow
from backend.graph.validator import validate
from tests.events.support import drain, logged, post
from tests.support import Queue

# Beside examples/patterns/ (the twenty original patterns, one flow each, docs/patterns.md).
PATTERNS = Path(__file__).resolve().parents[2] / "examples" / "patterns-events"
OURS = ("16-deferred-choice.json", "18-milestone.json", "24-persistent-trigger.json")


def _load(name: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((PATTERNS / name).read_text(encoding="utf-8"))
    return document


@pytest.mark.parametrize("name", OURS)
def test_each_pattern_flow_is_valid(name: str) -> None:
    document = _load(name)
    assert validate(document) == []
    assert check_flow(document) == ([], []), "no findings, no warnings"


@pytest.mark.parametrize(
    ("event", "payload", "expected"),
    [
        ("accepted", {"customer": "Acme"}, "booked O-1 for Acme"),
        ("declined", {}, "offer O-2 declined"),
        (None, {}, "offer O-3 lapsed"),
    ],
)
def test_deferred_choice_the_first_event_decides_the_branch(
    queue: Queue, event: str | None, payload: dict[str, Any], expected: str
) -> None:
    offer = expected.split()[1]  # a key of each case's own: nothing kept from another case
    run_id = queue.start(queue.save(_load(OURS[0])), input={"offer": offer})
    drain(queue)
    if event is None:
        queue.clock.advance(timedelta(days=14, seconds=1))
    else:
        assert post(queue, event, offer, payload).delivered
        # The choice is made: the other event finds nobody waiting (kept, never consumed by this run).
        other = "declined" if event == "accepted" else "accepted"
        assert not post(queue, other, offer).delivered
    drain(queue)
    assert queue.status(run_id) == ("succeeded", None)
    assert logged(queue, run_id) == [f"offer {offer} sent", expected]


def test_milestone_changes_are_taken_while_open_and_not_after(queue: Queue) -> None:
    run_id = queue.start(queue.save(_load(OURS[1])), input={"order": "M-1"})
    drain(queue)
    assert post(queue, "amend", "M-1", {"change": "two more chairs"}).delivered
    drain(queue)
    queue.clock.advance(timedelta(days=2, seconds=1))
    drain(queue)
    assert queue.status(run_id) == ("succeeded", None)
    late = post(queue, "amend", "M-1", {"change": "too late"})
    assert not late.delivered
    assert logged(queue, run_id) == ["order M-1 amended: two more chairs", "order M-1 shipped"]


def test_persistent_trigger_a_payment_before_the_request_is_kept_and_taken(queue: Queue) -> None:
    assert not post(queue, "payment", "I-1", {"amount": 99}).delivered
    run_id = queue.start(queue.save(_load(OURS[2])), input={"invoice": "I-1"})
    drain(queue)
    assert queue.status(run_id) == ("succeeded", None)
    assert logged(queue, run_id) == ["invoice I-1 issued", "invoice I-1 paid: 99"]
