"""A resume's preview (issue 35): what resuming a stopped run would send and where it would stop, with the
database rows unchanged and no request received by a real local server; then the real resume sends what
the preview listed. docs/runs.md, "Previewing a resume"."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.actions.servers import RecordingServer, Reply, recording_server
from tests.actions.support import drain, effects
from tests.queue.test_commands import flowyard
from tests.support import Queue, flow

# Every row a preview could touch by mistake, read whole: they must be the same after it.
ROWS = {
    "runs": "SELECT to_jsonb(t) FROM runs AS t WHERE id = %s",
    "waits": "SELECT to_jsonb(t) FROM waits AS t WHERE run_id = %s ORDER BY id",
    "journal": "SELECT to_jsonb(t) FROM journal AS t WHERE run_id = %s ORDER BY seq",
    "effects": "SELECT to_jsonb(t) FROM effects AS t WHERE run_id = %s ORDER BY visit",
    "approvals": "SELECT to_jsonb(t) FROM approvals AS t WHERE run_id = %s ORDER BY id",
}


@pytest.fixture
def receiver() -> Iterator[RecordingServer]:
    with recording_server() as server:
        yield server


def booking(receipt_url: str = "{{trigger.base}}/receipt") -> dict[str, Any]:
    """A delay, then book (answers), pay (fails until fixed), receipt, and an approval to wait at."""

    def post(node: str, url: str, label: str | None = None) -> dict[str, Any]:
        named = {"label": label} if label else {}
        return {"id": node, "type": "http", "config": {"method": "POST", "url": url}, **named}

    return flow(
        "start:trigger",
        {"id": "later", "type": "delay", "config": {"duration": "PT1M"}},
        post("book", "{{trigger.base}}/book", "Book the room"),
        post("pay", "{{trigger.base}}/pay"),
        post("receipt", receipt_url),
        {"id": "ask", "type": "approval", "config": {"title": "Keep it?", "approvers": []}, "label": "Keep?"},
        wires="start>later later>book book>pay pay>receipt receipt>ask",
    )


def stopped_run(queue: Queue, receiver: RecordingServer, document: dict[str, Any]) -> int:
    """A run of `document` stopped at `pay`: the delay passes, book answers, pay fails five times."""
    receiver.routes["/book"] = lambda _request: Reply()
    receiver.routes["/pay"] = lambda _request: Reply(status=500)
    run_id = queue.start(queue.save(document), input={"base": receiver.url})
    for _ in range(8):
        drain(queue)
        row = queue.one("SELECT wake_at FROM waits WHERE run_id = %s AND status = 'waiting'", run_id)
        if row is None:
            break
        queue.clock.now = max(queue.clock.now, row[0])
    assert queue.status(run_id) == ("stopped", "http_status_error")
    return run_id


def rows(queue: Queue, run_id: int) -> dict[str, list[tuple[Any, ...]]]:
    return {table: queue.all(sql, run_id) for table, sql in ROWS.items()}


def test_the_cli_dry_run_lists_what_would_be_sent_writes_and_sends_nothing_then_the_resume_sends_it(
    queue: Queue, receiver: RecordingServer
) -> None:
    run_id = stopped_run(queue, receiver, booking())
    paths = [request.path for request in receiver.received]
    assert paths == ["/book"] + ["/pay"] * 5
    keys = {row["node"]: row["key"] for row in effects(queue, run_id)}
    before = rows(queue, run_id)

    shown = flowyard(queue.url, "runs", "resume", str(run_id), "--dry-run", "--json")
    words = flowyard(queue.url, "runs", "resume", str(run_id), "--dry-run")

    assert shown.returncode == 0, shown.stderr
    preview = json.loads(shown.stdout)
    assert [(a["node"], a["visit"], a["sent"], a["key"]) for a in preview["actions"]] == [
        ("book", 3, False, keys["book"]),
        ("pay", 4, True, keys["pay"]),
        ("receipt", 5, True, None),
    ]
    assert [a["destination"] for a in preview["actions"]] == [
        "{{trigger.base}}/book",
        "{{trigger.base}}/pay",
        "{{trigger.base}}/receipt",
    ]
    assert preview["actions"][0]["label"] == "Book the room" and preview["actions"][0]["type"] == "http"
    assert (preview["status"], preview["error"], preview["version"]) == ("waiting", None, 1)
    assert preview["pending"] == [{"node": "ask", "visit": 6, "type": "approval", "label": "Keep?"}]
    assert words.returncode == 0, words.stderr
    said = words.stdout.splitlines()
    assert said[0].startswith(f"Preview of resuming run {run_id} on version 1: nothing was written or sent.")
    assert said[1:] == [
        f"Visit 3: HTTP request Book the room (book) would not be sent: the outcome recorded under its key "
        f"{keys['book']} stands.",
        "Visit 4: HTTP request pay would be sent to {{trigger.base}}/pay again, under its key "
        f"{keys['pay']}.",
        "Visit 5: HTTP request receipt would be sent to {{trigger.base}}/receipt under a new key.",
        "Then it would wait at “Keep? (ask)” (Approval).",
    ]
    assert rows(queue, run_id) == before, "the preview wrote nothing"
    assert len(receiver.received) == 6, "the preview sent nothing"

    receiver.routes["/pay"] = lambda _request: Reply()
    receiver.routes["/receipt"] = lambda _request: Reply()
    resumed = flowyard(queue.url, "runs", "resume", str(run_id))
    assert resumed.returncode == 0, resumed.stderr
    drain(queue)

    sent = receiver.received[6:]
    assert [request.path for request in sent] == ["/pay", "/receipt"], "what the preview listed as sent"
    assert sent[0].headers["idempotency-key"] == keys["pay"]
    assert queue.one("SELECT status, node, visit FROM waits WHERE run_id = %s", run_id) == (
        "waiting",
        "ask",
        6,
    )


def test_the_cli_dry_run_is_refused_as_the_resume_is(queue: Queue, receiver: RecordingServer) -> None:
    run_id = stopped_run(queue, receiver, booking())

    newer = flowyard(queue.url, "runs", "resume", str(run_id), "--version", "3", "--dry-run")
    assert newer.returncode == 1 and "(run_version_not_found)" in newer.stderr
    not_resume = flowyard(queue.url, "runs", "end", str(run_id), "--dry-run")
    assert not_resume.returncode == 2 and "(runs_dry_run_only)" in not_resume.stderr
    json_alone = flowyard(queue.url, "runs", "resume", str(run_id), "--json")
    assert json_alone.returncode == 2 and "(runs_dry_run_only)" in json_alone.stderr
    assert queue.status(run_id)[0] == "stopped", "neither resumed nor ended"

    assert flowyard(queue.url, "runs", "resume", str(run_id)).returncode == 0
    waiting = flowyard(queue.url, "runs", "resume", str(run_id), "--dry-run")
    assert waiting.returncode == 1 and "(run_not_stopped)" in waiting.stderr
    missing = flowyard(queue.url, "runs", "resume", "999999", "--dry-run")
    assert missing.returncode == 1 and "(run_not_found)" in missing.stderr


def test_the_api_previews_for_holders_of_the_run_right_with_secrets_as_refs_and_refuses_as_resume_does(
    queue: Queue, receiver: RecordingServer
) -> None:
    from tests.actions.test_secret_places import store_secret
    from tests.api.support import app_client, auth, make_user

    store_secret(queue, "receipt_path", "R3ceiptS3cret")
    runner = make_user(queue.url, "preview-ann", "run")
    reader = make_user(queue.url, "preview-bob", "edit")
    receipt = receiver.url + "/receipt/{{secrets.receipt_path}}"
    run_id = stopped_run(queue, receiver, booking(receipt))
    before = rows(queue, run_id)
    url = f"/api/runs/{run_id}/resume/preview"

    with app_client(queue.url) as api:
        denied = api.post(url, json={}, headers=auth(reader))
        assert denied.status_code == 403 and denied.json()["error"]["code"] == "right_missing"
        answer = api.post(url, json={}, headers=auth(runner))
        assert answer.status_code == 200, answer.text
        preview = answer.json()
        assert [(a["node"], a["sent"]) for a in preview["actions"]] == [
            ("book", False),
            ("pay", True),
            ("receipt", True),
        ]
        assert preview["actions"][2]["destination"] == receipt
        assert "R3ceiptS3cret" not in answer.text
        assert (preview["status"], preview["pending"][0]["node"], preview["from_version"]) == (
            "waiting",
            "ask",
            1,
        )
        newer = api.post(url, json={"version": 7}, headers=auth(runner))
        assert newer.status_code == 404 and newer.json()["error"]["code"] == "run_version_not_found"
        odd = api.post(url, json={"version": "2", "more": 1}, headers=auth(runner))
        assert odd.status_code == 422
        assert rows(queue, run_id) == before and len(receiver.received) == 6

        resumed = api.post(f"/api/runs/{run_id}/resume", json={}, headers=auth(runner))
        assert resumed.status_code == 200
        again = api.post(url, json={}, headers=auth(runner, **{"Accept-Language": "de"}))
        assert again.status_code == 409
        error = again.json()["error"]
        assert error["code"] == "run_not_stopped" and "nicht angehalten" in error["message"]


def test_a_run_stopped_at_an_approval_previews_its_decision_and_stays_while_it_has_none(
    queue: Queue, receiver: RecordingServer
) -> None:
    from backend.approvals.decisions import ApprovalDecisions
    from tests.api.support import make_user

    make_user(queue.url, "preview-cy", "decide")
    document = flow(
        "start:trigger",
        {"id": "ask", "type": "approval", "config": {"title": "Pay?", "approvers": []}},
        {"id": "pay", "type": "http", "config": {"method": "POST", "url": f"{receiver.url}/pay"}},
        wires=[{"from": "start", "to": "ask"}, {"from": "ask", "port": "approve", "to": "pay"}],
    )
    run_id = queue.start(queue.save(document))
    queue.drain()
    # Its claims abandoned five times (as tests/queue/test_stops.py stops one): stopped at the approval.
    queue.all("UPDATE waits SET attempts = 5, wake_at = now() WHERE run_id = %s RETURNING id", run_id)
    queue.drain()
    assert queue.status(run_id) == ("stopped", "claim_abandoned")

    undecided = json.loads(flowyard(queue.url, "runs", "resume", str(run_id), "--dry-run", "--json").stdout)
    assert (undecided["status"], undecided["actions"]) == ("waiting", [])
    assert undecided["pending"] == [{"node": "ask", "visit": 2, "type": "approval", "label": None}]

    [(approval_id,)] = queue.all("SELECT id FROM approvals WHERE run_id = %s", run_id)
    queue.aconn(
        lambda conn: ApprovalDecisions().decide(conn, approval_id, "approved", by="preview-cy", comment=None)
    )
    before = rows(queue, run_id)
    decided = json.loads(flowyard(queue.url, "runs", "resume", str(run_id), "--dry-run", "--json").stdout)
    assert [(a["node"], a["sent"], a["key"]) for a in decided["actions"]] == [("pay", True, None)]
    assert (decided["status"], decided["pending"]) == ("succeeded", [])
    assert rows(queue, run_id) == before and receiver.received == []
