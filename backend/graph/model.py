"""The flow document as the walker reads it: nodes by id, and each port's wires in document order.

`Flow.load` expects a document that `backend.graph.validate` found no fault with; it indexes, it does
not check.

Examples:
    >>> flow = Flow.load({"format": "flowyard.flow/1", "name": "n",
    ...     "nodes": [{"id": "t", "type": "trigger", "config": {"kind": "manual"}},
    ...               {"id": "a", "type": "log", "config": {"message": "hi"}},
    ...               {"id": "b", "type": "log", "config": {"message": "ho"}}],
    ...     "wires": [{"from": "t", "to": "b"}, {"from": "t", "port": "out", "to": "a"}]})
    >>> flow.trigger
    't'
    >>> flow.targets("t", "out")
    ('b', 'a')
    >>> flow.targets("a", "out")
    ()
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from backend.node_types import PORTS

FORMAT = "flowyard.flow/1"

NODE_TYPES: tuple[str, ...] = tuple(PORTS)
LOOP_TYPES: frozenset[str] = frozenset({"foreach", "repeat"})
ACTION_TYPES: frozenset[str] = frozenset({"http", "notify", "command"})
DEFAULT_PORT = "out"


@dataclass(frozen=True, slots=True)
class Node:
    id: str
    type: str
    config: Mapping[str, Any]
    label: str | None = None


@dataclass(frozen=True, slots=True)
class Flow:
    name: str
    nodes: Mapping[str, Node]
    wires: Mapping[tuple[str, str], tuple[str, ...]]
    trigger: str
    # How many arrivals each join node waits for (its rule against its incoming wires); empty: no joins.
    joins: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def load(cls, document: Mapping[str, Any]) -> Flow:
        nodes = {
            n["id"]: Node(n["id"], n["type"], n.get("config") or {}, n.get("label"))
            for n in document["nodes"]
        }
        wires: dict[tuple[str, str], list[str]] = {}
        for wire in document["wires"]:
            wires.setdefault((wire["from"], wire.get("port", DEFAULT_PORT)), []).append(wire["to"])
        trigger = next(n.id for n in nodes.values() if n.type == "trigger")
        joins = {node.id: 0 for node in nodes.values() if node.type == "join"}
        if joins:
            for wire in document["wires"]:
                if wire["to"] in joins:
                    joins[wire["to"]] += 1
            joins = {join: join_need(nodes[join].config.get("wait"), wired) for join, wired in joins.items()}
        return cls(
            name=document["name"],
            nodes=nodes,
            wires={key: tuple(targets) for key, targets in wires.items()},
            trigger=trigger,
            joins=joins,
        )

    def targets(self, node: str, port: str) -> tuple[str, ...]:
        """The nodes a port's wires lead to, in document order."""
        return self.wires.get((node, port), ())


def join_need(wait: object, arrivals: int) -> int:
    """How many of `arrivals` possible arrivals (wires into a join, branches of a parallel) a `wait` rule
    needs: all of them (the default), the first, or N but never more than can come.

    Examples:
        >>> join_need("all", 3), join_need(None, 3), join_need("first", 3), join_need(2, 3), join_need(5, 3)
        (3, 3, 1, 2, 3)
        >>> join_need("first", 0)
        0
    """
    if wait == "first":
        return min(1, arrivals)
    if isinstance(wait, int) and not isinstance(wait, bool) and wait >= 1:
        return min(wait, arrivals)
    return arrivals
