"""Real `flowyard serve` and `flowyard worker` processes for the observability tests, logging JSON to files
the tests read, and a parsed Prometheus scrape."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import httpx
from prometheus_client.parser import text_string_to_metric_families

from tests.ports import metrics_url, serving_url
from tests.run_changes import wait_for as wait_for  # the observability tests' and the stories' import
from tests.server_logs import known_secret, server_log

METRICS_TOKEN = known_secret("scrape-only-7d1c5e0a9b")
# httpx gives up after 5 s by default, which a request on this 2-core machine at load 20 can take (a login's
# password hash, a scrape summing the figures): a passing request waits only as long as it must.
HTTP_TIMEOUT_S = 60


class LogPump:
    """A process's stderr copied line by line into a file by a thread of its own (a drained pipe never
    fills, however chatty the log), each line announced to whoever waits for one."""

    def __init__(self, stream: IO[str], path: Path) -> None:
        self.path = path
        self.closed = False  # the process closed its stderr: no line comes any more
        self.changed = threading.Condition()
        self._file = path.open("w")
        self._thread = threading.Thread(target=self._pump, args=(stream,), daemon=True)
        self._thread.start()

    def _pump(self, stream: IO[str]) -> None:
        try:
            for line in stream:
                with self.changed:
                    self._file.write(line)
                    self._file.flush()
                    self.changed.notify_all()
        finally:
            with self.changed:
                self._file.close()
                self.closed = True
                self.changed.notify_all()

    def until(self, done: Callable[[], bool], timeout_s: float) -> None:
        """Return once `done()` holds, checked at each new line, or the log has ended, or `timeout_s`."""
        with self.changed:
            self.changed.wait_for(lambda: done() or self.closed, timeout_s)

    def join(self) -> None:
        self._thread.join()


@dataclass
class Live:
    process: subprocess.Popen[str]
    pump: LogPump
    base: str  # where it serves HTTP, as it said so itself (a worker: its own /metrics; "": nowhere)

    @property
    def log(self) -> Path:
        return self.pump.path

    def lines(self) -> list[dict[str, Any]]:
        """The JSON log lines so far."""
        return [json.loads(line) for line in self.log.read_text().splitlines() if line.startswith("{")]

    def requests_served(self, *ids: str, timeout_s: float = 60) -> set[str]:
        """The request ids of the "request served" lines, once all of `ids` are among them: a line is written
        as the response's last byte leaves, which the client may read first."""

        def served() -> set[str]:
            return {str(line["request"]) for line in self.lines() if line.get("event") == "request served"}

        self.pump.until(lambda: set(ids) <= served(), timeout_s)
        return served()

    def wait_for_events(self, prefix: str, count: int, timeout_s: float = 120) -> list[str]:
        """The log events starting with `prefix`, once `count` lines have them (children of `serve
        --workers` each log the same sentence as they come up), or the log ended, or `timeout_s` passed."""

        def events() -> list[str]:
            return [str(line["event"]) for line in self.lines() if str(line["event"]).startswith(prefix)]

        self.pump.until(lambda: len(events()) >= count, timeout_s)
        return events()


@contextmanager
def started(command: list[str], url: str, log: Path, **env: str) -> Iterator[Live]:
    """A flowyard process whose stderr is copied to `log` as it comes (LogPump). `serve --port 0` and
    `worker --metrics-port 0` bind a port the system picks and name it: `Live.base` is what they said."""
    environment = dict(
        os.environ,
        DATABASE_URL=url,
        FLOWYARD_LOG_FORMAT="json",
        FLOWYARD_LOG_LEVEL="DEBUG",
        FLOWYARD_METRICS_TOKEN=METRICS_TOKEN,
        FLOWYARD_ACTIONS_ALLOW="127.0.0.1",
        **env,
    )
    with subprocess.Popen(
        [sys.executable, "-m", "backend.cli", *command],
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        pump = LogPump(process.stderr, log)
        try:
            yield Live(process, pump, _serving(command, process.stdout, log))
        finally:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
            process.wait(timeout=60)
            pump.join()  # every line the process wrote is in the file
            server_log(f"{command[0]} ({log.name})", log.read_text())
    assert "Traceback" not in log.read_text(), log.read_text()


def _serving(command: list[str], stdout: IO[str], log: Path) -> str:
    """Where the process serves, read from its first lines: serve's banner (after the first-administrator
    hint an empty database gets), or the worker's banner and, with `--metrics-port`, its metrics line."""
    banner = stdout.readline()
    if command[0] == "serve":
        if serving_url(banner) is None:
            banner = stdout.readline()
        base = serving_url(banner)
        assert base is not None, f"{banner!r} {log.read_text()}"
        return base
    assert "is serving due waits" in banner, f"{banner!r} {log.read_text()}"
    if "--metrics-port" not in command:
        return ""
    line = stdout.readline()
    base = metrics_url(line)
    assert base is not None, f"{line!r} {log.read_text()}"
    return base


def scrape(base: str, token: str = METRICS_TOKEN) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    answer = httpx.get(
        f"{base}/metrics", headers={"Authorization": f"Bearer {token}"}, timeout=HTTP_TIMEOUT_S
    )
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(answer.text)
        for sample in family.samples
    }


def value(samples: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str) -> float:
    """The sum of `name`'s samples whose labels include `labels` (0 when there is none)."""
    wanted = set(labels.items())
    return sum(v for (n, have), v in samples.items() if n == name and wanted <= have)
