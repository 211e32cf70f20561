"""The graph rules about nodes, wires, the trigger, cycles and reachability (the loop rules are in loops.py).

Each rule reports in document order: nodes by their place in `nodes`, wires by their place in `wires`.
`detail` holds the JSON pointer of the offending value where there is one, and a cycle's path otherwise.

Examples:
    >>> from backend.graph.findings import Report
    >>> from backend.graph.outline import read_outline
    >>> from backend.graph.topology import analyse
    >>> outline = read_outline({"nodes": [{"id": "t", "type": "trigger"}, {"id": "a", "type": "log"},
    ...                                   {"id": "b", "type": "log"}],
    ...                         "wires": [{"from": "t", "to": "a"}, {"from": "a", "to": "b"},
    ...                                   {"from": "b", "to": "a"}]})
    >>> report = Report("en")
    >>> check_cycles(analyse(outline), report)
    >>> [(f.code, f.node, f.wire, f.detail) for f in report.findings]
    [('cycle', 'a', 2, 'a -> b -> a')]
"""

from __future__ import annotations

from backend.graph.findings import Report
from backend.graph.model import NODE_TYPES
from backend.graph.outline import Outline
from backend.graph.ports import ports
from backend.graph.topology import Topology
from backend.node_types import PORTS


def check_nodes(outline: Outline, report: Report) -> None:
    """`node_id_duplicate` for every node after the first with its id, then `node_type_unknown`."""
    seen: set[str] = set()
    for node in outline.nodes:
        if node.id in seen:
            report.add(code="node_id_duplicate", node=node.id, at=("nodes", node.place, "id"))
        seen.add(node.id)
    for node in outline.nodes:
        if node.type not in NODE_TYPES:
            at = ("nodes", node.place, "type")
            report.add(code="node_type_unknown", node=node.id, at=at, type=node.type)


def check_wires(outline: Outline, topology: Topology, report: Report) -> None:
    """`wire_endpoint_unknown` for each end naming no node, then `wire_port_unknown`."""
    for wire in outline.wires:
        for end, name in (("from", wire.source), ("to", wire.target)):
            if name not in topology.vertex:
                report.add(
                    code="wire_endpoint_unknown",
                    wire=wire.place,
                    at=("wires", wire.place, end),
                    source=wire.source,
                    target=wire.target,
                    endpoint=name,
                )
    for wire in outline.wires:
        vertex = topology.vertex.get(wire.source)
        if vertex is None:
            continue
        node = topology.vertices[vertex]
        node_type = node.type
        # A node of an unknown type has no known ports: its own finding says so.
        if node_type in PORTS and wire.port not in ports(node):
            report.add(
                code="wire_port_unknown",
                wire=wire.place,
                at=("wires", wire.place, "port"),
                source=wire.source,
                target=wire.target,
                port=wire.port,
                type=node_type,
            )


def check_triggers(topology: Topology, report: Report) -> None:
    """`trigger_missing`, `trigger_multiple` for every trigger after the first, `trigger_has_inputs`."""
    triggers = topology.triggers
    if not triggers:
        report.add(code="trigger_missing")
    first = topology.vertices[triggers[0]].id if triggers else None
    for vertex in triggers[1:]:
        report.add(code="trigger_multiple", node=topology.vertices[vertex].id, first=first)
    # A set: a flow may have a trigger at every node and a wire into each, and a tuple made that E x T.
    is_trigger = set(triggers)
    for edge in topology.edges:
        if edge.target in is_trigger:
            report.add(
                code="trigger_has_inputs",
                wire=edge.wire.place,
                at=("wires", edge.wire.place, "to"),
                source=edge.wire.source,
                target=edge.wire.target,
            )


def check_cycles(topology: Topology, report: Report) -> None:
    """`cycle` once per strongly connected component, at its first node and the wire that closes it.

    The wire named is the first wire, in document order, that leads back into that first node from inside
    the cycle; the path is a shortest one from the node around to itself.
    """
    for component in topology.components:
        if not topology.cyclic(component):
            continue
        if not report.room:
            report.count(1)  # its path would only be counted: not worked out
            continue
        head, members = component[0], set(component)
        closing = next(edge for edge in topology.incoming[head] if edge.source in members)
        around = topology.cycle_path(component, closing)
        path = " -> ".join(topology.vertices[v].id for v in [*around, head])
        report.add(
            code="cycle", node=topology.vertices[head].id, wire=closing.wire.place, detail=path, path=path
        )


def check_reachability(topology: Topology, report: Report) -> None:
    """`node_unreachable` for each node no trigger reaches; nothing without a trigger (that is its own)."""
    if not topology.triggers:
        return
    for vertex, node in enumerate(topology.vertices):
        if not topology.reachable[vertex]:
            report.add(code="node_unreachable", node=node.id)
