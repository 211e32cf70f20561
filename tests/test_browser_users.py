"""The browser test modules that share a test process's server (the `server` fixture) add users of
different names: which modules share a process changes from run to run (`--dist loadfile`), so a name
two modules add fails only in the runs that put them together.

A module shares that server when one of its tests takes `server`; the names it adds are the first string
given after `server` in any call (`server.user("ann", ...)`, `log_in(browser, server, "ann")`,
`open_flow(browser, server, "ann")`)."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

BROWSER_TESTS = Path(__file__).parent / "browser"


def shared_server_users(source: str) -> set[str] | None:
    """The user names a module adds on the shared server; None when no test of it takes `server`.

    Examples:
        >>> sorted(shared_server_users('def test_a(server):\\n server.user("an")\\n log_in(b, server, "bo")'))
        ['an', 'bo']
        >>> shared_server_users('def test_a(story):\\n    story.server.user("ann")') is None
        True
    """
    tree = ast.parse(source)
    tests = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]
    if not any(arg.arg == "server" for test in tests for arg in test.args.args):
        return None
    names: set[str] = set()
    for call in (node for node in ast.walk(tree) if isinstance(node, ast.Call)):
        func = call.func
        if isinstance(func, ast.Attribute) and _is_server(func.value) and func.attr == "user":
            given = call.args[:1]
        else:
            after = [i for i, arg in enumerate(call.args) if _is_server(arg)]
            given = call.args[after[0] + 1 : after[0] + 2] if after else []
        names |= {arg.value for arg in given if isinstance(arg, ast.Constant) and isinstance(arg.value, str)}
    return names


def _is_server(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "server"


def test_no_two_modules_sharing_a_server_add_the_same_user() -> None:
    modules: dict[str, list[str]] = defaultdict(list)
    for path in sorted(BROWSER_TESTS.glob("test_*.py")):
        for name in shared_server_users(path.read_text(encoding="utf-8")) or ():
            modules[name].append(path.name)
    assert modules, "the scan found no user the browser tests add: it no longer reads them"
    assert {name: found for name, found in modules.items() if len(found) > 1} == {}
