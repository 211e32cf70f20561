"""`flowyard serve` gives its in-process worker a pool of its own: with every connection of the API's
pool taken, the worker still walks a run to its end."""

from __future__ import annotations

import asyncio

import psycopg

from backend.api.app import create_app
from backend.api.settings import ApiSettings
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

    async def go() -> str:
        app = create_app(queue.url, run_worker=True, settings=ApiSettings(pool_size=1))
        # The API's only connection is held for the whole wait.
        async with (
            app.router.lifespan_context(app),
            app.state.pool.connection(),
            await psycopg.AsyncConnection.connect(queue.url, autocommit=True) as conn,
        ):
            for _ in range(600):  # bounded: a minute at most, on any machine
                cur = await conn.execute("SELECT status FROM runs WHERE id = %s", (run_id,))
                row = await cur.fetchone()
                if row is not None and row[0] == "succeeded":
                    return str(row[0])
                await conn.execute("SELECT pg_sleep(0.1)")
        return "still waiting"

    assert asyncio.run(go()) == "succeeded"
