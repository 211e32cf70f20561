"""The pages' change events (`flowyard_runs`, read by GET /api/runs/stream) cover a run whose shown status
changes while its row does not: `running` is shown while a worker holds the run's wait (the view runs_now),
so a claim let go with nothing to write must say so itself, or a page read during the claim keeps showing
`running` (a resumed run's page did, at load 12)."""

from __future__ import annotations

import json
from typing import Any

import psycopg

from tests.support import Queue, flow


def asking() -> dict[str, Any]:
    ask = {
        "id": "ask",
        "type": "approval",
        "config": {
            "title": "Pay?",
            "approvers": ["group:finance"],
            "deadline": "P2D",
            "on_timeout": "reject",
        },
    }
    return flow("start:trigger", ask, wires=[{"from": "start", "to": "ask"}])


def test_an_approval_woken_early_and_parked_again_tells_the_pages(queue: Queue) -> None:
    flow_id = queue.save(asking())
    run_id = queue.start(flow_id)
    queue.drain()
    assert queue.status(run_id) == ("waiting", None)
    lines = queue.codes(run_id)
    with psycopg.connect(queue.url, autocommit=True) as listener:
        listener.execute("LISTEN flowyard_runs")
        # Due now, undecided: the worker claims the wait, finds nothing decided and parks it as it was.
        listener.execute("UPDATE waits SET wake_at = %s WHERE run_id = %s", (queue.clock(), run_id))
        queue.drain()
        # Bounded only for a failure; the event was committed before drain() returned.
        told = [json.loads(n.payload) for n in listener.notifies(timeout=60, stop_after=1)]
    assert told == [{"run": run_id, "flow": flow_id, "status": "waiting"}]
    # Nothing of the run's own changed: its row's trigger had nothing to tell.
    assert queue.codes(run_id) == lines and queue.status(run_id) == ("waiting", None)
    assert queue.one("SELECT status, attempts FROM waits WHERE run_id = %s", run_id) == ("waiting", 0)
