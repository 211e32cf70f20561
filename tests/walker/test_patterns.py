"""The twenty original workflow control-flow patterns (docs/patterns.md): each flow in examples/patterns/
is valid, warns nothing, and walks to the end the table says."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from backend.graph import check_flow
from backend.graph.model import Flow
from backend.walker import ApprovalRequest, DelayRequest, Request
from tests.walker.walker_flows import Run, drive_all

PATTERNS = Path(__file__).resolve().parents[2] / "examples" / "patterns"
PAYLOAD = {"order": "A-1", "amount": 1500, "region": "eu", "lines": ["l1", "l2"], "express": False}


def run(name: str, decisions: dict[str, list[str]] | None = None, order: int = 0) -> Run:
    """Walk a pattern, approving every approval unless `decisions` lists its outcomes, visit by visit."""
    document = json.loads((PATTERNS / f"{name}.json").read_text(encoding="utf-8"))
    findings, warnings = check_flow(document)
    assert (findings, warnings) == ([], [])
    given = {node: iter(outcomes) for node, outcomes in (decisions or {}).items()}

    def answer(request: Request) -> tuple[str, dict[str, Any] | None]:
        if isinstance(request, ApprovalRequest):
            outcome = next(given.get(request.node, itertools.repeat("approve")))
            return outcome, {"outcome": outcome}
        if isinstance(request, DelayRequest):
            return "passed", None
        return "out", {"status": 200}

    return drive_all(Flow.load(document), PAYLOAD, answer, order=lambda requests: order)


VISITS = {
    "01-sequence": ["start", "receive", "check", "file"],
    "02-parallel-split": ["start", "split", "legal", "finance"],
    "03-synchronization": ["start", "both", "legal", "finance", "pay"],
    "04-exclusive-choice": ["start", "large", "ask"],
    "05-simple-merge": ["start", "large", "ask", "confirm"],
    "06-multi-choice": ["start", "fan", "is_eu", "eu", "is_big", "big"],
    "07-synchronizing-merge": ["start", "fan", "is_eu", "eu", "is_big", "big", "ship"],
    "08-multi-merge": ["start", "split", "legal", "finance", "log_legal", "log_finance"],
    "09-discriminator": ["start", "first", "credit", "fraud", "credit_done", "proceed", "fraud_done"],
    "10-arbitrary-cycles": ["start", "init", "rework", "review", "done_ok", "publish"],
    "11-implicit-termination": ["start", "a", "b"],
    "12-mi-without-synchronization": ["start", "go", "each", "notice", "notice"],
    "13-mi-design-time": ["start", "three", "r1", "r2", "r3", "publish"],
    "14-mi-run-time": ["start", "each", "ok", "ok", "noted", "noted", "ship"],
    "16-deferred-choice": ["start", "race", "answer", "week", "confirmed"],
    "17-interleaved-parallel-routing": ["start", "inspect_a", "inspect_b", "both", "release"],
    "18-milestone": ["start", "ship_now", "change", "apply"],
    "19-cancel-activity": ["start", "race", "approve", "timer", "after"],
}


def test_every_pattern_of_the_table_has_a_flow_and_a_walk() -> None:
    names = sorted(path.stem for path in PATTERNS.glob("*.json"))
    assert names == sorted([*VISITS, "15-mi-no-run-time", "20-cancel-case"]) and len(names) == 20
    table = (PATTERNS.parents[1] / "docs" / "patterns.md").read_text(encoding="utf-8")
    assert all(f"examples/patterns/{name}.json" in table for name in names)


@pytest.mark.parametrize("name", sorted(VISITS))
def test_a_pattern_walks_as_the_table_says(name: str) -> None:
    walked = run(name)
    assert (walked.status, walked.visits) == ("succeeded", VISITS[name])


def test_synchronization_and_its_walk_hold_in_either_order_of_decisions() -> None:
    first, second = run("03-synchronization", order=0), run("03-synchronization", order=1)
    assert first.visits == second.visits and first.status == second.status == "succeeded"
    assert [line.node for line in second.journal if line.code == "run_resumed"] == ["finance", "legal"]


def test_the_deferred_choice_and_the_cancelled_activity_are_decided_by_whichever_comes_first() -> None:
    timer_first = run("16-deferred-choice", order=1)
    assert timer_first.visits[-1] == "expired"
    assert [line.node for line in timer_first.journal if line.code == "branch_cancelled"] == ["answer"]
    cancelled = run("19-cancel-activity", order=1)
    assert [line.node for line in cancelled.journal if line.code == "branch_cancelled"] == ["approve"]


def test_the_discriminator_goes_on_at_the_first_check_and_ignores_the_slower_one() -> None:
    for order, (first, slower) in ((0, ("credit", "fraud")), (1, ("fraud", "credit"))):
        walked = run("09-discriminator", order=order)
        went_on, last = walked.steps[1], walked.steps[2]
        assert went_on.status == "waiting" and went_on.visits == [f"{first}_done", "proceed"]
        assert [node for node, _ in went_on.pending] == [slower], "the slower check is still open"
        assert last.status == "succeeded" and last.visits == [f"{slower}_done"]
        assert [line.code for line in last.journal if line.node == "first"] == [
            "branch_arrival_ignored",
            "parallel_rest_ended",
        ]


def test_repeat_patterns_loop_until_the_answer_says_enough() -> None:
    reworked = run("10-arbitrary-cycles", {"review": ["reject", "approve"]})
    assert reworked.visits.count("review") == 2 and reworked.visits[-1] == "publish"
    signed = run("15-mi-no-run-time", {"sign": ["approve", "approve", "reject"]})
    assert (signed.status, signed.visits.count("sign"), signed.visits[-1]) == ("succeeded", 3, "file")


def test_cancel_case_ends_the_run_at_once() -> None:
    cancelled = run("20-cancel-case", {"check": ["reject"]})
    assert (cancelled.status, cancelled.error, cancelled.visits[-1]) == (
        "failed",
        "run_ended_failed",
        "cancel",
    )


def test_multiple_instances_known_at_run_time_wait_side_by_side_in_either_order() -> None:
    for order, noted in (
        (0, ["line l1 approved", "line l2 approved"]),
        (1, ["line l2 approved", "line l1 approved"]),
    ):
        walked = run("14-mi-run-time", order=order)
        first = walked.steps[0]
        assert [r.title for r in first.requests if isinstance(r, ApprovalRequest)] == [
            "Approve l1",
            "Approve l2",
        ]
        assert len(first.pending) == 2
        assert [line["message"] for line in walked.lines("log_written")] == [*noted, "ship"]
        assert walked.status == "succeeded" and walked.visits[-1] == "ship"
