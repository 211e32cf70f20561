"""The editor's list view: stable topological order, ties by document order, loop depth."""

from __future__ import annotations

import pytest

from backend.graph import ListEntry, list_view
from tests.support import flow


def rows(nodes: str, wires: str) -> list[tuple[str, int]]:
    return [(entry.id, entry.depth) for entry in list_view(flow(nodes, wires=wires))]


def test_nodes_come_in_topological_order_ties_by_document_order() -> None:
    assert rows("end:end b:log t:trigger a:log", "t>a t>b a>end b>end") == [
        ("t", 0),
        ("b", 0),
        ("a", 0),
        ("end", 0),
    ]


def test_a_body_is_one_level_deeper_than_its_loop_and_done_is_at_the_loops_level() -> None:
    assert rows(
        "t:trigger outer:foreach inner:repeat a:log b:log after:log",
        "t>outer outer.body>inner inner.body>a inner.done>b outer.done>after",
    ) == [("t", 0), ("outer", 0), ("inner", 1), ("a", 2), ("b", 1), ("after", 0)]


def test_the_order_does_not_move_when_unrelated_nodes_are_added_later() -> None:
    before = rows("t:trigger a:log b:log", "t>a a>b")
    after = rows("t:trigger a:log b:log c:log", "t>a a>b t>c")
    assert after[: len(before)] == before


def test_rows_carry_the_type_and_serialize() -> None:
    [trigger, say] = list_view(flow("t:trigger say:log", wires="t>say"))
    assert trigger == ListEntry("t", "trigger", 0)
    assert say.to_json() == {"id": "say", "type": "log", "depth": 0}


def test_an_invalid_flow_still_has_a_view() -> None:
    # A cycle keeps its members together; a duplicate id is listed once; unknown wires are ignored.
    assert rows("t:trigger a:log b:log a:log c:log", "t>a a>b b>a t>ghost a>c") == [
        ("t", 0),
        ("a", 0),
        ("b", 0),
        ("c", 0),
    ]


@pytest.mark.parametrize("document", [None, {"nodes": "x", "wires": []}, {"nodes": []}])
def test_a_document_without_readable_nodes_and_wires_has_no_view(document: object) -> None:
    with pytest.raises(ValueError, match="validate"):
        list_view(document)
