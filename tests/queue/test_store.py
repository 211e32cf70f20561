"""The queue's statements have one owner: backend/queue/store.py runs them, every other module of the queue
calls its typed functions (docs/architecture.md, "The queue's walk, file by file").

A scan of the source (AST, no import): a module runs statements itself when it reads the statements
(`backend.queue.queries`, or a `load` of a .sql file), uses the statement runners of
`backend/store/queries.py`, or calls a connection's or a cursor's `execute`, `executemany` or `cursor`.
The modules that still run their own are listed by name, each to move its statements into the store and
be struck from the list; the worker, the driver and the outcome's writers are not among them.
"""

from __future__ import annotations

import ast
from pathlib import Path

QUEUE = Path(__file__).resolve().parents[2] / "backend" / "queue"
RUNNERS = {"execute", "executemany", "cursor"}
STORE_RUNNERS = {"every", "one", "scalar", "scalars", "load"}

# Every module of the queue but the store calls the store; the run page's one statement has a file of its
# own (run_page.sql), read by the store beside queries.sql. A module that runs its own statements again
# fails here (listing it by name here is the way back, as the records and the sweeps once were).
NOT_YET: set[str] = set()
# Never on that list: the worker's loop, the walk, and the writers of what a walk came to.
ORCHESTRATORS = {
    "worker.py",
    "batch.py",
    "driver.py",
    "settle.py",
    "outcome.py",
    "flow_cache.py",
    "undo.py",
    "undo_walk.py",
}


def runs_statements(tree: ast.Module) -> list[str]:
    """How `tree` runs statements itself, if it does.

    Examples:
        >>> runs_statements(ast.parse("from backend.queue.queries import QUERIES"))
        ['imports backend.queue.queries']
        >>> runs_statements(ast.parse("from backend.store.queries import every, Row"))
        ['imports every from backend.store.queries']
        >>> runs_statements(ast.parse("async def f(conn):\\n    await conn.execute('SELECT 1')"))
        ['calls .execute']
        >>> runs_statements(ast.parse("async def f(c):\\n    await store.notify(c, 'x')"))
        []
    """
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if module == "backend.queue.queries" or (
                module == "backend.queue" and any(alias.name == "queries" for alias in node.names)
            ):
                found.append("imports backend.queue.queries")
            elif module == "backend.store.queries":
                found += [f"imports {a.name} from {module}" for a in node.names if a.name in STORE_RUNNERS]
        elif (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in RUNNERS
        ):
            found.append(f"calls .{node.func.attr}")
    return found


def _running() -> dict[str, list[str]]:
    found = {}
    for path in sorted(QUEUE.glob("*.py")):
        how = runs_statements(ast.parse(path.read_text(encoding="utf-8")))
        if how and path.name not in {"store.py", "queries.py"}:
            found[path.name] = how
    return found


def test_only_the_store_and_the_modules_not_yet_moved_run_the_queues_statements() -> None:
    assert set(_running()) == NOT_YET, _running()


def test_the_orchestrators_call_the_store_only() -> None:
    assert ORCHESTRATORS.isdisjoint(NOT_YET)
    assert {name: how for name, how in _running().items() if name in ORCHESTRATORS} == {}


def test_the_store_runs_them() -> None:
    assert runs_statements(ast.parse((QUEUE / "store.py").read_text(encoding="utf-8")))
