"""A command module never prints a literal: every line it prints for a person is a catalog sentence
(`backend.console.say`, `warn`, `refuse`), and a row of a listing is data (`console.row`). The scan reads
each command module's source and fails, naming file and line, on a `print(...)` or a `.write(...)` of a
string literal or an f-string.

`flowyard check` and `flowyard walk` (backend/graph/cli.py, backend/walker/cli.py) print English on
purpose, a contract other programs read (docs/flow-format.md), and are not scanned.
"""

from __future__ import annotations

import ast
from pathlib import Path

BACKEND = Path(__file__).resolve().parents[1] / "backend"
# The command modules: every `*commands.py`, the processes, and the modules a command prints from.
MODULES = sorted(
    {
        *BACKEND.glob("**/*commands.py"),
        BACKEND / "processes.py",
        BACKEND / "cli.py",
        BACKEND / "queue" / "watch.py",
        BACKEND / "queue" / "preview_cli.py",
    }
)


def printed_literals(source: str) -> list[int]:
    """The lines of `source` that print a string literal or an f-string.

    Examples:
        >>> printed_literals('print("saved")\\nprint(f"run {n}")\\nsys.stdout.write("x")\\n')
        [1, 2, 3]
        >>> printed_literals('say(code="cli_run_started", run=n)\\nprint(token)\\nrow(*cells)\\n')
        []
        >>> printed_literals('print("a" if ok else "b", file=sys.stderr)\\nout.write("%s" % x)\\n')
        [1, 2]
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name in ("print", "write") and _has_literal(node.args[0]):
            found.append(node.lineno)
    return found


def _has_literal(expression: ast.expr) -> bool:
    """Whether an argument is, or is built from, a string literal (an f-string, `%`, `+`, a conditional)."""
    if isinstance(expression, ast.JoinedStr):
        return True
    if isinstance(expression, ast.Constant):
        return isinstance(expression.value, str)
    if isinstance(expression, ast.BinOp):
        return _has_literal(expression.left) or _has_literal(expression.right)
    if isinstance(expression, ast.IfExp):
        return _has_literal(expression.body) or _has_literal(expression.orelse)
    return False


def test_the_scan_covers_every_command_module() -> None:
    names = {path.relative_to(BACKEND).as_posix() for path in MODULES}
    assert {"flows/commands.py", "queue/commands.py", "people/commands.py", "store/commands.py"} <= names
    assert {"actions/commands.py", "approvals/commands.py", "processes.py"} <= names
    assert all(path.is_file() for path in MODULES)


def test_no_command_module_prints_a_literal() -> None:
    found = [
        f"{path.relative_to(BACKEND)}:{line}"
        for path in MODULES
        for line in printed_literals(path.read_text(encoding="utf-8"))
    ]
    assert not found, "print a catalog sentence (backend.console.say/warn) instead: " + ", ".join(found)
