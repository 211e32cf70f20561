"""No test waits for time: a sleep standing in for a synchronisation passes on a quiet machine and fails
on a busy one (or passes without checking anything). A test waits for what it needs: a row, a line, a
NOTIFY, what a page shows (Playwright's expect). Two shapes of sleep are not waits for time, and are let
through: a sleep of 0, which lets the others run, and a sleep inside a `while` loop, whose condition is
what is waited for (bounded by a timeout around it: that bound is the reader's to check, not this
test's)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).parent
_SLEEPS = {("time", "sleep"), ("asyncio", "sleep")}


def sleeps_for_time(source: str) -> list[int]:
    """The lines of `source` that sleep or wait for a time, outside a condition's loop.

    Examples:
        >>> sleeps_for_time("import time\\ntime.sleep(1)")
        [2]
        >>> sleeps_for_time("page.wait_for_timeout(500)")
        [1]
        >>> sleeps_for_time("from time import sleep")
        [1]
        >>> sleeps_for_time("async def f():\\n    await asyncio.sleep(delay=0)")
        []
        >>> sleeps_for_time("async def f():\\n    while not done():\\n        await asyncio.sleep(0.02)")
        []
        >>> sleeps_for_time("async def f():\\n    for _ in range(9):\\n        await asyncio.sleep(0.02)")
        [3]
    """
    tree = ast.parse(source)
    in_while = {id(node) for loop in ast.walk(tree) if isinstance(loop, ast.While) for node in ast.walk(loop)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in ("time", "asyncio"):
            found += [node.lineno for alias in node.names if alias.name == "sleep"]
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        func = node.func
        owner = func.value.id if isinstance(func.value, ast.Name) else None
        if func.attr == "wait_for_timeout" or (owner, func.attr) in _SLEEPS:
            given = [*node.args, *(keyword.value for keyword in node.keywords)]
            yields = [arg for arg in given if isinstance(arg, ast.Constant) and arg.value == 0]
            if not yields and id(node) not in in_while:
                found.append(node.lineno)
    return sorted(found)


def test_no_test_sleeps_for_time() -> None:
    found = [
        f"{path.relative_to(TESTS.parent)}:{line}"
        for path in sorted(TESTS.rglob("*.py"))
        if path != Path(__file__)
        for line in sleeps_for_time(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "a test sleeps for a time instead of waiting for what it needs: " + ", ".join(found)
