"""Ports for the tests, each from the system at the moment it is bound: never one probed free and let go,
which another test process (pytest-xdist runs three) may take before it is used.

A server the tests start binds port 0 itself and says where it listens: `flowyard serve --port 0` in its
banner ("Flowyard is serving on http://HOST:PORT", README.md), `flowyard worker --metrics-port 0` on the
line after its own. A port that must refuse connections stays bound, never listening, while it is used.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from contextlib import contextmanager

SERVING = re.compile(r"^Flowyard is serving on (http://\S+:\d+)$")
METRICS = re.compile(r"^worker \S+ serves its metrics on (http://\S+:\d+)/metrics$")


def serving_url(line: str) -> str | None:
    """The base URL `flowyard serve`'s banner names; None for any other line.

    Examples:
        >>> serving_url("Flowyard is serving on http://127.0.0.1:40123\\n")
        'http://127.0.0.1:40123'
        >>> serving_url("There are no users yet.") is None
        True
    """
    found = SERVING.match(line.strip())
    return found.group(1) if found else None


def metrics_url(line: str) -> str | None:
    """The base URL of a worker's own /metrics, from the line `--metrics-port` adds; None for any other.

    Examples:
        >>> metrics_url("worker host/12/ab serves its metrics on http://127.0.0.1:40124/metrics")
        'http://127.0.0.1:40124'
    """
    found = METRICS.match(line.strip())
    return found.group(1) if found else None


def port_of(url: str) -> int:
    """
    Examples:
        >>> port_of("http://127.0.0.1:40123")
        40123
    """
    return int(url.rsplit(":", 1)[1])


@contextmanager
def closed_port() -> Iterator[int]:
    """A port of 127.0.0.1 that refuses every connection while the block runs: bound by a socket that
    never listens, so no other process can be given it meanwhile."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        yield int(holder.getsockname()[1])
