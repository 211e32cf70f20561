"""The graph's order, regions and reachability, and the order's agreement with networkx."""

from __future__ import annotations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from backend.graph.outline import read_outline
from backend.graph.topology import Topology, analyse
from tests.support import flow


def topology_of(nodes: str, wires: str) -> Topology:
    outline = read_outline(flow(nodes, wires=wires))
    assert outline is not None
    return analyse(outline)


def ids(topology: Topology) -> list[list[str]]:
    return [[topology.vertices[v].id for v in component] for component in topology.components]


def test_ties_are_broken_by_document_order() -> None:
    topology = topology_of("z:log t:trigger b:log a:log", "t>b t>a a>z")
    assert ids(topology) == [["t"], ["b"], ["a"], ["z"]]


def test_a_cycle_is_one_component_in_document_order_placed_by_its_first_member() -> None:
    topology = topology_of("t:trigger x:log c:log b:log a:log", "t>c c>b b>c t>a a>x")
    assert ids(topology) == [["t"], ["c", "b"], ["a"], ["x"]]
    assert [topology.cyclic(c) for c in topology.components] == [False, True, False, False]


def test_regions_depth_and_reach() -> None:
    topology = topology_of(
        "t:trigger outer:foreach inner:repeat a:log b:log lost:log",
        "t>outer outer.body>inner inner.body>a inner.done>b",
    )
    depth = {topology.vertices[v].id: topology.depth(v) for v in range(len(topology.vertices))}
    assert depth == {"t": 0, "outer": 0, "inner": 1, "a": 2, "b": 1, "lost": 0}
    assert [topology.vertices[v].id for v in topology.loops_around(3)] == ["outer", "inner"]
    assert topology.reachable == (True, True, True, True, True, False)


@st.composite
def graphs(draw: st.DrawFn) -> tuple[int, list[tuple[int, int]]]:
    size = draw(st.integers(1, 12))
    pairs = st.tuples(st.integers(0, size - 1), st.integers(0, size - 1))
    return size, draw(st.lists(pairs, max_size=30))


@settings(max_examples=200, deadline=None)
@given(graph=graphs())
def test_the_order_is_networkx_lexicographical_order_or_its_condensation(
    graph: tuple[int, list[tuple[int, int]]],
) -> None:
    size, pairs = graph
    document = {
        "nodes": [{"id": f"n{i}", "type": "log"} for i in range(size)],
        "wires": [{"from": f"n{a}", "to": f"n{b}"} for a, b in pairs],
    }
    outline = read_outline(document)
    assert outline is not None
    components = analyse(outline).components
    reference: nx.DiGraph[int] = nx.DiGraph()
    reference.add_nodes_from(range(size))
    reference.add_edges_from(pairs)
    if nx.is_directed_acyclic_graph(reference):
        assert [c[0] for c in components] == list(nx.lexicographical_topological_sort(reference))
    else:
        assert sorted(components) == sorted(
            tuple(sorted(c)) for c in nx.strongly_connected_components(reference)
        )
        position = {v: i for i, component in enumerate(components) for v in component}
        assert all(position[a] <= position[b] for a, b in pairs)
        assert all(list(c) == sorted(c) for c in components)
