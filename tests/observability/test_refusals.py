"""What the operator's new settings refuse, each in one line with its reason code and exit code 2."""

from __future__ import annotations

import os
import socket
import subprocess
import sys


def flowyard(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, DATABASE_URL=url)
    return subprocess.run(
        [sys.executable, "-m", "backend.cli", *args], env=env, capture_output=True, text=True, timeout=120
    )


def test_a_metrics_port_in_use_stops_the_worker_before_it_claims(database_url: str) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        done = flowyard(database_url, "worker", "--metrics-port", str(port))
    assert done.returncode == 2 and "is serving" not in done.stdout
    assert done.stderr.strip().endswith("(metrics_port_unavailable)") and str(port) in done.stderr


def test_serve_needs_at_least_one_process(database_url: str) -> None:
    done = flowyard(database_url, "serve", "--workers", "0")
    assert done.returncode == 2 and "serving" not in done.stdout
    assert done.stderr.strip() == (
        "flowyard: --workers 0: at least one API process is needed. (serve_workers_invalid)"
    )
