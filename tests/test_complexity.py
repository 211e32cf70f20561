"""The pure core stays readable: no function of backend/graph or backend/walker above cyclomatic complexity
14, as radon counts it (`radon cc -s`, the figure issue 37 gives). radon counts what mccabe (ruff's C901)
counts and, beside it, each boolean operator and each comprehension: a condition of four clauses is as
many ways through a function whether it is written as four `if`s or as one. Methods and nested functions
(the closures fastcheck.py compiles) are held to it too. A function that grows past it is split where its
steps part, not excused here: the walker's visit order and the validator's findings are a contract, and a
function a person can hold in their head is how they stay one.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from radon.complexity import cc_visit
from radon.visitors import Class, Function

ROOT = Path(__file__).resolve().parents[1]
CORE = (ROOT / "backend/graph", ROOT / "backend/walker")
MAX_COMPLEXITY = 14


def _functions(blocks: Sequence[Function | Class], owner: str = "") -> Iterator[tuple[str, int]]:
    """Every function, method and nested function among radon's blocks, by qualified name, with its figure
    (radon gives a class's methods as blocks of their own, and a function's nested functions inside it)."""
    for block in blocks:
        if isinstance(block, Function):
            name = f"{owner}{block.fullname}"
            yield name, block.complexity
            yield from _functions(block.closures, f"{name}.")


def _too_complex(*folders: Path) -> list[str]:
    found = []
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            for name, complexity in _functions(cc_visit(path.read_text(encoding="utf-8"))):
                if complexity > MAX_COMPLEXITY:
                    found.append(f"{path.relative_to(folder.parent)}: {name} ({complexity})")
    return found


def test_no_function_of_the_pure_core_is_above_complexity_14() -> None:
    assert _too_complex(*CORE) == []


def test_the_check_sees_a_function_above_it(tmp_path: Path) -> None:
    # Half the ways through are `if`s, half the clauses of boolean operators, a comprehension among them:
    # mccabe would count this function at 9, radon counts 15.
    ifs = "".join(f"    if value == {n}:\n        return {n}\n" for n in range(7))
    clauses = " or ".join(f"value == {n}" for n in range(10, 15))
    source = (
        f"def branchy(value: int) -> int:\n{ifs}"
        f"    if {clauses}:\n        return 10\n"
        "    return sum(1 for n in range(value) if n)\n"
    )
    folder = tmp_path / "core"
    folder.mkdir()
    (folder / "branchy.py").write_text(source)
    assert _too_complex(folder) == [f"core/branchy.py: branchy ({MAX_COMPLEXITY + 1})"]


def test_a_method_and_a_nested_function_are_measured_too(tmp_path: Path) -> None:
    clauses = " and ".join(f"value != {n}" for n in range(MAX_COMPLEXITY + 1))
    source = (
        "class Walk:\n"
        "    def outer(self) -> None:\n"
        "        def inner(value: int) -> bool:\n"
        f"            return {clauses}\n"
    )
    folder = tmp_path / "core"
    folder.mkdir()
    (folder / "nested.py").write_text(source)
    assert _too_complex(folder) == [f"core/nested.py: Walk.outer.inner ({MAX_COMPLEXITY + 1})"]
