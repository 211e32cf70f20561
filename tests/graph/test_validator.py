"""`validate` as a whole: the order of findings, the reason codes in the source, and their sentences."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from backend.graph import validate
from backend.i18n import catalogs
from tests.support import flow

# FLOW_FORMAT.md's table, in its order: the order findings come in.
TABLE = [
    "format_invalid",
    "node_id_duplicate",
    "node_type_unknown",
    "node_config_invalid",
    "wire_endpoint_unknown",
    "wire_port_unknown",
    "trigger_missing",
    "trigger_multiple",
    "trigger_has_inputs",
    "cycle",
    "node_unreachable",
    "loop_body_leaks",
    "loop_nesting_too_deep",
    "break_outside_loop",
    "end_inside_loop",
]
# Beyond the table (docs/flow-format-notes.md): found with the node configs, in the place of
# node_config_invalid.
BEYOND_THE_TABLE = [
    "command_line_refused",
    "secret_outside_action",
    # issue 32: a secret spliced into a URL's host or port (backend/graph/secret_refs.py)
    "secret_place_forbidden",
    "undo_nested",
    # an approval's further rules (issue 21), in docs/flow-format.md's table of findings
    "approval_quorum_unreachable",
    "approval_reminder_after_deadline",
    "approval_escalation_after_deadline",
    # issue 24: parallel, join and wait_event (backend/graph/parallels.py), and its one warning
    "end_inside_parallel",
    "break_crosses_parallel",
    "parallel_branches_meet",
    "parallel_branches_write_same_name",
    "event_name_invalid",
    "join_wait_invalid",
    "parallel_wait_invalid",
    "parallel_items_one_branch",
    "branches_meet_without_join",
    # issue 35: rest: continue on a parallel that waits for every branch
    "parallel_rest_needs_wait",
]
CHECK_COMMAND = [
    "flow_valid",
    "flow_file_unreadable",
    "flow_file_too_large",
    "flow_file_not_utf8",
    "flow_file_not_json",
    "flow_file_key_duplicate",
]

# The English sentences handed to the catalogs' owner; the test below holds their placeholders to what
# the code passes.
ENGLISH = {
    "format_invalid": "The flow does not match its format at {pointer}: {problem}.",
    "node_id_duplicate": "Another node already has the id {node}: node ids must be unique.",
    "node_type_unknown": "Node {node} has the type {type}, which is not a node type.",
    "node_config_invalid": "In node {node}, “{field}” is not valid: {problem}.",
    "wire_endpoint_unknown": "The wire from {source} to {target} names {endpoint}, which is not a node of "
    "this flow.",
    "wire_port_unknown": "The wire from {source} to {target} leaves port {port}, which a {type} node does "
    "not have.",
    "trigger_missing": "The flow has no trigger: add one to say how it starts.",
    "trigger_multiple": "Node {node} is a second trigger: a flow has exactly one, and {first} is it.",
    "trigger_has_inputs": "The wire from {source} leads into the trigger {target}: nothing may lead into a "
    "trigger.",
    "cycle": "The wires form a cycle ({path}): to repeat steps, use a foreach or repeat loop.",
    "node_unreachable": "Node {node} cannot be reached from the trigger.",
    "loop_body_leaks": "Node {node} is in the body of loop {loop} but can also be reached without passing "
    "through its body port.",
    "loop_nesting_too_deep": "Loop {node} is nested too deep (depth {depth}): loops nest at most {limit} "
    "levels.",
    "break_outside_loop": "Break node {node} is not inside the body of any loop.",
    "end_inside_loop": "End node {node} is inside the body of loop {loop}: a run cannot be ended from "
    "inside a loop.",
}


def codes_in_source() -> set[str]:
    """Reason codes as the catalog guard finds them: string literals passed as `code=`."""
    found: set[str] = set()
    for path in Path("backend/graph").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.keyword) and node.arg == "code" and isinstance(node.value, ast.Constant):
                found.add(str(node.value.value))
    return found


def test_the_source_uses_every_code_of_the_table_and_only_those_and_the_commands() -> None:
    assert codes_in_source() == set(TABLE) | set(BEYOND_THE_TABLE) | set(CHECK_COMMAND)


def everything_wrong() -> dict[str, Any]:
    document = flow(
        "t:trigger t2:trigger a:log a:log x:teleport stop:break l1:foreach l2:foreach l3:foreach l4:foreach "
        "e:end c1:log c2:log lost:log",
        wires="t>a a>ghost a.nope>t t>l1 l1.body>l2 l2.body>l3 l3.body>l4 l4.body>e t>e c1>c2 c2>c1 "
        "t>x x>stop t>c1",
    )
    document["name"] = ""
    document["nodes"][2]["config"] = {}
    return document


def test_findings_come_in_the_order_of_the_table() -> None:
    codes = [f.code for f in validate(everything_wrong())]
    assert set(codes) == set(TABLE) - {"trigger_missing"}
    assert codes == sorted(codes, key=TABLE.index)


def test_validating_twice_gives_the_same_findings() -> None:
    assert validate(everything_wrong()) == validate(everything_wrong())


def test_trigger_missing_in_order_too() -> None:
    codes = [f.code for f in validate(flow("a:log a:log b:teleport", wires="a>b a.x>c"))]
    assert codes == [
        "node_id_duplicate",
        "node_type_unknown",
        "wire_endpoint_unknown",
        "wire_port_unknown",
        "trigger_missing",
    ]


def test_every_sentence_is_filled_by_what_the_code_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    english = catalogs.catalog("en")  # the problems' own sentences, which format_invalid cites
    monkeypatch.setattr(catalogs, "catalog", lambda locale: {**english, **ENGLISH})
    findings = validate(everything_wrong()) + validate(flow("a:log", wires=""))
    assert {f.code for f in findings} == set(TABLE)
    for finding in findings:
        assert "{" not in finding.message and finding.message != finding.code, finding
    messages = {f.code: f.message for f in findings}
    assert (
        messages["cycle"]
        == "The wires form a cycle (c1 -> c2 -> c1): to repeat steps, use a foreach or repeat loop."
    )
    assert (
        messages["format_invalid"]
        == "The flow does not match its format at /name: The value must not be empty."
    )


@pytest.mark.parametrize(
    "document",
    [
        {},
        {"format": "flowyard.flow/1", "name": "x", "nodes": [{}], "wires": [{}]},
        {"nodes": [{"id": "t", "type": "trigger", "config": []}], "wires": []},
        {"nodes": [{"id": "t", "type": "trigger", "config": {"kind": ["manual"]}}], "wires": "x"},
        {"nodes": [{"id": "", "type": "", "config": {}}], "wires": [{"from": "", "to": "", "port": ""}]},
        {
            "nodes": [{"id": "t", "type": "trigger", "config": {"kind": "manual"}}] * 3,
            "wires": [{"from": "t", "to": "t"}],
        },
        {"format": {"nested": [1, {"deeper": None}]}, "name": 1e308, "nodes": [None, 1.5], "wires": [[]]},
    ],
)
def test_odd_documents_give_findings_not_exceptions(document: dict[str, Any]) -> None:
    findings = validate(document)
    assert findings and all(isinstance(f.message, str) and f.code in TABLE for f in findings)
