"""bench/decisions.py's measurements run end to end on a few runs (bench/decisions_cell.py, as the script
runs each of them): every decision sent through the API resumes its run, and the counting pass finds the
decide side's statements and the workers' claims in the server's log. No time is held."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def measure(server: str, *options: str) -> str:
    command = [
        sys.executable,
        str(REPO / "bench" / "decisions_cell.py"),
        "--checkout",
        str(REPO),
        "--url",
        server,
    ]
    done = subprocess.run([*command, *options], capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    assert "WARNING" not in done.stdout, done.stdout
    return done.stdout


def fields(output: str, kind: str) -> dict[str, str]:
    line = next(line for line in output.splitlines() if line.startswith(kind + " "))
    return dict(field.split("=", 1) for field in line.split()[1:])


def test_two_senders_through_the_api_resume_every_run_and_are_counted(pg_server_url: str) -> None:
    counted = fields(
        measure(pg_server_url, "--mode", "api", "--senders", "2", "--items", "6", "--count"), "counts"
    )
    assert counted["items"] == "6"
    assert float(counted["decide"]) >= 1
    assert float(counted["claims"]) > 0
