"""Real `flowyard serve` and `flowyard worker` processes for the observability tests, logging JSON to files
the tests read, and a parsed Prometheus scrape."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import psycopg
from prometheus_client.parser import text_string_to_metric_families

from tests.server_logs import known_secret, server_log

METRICS_TOKEN = known_secret("scrape-only-7d1c5e0a9b")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Live:
    process: subprocess.Popen[str]
    log: Path
    port: int

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def lines(self) -> list[dict[str, Any]]:
        """The JSON log lines so far (each handler record is flushed as it is written)."""
        return [json.loads(line) for line in self.log.read_text().splitlines() if line.startswith("{")]

    def requests_served(self, *ids: str, timeout_s: float = 60) -> set[str]:
        """The request ids of the "request served" lines, once all of `ids` are among them: a line is written
        as the response's last byte leaves, which the client may read first."""
        deadline = time.monotonic() + timeout_s
        while True:
            served = {str(line["request"]) for line in self.lines() if line.get("event") == "request served"}
            if set(ids) <= served or time.monotonic() > deadline or self.process.poll() is not None:
                return served
            time.sleep(0.05)

    def wait_for_events(self, prefix: str, count: int, timeout_s: float = 120) -> list[str]:
        """The log events starting with `prefix`, once `count` lines have them (children of `serve
        --workers` each log the same sentence as they come up): the log re-read every twentieth of a
        second, bounded in time, and given up on when the process has exited."""
        deadline = time.monotonic() + timeout_s
        while True:
            events = [str(line["event"]) for line in self.lines() if str(line["event"]).startswith(prefix)]
            if len(events) >= count or time.monotonic() > deadline or self.process.poll() is not None:
                return events
            time.sleep(0.05)


@contextmanager
def started(command: list[str], url: str, log: Path, port: int, **env: str) -> Iterator[Live]:
    """A flowyard process whose stderr goes to `log` (a file, so a chatty log never fills a pipe)."""
    environment = dict(
        os.environ,
        DATABASE_URL=url,
        FLOWYARD_LOG_FORMAT="json",
        FLOWYARD_LOG_LEVEL="DEBUG",
        FLOWYARD_METRICS_TOKEN=METRICS_TOKEN,
        FLOWYARD_ACTIONS_ALLOW="127.0.0.1",
        **env,
    )
    with (
        log.open("w") as err,
        subprocess.Popen(
            [sys.executable, "-m", "backend.cli", *command],
            env=environment,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
        ) as process,
    ):
        assert process.stdout is not None
        try:
            # An empty database first hears how to add its first administrator; then the banner.
            banner = process.stdout.readline()
            if "serving" not in banner and command[0] == "serve":
                banner = process.stdout.readline()
            assert "serving" in banner, log.read_text()
            yield Live(process, log, port)
        finally:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
            process.wait(timeout=60)
            server_log(f"{command[0]} ({log.name})", log.read_text())
    assert "Traceback" not in log.read_text(), log.read_text()


def scrape(base: str, token: str = METRICS_TOKEN) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    answer = httpx.get(f"{base}/metrics", headers={"Authorization": f"Bearer {token}"})
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


def wait_for(url: str, sql: str, *params: Any, timeout_s: float = 60) -> tuple[Any, ...]:
    """The first row of `sql` once it has one; re-asked every tenth of a second, bounded in time."""
    deadline = time.monotonic() + timeout_s
    with psycopg.connect(url, autocommit=True) as conn:
        while time.monotonic() < deadline:
            row = conn.execute(sql, params).fetchone()
            if row is not None:
                return tuple(row)
            conn.execute("SELECT pg_sleep(0.1)")
    raise AssertionError(f"no row after {timeout_s} s: {sql}")
