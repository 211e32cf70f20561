"""The README's first steps, run as written on a fresh database: a README that cannot rot.

The block is taken from README.md, not copied here. `flowyard serve --port 0` plays `make run`'s
terminal (its worker walks the run); each command of the block runs as a real `flowyard` process, and
its output must be the lines the README shows under it, `<token>` and `<time>` matched by pattern.
"""

from __future__ import annotations

import os
import queue
import re
import shlex
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from backend.i18n.catalogs import message
from tests.ports import serving_url
from tests.server_logs import known_secret, server_log

ROOT = Path(__file__).resolve().parents[1]
FLOWYARD = str(Path(sys.executable).parent / "flowyard")
HTTP_TIMEOUT_S = 60  # httpx says 5 s, which a login (its password hash) can take at load 20
PLACEHOLDERS = {"<token>": r"fy_[A-Za-z0-9_-]{40,}", "<time>": r".+?"}


@dataclass
class Step:
    line: str
    expected: list[str] = field(default_factory=list)


def first_steps() -> list[Step]:
    """The README's first `sh` block after "## First steps": commands, each with the `# ` lines below it."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## First steps") :]
    block = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert block is not None, "the first steps are a ```sh block"
    steps: list[Step] = []
    for line in block.group(1).splitlines():
        if line.startswith("#"):
            steps[-1].expected.append(line.removeprefix("#").strip())
        elif line.strip():
            steps.append(Step(line))
    return steps


def pattern(expected: str) -> re.Pattern[str]:
    parts = re.split("(" + "|".join(map(re.escape, PLACEHOLDERS)) + ")", expected)
    return re.compile("".join(PLACEHOLDERS.get(part, re.escape(part)) for part in parts))


class Server:
    """`flowyard serve` in a process of its own, its stdout read line by line on a thread."""

    def __init__(self, env: dict[str, str]) -> None:
        self.base = ""  # where it serves, once its banner said so (`--port 0`: a port the system picks)
        self.process = subprocess.Popen(
            [FLOWYARD, "serve", "--port", "0"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.printed: list[str] = []  # everything, for the session's secrets check
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.printed.append(line)
            self.lines.put(line.rstrip("\n"))
        self.lines.put("")  # the process closed its output

    def until_serving(self) -> list[str]:
        """What serve printed up to its "serving" line, that line included."""
        printed: list[str] = []
        while not printed or not printed[-1].startswith("Flowyard is serving"):
            line = self.lines.get(timeout=120)
            assert line, f"serve ended before serving: {printed}"
            printed.append(line)
        self.base = serving_url(printed[-1]) or ""
        # The README's form, `http://127.0.0.1:8000`, with the port the system gave.
        assert re.fullmatch(r"http://127\.0\.0\.1:[1-9][0-9]*", self.base), printed
        return printed

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=60)
        self.reader.join(timeout=60)
        assert self.process.stdout is not None
        self.process.stdout.close()
        server_log("serve (test_readme)", "".join(self.printed))


@pytest.fixture
def serve_env(empty_database_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLOWYARD_")}
    return dict(env, DATABASE_URL=empty_database_url)


@pytest.fixture
def server(serve_env: dict[str, str]) -> Iterator[Server]:
    running = Server(serve_env)
    yield running
    running.stop()


def test_the_first_steps_run_as_written_from_an_empty_database(
    server: Server, serve_env: dict[str, str]
) -> None:
    assert server.until_serving() == [
        message("first_admin_missing"),
        f"Flowyard is serving on {server.base}",
    ]
    env = dict(serve_env)
    steps = first_steps()
    assert any("approvals decide" in step.line for step in steps)
    token = ""
    for step in steps:
        argv = shlex.split(step.line, comments=True)
        if argv[0] == "export":
            name, _, value = argv[1].partition("=")
            env[name] = value
            continue
        assert argv[0] == ".venv/bin/flowyard", f"the first steps use only flowyard: {step.line}"
        done = subprocess.run(
            [FLOWYARD, *argv[1:]], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, f"{step.line}\n{done.stdout}{done.stderr}"
        printed = done.stdout.splitlines()
        assert len(printed) == len(step.expected), f"{step.line}\n{done.stdout}"
        for line, expected in zip(printed, step.expected, strict=True):
            assert pattern(expected).fullmatch(line), f"{step.line}\nprinted:  {line}\nexpected: {expected}"
        if argv[1:3] == ["token", "create"]:
            token = known_secret(printed[0])

    # ann logs in to the editor with her password, and her token acts as her.
    base = server.base
    password = known_secret(env["ANN_PASSWORD"])
    login = httpx.post(
        f"{base}/api/session", json={"name": "ann", "password": password}, timeout=HTTP_TIMEOUT_S
    )
    assert login.status_code == 201, login.text
    me = httpx.get(f"{base}/api/me", headers={"Authorization": f"Bearer {token}"}, timeout=HTTP_TIMEOUT_S)
    assert me.status_code == 200 and me.json()["name"] == "ann"


def test_serve_says_nothing_of_a_first_admin_once_there_are_users(serve_env: dict[str, str]) -> None:
    added = subprocess.run(
        [FLOWYARD, "user", "add", "carol", "--admin"], cwd=ROOT, env=serve_env, capture_output=True, text=True
    )
    assert added.returncode == 0, added.stderr
    server = Server(serve_env)
    try:
        assert server.until_serving() == [f"Flowyard is serving on {server.base}"]
    finally:
        server.stop()
