"""`flowyard walk` and `wait_event` (issue 35, item 1): an event's name or `timeout` answers the wait as
`--answer NODE=...`, an unanswered wait leaves the walk waiting, and an answer the wait cannot take is a
refusal with its reason code (exit 2), never a ResumeMismatch traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import backend.walker.cli as walk_cli
from backend.cli import main
from backend.walker.answers import refusal
from tests.walker.walker_flows import approval, build, document, log, node, parallel, trigger

NODES = {
    "t": trigger(),
    "ask": approval("Ship?"),
    "wait": node("wait_event", events=["paid", "refused"], key="{{trigger.order}}", timeout="P1D"),
    "forever": node("wait_event", events=["arrived"], key="{{trigger.order}}"),
    "ok": log("paid {{wait.amount}}{{wait.outcome}}"),
    "no": log("refused"),
    "late": log("late"),
    "here": log("arrived"),
}
WIRES = (
    "t>ask ask.approve>wait wait.paid>ok wait.refused>no wait.timeout>late "
    "ask.reject>forever forever.arrived>here"
)
INPUT = json.dumps({"order": "O-1"})


def _walk(tmp_path: Path, capsys: pytest.CaptureFixture[str], *answers: str) -> tuple[int, dict[str, Any]]:
    path = tmp_path / "flow.json"
    path.write_text(json.dumps(document(NODES, WIRES)), encoding="utf-8")
    given = [arg for answer in answers for arg in ("--answer", answer)]
    code = main(["walk", str(path), "--input", INPUT, *given, "--json"])
    captured = capsys.readouterr()
    assert captured.err == "" and "Traceback" not in captured.out
    result: dict[str, Any] = json.loads(captured.out)
    return code, result


@pytest.mark.parametrize(
    ("answers", "visits"),
    [
        (["ask=approve", "wait=paid"], ["t", "ask", "wait", "ok"]),
        (["ask=approve", "wait=refused"], ["t", "ask", "wait", "no"]),
        (["ask=approve", "wait=timeout"], ["t", "ask", "wait", "late"]),
        (["ask=reject", "forever=arrived"], ["t", "ask", "forever", "here"]),
    ],
)
def test_a_wait_takes_an_event_name_or_its_timeout_and_follows_that_port(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], answers: list[str], visits: list[str]
) -> None:
    code, result = _walk(tmp_path, capsys, *answers)
    assert (code, result["status"], result["visits"], result["pending"]) == (0, "succeeded", visits, [])
    resumed = [line["data"] for line in result["journal"] if line["code"] == "run_resumed"]
    outcome = answers[-1].split("=")[1]
    assert resumed[-1] == {"outcome": outcome, "port": outcome}
    if outcome == "paid":
        # A walk's event carries no payload, nor an outcome as an approval's output does: what the flow
        # reads of it is missing, not an error.
        logged = [line["data"]["message"] for line in result["journal"] if line["code"] == "log_written"]
        assert logged == ["paid "]


def test_an_unanswered_wait_leaves_the_walk_waiting_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, result = _walk(tmp_path, capsys, "ask=approve")
    assert (code, result["status"], result["error"]) == (0, "waiting", None)
    assert result["pending"] == [{"node": "wait", "visit": 3}]
    awaited = [line["data"] for line in result["journal"] if line["code"] == "event_awaited"]
    assert awaited == [{"events": ["paid", "refused"], "key": "O-1", "timeout": "P1D"}]
    # Without --json the last line says where it waits, and for what.
    path = tmp_path / "flow.json"
    assert main(["walk", str(path), "--input", INPUT, "--answer", "ask=approve"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last == "The walk is waiting at wait for an event: no --answer is left for it."


def test_a_wait_in_a_parallel_branch_is_answered_beside_an_approval_in_the_order_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    nodes = {
        "t": trigger(),
        "both": parallel(),
        "sign": approval("Sign?"),
        "pay": node("wait_event", events=["paid"], key="{{trigger.order}}"),
        "done": log("done"),
    }
    path = tmp_path / "flow.json"
    wires = "t>both both.branches>sign both.branches>pay both.done>done"
    path.write_text(json.dumps(document(nodes, wires)), encoding="utf-8")
    assert main(["walk", str(path), "--input", INPUT, "--json"]) == 0
    waiting = json.loads(capsys.readouterr().out)
    assert waiting["pending"] == [{"node": "sign", "visit": 3}, {"node": "pay", "visit": 4}]
    args = ["--answer", "pay=paid", "--answer", "sign=approve", "--json"]
    assert main(["walk", str(path), "--input", INPUT, *args]) == 0
    result = json.loads(capsys.readouterr().out)
    resumed = [line["node"] for line in result["journal"] if line["code"] == "run_resumed"]
    assert (result["status"], resumed, result["visits"][-1]) == ("succeeded", ["pay", "sign"], "done")


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        ("wait=approve", ("walk_answer_event_unknown", {"answer": "wait=approve", "node": "wait"})),
        ("wait=shipped", ("walk_answer_event_unknown", {"answer": "wait=shipped", "node": "wait"})),
        (
            "forever=timeout",
            ("walk_answer_event_cannot_time_out", {"answer": "forever=timeout", "node": "forever"}),
        ),
        ("wait=Paid", ("walk_answer_invalid", {"answer": "wait=Paid"})),
        ("wait=", ("walk_answer_invalid", {"answer": "wait="})),
        ("ask=paid", ("walk_answer_invalid", {"answer": "ask=paid"})),
        ("ok=paid", ("walk_answer_not_approval", {"answer": "ok=paid", "node": "ok"})),
    ],
)
def test_an_answer_the_wait_cannot_take_is_refused_with_its_reason_and_exit_2(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    answer: str,
    said: Any,
) -> None:
    calls: list[tuple[str, dict[str, Any]]] = []

    def message(code: str, locale: str = "en", /, **params: Any) -> str:
        calls.append((code, params))
        return code

    monkeypatch.setattr(walk_cli, "message", message)
    path = tmp_path / "flow.json"
    path.write_text(json.dumps(document(NODES, WIRES)), encoding="utf-8")
    assert main(["walk", str(path), "--input", INPUT, "--answer", answer]) == 2
    assert calls == [said]
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert captured.err.startswith(f"flowyard walk: {said[0]} (")


def test_the_refusals_sentences_are_the_catalogs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "flow.json"
    path.write_text(json.dumps(document(NODES, WIRES)), encoding="utf-8")
    assert main(["walk", str(path), "--answer", "wait=shipped"]) == 2
    assert capsys.readouterr().err == (
        "flowyard walk: --answer wait=shipped: wait does not wait for an event of that name.\n"
    )


def test_the_rule_is_one_for_the_command_and_the_api() -> None:
    flow = build(NODES, WIRES)
    assert [refusal(flow, "wait", outcome) for outcome in ("paid", "refused", "timeout")] == [None] * 3
    assert refusal(flow, "forever", "timeout") == "event_cannot_time_out"
    assert refusal(flow, "ask", "timeout") == "cannot_time_out"
    assert refusal(flow, "nobody", "paid") == "not_answerable"
