"""Survivors of `make mutation` in backend/graph/schema.py (`Explainer.explain`): a piece is explained only
while the report has room for its first fault, counting the faults of the pieces listed before it; a piece
past the room, however many faults it has, is counted as one (which is why `findings_truncated` says "at
least")."""

from __future__ import annotations

from typing import Any

from backend.graph import Finding, check_flow
from backend.i18n.catalogs import message

# Two wires of one fault each, then one of two faults (neither end is a string).
DOCUMENT: dict[str, Any] = {
    "format": "flowyard.flow/1",
    "name": "x",
    "nodes": [{"id": "t", "type": "trigger", "config": {"kind": "manual"}}],
    "wires": [5, 6, {"from": 1, "to": 2}],
}


def fault(index: int, problem: str, under: str = "") -> Finding:
    pointer = f"/wires/{index}{under}"
    return Finding(
        "format_invalid",
        None,
        index,
        message("format_invalid", "en", pointer=pointer, problem=problem),
        pointer,
    )


def truncated(count: int, limit: int) -> Finding:
    text = message("findings_truncated", "en", count=count, limit=limit)
    return Finding("findings_truncated", None, None, text, str(count))


def test_a_piece_with_exactly_no_room_left_is_counted_as_one_not_explained() -> None:
    # The first two wires fill a room of two: the third, with two faults, is one more "at least".
    assert check_flow(DOCUMENT, limit=2)[0] == [
        fault(0, "The value must be an object"),
        fault(1, "The value must be an object"),
        truncated(1, 2),
    ]


def test_a_piece_with_room_for_one_fault_is_explained_whole_and_the_rest_counted() -> None:
    assert check_flow(DOCUMENT, limit=3)[0] == [
        fault(0, "The value must be an object"),
        fault(1, "The value must be an object"),
        fault(2, "The value must be a text", "/from"),
        truncated(1, 3),
    ]


def test_with_room_for_all_every_fault_is_listed() -> None:
    assert check_flow(DOCUMENT, limit=4)[0] == [
        fault(0, "The value must be an object"),
        fault(1, "The value must be an object"),
        fault(2, "The value must be a text", "/from"),
        fault(2, "The value must be a text", "/to"),
    ]
