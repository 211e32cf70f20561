"""Survivors of `make mutation` in backend/walker (run of 2026-11-30): strings compare in order as numbers
do, and `flowyard walk` prints a line without a visit or a node with blanks in their columns."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from backend.walker.cli import run_walk
from backend.walker.conditions import holds


@pytest.mark.parametrize(
    ("op", "expected"), [("lt", True), ("le", True), ("gt", False), ("ge", False), ("eq", False)]
)
def test_strings_compare_in_order(op: str, expected: bool) -> None:
    assert holds({"left": "{{a}}", "op": op, "right": "{{b}}"}, {"a": "apple", "b": "banana"}) is expected
    assert holds({"left": "{{b}}", "op": op, "right": "{{a}}"}, {"a": "apple", "b": "banana"}) is (
        not expected if op != "eq" else False
    )


def test_a_string_and_a_number_never_compare_in_order() -> None:
    assert holds({"left": "{{a}}", "op": "lt", "right": 5}, {"a": "4"}) is False
    assert holds({"left": 4, "op": "lt", "right": "{{a}}"}, {"a": "5"}) is False


def test_a_line_without_visit_or_node_is_printed_with_blank_columns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = {
        "format": "flowyard.flow/1",
        "name": "one log",
        "nodes": [
            {"id": "start", "type": "trigger", "config": {"kind": "manual"}},
            {"id": "say", "type": "log", "config": {"message": "hello"}},
        ],
        "wires": [{"from": "start", "to": "say"}],
    }
    path = tmp_path / "flow.json"
    path.write_text(json.dumps(document), "utf-8")
    assert run_walk(str(path), input_text=None, answers=[], as_json=False) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("   1  start            ")
    ended = [line for line in out if not line[:4].strip()]
    assert ended, out
    assert all(line.startswith(" " * 4 + "  " + " " * 16 + " ") for line in ended)
    assert "XXXX" not in "".join(out)
