"""Run records through the real queue and API: written when a run starts, kept in step as it ends, left
by the runs' sweep, gone only by their own retention, shown in the audit export and named by a swept
run's 404."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import psycopg

from backend.queue.records import sweep_run_records
from backend.queue.sweep import sweep_ended_runs
from tests.api.support import app_client, auth, csv_rows, make_user
from tests.support import Queue, flow

NOTE = flow(
    "start:trigger",
    {"id": "note", "type": "log", "config": {"message": "hello {{trigger.who}}"}},
    wires=[{"from": "start", "to": "note"}],
    name="Greet",
)
RECORD = (
    "SELECT flow_name, version, trigger_kind, trigger_key, status, ended_at IS NOT NULL, input_digest,"
    " input_kept, input FROM run_records WHERE run_id = %s"
)


def sweep(queue: Queue, days: int, *, records: bool = False) -> None:
    """Sweep as a worker would `days` on, with a retention of one day."""

    async def go() -> None:
        async with await psycopg.AsyncConnection.connect(queue.url, autocommit=True) as conn:
            now = queue.clock.now + timedelta(days=days)
            if records:
                await sweep_run_records(conn, now, timedelta(days=1))
            else:
                await sweep_ended_runs(conn, now, timedelta(days=1))

    queue.run(go)


def test_a_run_record_outlives_the_runs_sweep_and_goes_only_by_its_own_retention(queue: Queue) -> None:
    run_id = queue.start(queue.save(NOTE), input={"who": "ann"}, key="webhook:k-1")
    digest = hashlib.sha256(b'{"who": "ann"}').hexdigest()
    assert queue.one(RECORD, run_id) == (
        "Greet",
        1,
        "webhook",
        "webhook:k-1",
        "waiting",
        False,
        digest,
        True,
        {"who": "ann"},
    )

    queue.drain()
    assert queue.one(RECORD, run_id)[4:6] == ("succeeded", True)  # type: ignore[index]

    sweep(queue, days=2)
    assert queue.one("SELECT count(*) FROM runs WHERE id = %s", run_id) == (0,)
    assert queue.one(RECORD, run_id)[4] == "succeeded", "the runs' sweep leaves the record"  # type: ignore[index]

    sweep(queue, days=2, records=True)
    assert queue.one(RECORD, run_id) is None


def test_a_flow_that_opts_out_keeps_only_the_inputs_digest(queue: Queue) -> None:
    private = flow(
        "start:trigger",
        {"id": "note", "type": "log", "config": {"message": "hi"}},
        wires=[{"from": "start", "to": "note"}],
    )
    private["nodes"][0]["config"]["record_input"] = False
    run_id = queue.start(queue.save(private), input={"salary": 90000})
    row = queue.one(RECORD, run_id)
    assert row is not None
    assert row[6:] == (hashlib.sha256(b'{"salary": 90000}').hexdigest(), False, None)


def test_a_waiting_runs_record_is_never_swept(queue: Queue) -> None:
    waiting = flow(
        "start:trigger",
        {"id": "pause", "type": "delay", "config": {"duration": "P30D"}},
        wires=[{"from": "start", "to": "pause"}],
    )
    run_id = queue.start(queue.save(waiting))
    queue.drain()
    sweep(queue, days=10, records=True)
    assert queue.one(RECORD, run_id)[4] == "waiting"  # type: ignore[index]


def test_the_audit_export_shows_records_and_a_swept_run_says_where_to_look(queue: Queue) -> None:
    auditor = make_user(queue.url, "aud", "audit", "run")
    reader = make_user(queue.url, "rea", "edit")
    run_id = queue.start(queue.save(NOTE), input="=1+1")
    queue.drain()
    sweep(queue, days=2)

    with app_client(queue.url) as api:
        gone = api.get(f"/api/runs/{run_id}", headers=auth(auditor))
        assert gone.status_code == 404
        error = gone.json()["error"]
        assert error["code"] == "run_swept" and error["detail"]["status"] == "succeeded"
        assert error["detail"]["record"].startswith("/api/audit/runs?flow=")

        answer = api.get(error["detail"]["record"] + "&format=json", headers=auth(auditor))
        assert answer.status_code == 200
        [record] = [r for r in answer.json() if r["run"] == run_id]
        assert (record["flow_name"], record["status"], record["input"]) == ("Greet", "succeeded", "=1+1")

        exported = api.get("/api/audit/runs", headers=auth(auditor, **{"Accept-Language": "de"}))
        rows = csv_rows(exported)
        assert rows[0][0] == "Lauf" and "Eingabe" in rows[0]
        [line] = [r for r in rows[1:] if r[0] == str(run_id)]
        assert line[-1] == "'=1+1", "no cell can be a formula"

        refused = api.get("/api/audit/runs", headers=auth(reader))
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "right_missing"
        assert api.get("/api/runs/999999", headers=auth(auditor)).json()["error"]["code"] == "run_not_found"
