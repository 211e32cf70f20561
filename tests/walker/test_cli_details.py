"""`flowyard walk` and the loops, down to the details: which answer, which node, which data, which limit."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import backend.walker.cli as walk_cli
from backend.cli import main
from backend.i18n.catalogs import message
from backend.walker import Limits, walk
from backend.walker.errors import WalkFailure
from tests.walker.walker_flows import approval, build, document, log, repeat, trigger


def _flow(tmp_path: Path, nodes: dict[str, Any], wires: str) -> str:
    path = tmp_path / "flow.json"
    path.write_text(json.dumps(document(nodes, wires)), encoding="utf-8")
    return str(path)


NODES = {
    "t": trigger(),
    "ask": approval("Pay?"),
    "late": approval("Late?", deadline="P1D", on_timeout="reject"),
    "eager": approval("Eager?", deadline="P1D", on_timeout="approve"),
    "note": log("{{ask.outcome}} {{late.outcome}} {{eager.outcome}}"),
}
WIRES = "t>ask ask.approve>late late.reject>eager eager.approve>note"


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        ("ask=x=approve", ("walk_answer_invalid", {"answer": "ask=x=approve"})),
        ("note=approve", ("walk_answer_not_approval", {"answer": "note=approve", "node": "note"})),
        ("ask=timeout", ("walk_answer_cannot_time_out", {"answer": "ask=timeout", "node": "ask"})),
    ],
)
def test_a_refused_answer_names_itself_and_its_node(
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
    assert main(["walk", _flow(tmp_path, NODES, WIRES), "--answer", answer]) == 2
    assert calls == [said]
    assert capsys.readouterr().out == ""


def test_timeouts_are_answers_for_approvals_that_time_out_to_approve_or_reject(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--answer", "ask=approve", "--answer", "late=timeout", "--answer", "eager=timeout", "--json"]
    assert main(["walk", _flow(tmp_path, NODES, WIRES), *args]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["status"], result["visits"]) == ("succeeded", ["t", "ask", "late", "eager", "note"])
    written = [line for line in result["journal"] if line["code"] == "log_written"]
    assert [line["data"]["message"] for line in written] == ["approve timeout timeout"]


def test_journal_sentences_are_filled_with_the_lines_node_and_visit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["walk", _flow(tmp_path, NODES, WIRES), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["status"] == "waiting"
    visited = [line for line in result["journal"] if line["code"] == "node_visited"]
    assert [(line["node"], line["visit"]) for line in visited] == [("t", 1), ("ask", 2)]
    assert all("{" not in line["message"] for line in result["journal"])
    assert [line["message"] for line in visited] == [
        message("node_visited", "en", node="t", visit=1, **visited[0]["data"]),
        message("node_visited", "en", node="ask", visit=2, **visited[1]["data"]),
    ]


def test_a_delay_until_too_far_ahead_keeps_what_it_was_and_its_visit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    nodes = {"t": trigger(), "wait": ("delay", {"until": "{{trigger.when}}"}), "after": log("done")}
    path = _flow(tmp_path, nodes, "t>wait wait>after")
    when = "9999-12-31T00:00:00Z"
    assert main(["walk", path, "--input", json.dumps({"when": when}), "--json"]) == 1
    last = json.loads(capsys.readouterr().out)["journal"][-1]
    assert (last["code"], last["node"], last["visit"]) == ("run_failed", "wait", 2)
    assert last["data"] == {"error": "duration_invalid", "duration": when}


def test_a_repeat_without_a_while_test_fails_naming_the_field() -> None:
    step = walk(
        build({"t": trigger(), "r": ("repeat", {"while": "always"}), "a": log()}, "t>r r.body>a"), None
    )
    assert (step.status, step.error) == ("failed", "node_config_invalid")
    assert step.journal[-1].data == {"error": "node_config_invalid", "field": "while"}


def test_a_repeat_test_is_held_to_the_value_limit() -> None:
    flow = build({"t": trigger(), "r": repeat("a {{trigger}}", "eq", "x"), "a": log()}, "t>r r.body>a")
    step = walk(flow, None, trigger="y" * 200, limits=Limits(100, 10**6))
    assert (step.status, step.error) == ("failed", "value_too_large")
    assert step.journal[-1].data == {"error": "value_too_large", "limit": 100, "what": "text"}


def test_a_coded_error_without_details_reads_as_its_code() -> None:
    assert str(WalkFailure(code="break_outside_loop")) == "break_outside_loop"
    assert str(WalkFailure(code="value_too_large", limit=5)) == "value_too_large: limit=5"


def _recorded(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, dict[str, Any]]]:
    calls: list[tuple[str, str, dict[str, Any]]] = []

    def message(code: str, locale: str = "en", /, **params: Any) -> str:
        calls.append((code, locale, params))
        return code  # as if the catalog had no sentence: the fallback shows the details

    monkeypatch.setattr(walk_cli, "message", message)
    return calls


@pytest.mark.parametrize(
    ("given", "params", "details"),
    [
        (
            "[" * 100_000,
            {"reason": "json_problem_too_deep", "limit": 100},
            'reason="json_problem_too_deep", limit=100',
        ),
        (
            "{",
            {"reason": "json_problem_syntax", "line": 1, "column": 2},
            'reason="json_problem_syntax", line=1, column=2',
        ),
    ],
)
def test_unreadable_input_says_why_in_english_with_every_detail(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    given: str,
    params: dict[str, object],
    details: str,
) -> None:
    """The reason is the strict reader's own reason code (its sentence cited in walk_input_invalid's), with
    the details that sentence names: never Python's English."""
    calls = _recorded(monkeypatch)
    assert main(["walk", _flow(tmp_path, NODES, WIRES), "--input", given]) == 2
    assert calls == [("walk_input_invalid", "en", params)]
    assert capsys.readouterr().err == f"flowyard walk: walk_input_invalid ({details})\n"


def test_the_fallback_keeps_non_ascii_details_as_they_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _recorded(monkeypatch)
    assert main(["walk", _flow(tmp_path, NODES, WIRES), "--answer", "prüfen=approve"]) == 2
    assert capsys.readouterr().err == (
        'flowyard walk: walk_answer_not_approval (answer="prüfen=approve", node="prüfen")\n'
    )


def test_an_unreadable_file_is_named_in_the_refusal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls = _recorded(monkeypatch)
    path = str(tmp_path / "absent.json")
    assert main(["walk", path]) == 2
    [(code, locale, params)] = calls
    assert (locale, params["path"]) == ("en", path)
    assert capsys.readouterr().err.startswith(f"flowyard walk: {code} (path={json.dumps(path)}")


def test_a_literal_until_too_far_ahead_is_a_finding_before_anything_walks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    nodes = {"t": trigger(), "wait": ("delay", {"until": "9999-01-01T00:00:00Z"}), "after": log("done")}
    assert main(["walk", _flow(tmp_path, nodes, "t>wait wait>after"), "--json"]) == 1
    out = capsys.readouterr().out
    assert "node_config_invalid" in out and "node_visited" not in out
    assert "In node wait, “Until” is not valid" in json.loads(out)["findings"][0]["message"]


def test_the_walk_command_keeps_to_the_configured_limits_before_and_after_a_pause(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The approval shows nothing: by default it would show the input, itself held to the value limit.
    ask = ("approval", {**approval("Go?")[1], "show": []})
    nodes = {"t": trigger(), "ask": ask, "say": log("said {{trigger}}")}
    path = _flow(tmp_path, nodes, "t>ask ask.approve>say")
    payload = json.dumps("x" * 300)
    assert main(["walk", path, "--input", payload, "--answer", "ask=approve", "--json"]) == 0
    capsys.readouterr()
    monkeypatch.setenv("FLOWYARD_MAX_VALUE_BYTES", "100")
    assert main(["walk", path, "--input", payload, "--answer", "ask=approve", "--json"]) == 1
    result = json.loads(capsys.readouterr().out)
    assert (result["status"], result["error"], result["visits"]) == (
        "failed",
        "value_too_large",
        ["t", "ask", "say"],
    )
    shows_input = _flow(tmp_path, {**nodes, "ask": approval("Go?")}, "t>ask ask.approve>say")
    assert main(["walk", shows_input, "--input", payload, "--answer", "ask=approve", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["visits"] == ["t", "ask"]
    monkeypatch.delenv("FLOWYARD_MAX_VALUE_BYTES")
    monkeypatch.setenv("FLOWYARD_MAX_VARIABLES_BYTES", "200")
    assert main(["walk", path, "--input", payload, "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["error"] == "value_too_large"


def test_findings_are_capped_at_the_configured_number(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FLOWYARD_MAX_FINDINGS", "1")
    nodes = {"t": trigger(), "a": log(), "b": log(), "c": log()}
    assert main(["walk", _flow(tmp_path, nodes, "t>a"), "--json"]) == 1
    out = capsys.readouterr().out
    assert out.count("node_unreachable") == 1 and "findings_truncated" in out
