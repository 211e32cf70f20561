"""The import contract of backend/: no new cycle between its packages, and the layers that hold already.

The graph is grimp's (every import, those inside functions too), folded to backend's top-level packages
and modules (`backend.queue.worker` counts as `queue`). The cycles that remain are listed here by name,
each to be broken and struck from the list (docs/architecture.md, "The package graph"); a new cycle, or one
grown larger, fails.
"""

from __future__ import annotations

import grimp
import networkx as nx
import pytest

# The cycles still to break; each line one strongly connected group of packages.
KNOWN_CYCLES: set[frozenset[str]] = {
    frozenset({"graph", "i18n"}),  # i18n/gaps.py (the catalogs' guard tool) reads the node types' ports
    frozenset({"actions", "api", "approvals", "flows", "observability", "people", "queue", "store"}),
}

# Packages that import none of those named: the pure core and the roots everything may use.
NEVER_IMPORTS: dict[str, set[str]] = {
    "errors": {"*"},
    "strict_json": {"*"},
    "faults": {"*"},
    "graph": {"walker", "queue", "approvals", "actions", "flows", "people", "api", "store", "cli"},
    "walker": {"queue", "approvals", "actions", "flows", "people", "api", "store", "cli"},
}


@pytest.fixture(scope="module")
def packages() -> nx.DiGraph:
    graph = grimp.build_graph("backend", cache_dir=None)
    folded: nx.DiGraph = nx.DiGraph()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            source, target = _package(module), _package(imported)
            folded.add_node(source)
            if source != target:
                folded.add_edge(source, target)
    return folded


def _package(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def test_no_cycle_between_packages_but_the_known_ones(packages: nx.DiGraph) -> None:
    cycles = {frozenset(group) for group in nx.strongly_connected_components(packages) if len(group) > 1}
    assert {tuple(sorted(c)) for c in cycles} == {tuple(sorted(c)) for c in KNOWN_CYCLES}


@pytest.mark.parametrize("package", sorted(NEVER_IMPORTS))
def test_the_lower_layers_import_nothing_above_them(packages: nx.DiGraph, package: str) -> None:
    forbidden = NEVER_IMPORTS[package]
    imported = set(packages.successors(package))
    if forbidden == {"*"}:
        assert imported == set()
    else:
        assert imported & forbidden == set()
