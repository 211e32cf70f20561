"""Survivors of `make mutation` in backend/graph/schema.py's `check_document`, validator.py's `check_flow`
and findings.py's `Report.close`: nodes and wires are checked one by one up to exactly their limits; a
node is explained with its config stood in for (the config is the config check's to explain); the
document and the configs draw on one values budget; a report closed and filled again counts only what
came after."""

from __future__ import annotations

from typing import Any

from backend.graph import Finding, check_flow, validate
from backend.graph.findings import Report
from backend.graph.outline import MAX_NODES, MAX_WIRES
from backend.graph.schema import MAX_EXPLAINED_VALUES, check_document
from backend.i18n.catalogs import message
from tests.support import config_invalid, flow


def fault(pointer: str, problem: str, node: str | None = None, wire: int | None = None) -> Finding:
    text = message("format_invalid", "en", pointer=pointer, problem=problem)
    return Finding("format_invalid", node, wire, text, pointer)


def document_findings(document: dict[str, Any]) -> list[Finding]:
    report = Report("en")
    check_document(document, report)
    return report.close()


def test_exactly_max_nodes_nodes_are_each_checked() -> None:
    nodes: list[dict[str, Any]] = [
        {"id": f"n{i}", "type": "log", "config": {"message": "m"}} for i in range(MAX_NODES)
    ]
    nodes[7]["colour"] = "red"
    document = {"format": "flowyard.flow/1", "name": "n", "nodes": nodes, "wires": []}
    assert document_findings(document) == [
        fault("/nodes/7/colour", "This entry is not allowed here", node="n7")
    ]


def test_exactly_max_wires_wires_are_each_checked() -> None:
    wires: list[dict[str, Any]] = [{"from": "a", "to": "b"}] * (MAX_WIRES - 1) + [{"from": "a"}]
    node = {"id": "a", "type": "trigger", "config": {"kind": "manual"}}
    document = {"format": "flowyard.flow/1", "name": "n", "nodes": [node], "wires": wires}
    last = MAX_WIRES - 1
    assert document_findings(document) == [fault(f"/wires/{last}/to", "A value is required here", wire=last)]


def test_a_node_is_explained_without_entering_its_config() -> None:
    nested: Any = 1
    for _ in range(80):
        nested = [nested]
    document = flow("t:trigger a:log", wires="t>a")
    document["nodes"][1]["id"] = 5
    document["nodes"][1]["config"]["extra"] = nested
    assert check_flow(document)[0] == [fault("/nodes/1/id", "The value must be a text")]


def test_the_document_and_the_configs_draw_on_one_values_budget() -> None:
    document = flow("t:trigger a:log", wires="t>a")
    document["description"] = [0] * (MAX_EXPLAINED_VALUES - 6)  # the document's piece: the whole budget
    document["nodes"][1]["config"] = {"message": 5}
    too_large = "The value does not match, and the document is too large to say why"
    assert check_flow(document)[0] == [
        fault("/description", "The value must be a text"),
        config_invalid("a", "/nodes/1/config", too_large),
    ]


def test_a_report_closed_and_filled_again_counts_only_what_came_after() -> None:
    report = Report("en", limit=1)
    report.add(code="trigger_missing")
    report.add(code="trigger_missing")
    first = report.close()
    assert [f.code for f in first] == ["trigger_missing", "findings_truncated"]
    assert first[-1].detail == "1"
    report.add(code="trigger_missing")
    again = report.close()
    assert [(f.code, f.detail) for f in again] == [("trigger_missing", None), ("findings_truncated", "1")]


def exactly_the_budget() -> dict[str, Any]:
    """A log config of exactly MAX_EXPLAINED_VALUES values (itself, two keys, the list's items) that fails."""
    return {"message": 5, "extra": [0] * (MAX_EXPLAINED_VALUES - 3)}


def explained(node: str, place: int) -> list[Finding]:
    def invalid(key: str, problem: str) -> Finding:
        return config_invalid(node, f"/nodes/{place}/config/{key}", problem)

    return [
        invalid("extra", "This entry is not allowed here"),
        invalid("message", "The value must be a text"),
    ]


def test_a_valid_document_spends_none_of_the_budget_a_config_may_need() -> None:
    document = flow("t:trigger a:log", wires="t>a")
    document["description"] = "d" * 100
    document["nodes"][1]["config"] = exactly_the_budget()
    assert check_flow(document)[0] == explained("a", 1)


def test_a_valid_undo_spends_none_of_the_budget_a_later_config_may_need() -> None:
    document = flow("t:trigger h:http a:log", wires="t>h h>a")
    document["nodes"][1]["config"]["undo"] = {"method": "DELETE", "url": "https://example.test/{{result.id}}"}
    document["nodes"][2]["config"] = exactly_the_budget()
    assert check_flow(document)[0] == explained("a", 2)


def test_validate_hands_its_warnings_to_a_caller_that_asks_for_them() -> None:
    document = flow("t:trigger a:log b:log z:log", wires="t>a t>b a>z b>z")
    warnings: list[Finding] = []
    assert validate(document, warnings=warnings) == []
    assert [(w.code, w.node) for w in warnings] == [("branches_meet_without_join", "z")]
    assert warnings == check_flow(document)[1]
