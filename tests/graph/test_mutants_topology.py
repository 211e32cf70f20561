"""Survivors of `make mutation` in backend/graph/topology.py: a loop whose body wires back into it is in
its own body region, and is still not counted as a loop around itself."""

from __future__ import annotations

from backend.graph.outline import read_outline
from backend.graph.topology import analyse


def test_a_loop_in_a_cycle_through_its_body_is_not_around_itself() -> None:
    outline = read_outline(
        {
            "nodes": [
                {"id": "t", "type": "trigger", "config": {"kind": "manual"}},
                {"id": "r", "type": "repeat", "config": {"while": {"left": 1, "op": "eq", "right": 1}}},
                {"id": "a", "type": "log", "config": {"message": "m"}},
            ],
            "wires": [
                {"from": "t", "to": "r"},
                {"from": "r", "port": "body", "to": "a"},
                {"from": "a", "to": "r"},
            ],
        }
    )
    assert outline is not None
    topology = analyse(outline)
    loop = topology.vertex["r"]
    assert topology.regions[loop] & topology.loop_bit(loop)  # the cycle puts r in its own body region
    assert [topology.depth(v) for v in range(3)] == [0, 0, 1]
    assert [list(topology.loops_around(v)) for v in range(3)] == [[], [], [loop]]
