"""The flow as a graph: a stable topological order, reachability from the trigger, and loop body regions.

Vertices are the nodes' first occurrences (a duplicate id is a finding, not a second vertex), numbered in
document order, so that "ties by document order" is "ties by number". Wires whose ends are both known are
the edges, whatever their port: a wire from a port the node lacks is reported, and counting it still
spares the user a second finding about the node it leads to.

The order is Kahn's, taking the lowest number ready; it is what `networkx.lexicographical_topological_sort`
gives (a test holds them equal), written out because that call alone took a sixth of the time budget of a
1,000-node flow. A graph with a cycle goes to networkx: its strongly connected components, each kept
together in document order, are ordered the same way.

The body region of a loop is every node reachable from the targets of its `body` wires. Regions are kept
as bit sets, one bit per loop, and computed in one pass in that order: a node's set is the union over its
incoming wires of the source's set, plus the loop's own bit on a body wire. In a cycle every member
reaches every other, so a component is one step of the pass and its members share one set. A `parallel`
opens a region the same way through its `branches` wires: `loops` lists loops and parallels, and a
parallel counts toward nesting depth as a loop does; `loop_mask` tells the real loops' bits apart.

Examples:
    >>> from backend.graph.outline import read_outline
    >>> outline = read_outline({
    ...     "nodes": [{"id": "t", "type": "trigger"}, {"id": "bye", "type": "log"},
    ...               {"id": "each", "type": "foreach"}, {"id": "say", "type": "log"}],
    ...     "wires": [{"from": "t", "to": "each"}, {"from": "each", "port": "done", "to": "bye"},
    ...               {"from": "each", "port": "body", "to": "say"}]})
    >>> topology = analyse(outline)
    >>> [topology.vertices[v].id for component in topology.components for v in component]
    ['t', 'each', 'bye', 'say']
    >>> [topology.depth(v) for v in range(4)], topology.reachable
    ([0, 0, 0, 1], (True, True, True, True))
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from backend.graph.model import LOOP_TYPES
from backend.graph.outline import NodeEntry, Outline, WireEntry

if TYPE_CHECKING:  # networkx is imported where a cycle needs it: it is a third of a CLI check's start
    import networkx as nx

# The nodes that open a region, and the port whose wires lead into it: a loop's body, a parallel's branches.
REGION_PORTS = {**dict.fromkeys(LOOP_TYPES, "body"), "parallel": "branches"}


class Edge(NamedTuple):
    """A wire between two known nodes; `body_bit` is its loop's bit when it is a loop's body wire."""

    wire: WireEntry
    source: int
    target: int
    body_bit: int


@dataclass(frozen=True, slots=True)
class Topology:
    """What the graph rules and the list view read: order, reachability and regions, by vertex."""

    vertices: tuple[NodeEntry, ...]
    vertex: Mapping[str, int]
    edges: tuple[Edge, ...]
    incoming: tuple[tuple[Edge, ...], ...]
    components: tuple[tuple[int, ...], ...]
    triggers: tuple[int, ...]
    # The region openers: loops and parallels, in document order, each with its bit in `regions`.
    loops: tuple[int, ...]
    bits: Mapping[int, int]
    # The bits of the real loops (foreach, repeat); the others are parallels'.
    loop_mask: int
    regions: tuple[int, ...]
    reachable: tuple[bool, ...]

    def loop_bit(self, vertex: int) -> int:
        """The bit standing for a loop in region sets; 0 for a node that is no loop."""
        return self.bits.get(vertex, 0)

    def cyclic(self, component: tuple[int, ...]) -> bool:
        """Whether a component of the order is a cycle rather than one node."""
        head = component[0]
        return len(component) > 1 or any(edge.source == head for edge in self.incoming[head])

    def cycle_path(self, component: tuple[int, ...], closing: Edge) -> list[int]:
        """A shortest way around a cycle: from the target of `closing` to its source, inside the cycle."""
        import networkx as nx

        members = set(component)
        inside: nx.DiGraph[int] = nx.DiGraph()
        inside.add_nodes_from(component)
        inside.add_edges_from(
            (edge.source, v) for v in component for edge in self.incoming[v] if edge.source in members
        )
        return list(nx.bidirectional_shortest_path(inside, closing.target, closing.source))

    def loops_around(self, vertex: int) -> Iterator[int]:
        """The loops whose body region holds a node, in document order (a loop is not around itself)."""
        bits = self.regions[vertex] & ~self.loop_bit(vertex)
        while bits:
            lowest = bits & -bits
            yield self.loops[lowest.bit_length() - 1]
            bits ^= lowest

    def depth(self, vertex: int) -> int:
        """How many loops' bodies a node is in: 0 outside any; a loop counts the loops around it."""
        return (self.regions[vertex] & ~self.loop_bit(vertex)).bit_count()


def analyse(outline: Outline) -> Topology:
    """The graph of an outline, ordered, with each node's reachability and loop regions."""
    vertices: list[NodeEntry] = []
    vertex: dict[str, int] = {}
    for node in outline.nodes:
        if node.id not in vertex:
            vertex[node.id] = len(vertices)
            vertices.append(node)
    loops = tuple(v for v, node in enumerate(vertices) if node.type in REGION_PORTS)
    bits = {loop: 1 << position for position, loop in enumerate(loops)}
    loop_mask = sum(bits[v] for v in loops if vertices[v].type in LOOP_TYPES)
    edges, incoming, outgoing = _edges(outline, vertices, vertex, bits)
    components = _stable_order(incoming, outgoing)
    triggers = tuple(v for v, node in enumerate(vertices) if node.type == "trigger")
    regions, reachable = _regions(components, incoming, triggers)
    return Topology(
        vertices=tuple(vertices),
        vertex=vertex,
        edges=tuple(edges),
        incoming=tuple(tuple(edges_in) for edges_in in incoming),
        components=components,
        triggers=triggers,
        loops=loops,
        bits=bits,
        loop_mask=loop_mask,
        regions=tuple(regions),
        reachable=tuple(reachable),
    )


def _edges(
    outline: Outline, vertices: list[NodeEntry], vertex: dict[str, int], bits: dict[int, int]
) -> tuple[list[Edge], list[list[Edge]], list[list[int]]]:
    """The wires between known nodes, in document order, and each vertex's edges in and targets out; a
    wire from the port that opens a region carries its opener's bit."""
    edges: list[Edge] = []
    incoming: list[list[Edge]] = [[] for _ in vertices]
    outgoing: list[list[int]] = [[] for _ in vertices]
    for wire in outline.wires:
        source, target = vertex.get(wire.source), vertex.get(wire.target)
        if source is not None and target is not None:
            opens = REGION_PORTS.get(vertices[source].type) == wire.port
            edge = Edge(wire, source, target, bits[source] if opens else 0)
            edges.append(edge)
            incoming[target].append(edge)
            outgoing[source].append(target)
    return edges, incoming, outgoing


def _regions(
    components: tuple[tuple[int, ...], ...], incoming: list[list[Edge]], triggers: tuple[int, ...]
) -> tuple[list[int], list[bool]]:
    """Each vertex's loop regions and whether a trigger reaches it, built in topological order."""
    regions = [0] * len(incoming)
    reachable = [False] * len(incoming)
    for v in triggers:
        reachable[v] = True
    for component in components:
        # Sources inside the component still read 0 and False here: theirs is what is being built.
        region, reached = 0, False
        for v in component:
            reached = reached or reachable[v]
            for edge in incoming[v]:
                region |= regions[edge.source] | edge.body_bit
                reached = reached or reachable[edge.source]
        for v in component:
            regions[v], reachable[v] = region, reached
    return regions, reachable


def _stable_order(incoming: list[list[Edge]], outgoing: list[list[int]]) -> tuple[tuple[int, ...], ...]:
    """Vertices in topological order, lowest number first; a cycle's members together, as one component."""
    waiting = [len(edges_in) for edges_in in incoming]
    ready = [v for v, count in enumerate(waiting) if count == 0]
    order: list[tuple[int, ...]] = []
    while ready:
        v = heapq.heappop(ready)
        order.append((v,))
        for target in outgoing[v]:
            waiting[target] -= 1
            if waiting[target] == 0:
                heapq.heappush(ready, target)
    if len(order) == len(incoming):
        return tuple(order)
    import networkx as nx

    graph: nx.DiGraph[int] = nx.DiGraph()
    graph.add_nodes_from(range(len(incoming)))
    graph.add_edges_from((source, target) for source, targets in enumerate(outgoing) for target in targets)
    members = [tuple(sorted(component)) for component in nx.strongly_connected_components(graph)]
    condensed = nx.condensation(graph, scc=[set(component) for component in members])
    return tuple(
        members[c] for c in nx.lexicographical_topological_sort(condensed, key=lambda c: members[c][0])
    )
