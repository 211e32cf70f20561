"""Schedule triggers: once per tick whatever the number of workers, and missed ticks collapse into one."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import psycopg
import pytest

from backend.flows.store import save_version
from backend.queue.schedules import ScheduleInvalid, fire_due
from tests.support import Queue


def scheduled(cron: str = "*/5 * * * *", timezone: str = "Europe/Berlin") -> dict[str, Any]:
    return {
        "format": "flowyard.flow/1",
        "name": "every five minutes",
        "nodes": [
            {
                "id": "start",
                "type": "trigger",
                "config": {"kind": "schedule", "cron": cron, "timezone": timezone},
            },
            {"id": "note", "type": "log", "config": {"message": "tick {{trigger.scheduled_for}}"}},
        ],
        "wires": [{"from": "start", "to": "note"}],
    }


def runs_of(queue: Queue, flow_id: int) -> list[tuple[Any, ...]]:
    return queue.all(
        "SELECT trigger_kind, input, idempotency_key FROM runs WHERE flow_id = %s ORDER BY id", flow_id
    )


def test_a_schedule_fires_at_its_time_and_missed_ticks_run_once(queue: Queue) -> None:
    before = queue.one("SELECT now()")
    flow_id = queue.save(scheduled())
    row = queue.one("SELECT next_fire_at FROM schedules WHERE flow_id = %s", flow_id)
    assert row is not None and before is not None
    first = row[0]
    assert first.minute % 5 == 0 and first.second == 0
    assert timedelta(0) < first - before[0] <= timedelta(minutes=5)
    # Then an hour further, still on the cron's five minutes: a drain catches the fake clock up with the
    # database first, and a first tick a moment after the database's now would be due by then (CI saw it).
    moved = queue.one(
        "UPDATE schedules SET next_fire_at = next_fire_at + interval '1 hour' WHERE flow_id = %s"
        " RETURNING next_fire_at",
        flow_id,
    )
    assert moved is not None
    first = moved[0]

    queue.clock.now = first - timedelta(seconds=1)
    queue.drain()
    assert runs_of(queue, flow_id) == [], "not due yet"

    queue.clock.now = first
    queue.drain()
    runs = runs_of(queue, flow_id)
    assert len(runs) == 1
    assert runs[0][0] == "schedule"
    assert runs[0][1] == {"scheduled_for": first.isoformat()}

    # Everything was down for an hour: twelve ticks missed, one run for them, and the next tick is ahead.
    queue.clock.advance(timedelta(hours=1))
    queue.drain()
    assert len(runs_of(queue, flow_id)) == 2
    after = queue.one("SELECT next_fire_at FROM schedules WHERE flow_id = %s", flow_id)
    assert after is not None and queue.clock.now < after[0] <= queue.clock.now + timedelta(minutes=5)
    statuses = queue.all("SELECT status FROM runs WHERE flow_id = %s", flow_id)
    assert statuses == [("succeeded",), ("succeeded",)]


def test_three_workers_at_the_same_tick_fire_it_once(queue: Queue) -> None:
    flow_id = queue.save(scheduled(cron="0 * * * *", timezone="UTC"))
    with psycopg.connect(queue.url) as conn:  # the other tests' schedules must not fire in this one
        conn.execute("DELETE FROM schedules WHERE flow_id <> %s", (flow_id,))
    row = queue.one("SELECT next_fire_at FROM schedules WHERE flow_id = %s", flow_id)
    assert row is not None
    tick = row[0]

    async def one_worker() -> int:
        async with await psycopg.AsyncConnection.connect(queue.url, autocommit=True) as conn:
            return await fire_due(conn, tick)

    async def three() -> list[int]:
        return list(await asyncio.gather(one_worker(), one_worker(), one_worker()))

    fired = asyncio.run(three())
    assert sorted(fired) == [0, 0, 1]
    assert len(runs_of(queue, flow_id)) == 1


def test_a_new_version_without_a_schedule_removes_it_and_a_bad_one_is_refused(queue: Queue) -> None:
    flow_id = queue.save(scheduled())
    manual = scheduled()
    manual["nodes"][0]["config"] = {"kind": "manual"}

    def save(document: dict[str, Any]) -> int:
        return queue.aconn(lambda conn: save_version(conn, flow_id, document, by="test"))

    assert save(manual) == 2
    assert queue.one("SELECT count(*) FROM schedules WHERE flow_id = %s", flow_id) == (0,)

    with pytest.raises(ScheduleInvalid) as bad_zone:
        save(scheduled(timezone="Mars/Olympus"))
    assert bad_zone.value.code == "schedule_timezone_unknown"
    with pytest.raises(ScheduleInvalid) as bad_cron:
        save(scheduled(cron="61 * * * *"))
    assert bad_cron.value.code == "schedule_cron_invalid"
    assert queue.one("SELECT latest_version FROM flows WHERE id = %s", flow_id) == (2,), "nothing half-saved"
