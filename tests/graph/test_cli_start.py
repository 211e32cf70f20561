"""What `flowyard check` and `flowyard walk` import to start: networkx only for a flow with a cycle.

A new interpreter per case, as a user starts the CLI; the test asserts which modules were loaded, never
how long it took (bench/validate.py prints the times).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

_PROBE = (
    "import sys, contextlib, io\n"
    "from backend.cli import main\n"
    "out = io.StringIO()\n"
    "with contextlib.redirect_stdout(out):\n"
    "    code = main(sys.argv[1:])\n"
    "print(code, 'networkx' in sys.modules, 'psycopg' in sys.modules, file=sys.stderr)\n"
)


def _started(*argv: str) -> tuple[int, bool, bool]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *argv], capture_output=True, text=True, timeout=120, check=False
    )
    code, networkx, psycopg = done.stderr.split()[-3:]
    return int(code), networkx == "True", psycopg == "True"


@pytest.mark.parametrize("command", [["check"], ["walk", "--json"]])
def test_a_flow_without_a_cycle_is_checked_and_walked_without_networkx_or_the_database(
    command: list[str],
) -> None:
    code, networkx, psycopg = _started(command[0], str(EXAMPLES / "invoice-approval.json"), *command[1:])
    assert code == 0
    assert (networkx, psycopg) == (False, False)


def test_a_flow_with_a_cycle_still_gets_its_finding(tmp_path: Path) -> None:
    document = json.loads((EXAMPLES / "invoice-approval.json").read_text())
    first, last = document["nodes"][1]["id"], document["nodes"][-1]["id"]
    document["wires"].append({"from": last, "to": first})
    path = tmp_path / "cycle.json"
    path.write_text(json.dumps(document))
    done = subprocess.run(
        [sys.executable, "-m", "backend.cli", "check", "--json", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    findings = json.loads(done.stdout)["findings"]
    # The way around the cycle is networkx's shortest path inside it (Topology.cycle_path).
    assert [(f["code"], f["node"]) for f in findings] == [("cycle", first)]
    assert f"{first} -> {last} -> {first}" in findings[0]["message"]
