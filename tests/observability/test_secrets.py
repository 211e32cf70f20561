"""Everything a story through real `serve` and `worker` processes logs (JSON, DEBUG) is searched for every
credential and payload the story used: passwords (right and wrong), tokens, the session cookie, the CSRF
token, a webhook's secret, an action's header and the metrics token. None may appear; the ids must."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.actions.servers import RecordingServer, recording_server
from tests.api.support import make_user
from tests.observability.live import HTTP_TIMEOUT_S, METRICS_TOKEN, scrape, started, value, wait_for
from tests.server_logs import known_secret

AUTHOR_PASSWORD = known_secret("author-pw-Q7m2v9")
APPROVER_PASSWORD = known_secret("approver-pw-K3x8t1")
WRONG_PASSWORD = known_secret("wrong-pw-Z5c4n6")
HEADER_SECRET = known_secret("header-secret-W8p1r3")
CARD = known_secret("4111-2222-3333-4444")


def story_flow(url: str) -> dict[str, Any]:
    return {
        "format": "flowyard.flow/1",
        "name": "Charge after approval",
        "nodes": [
            {"id": "start", "type": "trigger", "config": {"kind": "webhook"}},
            {
                "id": "charge",
                "type": "http",
                "config": {
                    "method": "POST",
                    "url": url,
                    "headers": {"X-Api-Key": HEADER_SECRET},
                    "body": {"card": "{{trigger.card}}"},
                },
            },
            {"id": "ask", "type": "approval", "config": {"title": "Ship?", "approvers": ["group:finance"]}},
            {"id": "note", "type": "log", "config": {"message": "charged {{trigger.card}}"}},
        ],
        "wires": [
            {"from": "start", "to": "charge"},
            {"from": "charge", "to": "ask"},
            {"from": "ask", "port": "approve", "to": "note"},
        ],
    }


@pytest.fixture(scope="module")
def receiver() -> Iterator[RecordingServer]:
    with recording_server() as server:
        yield server


def test_no_secret_reaches_the_logs_and_every_id_does(
    database_url: str, tmp_path: Path, receiver: RecordingServer
) -> None:
    used: list[str] = [AUTHOR_PASSWORD, APPROVER_PASSWORD, WRONG_PASSWORD, HEADER_SECRET, CARD, METRICS_TOKEN]
    author_token = make_user(database_url, "s-author", "edit", "run", password=AUTHOR_PASSWORD)
    approver_token = make_user(
        database_url, "s-approver", "decide", groups=("finance",), password=APPROVER_PASSWORD
    )
    used += [author_token, approver_token]
    serve_log, worker_log = tmp_path / "serve.log", tmp_path / "worker.log"
    with (
        started(["serve", "--port", "0", "--no-worker"], database_url, serve_log) as api,
        started(["worker", "--metrics-port", "0"], database_url, worker_log) as worker,
    ):
        with httpx.Client(base_url=api.base, timeout=HTTP_TIMEOUT_S) as author:
            login = author.post("/api/session", json={"name": "s-author", "password": AUTHOR_PASSWORD})
            assert login.status_code == 201, login.text
            csrf = login.json()["csrf_token"]
            used += [known_secret(csrf), known_secret(login.cookies["flowyard_session"])]
            told = f"http://127.0.0.1:{receiver.port}/charge"
            flow = author.post("/api/flows", json=story_flow(told), headers={"X-CSRF-Token": csrf})
            assert flow.status_code == 201, flow.text
            hook = author.post(f"/api/flows/{flow.json()['id']}/webhook", headers={"X-CSRF-Token": csrf})
            used.append(known_secret(hook.json()["secret"]))
            fired = httpx.post(
                f"{api.base}{hook.json()['path']}", json={"card": CARD}, timeout=HTTP_TIMEOUT_S
            )
            assert fired.status_code == 202, fired.text
            run_id = fired.json()["run"]

        (approval_id,) = wait_for(database_url, "SELECT id FROM approvals WHERE run_id = %s", run_id)
        assert receiver.wait_for(1)[0].headers["x-api-key"] == HEADER_SECRET  # it was really sent
        wrong = httpx.post(
            f"{api.base}/api/session",
            json={"name": "s-approver", "password": WRONG_PASSWORD},
            timeout=HTTP_TIMEOUT_S,
        )
        assert wrong.status_code == 401
        decided = httpx.post(
            f"{api.base}/api/approvals/{approval_id}/decision",
            json={"outcome": "approve"},
            headers={"Authorization": f"Bearer {approver_token}", "X-Request-Id": "decide-1"},
            timeout=HTTP_TIMEOUT_S,
        )
        assert decided.status_code == 200, decided.text
        wait_for(database_url, "SELECT 1 FROM runs WHERE id = %s AND status = 'succeeded'", run_id)

        counted = scrape(worker.base)  # the worker's own port, with the metrics token
        assert value(counted, "flowyard_action_seconds_count", kind="http", outcome="out") == 1
        assert value(counted, "flowyard_runs_ended_total", status="succeeded") == 1
        assert httpx.get(f"{worker.base}/metrics", timeout=HTTP_TIMEOUT_S).status_code == 401
        api_lines, worker_lines = api.lines(), worker.lines()

    for log in (serve_log, worker_log):
        text = log.read_text()
        assert len(text.splitlines()) > 5
        for secret in used:
            assert secret not in text, f"{log.name} holds a credential or payload the story used"

    # Not vacuous: the lines are there, with the ids that make them worth reading.
    sent = [line for line in worker_lines if line["event"] == "action sent"]
    assert [(line["run"], line["node"], line["action"], line["outcome"]) for line in sent] == [
        (run_id, "charge", "http", "out")
    ]
    assert isinstance(sent[0]["visit"], int) and sent[0]["worker"].count("/") == 2
    (decision,) = [line for line in api_lines if line["event"] == "approval decided"]
    assert (decision["request"], decision["run"], decision["outcome"]) == ("decide-1", run_id, "approved")
    hooks = [line for line in api_lines if line.get("route") == "/hooks/{flow_id:int}/{secret}"]
    assert [line["status"] for line in hooks] == [202]
