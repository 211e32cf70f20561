"""What a failure says, not only that it failed: the reason code and every detail a sentence is made of."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import backend.walker.cli as walk_cli
from backend.cli import main
from backend.walker import walk
from backend.walker.redact import REDACTED, redact_body, redact_output, redact_values
from tests.walker.walker_flows import build, document, log, node, trigger


def test_an_unknown_node_type_names_the_type_in_the_failure() -> None:
    step = walk(build({"t": trigger(), "x": node("teleport")}, "t>x"), None)
    last = step.journal[-1]
    assert (last.code, last.node, last.visit) == ("run_failed", "x", 2)
    assert last.data == {"error": "node_type_unknown", "type": "teleport"}


def _flow(tmp_path: Path, nodes: dict[str, Any], wires: str) -> str:
    path = tmp_path / "flow.json"
    path.write_text(json.dumps(document(nodes, wires)), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("given", ["NaN", "[Infinity]"])
def test_a_json_constant_in_the_input_is_refused_as_one(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    given: str,
) -> None:
    said: list[tuple[str, dict[str, Any]]] = []

    def message(code: str, locale: str = "en", /, **params: Any) -> str:
        said.append((code, params))
        return code

    monkeypatch.setattr(walk_cli, "message", message)
    path = _flow(tmp_path, {"t": trigger(), "a": log("x")}, "t>a")
    assert main(["walk", path, "--input", given]) == 2
    assert said == [("walk_input_invalid", {"reason": "json_problem_constant"})]
    assert capsys.readouterr().err.startswith("flowyard walk: walk_input_invalid")


def test_a_delay_until_no_timestamp_keeps_what_it_was_in_the_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    nodes = {"t": trigger(), "wait": ("delay", {"until": "{{trigger.when}}"}), "after": log("done")}
    path = _flow(tmp_path, nodes, "t>wait wait>after")
    assert main(["walk", path, "--input", json.dumps({"when": "soon"}), "--json"]) == 1
    last = json.loads(capsys.readouterr().out)["journal"][-1]
    assert (last["code"], last["node"], last["visit"]) == ("run_failed", "wait", 2)
    assert last["data"] == {"error": "delay_until_invalid", "until": "soon"}


def test_a_list_body_stays_a_list_and_a_field_named_key_is_kept() -> None:
    assert redact_body([{"token": "t", "n": 1}, 2, ["x"]]) == [{"token": REDACTED, "n": 1}, 2, ["x"]]
    assert redact_values({"key": "PROJ-12", "api_key": "k", "rows": [{"key": "A-1"}]}) == {
        "key": "PROJ-12",
        "api_key": REDACTED,
        "rows": [{"key": "A-1"}],
    }


def test_a_secret_lexicographically_after_one_that_contains_it_is_still_replaced_whole() -> None:
    assert redact_output({"body": "key=aq"}, frozenset({"aq", "q"})) == {"body": f"key={REDACTED}"}
