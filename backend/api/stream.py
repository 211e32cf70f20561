"""Runs' changes as Server-Sent Events: what keeps the runs pages live without polling.

A trigger on `runs` sends a NOTIFY on `flowyard_runs` at every commit that changes a run a page shows
(migration 0008). Each API process holds one LISTEN connection, whoever is watching, and fans the events
out to the open streams; a stream forwards only the runs of flows its user may read. An event says which
run changed and its status, nothing more: the page reads the run again through the API, which checks
rights as always. A stream that falls behind (its queue full) or a LISTEN connection that was lost and
came back gets `resync`: events may have been missed, read the list again. A comment every 15 seconds
keeps proxies from closing an idle stream.

`sse-starlette` writes the protocol (framing, pings, the client's disconnect); see the README.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from psycopg import AsyncConnection
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.responses import Response

from backend.api.endpoint import Call, endpoint
from backend.api.flows import ID
from backend.people.accounts import rights_of

log = logging.getLogger("flowyard.stream")

CHANNEL = "flowyard_runs"
QUEUE_SIZE = 1000
PING_S = 15
RETRY_S = 1.0


@dataclass(eq=False, slots=True)
class Subscriber:
    """One open stream: the flows it may see (None: every flow), and what it has not sent yet."""

    flows: frozenset[int] | None
    queue: asyncio.Queue[dict[str, Any] | None] = field(default_factory=lambda: asyncio.Queue(QUEUE_SIZE))

    def offer(self, event: dict[str, Any] | None) -> None:
        """An event, or None for `resync`; a full queue is emptied and told to resync, never cut silently."""
        if event is not None and self.flows is not None and event.get("flow") not in self.flows:
            return
        try:
            self.queue.put_nowait(event)
        except asyncio.QueueFull:
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)


class RunEvents:
    """The process's one LISTEN connection and the streams it feeds."""

    def __init__(self, conninfo: str) -> None:
        self.conninfo = conninfo
        self.subscribers: set[Subscriber] = set()
        self._task: asyncio.Task[None] | None = None
        self.listening = asyncio.Event()  # set once LISTEN is in place (tests and the bench wait for it)

    def start(self) -> None:
        self._task = asyncio.create_task(self._listen())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    @contextlib.contextmanager
    def subscribed(self, flows: frozenset[int] | None) -> Any:
        subscriber = Subscriber(flows)
        self.subscribers.add(subscriber)
        try:
            yield subscriber
        finally:
            self.subscribers.discard(subscriber)

    def publish(self, event: dict[str, Any] | None) -> None:
        for subscriber in list(self.subscribers):
            subscriber.offer(event)

    async def _listen(self) -> None:
        lost = False
        while True:
            try:
                async with await AsyncConnection.connect(self.conninfo, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    if lost:
                        self.publish(None)  # whatever changed while we were away was not heard
                    async for notice in conn.notifies():
                        try:
                            event = json.loads(notice.payload)
                        except ValueError:
                            continue
                        self.publish(event)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("lost the runs' LISTEN connection; connecting again", exc_info=True)
                self.listening.clear()
                lost = True
                await asyncio.sleep(RETRY_S)


async def readable_flows(call: Call) -> frozenset[int] | None:
    """The flows whose runs the user may read: None for every flow (a right granted everywhere)."""
    grants = await rights_of(call.conn, call.me.name)
    if any(grant.flow_id is None for grant in grants):
        return None
    return frozenset(grant.flow_id for grant in grants if grant.flow_id is not None)


@endpoint(
    "GET",
    "/api/runs/stream",
    summary="Server-Sent Events: `ready` once every later change reaches the stream (read what you show "
    "again then), `run` ({run, flow, status}) for each change of a run I may read, `resync` when some may "
    "have been missed; optionally of one flow or one run",
    tag="runs",
    query={"flow": ID, "run": ID},
    responses={200: {"type": "string"}},
    content="text/event-stream",
)
async def stream(call: Call) -> Response:
    flows = await readable_flows(call)
    wanted_flow, wanted_run = call.query.get("flow"), call.query.get("run")
    if wanted_flow is not None:
        flows = frozenset({wanted_flow}) & flows if flows is not None else frozenset({wanted_flow})
    events: RunEvents = call.request.app.state.run_events

    async def send() -> AsyncIterator[ServerSentEvent]:
        # The handler's connection went back to the pool when it returned: a stream holds none.
        with events.subscribed(flows) as subscriber:
            # `ready` promises that every change committed from now on reaches this stream.
            await events.listening.wait()
            yield ServerSentEvent(event="ready", data="{}")
            while True:
                event = await subscriber.queue.get()
                if event is None:
                    yield ServerSentEvent(event="resync", data="{}")
                elif wanted_run is None or event.get("run") == wanted_run:
                    yield ServerSentEvent(event="run", data=json.dumps(event))

    return EventSourceResponse(send(), ping=PING_S, headers={"Cache-Control": "no-cache"})
