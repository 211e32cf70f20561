"""The pure core stays readable: no function of backend/graph or backend/walker above cyclomatic complexity
14, as ruff's C901 (mccabe) counts it (issue 37). A function that grows past it is split where its steps
part, not excused here: the walker's visit order and the validator's findings are a contract, and a
function a person can hold in their head is how they stay one.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORE = ("backend/graph", "backend/walker")
MAX_COMPLEXITY = 14


def _too_complex(*paths: str) -> list[str]:
    found = subprocess.run(
        [
            *(sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise"),
            *("--select", "C901", "--config", f"lint.mccabe.max-complexity={MAX_COMPLEXITY}"),
            *paths,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert found.returncode in (0, 1), found.stderr
    return [line for line in found.stdout.splitlines() if " C901 " in line]


def test_no_function_of_the_pure_core_is_above_complexity_14() -> None:
    assert _too_complex(*CORE) == []


def test_the_check_sees_a_function_above_it(tmp_path: Path) -> None:
    branches = "".join(f"    if value == {n}:\n        return {n}\n" for n in range(MAX_COMPLEXITY))
    (tmp_path / "branchy.py").write_text(f"def branchy(value: int) -> int:\n{branches}    return -1\n")
    assert [line.split(" C901 ")[1] for line in _too_complex(str(tmp_path))] == [
        f"`branchy` is too complex ({MAX_COMPLEXITY + 1} > {MAX_COMPLEXITY})"
    ]
