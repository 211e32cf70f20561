"""Survivors of `make mutation` in backend/graph: a format finding about a whole wire names that wire,
and an object schema without `properties` refuses every key of its instance by name."""

from __future__ import annotations

from jsonschema import Draft202012Validator

from backend.graph import Finding, check_flow
from backend.graph.explain import describe, problem
from backend.i18n.catalogs import message

TRIGGER = {"id": "t", "type": "trigger", "config": {"kind": "manual"}}


def test_a_wire_that_is_no_object_is_a_finding_about_that_wire() -> None:
    document = {"format": "flowyard.flow/1", "name": "x", "nodes": [TRIGGER], "wires": [5, {"from": "t"}]}
    findings, _ = check_flow(document)
    assert findings == [
        Finding(
            "format_invalid",
            None,
            0,
            message("format_invalid", "en", pointer="/wires/0", problem="The value must be an object"),
            "/wires/0",
        ),
        Finding(
            "format_invalid",
            None,
            1,
            message("format_invalid", "en", pointer="/wires/1/to", problem="A value is required here"),
            "/wires/1/to",
        ),
    ]


def test_an_object_schema_without_properties_refuses_every_key() -> None:
    validator = Draft202012Validator({"type": "object", "additionalProperties": False})
    phrases = [phrase for error in validator.iter_errors({"a": 1, "b": 2}) for phrase in describe(error)]
    assert phrases == [(("a",), problem("problem_not_allowed")), (("b",), problem("problem_not_allowed"))]
