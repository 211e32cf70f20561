"""The approvals have two sides in two modules: the queue's port (backend/approvals/queue_port.py), what the
worker and a run's cancel, end and show call, and the product's decisions (backend/approvals/decisions.py),
what a person does through the API and the terminal. The queue's side alone knows the queue; the
product's side knows nothing of it.

A scan of the source (AST, no import) for where each side's names are defined, and a typed assignment
that mypy checks: the port is what the queue asks for.
"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp

from backend.approvals.queue_port import ApprovalsPort
from backend.queue.ports import Approvals
from backend.queue.runs import RunApprovals

BACKEND = Path(__file__).resolve().parents[2] / "backend"
APPROVALS = BACKEND / "approvals"
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def methods_of(tree: ast.Module, name: str) -> set[str]:
    """The methods a class of `tree` declares.

    Examples:
        >>> sorted(methods_of(ast.parse("class P:\\n    async def go(self): ...\\n    x = 1"), "P"))
        ['go']
    """
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return {item.name for item in node.body if isinstance(item, FUNCTIONS)}
    raise LookupError(name)


def methods_by_class(tree: ast.Module) -> dict[str, set[str]]:
    classes = [node.name for node in tree.body if isinstance(node, ast.ClassDef)]
    return {name: methods_of(tree, name) for name in classes}


def imported_modules(tree: ast.Module) -> set[str]:
    """Every module `tree` imports, at its top or inside a function.

    Examples:
        >>> sorted(imported_modules(ast.parse("import a.b\\ndef f():\\n    from c import d")))
        ['a.b', 'c']
    """
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


PORT_METHODS = methods_of(_tree(BACKEND / "queue" / "ports.py"), "Approvals") | methods_of(
    _tree(BACKEND / "queue" / "runs.py"), "RunApprovals"
)
# mypy checks these: the port is what the worker, and a run's cancel, end and show, ask for.
_PORTS: tuple[Approvals, RunApprovals] = (ApprovalsPort(), ApprovalsPort())


def test_the_product_side_imports_nothing_of_the_queue() -> None:
    imported = imported_modules(_tree(APPROVALS / "decisions.py"))
    assert {name for name in imported if f"{name}.".startswith("backend.queue.")} == set()


def test_nor_through_another_module() -> None:
    """What decisions.py imports, and what those import in turn, all the way down (grimp's graph: imports
    inside functions and under TYPE_CHECKING count): none of it is the queue's."""
    graph = grimp.build_graph("backend", cache_dir=None, exclude_type_checking_imports=False)
    reached = graph.find_upstream_modules("backend.approvals.decisions")
    chains = {
        " -> ".join(graph.find_shortest_chain("backend.approvals.decisions", module) or ())
        for module in reached
        if module == "backend.queue" or module.startswith("backend.queue.")
    }
    assert chains == set()


def test_only_the_queue_port_implements_the_queues_approvals_ports() -> None:
    implementing = {
        f"{path.name}:{name}"
        for path in sorted(APPROVALS.glob("*.py"))
        for name, methods in methods_by_class(_tree(path)).items()
        if methods & PORT_METHODS
    }
    assert implementing == {"queue_port.py:ApprovalsPort"}


def test_the_queue_port_is_the_ports_and_nothing_more() -> None:
    methods = methods_by_class(_tree(APPROVALS / "queue_port.py"))["ApprovalsPort"]
    assert {name for name in methods if not name.startswith("_")} == PORT_METHODS
