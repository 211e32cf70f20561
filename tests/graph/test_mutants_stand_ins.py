"""Survivor of `make mutation` in backend/graph/schema.py: the document's own piece is checked with its
nodes and wires stood in for, so a node nesting deep does not stop the document's faults from being
explained: each is reported where it is."""

from __future__ import annotations

from typing import Any

from backend.graph import Finding, check_flow
from backend.i18n.catalogs import message
from tests.support import config_invalid


def test_a_deep_node_does_not_hide_the_documents_own_fault() -> None:
    nested: Any = 1
    for _ in range(80):
        nested = [nested]
    document = {
        "format": "flowyard.flow/1",
        "name": 5,
        "nodes": [
            {"id": "t", "type": "trigger", "config": {"kind": "manual"}},
            {"id": "a", "type": "log", "config": {"message": "m", "extra": nested}},
        ],
        "wires": [{"from": "t", "to": "a"}],
    }
    deep = "The value does not match, and nests values more than 64 levels deep"
    name = message("format_invalid", "en", pointer="/name", problem="The value must be a text")
    assert check_flow(document)[0] == [
        Finding("format_invalid", None, None, name, "/name"),
        config_invalid("a", "/nodes/1/config", deep),
    ]
