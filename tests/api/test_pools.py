"""`flowyard serve` gives its in-process worker a pool of its own: with every connection of the API's
pool taken, the worker still walks a run to its end."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from backend.api.app import create_app
from backend.settings import Settings
from tests.run_changes import wait_for
from tests.support import Queue, flow


def test_the_worker_walks_while_the_apis_pool_is_empty(queue: Queue) -> None:
    run_id = queue.start(
        queue.save(
            flow(
                "start:trigger",
                {"id": "note", "type": "log", "config": {"message": "hi"}},
                wires=[{"from": "start", "to": "note"}],
            )
        )
    )

    async def go() -> tuple[object, ...]:
        app = create_app(
            queue.url, run_worker=True, settings=replace(Settings.from_environment(), api_pool_size=1)
        )
        # The API's only connection is held for the whole wait; the wait blocks a thread, not the loop
        # the in-process worker walks on.
        async with app.router.lifespan_context(app), app.state.pool.connection():
            ended = "SELECT status FROM runs WHERE id = %s AND ended_at IS NOT NULL"
            return await asyncio.to_thread(wait_for, queue.url, ended, run_id)

    assert asyncio.run(go()) == ("succeeded",)
