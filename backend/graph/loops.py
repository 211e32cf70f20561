"""The loop rules: bodies that leak, loops nested too deep, `break` outside and `end` inside a loop.

A node of a loop's body region leaks when the trigger reaches it without passing through that loop's
`body` port. Every leaking node lies downstream of a wire that enters the region from outside it (its
source is reachable and outside the region, and it is not the loop's body wire), or is a trigger inside
the region. Those wires are what the user has to change, so they are what is reported: one finding per
wire, naming the node it enters and the first loop (in document order) whose body it enters, rather than
one per node downstream or one per loop. A wire into a node that a thousand loops' bodies share enters a
thousand regions at once; one finding per loop made that a million findings (issue 12).

Examples:
    >>> from backend.graph.findings import Report
    >>> from backend.graph.outline import read_outline
    >>> from backend.graph.topology import analyse
    >>> outline = read_outline({
    ...     "nodes": [{"id": "t", "type": "trigger"}, {"id": "each", "type": "foreach"},
    ...               {"id": "say", "type": "log"}, {"id": "stop", "type": "end"}],
    ...     "wires": [{"from": "t", "to": "each"}, {"from": "each", "port": "body", "to": "say"},
    ...               {"from": "each", "port": "done", "to": "say"}, {"from": "say", "to": "stop"}]})
    >>> report = Report("en")
    >>> check_loops(analyse(outline), report)
    >>> [(f.code, f.node, f.wire, f.detail) for f in report.findings]
    [('loop_body_leaks', 'say', 2, 'each'), ('end_inside_loop', 'stop', None, 'each')]
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from backend.graph.findings import Report
from backend.graph.topology import Topology

# Loops nest at most this many levels deep (FLOW_FORMAT.md, "Limits").
MAX_LOOP_DEPTH = 3


@dataclass(frozen=True, slots=True)
class Leak:
    """A way into loops' body regions that avoids their `body` port: a wire, or a trigger inside them.

    `loop` is the first of the loops it enters, in document order.
    """

    node: int
    loop: int
    wire: int | None


def leaks(topology: Topology) -> Iterator[Leak]:
    """Every leak, triggers first, then by wire in document order: one each, whatever the loops entered."""
    for trigger in topology.triggers:
        if topology.regions[trigger]:
            yield _leak(topology, topology.regions[trigger], trigger, None)
    for edge in topology.edges:
        if topology.reachable[edge.source]:
            entered = topology.regions[edge.target] & ~(topology.regions[edge.source] | edge.body_bit)
            if entered:
                yield _leak(topology, entered, edge.target, edge.wire.place)


def _leak(topology: Topology, bits: int, node: int, wire: int | None) -> Leak:
    return Leak(node, topology.loops[(bits & -bits).bit_length() - 1], wire)


def check_loops(topology: Topology, report: Report) -> None:
    """The four loop rules, in the order of FLOW_FORMAT.md's table, each in document order."""
    vertices = topology.vertices
    for leak in leaks(topology):
        loop = vertices[leak.loop].id
        report.add(
            code="loop_body_leaks", node=vertices[leak.node].id, wire=leak.wire, detail=loop, loop=loop
        )
    # A loop's level is asked once per loop and once per `end` below it: work it out once.
    depth = {loop: topology.depth(loop) for loop in topology.loops}
    for loop_vertex in topology.loops:
        # The loop node follows `done` in the scope around it: its own level is one more than its depth.
        level = depth[loop_vertex] + 1
        if level > MAX_LOOP_DEPTH:
            report.add(
                code="loop_nesting_too_deep", node=vertices[loop_vertex].id, depth=level, limit=MAX_LOOP_DEPTH
            )
    loop_mask = topology.loop_mask
    for vertex, node in enumerate(vertices):
        if node.type == "break" and not topology.regions[vertex] & loop_mask:
            report.add(code="break_outside_loop", node=node.id)
    for vertex, node in enumerate(vertices):
        if node.type == "end" and topology.regions[vertex] & loop_mask:
            if not report.room:
                report.count(1)  # the innermost loop would only be counted
                continue
            around = [loop for loop in topology.loops_around(vertex) if topology.bits[loop] & loop_mask]
            innermost = max(around, key=lambda loop: (depth[loop], -loop))
            loop = vertices[innermost].id
            report.add(code="end_inside_loop", node=node.id, detail=loop, loop=loop)
