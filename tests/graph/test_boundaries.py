"""Limits exactly at their boundary, and rules that only a rare shape triggers.

Each test names the exact code, node, wire and pointer it expects: a finding with the wrong code or on the
wrong node is as wrong as no finding.
"""

from __future__ import annotations

from typing import Any

import pytest

from backend.graph import validate
from backend.graph.durations import MAX_DURATION
from backend.graph.outline import MAX_NODES
from tests.graph.graph_flows import found
from tests.support import flow


def _details(document: dict[str, Any]) -> list[tuple[str, str | None, str | None]]:
    return [(f.code, f.node, f.detail) for f in validate(document)]


@pytest.mark.parametrize(("node_type", "key"), [("approval", "deadline"), ("delay", "duration")])
def test_a_duration_of_exactly_the_longest_wait_is_valid_and_a_day_more_is_not(
    node_type: str, key: str
) -> None:
    assert MAX_DURATION.days == 3660
    document = flow(f"t:trigger w:{node_type}", wires="t>w")
    document["nodes"][1]["config"][key] = "P3660D"
    assert validate(document) == []
    document["nodes"][1]["config"][key] = "P3661D"
    assert _details(document) == [("node_config_invalid", "w", f"/nodes/1/config/{key}")]


def test_exactly_max_nodes_nodes_are_allowed_and_one_more_is_a_format_finding() -> None:
    logs = " ".join(f"n{i}:log" for i in range(MAX_NODES - 1))
    chain = " ".join(f"n{i}>n{i + 1}" for i in range(MAX_NODES - 2))
    document = flow(f"t:trigger {logs}", wires=f"t>n0 {chain}")
    assert len(document["nodes"]) == MAX_NODES
    assert validate(document) == []
    document["nodes"].append({"id": "extra", "type": "log", "config": {"message": "x"}})
    document["wires"].append({"from": f"n{MAX_NODES - 2}", "to": "extra"})
    assert [(f.code, f.detail) for f in validate(document)] == [("format_invalid", "/nodes")]


@pytest.mark.parametrize("length", [200, 201, 5000])
def test_a_flow_name_is_checked_at_its_exact_length_limit(length: int) -> None:
    document = flow("t:trigger a:log", wires="t>a")
    document["name"] = "n" * length
    expected = [] if length <= 200 else [("format_invalid", None, "/name")]
    assert _details(document) == expected


def test_a_node_id_of_exactly_64_characters_is_valid_and_65_is_not() -> None:
    document = flow("t:trigger a:log", wires="t>a")
    for length, expected in ((64, []), (65, [("format_invalid", None, "/nodes/1/id")])):
        node_id = "a" * length
        document["nodes"][1]["id"] = node_id
        document["wires"][0]["to"] = node_id
        codes = [(f.code, f.detail) for f in validate(document) if f.code == "format_invalid"]
        assert codes == [(code, detail) for code, _, detail in expected]


def test_a_template_on_the_right_of_a_condition_is_valid() -> None:
    document = flow("t:trigger c:condition a:log", wires="t>c c.true>a")
    document["nodes"][1]["config"] = {"left": "{{trigger.a}}", "op": "eq", "right": "{{trigger.b}}"}
    assert validate(document) == []


def test_a_trigger_inside_a_loop_body_is_an_input_into_the_trigger() -> None:
    document = flow("t:trigger each:foreach t2:trigger", wires="t>each each.body>t2")
    assert found(validate(document), "trigger_multiple") == [("trigger_multiple", "t2", None)]
    assert found(validate(document), "trigger_has_inputs") == [("trigger_has_inputs", None, 1)]


def test_a_wire_without_a_port_leaves_the_out_port() -> None:
    document = flow("t:trigger c:condition a:log", wires="t>c c>a")
    assert found(validate(document), "wire_port_unknown") == [("wire_port_unknown", None, 1)]
    assert [f.detail for f in validate(document)] == ["/wires/1/port"]


def test_every_wire_is_checked_after_one_with_an_unknown_source() -> None:
    document = flow("t:trigger a:log b:log", wires="t>a ghost>b a.nope>b")
    findings = validate(document)
    assert [(f.code, f.wire, f.detail) for f in findings] == [
        ("wire_endpoint_unknown", 1, "/wires/1/from"),
        ("wire_port_unknown", 2, "/wires/2/port"),
    ]
