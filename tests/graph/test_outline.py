"""What the graph rules need of a document to run at all."""

from __future__ import annotations

from typing import Any

import pytest

from backend.graph.outline import MAX_NODES, MAX_WIRES, NodeEntry, WireEntry, read_outline


def test_nodes_and_wires_in_document_order_with_the_default_port() -> None:
    outline = read_outline(
        {
            "nodes": [{"id": "t", "type": "trigger", "config": {"kind": "manual"}}, {"id": "a", "type": "x"}],
            "wires": [{"from": "t", "to": "a"}, {"from": "t", "port": "error", "to": "zz"}],
        }
    )
    assert outline is not None
    assert outline.nodes == (NodeEntry(0, "t", "trigger", {"kind": "manual"}), NodeEntry(1, "a", "x", None))
    assert outline.wires == (WireEntry(0, "t", "out", "a"), WireEntry(1, "t", "error", "zz"))


@pytest.mark.parametrize(
    "document",
    [
        None,
        [],
        {"wires": []},
        {"nodes": [], "wires": None},
        {"nodes": [{"id": "a"}], "wires": []},
        {"nodes": [{"id": 1, "type": "log"}], "wires": []},
        {"nodes": ["a"], "wires": []},
        {"nodes": [], "wires": [{"from": "a"}]},
        {"nodes": [], "wires": [{"from": "a", "to": "b", "port": None}]},
        {"nodes": [], "wires": [3]},
        {"nodes": [{"id": f"n{i}", "type": "log"} for i in range(MAX_NODES + 1)], "wires": []},
        {"nodes": [], "wires": [{"from": "a", "to": "b"}] * (MAX_WIRES + 1)},
    ],
)
def test_no_outline_without_readable_nodes_and_wires(document: Any) -> None:
    assert read_outline(document) is None
