"""Survivors of `make mutation` in backend/graph/schema.py: pieces are explained while the values handed
to jsonschema stay within MAX_EXPLAINED_VALUES; a piece of exactly the budget left is explained, one value
more is one finding at its root saying so, and nothing after it is explained either."""

from __future__ import annotations

from typing import Any

from backend.graph import Finding, check_flow
from backend.graph.schema import MAX_EXPLAINED_VALUES
from backend.i18n.catalogs import message

TOO_LARGE = "The value does not match, and the document is too large to say why"


def findings_for(described: int) -> list[Finding]:
    """A document of `described + 6` values (itself, five keys, a description list's items) and a bad wire."""
    document: dict[str, Any] = {
        "format": "flowyard.flow/1",
        "name": "x",
        "description": [0] * described,
        "nodes": [{"id": "t", "type": "trigger", "config": {"kind": "manual"}}],
        "wires": [5],
    }
    return check_flow(document)[0]


def fault(pointer: str, problem: str, wire: int | None = None) -> Finding:
    text = message("format_invalid", "en", pointer=pointer, problem=problem)
    return Finding("format_invalid", None, wire, text, pointer)


def test_a_piece_one_value_under_the_budget_leaves_room_for_a_one_value_piece() -> None:
    assert findings_for(MAX_EXPLAINED_VALUES - 7) == [
        fault("/description", "The value must be a text"),
        fault("/wires/0", "The value must be an object", 0),
    ]


def test_a_piece_of_exactly_the_budget_is_explained_and_leaves_nothing() -> None:
    assert findings_for(MAX_EXPLAINED_VALUES - 6) == [
        fault("/description", "The value must be a text"),
        fault("/wires/0", TOO_LARGE, 0),
    ]


def test_a_piece_past_the_budget_is_one_finding_at_its_root_and_ends_the_explaining() -> None:
    assert findings_for(MAX_EXPLAINED_VALUES - 5) == [fault("", TOO_LARGE), fault("/wires/0", TOO_LARGE, 0)]
