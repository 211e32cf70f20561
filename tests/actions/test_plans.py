"""Every named statement of the actions package, explained at 100,000 effects and 20,000 late answers:
none scans the log or the late answers."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from backend.actions.queries import QUERIES
from tests.support import Queue, flow, sequential_scans

PARAMS: dict[str, Any] = {
    "run_id": 1,
    "visit": 1,
    "node": "n",
    "type": "http",
    "key": "k",
    "digest": "d",
    "request": None,
    "attempt": 1,
    "outcome": "out",
    "output": None,
    "name": "web-1",
    "agent_url": "https://a.example",
    "token": "t",
    "by": "b",
    "server": "web-1",
    "argv": None,
    "params": None,
    "user": "u",
    "sealed": b"s",
    "names": ["a"],
    "allow_s": 40.0,
    "deadline_at": None,
}
# Admins' lists: a handful of rows, read whole by design.
SMALL_TABLES = {"list_servers", "list_templates"}


@pytest.fixture(scope="module")
def big_log(database_url: str) -> Queue:
    queue = Queue(database_url)
    flow_id = queue.save(flow("start:trigger", wires=[]))
    with psycopg.connect(database_url) as conn:
        conn.execute(
            "INSERT INTO runs (flow_id, version, status, trigger_kind)"
            " SELECT %s, 1, 'succeeded', 'manual' FROM generate_series(1, 20000)",
            (flow_id,),
        )
        conn.execute(
            "INSERT INTO effects (run_id, visit, node, type, key, digest, request, attempts, outcome,"
            " output, completed_at)"
            " SELECT r.id, v, 'n', 'http', 'k-' || r.id || '-' || v, 'd', '{}', 1, 'out', '{}', now()"
            " FROM runs AS r, generate_series(1, 5) AS v"
        )
        # Answers kept as late: one for every first action, so their reads are planned on a real table.
        conn.execute(
            "INSERT INTO late_results (run_id, visit, attempt, outcome, output)"
            " SELECT run_id, visit, 1, 'out', '{\"status\": 200}' FROM effects WHERE visit = 1"
        )
        conn.commit()
        conn.autocommit = True
        conn.execute("VACUUM ANALYZE")
    return queue


@pytest.mark.parametrize("name", sorted(set(QUERIES) - SMALL_TABLES))
def test_no_statement_scans_the_effects_log(big_log: Queue, name: str) -> None:
    scans = sequential_scans(big_log.url, QUERIES[name], PARAMS, {"effects", "late_results"})
    assert scans == [], f"{name} scans {scans}"


def test_the_effects_log_holds_what_the_plans_were_measured_on(big_log: Queue) -> None:
    assert big_log.one("SELECT count(*) FROM effects") == (100000,)
    assert set(QUERIES) >= SMALL_TABLES
