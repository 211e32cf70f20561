"""The outline of a flow document: its nodes and wires, read as far as the graph rules need them.

The graph rules run on any document whose nodes and wires can be told apart, even when other parts of it
are wrong (a label too long, a config that does not match): the editor validates on every change, and
someone fixing one mistake should still see the others. What they need is a list of at most `MAX_NODES`
objects with a text `id` and `type`, and a list of at most `MAX_WIRES` objects with a text `from` and `to`
and, if any, a text `port`. A document without that shape has no outline; its schema findings say why.

Examples:
    >>> outline = read_outline({"nodes": [{"id": "t", "type": "trigger", "config": {}}],
    ...                         "wires": [{"from": "t", "to": "x"}]})
    >>> outline.nodes[0].id, outline.wires[0].port
    ('t', 'out')
    >>> read_outline({"nodes": "t", "wires": []}) is None
    True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from backend.graph.model import DEFAULT_PORT

# The nodes a flow may have (FLOW_FORMAT.md, "Limits"); the schema's `maxItems` says the same, a test
# keeps them equal.
MAX_NODES = 1000
# The wires a flow may have: ten per node on average, far more than any drawn flow has (the benchmark's
# 1,000-node flow has 1,149). Without a limit a 5 MB body held 100,000 wires, and although every rule is
# linear in them, the validator then took seconds (issue 12). The schema's `maxItems` says the same.
MAX_WIRES = 10_000


class NodeEntry(NamedTuple):
    """A node as the document has it; `place` is its index in `nodes`."""

    place: int
    id: str
    type: str
    config: object


class WireEntry(NamedTuple):
    """A wire as the document has it; `place` is its index in `wires`, `port` defaults to `out`."""

    place: int
    source: str
    port: str
    target: str


@dataclass(frozen=True, slots=True)
class Outline:
    """Every node and wire of a document, in document order, duplicates and unknown names included."""

    nodes: tuple[NodeEntry, ...]
    wires: tuple[WireEntry, ...]


def read_outline(document: object) -> Outline | None:
    """The nodes and wires of a document, or None when it does not have the shape the rules need."""
    if not isinstance(document, dict):
        return None
    raw_nodes, raw_wires = document.get("nodes"), document.get("wires")
    if not isinstance(raw_nodes, list) or not isinstance(raw_wires, list):
        return None
    if len(raw_nodes) > MAX_NODES or len(raw_wires) > MAX_WIRES:
        return None
    nodes, wires = _nodes(raw_nodes), _wires(raw_wires)
    if nodes is None or wires is None:
        return None
    return Outline(nodes, wires)


def _nodes(raw_nodes: list[object]) -> tuple[NodeEntry, ...] | None:
    """The document's nodes, or None when one is not an object with a text `id` and `type`."""
    nodes: list[NodeEntry] = []
    for index, node in enumerate(raw_nodes):
        if not isinstance(node, dict):
            return None
        node_id, node_type = node.get("id"), node.get("type")
        if not isinstance(node_id, str) or not isinstance(node_type, str):
            return None
        nodes.append(NodeEntry(index, node_id, node_type, node.get("config")))
    return tuple(nodes)


def _wires(raw_wires: list[object]) -> tuple[WireEntry, ...] | None:
    """The document's wires, or None when one is not an object with a text `from`, `to` and `port`."""
    wires: list[WireEntry] = []
    for index, wire in enumerate(raw_wires):
        if not isinstance(wire, dict):
            return None
        source, port, target = wire.get("from"), wire.get("port", DEFAULT_PORT), wire.get("to")
        if not isinstance(source, str) or not isinstance(port, str) or not isinstance(target, str):
            return None
        wires.append(WireEntry(index, source, port, target))
    return tuple(wires)
