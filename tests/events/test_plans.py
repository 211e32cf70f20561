"""The events' statements (events, pauses and senders' keys grow with traffic), the run page's and the
metrics' gauges, explained at scale: none reads a growing table whole."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from backend.events.store import QUERIES as EVENTS
from backend.observability.queries import QUERIES as GAUGES
from backend.queue.store import RUN_PAGE_QUERIES as RUN_PAGE
from tests.support import Queue, flow, plan_text, sequential_scans

PARAMS: dict[str, Any] = {
    "after": 0,
    "by": "u",
    "channel": "flowyard_waits",
    "delivered": True,
    "digest": "d",
    "event_id": 1,
    "expires_at": None,
    "id": 1,
    "idempotency_key": "k",
    "ids": [1, 2],
    "keep": "7 days",
    "keep_early": "1 day",
    "key": "k1",
    "key_retention": "90 days",
    "limit": 100,
    "name": "paid",
    "names": ["paid"],
    "node": "n",
    "now": None,
    "pairs": ["paid k1"],
    "payload": "{}",
    "payload_bytes": 2,
    "run_id": 1,
    "sent_by": "u",
    "timeout": None,
    "visit": 1,
}
# The gauges' approvals count is planned on tests/approvals/test_plans.py's 100,000 approvals.
GROWING = {"events", "event_waits", "event_keys", "waits", "runs", "journal"}
# Where a name means another type in another statement: close_pauses keeps the visits still pending.
OVERRIDES: dict[str, dict[str, Any]] = {"events.close_pauses": {"keep": [1]}}
STATEMENTS = {
    **{f"events.{n}": q for n, q in EVENTS.items()},
    **{f"observability.{n}": q for n, q in GAUGES.items()},
    **{f"run_page.{n}": q for n, q in RUN_PAGE.items()},
}


@pytest.fixture(scope="module")
def big_events(database_url: str) -> Queue:
    """20,000 runs waiting for an event, 100,000 events (most consumed), 50,000 senders' keys."""
    queue = Queue(database_url)
    flow_id = queue.save(flow("start:trigger", wires=[]))
    with psycopg.connect(database_url) as conn:
        conn.execute(
            "INSERT INTO runs (flow_id, version, status, trigger_kind)"
            " SELECT %s, 1, 'waiting', 'manual' FROM generate_series(1, 20000)",
            (flow_id,),
        )
        conn.execute(
            "INSERT INTO waits (run_id, kind, wake_at, status)"
            " SELECT id, 'event', now() + interval '1 day', 'waiting' FROM runs"
        )
        conn.execute("INSERT INTO journal (run_id, seq, code) SELECT id, 1, 'run_created' FROM runs")
        conn.execute(
            "INSERT INTO event_waits (run_id, visit, node, names, key, keep_early, created_at, event_name,"
            " answered_at)"
            " SELECT id, 1, 'n', '{paid}', 'k' || id, '1 day', now() - id * interval '1 minute',"
            " CASE WHEN id % 10 = 0 THEN NULL ELSE 'paid' END,"
            " CASE WHEN id % 10 = 0 THEN NULL ELSE now() END FROM runs"
        )
        conn.execute(
            "INSERT INTO events (name, key, payload, payload_bytes, sent_by, received_at, expires_at,"
            " consumed_run, consumed_visit, consumed_at)"
            " SELECT 'paid', 'k' || g, '{}', 2, 'u' || g % 100, now() - g * interval '1 minute',"
            " now() + interval '7 days' - g * interval '1 second',"
            " CASE WHEN g <= 20000 THEN g END, CASE WHEN g <= 20000 THEN 2 END,"
            " CASE WHEN g <= 20000 THEN now() END"
            " FROM generate_series(1, 100000) AS g"
        )
        conn.execute(
            "INSERT INTO event_keys (sender, name, key, event_id, delivered, created_at)"
            " SELECT 'u' || g % 100, 'paid', 'i' || g, g, true, now() - g * interval '1 minute'"
            " FROM generate_series(1, 50000) AS g"
        )
        conn.commit()
        conn.autocommit = True
        conn.execute("VACUUM ANALYZE")
    return queue


@pytest.mark.parametrize("name", sorted(STATEMENTS))
def test_no_statement_reads_a_growing_table_whole(big_events: Queue, name: str) -> None:
    params = {**PARAMS, **OVERRIDES.get(name, {})}
    scans = sequential_scans(big_events.url, STATEMENTS[name], params, GROWING)
    assert scans == [], f"{name} scans {scans}:\n{plan_text(big_events.url, STATEMENTS[name], params)}"


def test_the_tables_hold_what_the_plans_were_measured_on(big_events: Queue) -> None:
    assert big_events.one("SELECT count(*) FROM events") == (100000,)
    assert big_events.one("SELECT count(*) FROM event_waits WHERE event_name IS NULL") == (2000,)
