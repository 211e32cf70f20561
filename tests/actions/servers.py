"""Real servers the action tests send to: an HTTP server that records what it receives, an SMTP server.

Both listen on 127.0.0.1 on a port of their own and run in a thread, so a worker in the test's process
(or in a subprocess) talks to them over real sockets. Waiting is on a condition, never on a sleep.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import Message
from email.parser import BytesParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypeVar

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Received:
    method: str
    path: str
    headers: dict[str, str]  # lower-case names
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass(frozen=True, slots=True)
class Reply:
    status: int = 200
    body: bytes = b'{"ok": true}'
    headers: dict[str, str] = field(default_factory=lambda: {"Content-Type": "application/json"})


Route = Callable[[Received], Reply]


def _default_route(_request: Received) -> Reply:
    return Reply()


class _QuietServer(ThreadingHTTPServer):
    """A server that says nothing of a client that left before its answer (a test of timeouts hangs up on
    purpose); any other error of a request is printed as the standard library prints it."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


class RecordingServer:
    """Answers each request by its path's route (default: 200 and `{"ok": true}`), and keeps it."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.routes: dict[str, Route] = {}
        self.release = threading.Event()  # what a route that holds its answer waits for
        self._changed = threading.Condition()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def _any(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                request = Received(
                    self.command,
                    self.path,
                    {k.lower(): v for k, v in self.headers.items()},
                    self.rfile.read(length),
                )
                with server._changed:
                    server.received.append(request)
                    server._changed.notify_all()
                route = server.routes.get(self.path.split("?")[0], _default_route)
                reply = route(request)
                self.send_response(reply.status)
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(reply.body)))
                self.end_headers()
                self.wfile.write(reply.body)

            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _any

            def log_message(self, format: str, *args: Any) -> None:
                pass  # the test reads `received`, not a log

        self._http = _QuietServer(("127.0.0.1", 0), Handler)
        self._http.daemon_threads = True
        self.port = self._http.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self._http.serve_forever, daemon=True)

    def wait_for(self, count: int, timeout_s: float = 30) -> list[Received]:
        with self._changed:
            if not self._changed.wait_for(lambda: len(self.received) >= count, timeout_s):
                raise AssertionError(f"{len(self.received)} requests arrived, not {count}")
            return list(self.received)

    def hold(self) -> Route:
        """A route that answers only once `release` is set: a server slower than any timeout."""

        def held(_request: Received) -> Reply:
            self.release.wait(60)
            return Reply()

        return held

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self.release.set()
        self._http.shutdown()
        self._http.server_close()
        self._thread.join(10)


@contextmanager
def recording_server() -> Iterator[RecordingServer]:
    server = RecordingServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


class Mailbox:
    """An aiosmtpd handler that keeps every message it accepts."""

    def __init__(self) -> None:
        self.messages: list[tuple[Envelope, Message]] = []
        self._arrived = threading.Condition()

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        content = envelope.original_content or b""
        with self._arrived:
            self.messages.append((envelope, BytesParser().parsebytes(content)))
            self._arrived.notify_all()
        return "250 Message accepted for delivery"

    def wait_until(self, probe: Callable[[], T], what: str, timeout_s: float = 60) -> T:
        """`probe`'s first truthy answer, asked again at each arrival (never by a sleep)."""
        found: list[T] = []

        def answered() -> bool:
            found[:] = [probe()]
            return bool(found[0])

        with self._arrived:
            if not self._arrived.wait_for(answered, timeout_s):
                raise AssertionError(f"gave up waiting for {what} after {timeout_s} s")
        return found[0]

    def wait_for_mail_to(self, address: str, timeout_s: float = 60) -> Message:
        """The first message to `address`, once it has arrived: woken by each arrival, never by a sleep."""
        found: list[Message] = []

        def arrived() -> bool:
            found[:] = [m for _e, m in self.messages if m["To"] == address][:1]
            return bool(found)

        with self._arrived:
            if not self._arrived.wait_for(arrived, timeout_s):
                raise AssertionError(f"no mail to {address} after {timeout_s} s")
        return found[0]


class _BoundController(Controller):
    """aiosmtpd's controller serving on a socket bound to port 0 before it starts: the port comes from the
    system as it is bound (aiosmtpd would bind the number it is given, which it must know first to check
    that the server answers). Its start waits up to a minute for that answer: 5 s is short at load 20."""

    def __init__(self, handler: Mailbox) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        port = self.listener.getsockname()[1]
        super().__init__(handler, hostname="127.0.0.1", port=port, ready_timeout=60)

    def _create_server(self) -> Any:
        return self.loop.create_server(self._factory_invoker, sock=self.listener, ssl=self.ssl_context)


@contextmanager
def smtp_server() -> Iterator[tuple[Mailbox, int]]:
    mailbox = Mailbox()
    controller = _BoundController(mailbox)
    controller.start()
    try:
        yield mailbox, controller.port
    finally:
        controller.stop()
