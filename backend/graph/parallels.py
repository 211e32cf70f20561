"""The rules of issue 24: parallel branches that meet, write one name, end the run or break out; event names;
join and parallel wait rules, and a `rest: continue` that leaves no branch running; and the warning
`branches_meet_without_join`.

A parallel's branch is every node reachable from the target of one of its `branches` wires. Branches must
stay apart (`parallel_branches_meet`): they walk side by side with their own visited marks, so a node two
branches reach would run twice, once in each. Their `set` nodes must assign different names
(`parallel_branches_write_same_name`): whichever branch is answered last would win, and the order of
answers is not the flow's to choose. `end` cannot end the run from inside a branch (the other branches'
pauses would be left open), and a `break` cannot leave a loop that lies outside the parallel around it.

Branches drawn without a parallel (a port with several wires) are walked one after another; a node other
than a `join` that two of them reach runs at the first arrival, between the branches. That is legal and
sometimes meant (a multi-merge), so it is a warning, not a finding: `branches_meet_without_join`.

Examples:
    >>> from backend.graph.findings import Report
    >>> from backend.graph.outline import read_outline
    >>> from backend.graph.topology import analyse
    >>> outline = read_outline({
    ...     "nodes": [{"id": "t", "type": "trigger"}, {"id": "a", "type": "log"}, {"id": "b", "type": "log"},
    ...               {"id": "z", "type": "log"}],
    ...     "wires": [{"from": "t", "to": "a"}, {"from": "t", "to": "b"}, {"from": "a", "to": "z"},
    ...               {"from": "b", "to": "z"}]})
    >>> report = Report("en")
    >>> check_parallels(outline, analyse(outline), report)
    >>> report.findings, [(w.code, w.node) for w in report.warnings]
    ([], [('branches_meet_without_join', 'z')])
"""

from __future__ import annotations

import re

from backend.graph.findings import Report
from backend.graph.outline import NodeEntry, Outline
from backend.graph.topology import Topology

EVENT_NAME = re.compile(r"[a-z][a-z0-9_]{0,63}")


def check_parallels(outline: Outline, topology: Topology, report: Report) -> None:
    """Every rule of this module, in the order of FLOW_FORMAT.md's table, each in document order."""
    vertices = topology.vertices
    outgoing = _outgoing(topology)
    parallels = [v for v in topology.loops if vertices[v].type == "parallel"]
    branches = {p: _branches(topology, outgoing, p) for p in parallels}
    _leaving(topology, parallels, report)
    _apart(topology, parallels, branches, report)
    for node in outline.nodes:
        if node.type == "wait_event":
            _event_names(node, report)
    _waits(topology, branches, report)
    _counts(topology, parallels, branches, report)
    # A document past the findings cap is not being drawn, it is being thrown at us: its warnings would
    # cost as much as its findings and tell nobody anything (bench/validate.py's adversarial shapes).
    if report.room and not report.untold:
        _meet_without_join(topology, report)


def _outgoing(topology: Topology) -> list[list[int]]:
    """The targets of each vertex's wires, by vertex."""
    outgoing: list[list[int]] = [[] for _ in topology.vertices]
    for edge in topology.edges:
        outgoing[edge.source].append(edge.target)
    return outgoing


def _leaving(topology: Topology, parallels: list[int], report: Report) -> None:
    """The first two rules: an `end` inside a parallel, a `break` out of a loop around a parallel."""
    parallel_mask = sum(topology.bits[p] for p in parallels)
    depth = {opener: topology.depth(opener) for opener in topology.loops}
    _ends_inside(topology, parallel_mask, depth, report)
    _breaks_across(topology, parallel_mask, depth, report)


def _apart(
    topology: Topology, parallels: list[int], branches: dict[int, list[set[int]]], report: Report
) -> None:
    """The branches of each parallel stay apart: `parallel_branches_meet`, then
    `parallel_branches_write_same_name`."""
    vertices = topology.vertices
    for p in parallels:
        for meeting in _meetings(topology, branches[p]):
            parallel = vertices[p].id
            report.add(
                code="parallel_branches_meet", node=vertices[meeting].id, detail=parallel, parallel=parallel
            )
    for p in parallels:
        # Over items, one branch per item: every set node of the branch writes its names once per item.
        _same_names(topology, branches[p] * (2 if _over_items(vertices[p]) else 1), vertices[p].id, report)


def _counts(
    topology: Topology, parallels: list[int], branches: dict[int, list[set[int]]], report: Report
) -> None:
    """The rules on how many branches a parallel has: `parallel_rest_needs_wait`, then
    `parallel_items_one_branch`."""
    for p in parallels:
        _rest_needs_wait(topology.vertices[p], len(branches[p]), report)
    for p in parallels:
        _items_one_branch(topology.vertices[p], len(branches[p]), report)


def _ends_inside(topology: Topology, parallel_mask: int, depth: dict[int, int], report: Report) -> None:
    """`end_inside_parallel` at each `end` inside a parallel (inside a loop, end_inside_loop says it)."""
    for vertex, node in enumerate(topology.vertices):
        region = topology.regions[vertex]
        if node.type == "end" and region & parallel_mask and not region & topology.loop_mask:
            parallel = topology.vertices[_innermost(topology, vertex, parallel_mask, depth)].id
            report.add(code="end_inside_parallel", node=node.id, detail=parallel, parallel=parallel)


def _breaks_across(topology: Topology, parallel_mask: int, depth: dict[int, int], report: Report) -> None:
    """`break_crosses_parallel` at each `break` whose innermost loop lies outside a parallel around it."""
    for vertex, node in enumerate(topology.vertices):
        if node.type != "break" or not topology.regions[vertex] & topology.loop_mask:
            continue
        loop = _innermost(topology, vertex, topology.loop_mask, depth)
        if topology.regions[vertex] & parallel_mask:
            inner = _innermost(topology, vertex, parallel_mask, depth)
            if depth[inner] > depth[loop]:
                parallel = topology.vertices[inner].id
                report.add(code="break_crosses_parallel", node=node.id, detail=parallel, parallel=parallel)


def _waits(topology: Topology, branches: dict[int, list[set[int]]], report: Report) -> None:
    """`join_wait_invalid` and `parallel_wait_invalid`: a counted `wait` above what can arrive."""
    incoming = [len(edges) for edges in topology.incoming]
    for vertex, node in enumerate(topology.vertices):
        wait = node.config.get("wait") if isinstance(node.config, dict) else None
        if not isinstance(wait, int) or isinstance(wait, bool):
            continue
        at = ("nodes", node.place, "config", "wait")
        if node.type == "join" and wait > incoming[vertex]:
            report.add(code="join_wait_invalid", node=node.id, at=at, wait=wait, wires=incoming[vertex])
        if node.type == "parallel" and not _over_items(node) and wait > len(branches[vertex]):
            found = len(branches[vertex])
            report.add(code="parallel_wait_invalid", node=node.id, at=at, wait=wait, wires=found)


def _items_one_branch(node: NodeEntry, wires: int, report: Report) -> None:
    """`parallel_items_one_branch`: a parallel over items runs its one branch once per item."""
    if _over_items(node) and wires != 1:
        at = ("nodes", node.place, "config", "items")
        report.add(code="parallel_items_one_branch", node=node.id, at=at, wires=wires)


def _branches(topology: Topology, outgoing: list[list[int]], parallel: int) -> list[set[int]]:
    """The nodes of each branch of a parallel, in the order of its `branches` wires."""
    found = []
    for edge in topology.edges:
        if edge.source == parallel and edge.wire.port == "branches":
            reached = {edge.target}
            todo = [edge.target]
            while todo:
                for target in outgoing[todo.pop()]:
                    if target not in reached:
                        reached.add(target)
                        todo.append(target)
            found.append(reached)
    return found


def _rest_needs_wait(node: NodeEntry, wires: int, report: Report) -> None:
    """`rest: continue` on a parallel that waits for every branch leaves none running: a mistake, since
    the author asked for branches that go on past `done` and would silently get none."""
    config = node.config if isinstance(node.config, dict) else {}
    if config.get("rest") != "continue":
        return
    wait = config.get("wait", "all")
    counted = isinstance(wait, int) and not isinstance(wait, bool) and not _over_items(node)
    if wait == "all" or (counted and wait >= wires):
        at = ("nodes", node.place, "config", "rest")
        report.add(code="parallel_rest_needs_wait", node=node.id, at=at)


def _over_items(node: NodeEntry) -> bool:
    """A parallel that starts one branch per item rather than one per wire."""
    return isinstance(node.config, dict) and "items" in node.config


def _innermost(topology: Topology, vertex: int, mask: int, depth: dict[int, int]) -> int:
    around = [opener for opener in topology.loops_around(vertex) if topology.bits[opener] & mask]
    return max(around, key=lambda opener: (depth[opener], -opener))


def _meetings(topology: Topology, branches: list[set[int]]) -> list[int]:
    """The nodes where two branches first meet: reached by both, with no wire in from a node both reach."""
    shared: set[int] = set()
    for i, branch in enumerate(branches):
        for other in branches[i + 1 :]:
            shared |= branch & other
    return sorted(v for v in shared if not any(edge.source in shared for edge in topology.incoming[v]))


def _same_names(topology: Topology, branches: list[set[int]], parallel: str, report: Report) -> None:
    """`parallel_branches_write_same_name` at each `set` node of a later branch that assigns a name an
    earlier branch assigns."""
    written: dict[str, int] = {}
    for number, branch in enumerate(branches):
        own: dict[str, int] = {}
        for vertex in sorted(branch):
            node = topology.vertices[vertex]
            values = node.config.get("values") if isinstance(node.config, dict) else None
            if node.type != "set" or not isinstance(values, dict):
                continue
            for name in values:
                if written.get(name, number) != number:
                    report.add(
                        code="parallel_branches_write_same_name",
                        node=node.id,
                        detail=name,
                        name=name,
                        parallel=parallel,
                    )
                own.setdefault(name, number)
        for name, first in own.items():
            written.setdefault(name, first)


def _event_names(node: NodeEntry, report: Report) -> None:
    events = node.config.get("events") if isinstance(node.config, dict) else None
    if not isinstance(events, list):
        return
    seen: set[str] = set()
    for place, name in enumerate(events):
        if not isinstance(name, str):
            continue  # the schema says so
        if not EVENT_NAME.fullmatch(name) or name == "timeout" or name in seen:
            at = ("nodes", node.place, "config", "events", place)
            report.add(code="event_name_invalid", node=node.id, at=at, name=name)
        seen.add(name)


def _meet_without_join(topology: Topology, report: Report) -> None:
    """`branches_meet_without_join`, a warning: a node other than a join that wires from two branches of
    one split reach, where a split is a port with several wires (a parallel's `branches` aside: that is
    `parallel_branches_meet`).

    Each wire of a split gets a bit; a node's bits are those of the wires that lead to it. A node warns
    when two of its incoming wires carry different bits of one split.
    """
    vertices = topology.vertices
    bit_of, group_of = _splits(topology)
    if not bit_of:
        return
    carried = [0] * len(vertices)
    edge_bits: dict[int, int] = {}
    place_of = {id(edge): place for place, edge in enumerate(topology.edges)}
    for component in topology.components:
        for vertex in component:
            for edge in topology.incoming[vertex]:
                place = place_of[id(edge)]
                edge_bits[place] = carried[edge.source] | bit_of.get(place, 0)
                carried[vertex] |= edge_bits[place]
    for component in topology.components:
        for vertex in component:
            edges_in = topology.incoming[vertex]
            if len(edges_in) < 2 or vertices[vertex].type == "join" or len(component) > 1:
                continue
            if _meets([edge_bits[place_of[id(edge)]] for edge in edges_in], group_of):
                report.warn(code="branches_meet_without_join", node=vertices[vertex].id)


def _splits(topology: Topology) -> tuple[dict[int, int], list[int]]:
    """The bit of each wire of a split, by the wire's place in topology.edges, and each bit's split (the
    bits of all its wires), by bit position."""
    vertices = topology.vertices
    by_port: dict[tuple[int, str], list[int]] = {}
    for place, edge in enumerate(topology.edges):
        if not (vertices[edge.source].type == "parallel" and edge.wire.port == "branches"):
            by_port.setdefault((edge.source, edge.wire.port), []).append(place)
    bit_of: dict[int, int] = {}
    group_of: list[int] = []
    for places in by_port.values():
        if len(places) < 2:
            continue
        first, group = len(group_of), 0
        for number, place in enumerate(places):
            bit_of[place] = 1 << (first + number)
            group |= bit_of[place]
        group_of += [group] * len(places)
    return bit_of, group_of


def _meets(carried: list[int], group_of: list[int]) -> bool:
    """Whether two of these incoming wires carry different bits of one split.

    Each wire's bits are taken split by split (one step per split it carries, not per pair of wires):
    a split whose parts differ between two wires is a meeting.
    """
    parts: dict[int, int] = {}
    for bits in set(carried):
        rest = bits
        while rest:
            group = group_of[(rest & -rest).bit_length() - 1]
            part = bits & group
            if parts.setdefault(group, part) != part:
                return True
            rest &= ~group
    return False
