"""Survivors of `make mutation` in backend/graph/topology.py `_stable_order`: when the graph has cycles, its
components still come in topological order with the lowest node first among those ready, not in the order
networkx happens to find them; so two cycles are reported in document order.
"""

from __future__ import annotations

from backend.graph import Finding, check_flow
from backend.i18n.catalogs import message
from tests.support import flow


def cycle(node: str, wire: int, path: str) -> Finding:
    return Finding("cycle", node, wire, message("cycle", node=node, path=path), path)


def test_two_cycles_after_one_split_are_reported_in_document_order() -> None:
    # The trigger's first wire goes to the later cycle: a search from the trigger finds c and d first.
    document = flow("t:trigger a:log b:log c:log d:log", wires="t>c t>a c>d d>c a>b b>a")
    assert check_flow(document) == ([cycle("a", 5, "a -> b -> a"), cycle("c", 3, "c -> d -> c")], [])
