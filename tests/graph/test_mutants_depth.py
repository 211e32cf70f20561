"""Survivors of `make mutation` in backend/graph/schema.py: a piece that nests exactly 64 levels of lists
and objects is explained key by key; one level more is reported whole, with the limit in its sentence."""

from __future__ import annotations

from typing import Any

from backend.graph import Finding, check_flow
from tests.support import config_invalid


def findings_for(levels: int) -> list[Finding]:
    """A log node whose config (one level) holds a key it may not have, nesting `levels - 1` lists."""
    nested: Any = 1
    for _ in range(levels - 1):
        nested = [nested]
    document = {
        "format": "flowyard.flow/1",
        "name": "deep",
        "nodes": [
            {"id": "t", "type": "trigger", "config": {"kind": "manual"}},
            {"id": "a", "type": "log", "config": {"message": "m", "extra": nested}},
        ],
        "wires": [{"from": "t", "to": "a"}],
    }
    return check_flow(document)[0]


def invalid(pointer: str, problem: str) -> Finding:
    return config_invalid("a", pointer, problem)


def test_a_config_of_exactly_64_levels_is_explained_key_by_key() -> None:
    assert findings_for(64) == [invalid("/nodes/1/config/extra", "This entry is not allowed here")]


def test_a_config_of_65_levels_is_reported_whole_with_the_limit() -> None:
    deep = "The value does not match, and nests values more than 64 levels deep"
    assert findings_for(65) == [invalid("/nodes/1/config", deep)]
    assert findings_for(66) == [invalid("/nodes/1/config", deep)]
