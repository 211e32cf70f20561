"""A real `flowyard serve` on loopback, and raw sockets that send a request's head and then dawdle.

What these tests measure (a pool held by a body that never comes, an event loop held by hashing) only
happens on a real server with real sockets; the TestClient hands the app a body all at once.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from tests.ports import port_of, serving_url
from tests.server_logs import server_log


@dataclass(frozen=True, slots=True)
class Live:
    base: str
    port: int
    log: list[str]  # the server's stderr, filled when it has stopped


@contextmanager
def serve(database_url: str, *extra: str, **env: str) -> Iterator[Live]:
    """`flowyard serve` on a port the system picks, with `env` added to the environment; its stderr is
    checked for tracebacks after."""
    log: list[str] = []
    with subprocess.Popen(
        [sys.executable, "-m", "backend.cli", "serve", "--port", "0", *extra],
        env=dict(os.environ, DATABASE_URL=database_url, **env),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as server:
        assert server.stdout is not None and server.stderr is not None
        try:
            # An empty database first hears how to add its first administrator; then the banner.
            banner = [server.stdout.readline()]
            if "serving" not in banner[0]:
                banner.append(server.stdout.readline())
            base = serving_url(banner[-1])
            assert base is not None, banner
            yield Live(base, port_of(base), log)
        finally:
            server.terminate()
            server.wait(timeout=60)
            log.append(server.stderr.read())
            server_log("serve (tests/api/live)", log[0])
    assert "Traceback" not in log[0], log[0]


def dawdle(port: int, method: str, path: str, headers: dict[str, str], first: bytes = b"{") -> socket.socket:
    """A connection that sends a request's head and the first bytes of a 100-byte body, then nothing."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    lines.append("Content-Length: 100")
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + first)
    return sock


def unanswered(sock: socket.socket) -> bool:
    """True when the server has sent nothing on `sock` yet (it is still waiting for the body)."""
    sock.setblocking(False)
    try:
        sock.recv(1, socket.MSG_PEEK)
    except BlockingIOError:
        return True
    finally:
        sock.setblocking(True)
    return False
