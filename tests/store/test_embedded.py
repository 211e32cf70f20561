"""The embedded server as a user meets it: started by the first command, reused, survives SIGKILL, stopped."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from backend.store import embedded
from tests.ports import serving_url


def _env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["FLOWYARD_DATA_DIR"] = str(data_dir)
    return env


def _flowyard(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "backend.cli", *args],
        env=_env(data_dir),
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def data_dir() -> Iterator[Path]:
    """A folder outside pytest's, whose parents the server's system user may not enter (pytest-xdist adds a
    private level per worker)."""
    folder = Path(tempfile.mkdtemp(prefix="flowyard-embedded-"))
    os.chmod(folder, 0o755)
    try:
        yield folder
    finally:
        embedded.stop(folder / "pgdata")
        shutil.rmtree(folder, ignore_errors=True)


def test_serve_starts_the_embedded_server_and_a_killed_process_leaves_it_reusable(data_dir: Path) -> None:
    with subprocess.Popen(
        [sys.executable, "-m", "backend.cli", "serve", "--port", "0", "--no-worker"],
        env=_env(data_dir),
        stdout=subprocess.PIPE,
        text=True,
    ) as serve:
        try:
            assert serve.stdout is not None
            # An empty database first hears how to add its first administrator; then the banner, printed
            # once the database is up and the port bound.
            assert serve.stdout.readline().startswith("There are no users yet.")
            # `--port 0`: the port the system gave it, which the banner names.
            base = serving_url(serve.stdout.readline())
            assert base is not None and base.startswith("http://127.0.0.1:") and not base.endswith(":0")
            health = _get_json(f"{base}/healthz")
            assert health["status"] == "ok"
            assert isinstance(health["database"], dict) and health["database"]["schema"] >= 1
            pid = embedded.running_pid(data_dir / "pgdata")
            assert pid is not None
        finally:
            serve.send_signal(signal.SIGKILL)
            serve.wait(timeout=30)

    # The server outlives the killed process; the next command finds it and reuses it.
    assert embedded.running_pid(data_dir / "pgdata") == pid
    again = _flowyard(data_dir, "migrate")
    assert again.returncode == 0, again.stderr
    assert "up to date" in again.stdout
    assert embedded.running_pid(data_dir / "pgdata") == pid

    stopped = _flowyard(data_dir, "db", "stop")
    assert stopped.returncode == 0 and "stopped" in stopped.stdout
    assert embedded.running_pid(data_dir / "pgdata") is None
    assert "stopped" in _flowyard(data_dir, "db", "status").stdout


def _get_json(url: str) -> dict[str, object]:
    with urllib.request.urlopen(url, timeout=30) as response:
        return dict(json.load(response))


def test_a_server_stopped_by_this_process_is_started_again_by_it(data_dir: Path) -> None:
    pgdata = data_dir / "pgdata"
    first = embedded.start(pgdata)
    assert embedded.stop(pgdata) is True
    assert embedded.running_pid(pgdata) is None
    again = embedded.start(pgdata)
    assert embedded.running_pid(pgdata) is not None
    with psycopg.connect(again) as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)
    assert again == first
