"""`flowyard walk`: in memory, no side effects, a JSON round trip at every pause, exit codes 0, 1 and 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import backend.walker.cli as walk_cli
from backend.cli import main
from backend.walker import Step
from tests.walker.walker_flows import approval, document, foreach, http, log, node, trigger

INVOICES = {
    "t": trigger(),
    "each": foreach("{{trigger.invoices}}", "invoice"),
    "big": ("condition", {"left": "{{invoice.amount}}", "op": "gt", "right": 1000}),
    "ask": approval("Pay {{invoice.id}}?", deadline="P2D", on_timeout="skip"),
    "note": log("paid {{invoice.id}}"),
}
INVOICE_WIRES = "t>each each.body>big big.true>ask big.false>note ask.approve>note"
PAYLOAD = json.dumps(
    {"invoices": [{"id": "A", "amount": 5}, {"id": "B", "amount": 5000}, {"id": "C", "amount": 7000}]}
)


def write(tmp_path: Path, nodes: dict[str, Any], wires: str) -> str:
    path = tmp_path / "flow.json"
    path.write_text(json.dumps(document(nodes, wires)), encoding="utf-8")
    return str(path)


def walk_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["walk", *args, "--json"])
    captured = capsys.readouterr()
    assert captured.err == ""
    return code, json.loads(captured.out)


def logged(result: dict[str, Any]) -> list[str]:
    return [line["data"]["message"] for line in result["journal"] if line["code"] == "log_written"]


def test_a_walk_that_succeeds_prints_status_visits_error_and_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, INVOICES, INVOICE_WIRES)
    code, result = walk_json(
        capsys, path, "--input", PAYLOAD, "--answer", "ask=approve", "--answer", "ask=reject"
    )
    assert code == 0
    assert set(result) == {"status", "visits", "error", "journal", "pending"} and result["pending"] == []
    assert (result["status"], result["error"]) == ("succeeded", None)
    assert result["visits"] == ["t", "each", "big", "note", "big", "ask", "note", "big", "ask"]
    assert logged(result) == ["paid A", "paid B"]
    assert {"code", "node", "visit", "data"} <= set(result["journal"][0])
    assert result["journal"][-1]["code"] == "run_succeeded"


def test_a_timeout_answer_applies_the_approvals_on_timeout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, INVOICES, INVOICE_WIRES)
    code, result = walk_json(
        capsys, path, "--input", PAYLOAD, "--answer", "ask=timeout", "--answer", "ask=approve"
    )
    assert (code, result["status"]) == (0, "succeeded")
    assert logged(result) == ["paid A", "paid C"]
    assert [line["code"] for line in result["journal"]].count("approval_skipped") == 1


def test_a_walk_without_an_answer_left_ends_waiting_with_exit_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, INVOICES, INVOICE_WIRES)
    code, result = walk_json(capsys, path, "--input", PAYLOAD, "--answer", "ask=approve")
    assert (code, result["status"], result["error"]) == (0, "waiting", None)
    assert result["visits"][-1] == "ask"
    assert (result["journal"][-1]["code"], result["journal"][-1]["data"]["title"]) == (
        "approval_requested",
        "Pay C?",
    )


def test_delays_pass_at_once_and_actions_are_journaled_and_follow_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    nodes = {
        "t": trigger(),
        "wait": ("delay", {"duration": "P1D"}),
        "send": http("https://pay.test/{{trigger.id}}", body={"id": "{{trigger.id}}"}),
        "tell": node("notify", channel="email", to="ann@example.test", message="sent {{trigger.id}}"),
        "failed": log("never"),
        "done": log("done"),
    }
    path = write(tmp_path, nodes, "t>wait wait>send send>tell send.error>failed tell>done")
    code, result = walk_json(capsys, path, "--input", '{"id": "A-7"}')
    assert (code, result["status"], result["visits"]) == (
        0,
        "succeeded",
        ["t", "wait", "send", "tell", "done"],
    )
    requested = [line["data"] for line in result["journal"] if line["code"] == "action_requested"]
    assert requested == [
        {"type": "http", "config": {"method": "POST", "url": "https://pay.test/A-7", "body": {"id": "A-7"}}},
        {"type": "notify", "config": {"channel": "email", "to": "ann@example.test", "message": "sent A-7"}},
    ]


def test_every_pause_goes_through_json_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    returned: list[Any] = []
    given: list[Any] = []
    real_walk = walk_cli.walk  # type: ignore[attr-defined]

    def recording_walk(flow: Any, continuation: Any, **kwargs: Any) -> Step:
        given.append(continuation)
        step = real_walk(flow, continuation, **kwargs)
        returned.append(step.continuation)
        return step

    monkeypatch.setattr(walk_cli, "walk", recording_walk)
    path = write(tmp_path, INVOICES, INVOICE_WIRES)
    code, result = walk_json(
        capsys, path, "--input", PAYLOAD, "--answer", "ask=approve", "--answer", "ask=approve"
    )
    assert (code, result["status"]) == (0, "succeeded")
    assert len(given) == 3 and given[0] is None
    for thawed, frozen in zip(given[1:], returned, strict=False):
        assert thawed == frozen and thawed is not frozen


def test_a_failed_run_exits_1_with_its_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    nodes = {"t": trigger(), "stop": ("end", {"status": "failed", "message": "nothing to pay"})}
    code, result = walk_json(capsys, write(tmp_path, nodes, "t>stop"))
    assert (code, result["status"], result["error"], result["visits"]) == (
        1,
        "failed",
        "run_ended_failed",
        ["t", "stop"],
    )


def test_a_limit_fails_the_walk_with_its_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    nodes = {"t": trigger(), "each": foreach("{{trigger}}"), "say": log("x")}
    code, result = walk_json(
        capsys, write(tmp_path, nodes, "t>each each.body>say"), "--input", json.dumps([0] * 101)
    )
    assert (code, result["status"], result["error"]) == (1, "failed", "iteration_limit_exceeded")


def test_the_human_output_is_one_line_per_journal_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # With no sentence in the catalog, a line shows its code and details; the test must not depend on one.
    monkeypatch.setattr(walk_cli, "message", lambda code, locale="en", /, **params: code)
    path = write(tmp_path, INVOICES, INVOICE_WIRES)
    _, result = walk_json(capsys, path, "--input", PAYLOAD)
    assert main(["walk", path, "--input", PAYLOAD]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == len(result["journal"]) + 1
    assert out[0].split()[:3] == ["1", "t", "node_visited"]
    assert out[-2].split()[:3] == ["6", "ask", "approval_requested"]
    assert out[-1] == 'walk_waiting (node="ask")'


def test_a_flow_with_findings_exits_1_and_prints_them_as_check_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, {"t": trigger(), "a": log(), "b": log()}, "t>a a>b b>a")
    code, result = walk_json(capsys, path)
    assert code == 1
    assert result["valid"] is False
    assert "cycle" in [finding["code"] for finding in result["findings"]]
    assert set(result["findings"][0]) == {"code", "node", "wire", "message"}
    assert main(["walk", path]) == 1
    human = capsys.readouterr().out.splitlines()
    assert any(line.startswith(f"{path}: cycle: ") for line in human)
    main(["check", path, "--json"])
    assert json.loads(capsys.readouterr().out) == result


@pytest.mark.parametrize(
    ("args", "code_in_line"),
    [
        (["--input", "{"], "walk_input_invalid"),
        (["--input", "NaN"], "walk_input_invalid"),
        (["--input", "[" * 100_000], "walk_input_invalid"),
        (["--answer", "ask"], "walk_answer_invalid"),
        (["--answer", "ask=maybe"], "walk_answer_invalid"),
        (["--answer", "=approve"], "walk_answer_invalid"),
        (["--answer", "note=approve"], "walk_answer_not_approval"),
        (["--answer", "nobody=approve"], "walk_answer_not_approval"),
        (["--answer", "plain=timeout"], "walk_answer_cannot_time_out"),
    ],
)
def test_unusable_arguments_exit_2_with_one_line_on_stderr(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    code_in_line: str,
) -> None:
    # Whatever the catalogs say, the line must come from this reason code.
    monkeypatch.setattr(walk_cli, "message", lambda code, locale="en", /, **params: code)
    nodes = {**INVOICES, "plain": approval("no deadline")}
    path = write(tmp_path, nodes, f"{INVOICE_WIRES} ask.reject>plain")
    assert main(["walk", path, *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("flowyard walk: ")
    assert captured.err.startswith(f"flowyard walk: {code_in_line} (")


@pytest.mark.parametrize("content", [None, b"{not json", b"\xff\xfe{}", b"[]"])
def test_a_file_that_is_no_flow_document_exits_2_or_1_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None
) -> None:
    path = tmp_path / "flow.json"
    if content is not None:
        path.write_bytes(content)
    code = main(["walk", str(path)])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    if content == b"[]":  # JSON, but not a flow: that is a finding, as `check` says
        assert code == 1 and "format_invalid" in captured.out
    else:
        assert code == 2 and captured.err.count("\n") == 1


@pytest.mark.parametrize(
    ("until", "error"), [("9999-12-31T00:00:00Z", "duration_invalid"), ("soon", "delay_until_invalid")]
)
def test_flowyard_walk_fails_a_delay_until_the_driver_would_refuse(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], until: str, error: str
) -> None:
    nodes = {"t": trigger(), "wait": ("delay", {"until": "{{trigger.when}}"}), "after": log("done")}
    path = write(tmp_path, nodes, "t>wait wait>after")
    assert main(["walk", path, "--input", json.dumps({"when": until}), "--json"]) == 1
    result = json.loads(capsys.readouterr().out)
    assert (result["status"], result["error"], result["visits"]) == ("failed", error, ["t", "wait"])
    assert (result["journal"][-1]["code"], result["journal"][-1]["node"]) == ("run_failed", "wait")


PARALLEL_APPROVALS = {
    "t": trigger(),
    "both": ("parallel", {"wait": "all"}),
    "legal": ("approval", {"title": "Legal?", "approvers": ["group:legal"]}),
    "finance": ("approval", {"title": "Finance?", "approvers": ["group:finance"]}),
    "pay": log("paid"),
}
PARALLEL_WIRES = "t>both both.branches>legal both.branches>finance both.done>pay"


def test_a_parallel_walk_waits_on_both_approvals_and_lists_them_as_pending(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, PARALLEL_APPROVALS, PARALLEL_WIRES)
    code, result = walk_json(capsys, path)
    assert (code, result["status"]) == (0, "waiting")
    assert result["pending"] == [{"node": "legal", "visit": 3}, {"node": "finance", "visit": 4}]
    code, result = walk_json(capsys, path, "--answer", "finance=approve")
    assert result["pending"] == [{"node": "legal", "visit": 3}]


def test_parallel_answers_are_taken_in_the_order_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, PARALLEL_APPROVALS, PARALLEL_WIRES)
    code, result = walk_json(capsys, path, "--answer", "finance=approve", "--answer", "legal=approve")
    resumed = [line["node"] for line in result["journal"] if line["code"] == "run_resumed"]
    assert (code, result["status"], resumed) == (0, "succeeded", ["finance", "legal"])
    assert result["visits"][-1] == "pay" and result["pending"] == []
    code, result = walk_json(capsys, path, "--answer", "legal=approve", "--answer", "finance=approve")
    resumed = [line["node"] for line in result["journal"] if line["code"] == "run_resumed"]
    assert resumed == ["legal", "finance"]
