"""Every named statement of the queue, explained at 100,000 waits and keys: none scans a growing table."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from backend.queue.queries import QUERIES
from tests.support import Queue, flow, sequential_scans

# Parameters that make every statement plannable; the values matter only for their types.
PARAMS: dict[str, Any] = {
    "first": 1,
    "codes": ["c"],
    "nodes": ["n"],
    "visits": [1],
    "datas": None,
    "attempts": 1,
    "after": 0,
    "before": None,
    "trigger": None,
    "since": None,
    "until": None,
    "user": "u",
    "cron": "* * * * *",
    "timezone": "UTC",
    "next": None,
    "me": "w",
    "limit": 10,
    "answered_limit": 5,
    "abandoned_limit": 1,
    "due_limit": 10,
    "in_hand": [],
    "now": None,
    "lease": "30 seconds",
    "ids": [1, 2],
    "id": 1,
    "kind": "delay",
    "continuation": None,
    "node": "n",
    "visit": 1,
    "wake_at": None,
    "wake_in": "1 hour",
    "error": "e",
    "backoff": "1 minute",
    "run_id": 1,
    "status": "waiting",
    "count": 1,
    "seq": 1,
    "code": "c",
    "data": None,
    "flow_id": 1,
    "version": 1,
    "trigger_kind": "manual",
    "input": None,
    "idempotency_key": "k",
    "started_by": "s",
    "payload": "1",
    "concurrency": 1,
    "retention": "30 days",
    "run_ids": [1, 2],
    "wait_ids": [1, 2],
    "keys": ["n@1", "n@2"],
    "claim_attempts": [1, 1],
    "walks": None,
    "after_at": None,
    "after_id": None,
    "by": "b",
    "undo_for": "cancel",
    "output": None,
}
# Statements that read a small table whole by design.
SMALL_TABLES = {
    "list_workers",
    "forget_silent_workers",
    "heartbeat",
    "worker_gone",
    "notify",
    "forget_expired_sessions",
}


# Statements that are no query to plan: they set how the transaction runs.
NOT_PLANNED = {"read_only"}


@pytest.fixture(scope="module")
def big_queue(database_url: str) -> Queue:
    queue = Queue(database_url)
    flow_id = queue.save(flow("start:trigger", wires=[]))
    with psycopg.connect(database_url) as conn:
        conn.execute(
            "INSERT INTO runs (flow_id, version, status, trigger_kind)"
            " SELECT %s, 1, 'waiting', 'manual' FROM generate_series(1, 100000)",
            (flow_id,),
        )
        conn.execute(
            "INSERT INTO waits (run_id, kind, wake_at, status)"
            " SELECT id, 'delay', now() + (id % 1000) * interval '1 minute', 'waiting' FROM runs"
        )
        conn.execute("INSERT INTO journal (run_id, seq, code) SELECT id, 1, 'run_created' FROM runs")
        conn.execute(
            "INSERT INTO trigger_keys (flow_id, key, run_id) SELECT flow_id, 'k' || id, id FROM runs"
        )
        conn.commit()
        conn.autocommit = True
        conn.execute("VACUUM ANALYZE")
    return queue


@pytest.mark.parametrize("name", sorted(set(QUERIES) - SMALL_TABLES - NOT_PLANNED))
def test_no_statement_scans_a_growing_table(big_queue: Queue, name: str) -> None:
    growing = {"waits", "runs", "journal", "trigger_keys"}
    scans = sequential_scans(big_queue.url, QUERIES[name], PARAMS, growing)
    assert scans == [], f"{name} scans {scans}"


def test_every_statement_is_checked_or_named_as_reading_a_small_table() -> None:
    assert set(QUERIES) >= SMALL_TABLES
    assert "claim" in QUERIES and "FOR UPDATE SKIP LOCKED" in QUERIES["claim"]
