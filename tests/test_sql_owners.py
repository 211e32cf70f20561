"""Each table's SQL has one owner, and rows are read by name: two scans of backend/'s source (AST, no
import), beside the import contract of tests/test_imports.py (docs/architecture.md, "The tables and who
owns each").

- A package runs its own statements only: no module imports another package's `QUERIES` or loads another
  package's .sql file; it calls the owner's typed functions instead.
- No row is read by position: not `row[0]`, not `a, b, c = row`, not `Cls(*row)`, not `len(row)`. Rows
  are dataclasses (psycopg's `class_row`, the columns aliased to the fields) or scalars (`scalar_row`);
  `backend/store/queries.py` has `scalar`, `one` and `every` for the common cases.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

BACKEND = Path(__file__).resolve().parent.parent / "backend"


def _modules() -> Iterator[tuple[str, str, ast.Module]]:
    for path in sorted(BACKEND.rglob("*.py")):
        relative = path.relative_to(BACKEND).as_posix()
        package = relative.split("/")[0].removesuffix(".py")
        yield relative, package, ast.parse(path.read_text(encoding="utf-8"))


def foreign_sql(package: str, tree: ast.Module) -> set[str]:
    """The packages whose statements `tree` reads: an imported `QUERIES`, or a `load("backend.x", ...)`.

    Examples:
        >>> foreign_sql("api", ast.parse("from backend.queue.queries import QUERIES as Q"))
        {'queue'}
        >>> foreign_sql("api", ast.parse("X = load('backend.people', 'queries.sql')"))
        {'people'}
        >>> foreign_sql("api", ast.parse("from backend.api.x import QUERIES; load('backend.api', 'a')"))
        set()
    """
    owners = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("backend."):
            if any(alias.name == "QUERIES" for alias in node.names):
                owners.add((node.module or "").split(".")[1])
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "load":
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant) and str(first.value).startswith("backend."):
                owners.add(str(first.value).split(".")[1])
    return owners - {package}


_FETCHES = {"fetchone", "fetchall", "fetchmany"}
_CURSORS = {"execute", "cursor", "stream", "executemany"}


def _call_of(node: ast.expr | None, names: set[str]) -> bool:
    """`x.fetchone()` or `await x.fetchone()` (any of `names`), however deep the awaits go. `stream` and
    `execute` count with a statement only (a cursor's; Starlette's `request.stream()` takes none)."""
    while isinstance(node, ast.Await):
        node = node.value
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return False
    return node.func.attr in names and (node.func.attr not in {"stream", "execute"} or bool(node.args))


def _held_rows(scope: ast.AST) -> set[str]:
    """The names in `scope` that hold rows or cursors, followed from where their values came from.

    A name holds a row when it is bound from a fetch (`r = await cur.fetchone()`), from a name that holds
    rows (`first = found`), or as the loop variable over rows or a cursor (`for r in await cur.fetchall()`,
    `async for r in conn.execute(...)`, `for r in cur` where `cur` came from `execute` or `cursor`).
    Followed to a fixed point, so the order of the assignments does not matter.
    """
    held: set[str] = set()
    cursors: set[str] = set()

    def holds(value: ast.expr | None) -> bool:
        if isinstance(value, ast.Name):
            return value.id in held
        return _call_of(value, _FETCHES)

    def iterates_rows(value: ast.expr) -> bool:
        if isinstance(value, ast.Name):
            return value.id in held or value.id in cursors
        return _call_of(value, _FETCHES | _CURSORS)

    def bind(target: ast.expr, into: set[str]) -> bool:
        names = {n.id for n in ast.walk(target) if isinstance(n, ast.Name)} - into
        into.update(names)
        return bool(names)

    grew = True
    while grew:
        grew = False
        for node in ast.walk(scope):
            if isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if holds(node.value):
                        grew |= bind(target, held)
                    elif _call_of(node.value, _CURSORS):
                        grew |= bind(target, cursors)
            elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                if _call_of(node.context_expr, _CURSORS):
                    grew |= bind(node.optional_vars, cursors)
            elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension) and iterates_rows(node.iter):
                grew |= bind(node.target, held)
    return held


def _rowish(node: ast.expr, held: frozenset[str] = frozenset()) -> bool:
    """A name that holds a row: named like one (`row`, `rows`, `existing_row`), or bound from a fetch
    (`held`, see `_held_rows`); or a fetch itself (`await cur.fetchone()`)."""
    if isinstance(node, ast.Name):
        return "row" in node.id.lower() or node.id in held
    return _call_of(node, _FETCHES)


def positional_reads(tree: ast.Module) -> list[str]:
    """Where `tree` reads a row by position.

    Examples:
        >>> positional_reads(ast.parse("x = row[10]\\na, b = row\\nif len(row) > 6: pass\\nS(*row)"))
        ['row[10]', 'a, b = row', 'len(row)', 'S(*row)']
        >>> positional_reads(ast.parse("for a, b in rows: pass\\nx = parts[1]\\n(v,) = await cur.fetchone()"))
        ['for (a, b) in rows', 'v, = await cur.fetchone()']
        >>> positional_reads(ast.parse("x = row.version\\ny = rows[:10]\\nz = [r.id for r in rows]"))
        []

    A value is followed from its fetch, whatever its name:

        >>> positional_reads(ast.parse("found = await cur.fetchone()\\nfirst = found\\nv = first[0]"))
        ['first[0]']
        >>> positional_reads(ast.parse("async with c.cursor() as cur:\\n  for it in cur: it[1]"))
        ['it[1]']
        >>> positional_reads(ast.parse("for it in await (await c.execute(q)).fetchall(): a, b = it"))
        ['a, b = it']
    """
    found: list[tuple[int, int, str]] = []

    def note(node: ast.AST, text: str) -> None:
        found.append((getattr(node, "lineno", 0), getattr(node, "col_offset", 0), text))

    scopes = [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef))]
    for scope in scopes:
        held = frozenset(_held_rows(scope))
        for node in _own_nodes(scope):
            if isinstance(node, ast.Subscript) and _rowish(node.value, held):
                index = node.slice
                if isinstance(index, ast.Constant) and isinstance(index.value, int):
                    note(node, ast.unparse(node))
            elif isinstance(node, ast.Assign) and _rowish(node.value, held):
                if any(isinstance(target, ast.Tuple) for target in node.targets):
                    note(node, ast.unparse(node))
            elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension) and _rowish(node.iter, held):
                if isinstance(node.target, ast.Tuple):
                    note(node.target, f"for {ast.unparse(node.target)} in {ast.unparse(node.iter)}")
            elif isinstance(node, ast.Call) and (_len_of_a_row(node, held) or _spread_row(node, held)):
                note(node, ast.unparse(node))
    return [text for _, _, text in sorted(set(found))]


def _own_nodes(scope: ast.AST) -> Iterator[ast.AST]:
    """The nodes of `scope` outside the functions nested in it (each of those is a scope of its own)."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


def _spread_row(call: ast.Call, held: frozenset[str]) -> bool:
    """`Cls(*row)`: a row's columns taken as positional arguments."""
    return any(isinstance(arg, ast.Starred) and _rowish(arg.value, held) for arg in call.args)


def _len_of_a_row(call: ast.Call, held: frozenset[str]) -> bool:
    """`len(row)`, a row's width; `len(rows)`, how many there are, is fine."""
    if not (isinstance(call.func, ast.Name) and call.func.id == "len" and call.args):
        return False
    argument = call.args[0]
    if isinstance(argument, ast.Name):
        return _rowish(argument, held) and not argument.id.endswith("s")
    return False  # len(await cur.fetchall()): how many rows


def test_every_package_runs_its_own_statements_only() -> None:
    reads = {name: owners for name, package, tree in _modules() if (owners := foreign_sql(package, tree))}
    assert reads == {}


def test_the_api_reads_no_other_package_statements() -> None:
    api = {name: foreign_sql(package, tree) for name, package, tree in _modules() if package == "api"}
    assert {name: owners for name, owners in api.items() if owners} == {}


def test_no_row_is_read_by_position() -> None:
    reads = {name: found for name, _, tree in _modules() if (found := positional_reads(tree))}
    assert reads == {}


def test_the_api_keeps_no_sql_of_its_own() -> None:
    """The API owns no table: its handlers call the owners' functions (no .sql file, no `load`)."""
    loads = [
        name
        for name, package, tree in _modules()
        if package == "api"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "load"
    ]
    assert (sorted(path.name for path in (BACKEND / "api").glob("*.sql")), loads) == ([], [])
