"""The import contract of backend/: no cycle between its packages or between its files, and the layers.

The graph is grimp's: every import, those inside functions and under `if TYPE_CHECKING:` too. Folded to
backend's top-level packages and modules (`backend.queue.worker` counts as `queue`), it has no cycle and
its layers hold. Between files (modules, each at its own name: `backend.queue.worker`) it has no cycle
either: a file that needs a name of one importing it back takes that name from a third, smaller file
(docs/architecture.md, "The package graph"). A cycle is broken, never listed.
"""

from __future__ import annotations

import grimp
import networkx as nx
import pytest

# The cycles still to break; each line one strongly connected group of packages. None is left: a new cycle
# fails, and is broken rather than listed here.
KNOWN_CYCLES: set[frozenset[str]] = set()

# The cycles between files still to break, each one strongly connected group of modules. None is left.
KNOWN_FILE_CYCLES: set[frozenset[str]] = set()

# Packages that import none of those named: the pure core and the roots everything may use.
NEVER_IMPORTS: dict[str, set[str]] = {
    "store": {"actions", "api", "approvals", "flows", "observability", "people", "queue", "processes", "cli"},
    # The worker gets its approvals and actions ports from backend/processes.py or the app factory.
    "queue": {"approvals", "actions", "flows", "people", "api", "processes", "cli"},
    # Metrics and log lines: the HTTP side of them (`/metrics`, the probes, the worker's port) is api/'s.
    "observability": {"actions", "api", "approvals", "flows", "people", "queue", "processes", "cli"},
    # The services: approvals build on actions, flows on actions and the queue; none on the API.
    "approvals": {"api", "flows", "processes", "cli"},
    "actions": {"api", "approvals", "flows", "people", "processes", "cli"},
    "flows": {"api", "approvals", "people", "processes", "cli"},
    "people": {"actions", "api", "approvals", "flows", "queue", "processes", "cli"},
    "errors": {"*"},
    "node_types": {"*"},
    "strict_json": {"*"},
    "faults": {"*"},
    "digests": {"*"},
    "outcomes": {"*"},
    "graph": {
        "walker",
        "queue",
        "approvals",
        "actions",
        "flows",
        "people",
        "api",
        "store",
        "cli",
        "processes",
    },
    "walker": {"queue", "approvals", "actions", "flows", "people", "api", "store", "cli", "processes"},
}


# Roots that may lean on one another only: the cron arithmetic raises a coded error and imports nothing else.
ONLY_IMPORTS: dict[str, set[str]] = {"cron": {"errors"}}


@pytest.fixture(scope="module")
def imports() -> grimp.ImportGraph:
    return grimp.build_graph("backend", cache_dir=None, exclude_type_checking_imports=False)


@pytest.fixture(scope="module")
def packages(imports: grimp.ImportGraph) -> nx.DiGraph[str]:
    graph = imports
    folded: nx.DiGraph[str] = nx.DiGraph()
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


def test_no_cycle_between_packages_but_the_known_ones(packages: nx.DiGraph[str]) -> None:
    cycles = {frozenset(group) for group in nx.strongly_connected_components(packages) if len(group) > 1}
    assert {tuple(sorted(c)) for c in cycles} == {tuple(sorted(c)) for c in KNOWN_CYCLES}


def test_no_cycle_between_files_but_the_known_ones(imports: grimp.ImportGraph) -> None:
    files: nx.DiGraph[str] = nx.DiGraph()
    for module in imports.modules:
        files.add_node(module)
        files.add_edges_from(
            (module, imported) for imported in imports.find_modules_directly_imported_by(module)
        )
    cycles = {frozenset(group) for group in nx.strongly_connected_components(files) if len(group) > 1}
    assert {tuple(sorted(c)) for c in cycles} == {tuple(sorted(c)) for c in KNOWN_FILE_CYCLES}


@pytest.mark.parametrize("package", sorted(NEVER_IMPORTS))
def test_the_lower_layers_import_nothing_above_them(packages: nx.DiGraph[str], package: str) -> None:
    forbidden = NEVER_IMPORTS[package]
    imported = set(packages.successors(package))
    if forbidden == {"*"}:
        assert imported == set()
    else:
        assert imported & forbidden == set()


@pytest.mark.parametrize("package", sorted(ONLY_IMPORTS))
def test_the_roots_import_only_their_roots(packages: nx.DiGraph[str], package: str) -> None:
    assert set(packages.successors(package)) <= ONLY_IMPORTS[package]
