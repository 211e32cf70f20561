"""Undo on cancel through the real queue: the undos of a run's succeeded actions run newest first, each
once under a key of its own, before the run ends `cancelled`; a failed undo stops the run with what is
left listed. docs/runs.md tells the first test as a scenario."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from backend.approvals.queue_port import ApprovalsPort
from backend.graph import validate
from backend.queue.runs import cancel_run
from backend.queue.stops import end_run, resume_run
from tests.actions.servers import RecordingServer, Reply, recording_server
from tests.actions.support import drain, effects, journal_data
from tests.support import Queue, flow


@pytest.fixture
def receiver() -> Iterator[RecordingServer]:
    with recording_server() as server:
        server.routes["/reserve"] = lambda _r: Reply(body=b'{"id": "r-1"}')
        server.routes["/charge"] = lambda _r: Reply(body=b'{"id": "c-9"}')
        yield server


def booking(url: str) -> dict[str, Any]:
    """Reserve, charge, then ask: each action says how to undo itself with its own output."""
    return flow(
        "start:trigger",
        {
            "id": "reserve",
            "type": "http",
            "config": {
                "method": "POST",
                "url": f"{url}/reserve",
                "undo": {"method": "DELETE", "url": f"{url}/reserve/{{{{result.body.id}}}}"},
            },
        },
        {
            "id": "charge",
            "type": "http",
            "config": {
                "method": "POST",
                "url": f"{url}/charge",
                "body": {"amount": "{{trigger.amount}}"},
                "undo": {"method": "POST", "url": f"{url}/refund", "body": {"charge": "{{result.body.id}}"}},
            },
        },
        {"id": "ask", "type": "approval", "config": {"title": "Ship?", "approvers": []}},
        wires=[
            {"from": "start", "to": "reserve"},
            {"from": "reserve", "to": "charge"},
            {"from": "charge", "to": "ask"},
        ],
    )


def cancel(queue: Queue, run_id: int) -> None:
    async def go() -> None:
        async with await psycopg.AsyncConnection.connect(queue.url, autocommit=True) as conn:
            assert await cancel_run(conn, run_id, by="ann", approvals=ApprovalsPort())

    queue.run(go)


def person(queue: Queue, do: str, run_id: int) -> None:
    async def go() -> None:
        async with await psycopg.AsyncConnection.connect(queue.url, autocommit=True) as conn:
            if do == "resume":
                await resume_run(conn, run_id, by="ann")
            else:
                await end_run(conn, run_id, by="ann", approvals=ApprovalsPort())

    queue.run(go)


def paths(receiver: RecordingServer) -> list[str]:
    return [f"{r.method} {r.path}" for r in receiver.received]


def test_cancelling_runs_the_undos_newest_first_each_once_then_the_run_is_cancelled(
    queue: Queue, receiver: RecordingServer
) -> None:
    run_id = queue.start(queue.save(booking(receiver.url)), input={"amount": 40})
    drain(queue)
    assert queue.one("SELECT kind FROM waits WHERE run_id = %s", run_id) == ("approval",)

    cancel(queue, run_id)
    assert queue.status(run_id) == ("waiting", None), "not cancelled until its undos have run"
    assert queue.one("SELECT kind FROM waits WHERE run_id = %s", run_id) == ("undo",)
    assert journal_data(queue, run_id, "run_undoing") == [{"by": "ann", "undos": "charge, reserve"}]

    drain(queue)
    drain(queue)

    assert queue.status(run_id) == ("cancelled", None)
    assert paths(receiver) == ["POST /reserve", "POST /charge", "POST /refund", "DELETE /reserve/r-1"]
    assert json.loads(receiver.received[2].body) == {"charge": "c-9"}
    rows = {row["visit"]: row for row in effects(queue, run_id)}
    assert sorted(rows) == [-3, -2, 2, 3]
    assert receiver.received[2].headers["idempotency-key"] == rows[-3]["key"] != rows[3]["key"]
    assert [line for line in queue.codes(run_id) if line in ("undo_done", "run_cancelled")] == [
        "undo_done",
        "undo_done",
        "run_cancelled",
    ]
    assert queue.one("SELECT count(*) FROM waits WHERE run_id = %s", run_id) == (0,)


def test_a_failed_undo_stops_the_run_with_the_undos_left_and_a_resume_finishes_them(
    queue: Queue, receiver: RecordingServer
) -> None:
    receiver.routes["/refund"] = lambda _r: Reply(status=503)
    run_id = queue.start(queue.save(booking(receiver.url)), input={"amount": 40})
    drain(queue)
    cancel(queue, run_id)
    for _ in range(5):
        drain(queue)
        row = queue.one("SELECT wake_at FROM waits WHERE run_id = %s AND status = 'waiting'", run_id)
        if row is None:
            break
        queue.clock.now = max(queue.clock.now, row[0])

    assert queue.status(run_id) == ("stopped", "undo_failed")
    failures = journal_data(queue, run_id, "resume_failed")
    assert failures[-1]["remaining"] == "charge, reserve" and failures[-1]["error"] == "http_status_error"
    assert [line["remaining"] for line in journal_data(queue, run_id, "run_stopped")] == ["charge, reserve"]
    assert "DELETE /reserve/r-1" not in paths(receiver), "the older undo waits for the newer one"

    receiver.routes["/refund"] = lambda _r: Reply()
    person(queue, "resume", run_id)
    drain(queue)

    assert queue.status(run_id) == ("cancelled", None)
    refunds = [r for r in receiver.received if r.path == "/refund"]
    assert len(refunds) == 6 and len({r.headers["idempotency-key"] for r in refunds}) == 1
    assert paths(receiver)[-1] == "DELETE /reserve/r-1"


def test_ending_a_stopped_run_runs_its_undos_then_fails_it(queue: Queue, receiver: RecordingServer) -> None:
    receiver.routes["/ship"] = lambda _r: Reply(status=500)
    document = booking(receiver.url)
    document["nodes"][3] = {
        "id": "ship",
        "type": "http",
        "config": {"method": "POST", "url": f"{receiver.url}/ship"},
    }
    document["wires"][2] = {"from": "charge", "to": "ship"}
    run_id = queue.start(queue.save(document), input={"amount": 40})
    for _ in range(5):
        drain(queue)
        row = queue.one("SELECT wake_at FROM waits WHERE run_id = %s AND status = 'waiting'", run_id)
        if row is None:
            break
        queue.clock.now = max(queue.clock.now, row[0])
    assert queue.status(run_id) == ("stopped", "http_status_error")

    person(queue, "end", run_id)
    assert queue.status(run_id) == ("waiting", None)
    drain(queue)

    assert queue.status(run_id) == ("failed", "run_ended_by_person")
    assert paths(receiver)[-2:] == ["POST /refund", "DELETE /reserve/r-1"]
    assert journal_data(queue, run_id, "run_ended_by") == [{"by": "ann"}]


def test_the_validator_checks_an_undo_against_its_actions_type() -> None:
    document = booking("https://shop.example")
    document["nodes"][1]["config"]["undo"] = {"method": "FETCH", "url": "https://shop.example/x"}
    document["nodes"][2]["config"]["undo"]["undo"] = {"method": "GET", "url": "https://shop.example/y"}
    found = [(f.code, f.node, f.detail) for f in validate(document)]
    assert found == [
        ("node_config_invalid", "reserve", "/nodes/1/config/undo/method"),
        ("undo_nested", "charge", "/nodes/2/config/undo/undo"),
    ]
    assert validate(booking("https://shop.example")) == []


def test_the_api_cancel_answers_waiting_while_undos_are_pending(
    queue: Queue, receiver: RecordingServer
) -> None:
    from tests.api.support import app_client, auth, make_user

    token = make_user(queue.url, "undo-ann", "run")
    run_id = queue.start(queue.save(booking(receiver.url)), input={"amount": 40})
    drain(queue)
    with app_client(queue.url) as api:
        answer = api.post(f"/api/runs/{run_id}/cancel", headers=auth(token))
    assert answer.json() == {"run": run_id, "status": "waiting"}
    drain(queue)
    assert queue.status(run_id) == ("cancelled", None)
    assert journal_data(queue, run_id, "run_cancelled") == [{"by": "undo-ann"}]
