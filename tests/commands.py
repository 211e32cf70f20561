"""Several `flowyard` commands run one after another by one process, each with its own output and exit code.

A process's start (the interpreter, the backend's imports) costs more than most commands, and a test that
runs a dozen of them spent most of its time starting processes. The process calls the same `main` the
console script calls, so each command runs as it does from a terminal.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass

_COMMANDS = """
import contextlib, io, json, sys
from backend.cli import main
said = []
for argv in json.load(sys.stdin):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exit:
            code = exit.code
    said.append([code, out.getvalue(), err.getvalue()])
json.dump(said, sys.__stdout__)
"""


@dataclass(frozen=True, slots=True)
class Said:
    code: int | str | None  # what `main` returned or exited with (None: it returned nothing)
    out: str
    err: str


def run_commands(commands: list[list[str]], env: dict[str, str], timeout_s: float = 300) -> list[Said]:
    """What each command said, in order; `env` is added to this process's environment."""
    done = subprocess.run(
        [sys.executable, "-c", _COMMANDS],
        input=json.dumps(commands),
        env=os.environ | env,
        capture_output=True,
        text=True,
        timeout=timeout_s,
    )
    assert done.returncode == 0, (commands, done.stderr)
    return [Said(code, out, err) for code, out, err in json.loads(done.stdout)]
