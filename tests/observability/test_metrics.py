"""`GET /metrics` of a running `flowyard serve` (API and in-process worker, as `make run` starts it):
who may scrape, and the figures moving while runs flow."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client import REGISTRY

from backend.observability import events
from tests.actions.servers import RecordingServer, recording_server
from tests.api.support import make_user
from tests.observability.live import HTTP_TIMEOUT_S, Live, scrape, started, value, wait_for
from tests.ports import closed_port

DECISION_ROUTE = "/api/approvals/{approval_id:int}/decision"


def paid_after_approval(url: str) -> dict[str, Any]:
    return {
        "format": "flowyard.flow/1",
        "name": "Tell, ask, log",
        "nodes": [
            {"id": "start", "type": "trigger", "config": {"kind": "manual"}},
            {"id": "tell", "type": "http", "config": {"method": "POST", "url": url, "body": {"n": 1}}},
            {"id": "ask", "type": "approval", "config": {"title": "Go?", "approvers": ["group:finance"]}},
            {"id": "done", "type": "log", "config": {"message": "done"}},
        ],
        "wires": [
            {"from": "start", "to": "tell"},
            {"from": "tell", "to": "ask"},
            {"from": "ask", "port": "approve", "to": "done"},
        ],
    }


@pytest.fixture(scope="module")
def receiver() -> Iterator[RecordingServer]:
    with recording_server() as server:
        yield server


@pytest.fixture(scope="module")
def live(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    log = tmp_path_factory.mktemp("metrics") / "serve.log"
    with started(["serve", "--port", "0"], database_url, log) as server:
        yield server


def test_a_scrape_needs_the_metrics_token_or_an_admin(live: Live, database_url: str) -> None:
    nobody = httpx.get(f"{live.base}/metrics", timeout=HTTP_TIMEOUT_S)
    assert (nobody.status_code, nobody.json()["error"]["code"]) == (401, "auth_required")
    wrong = httpx.get(
        f"{live.base}/metrics", headers={"Authorization": "Bearer not-the-token"}, timeout=HTTP_TIMEOUT_S
    )
    assert (wrong.status_code, wrong.json()["error"]["code"]) == (401, "auth_token_invalid")
    editor = make_user(database_url, "scrape-editor", "edit", "run", "decide", "audit")
    refused = httpx.get(
        f"{live.base}/metrics", headers={"Authorization": f"Bearer {editor}"}, timeout=HTTP_TIMEOUT_S
    )
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "right_missing")
    admin = make_user(database_url, "scrape-admin", "admin")
    assert value(scrape(live.base, admin), "flowyard_pool_connections_max") > 0
    assert value(scrape(live.base), "flowyard_pool_connections_max") > 0


def test_the_figures_move_while_runs_flow(live: Live, database_url: str, receiver: RecordingServer) -> None:
    author = {"Authorization": f"Bearer {make_user(database_url, 'm-author', 'edit', 'run')}"}
    approver = {
        "Authorization": f"Bearer {make_user(database_url, 'm-approver', 'decide', groups=('finance',))}"
    }
    before = scrape(live.base)
    told = f"http://127.0.0.1:{receiver.port}/told"
    flow = httpx.post(
        f"{live.base}/api/flows", json=paid_after_approval(told), headers=author, timeout=HTTP_TIMEOUT_S
    )
    assert flow.status_code == 201, flow.text
    run = httpx.post(
        f"{live.base}/api/flows/{flow.json()['id']}/runs",
        json={"input": {}},
        headers=author,
        timeout=HTTP_TIMEOUT_S,
    )
    run_id = run.json()["run"]
    (approval_id,) = wait_for(database_url, "SELECT id FROM approvals WHERE run_id = %s", run_id)

    asked = scrape(live.base)
    assert value(asked, "flowyard_approvals_waiting") == 1
    assert value(asked, "flowyard_claims_total") > value(before, "flowyard_claims_total")
    assert value(asked, "flowyard_action_seconds_count", kind="http", outcome="out") == 1
    assert value(asked, "flowyard_walk_seconds_count") >= 1
    started_route = "/api/flows/{flow_id:int}/runs"
    assert value(asked, "flowyard_http_request_seconds_count", route=started_route, status="201") == 1

    decided = httpx.post(
        f"{live.base}/api/approvals/{approval_id}/decision",
        json={"outcome": "approve"},
        headers=approver,
        timeout=HTTP_TIMEOUT_S,
    )
    assert decided.status_code == 200, decided.text
    wait_for(database_url, "SELECT 1 FROM runs WHERE id = %s AND status = 'succeeded'", run_id)

    after = scrape(live.base)
    assert value(after, "flowyard_approvals_waiting") == 0
    assert value(after, "flowyard_approvals_decided_total", outcome="approved") == 1
    assert value(after, "flowyard_runs_ended_total", status="succeeded") == 1
    assert value(after, "flowyard_resumes_total", result="written") >= 2
    assert value(after, "flowyard_resume_seconds_count") >= 2
    assert value(after, "flowyard_http_request_seconds_count", route=DECISION_ROUTE, status="200") == 1
    assert value(after, "flowyard_waits_due") == 0
    assert value(after, "flowyard_database_up") == 1
    assert ("flowyard_waits_oldest_due_seconds", frozenset()) in after
    assert value(after, "flowyard_pool_connections") >= 1


def test_a_failing_action_is_counted_by_its_reason_code(
    live: Live, database_url: str, tmp_path: Path
) -> None:
    author = {"Authorization": f"Bearer {make_user(database_url, 'f-author', 'edit', 'run')}"}
    with closed_port() as port:  # held while the action calls it: nobody listens there
        closed = f"http://127.0.0.1:{port}/nobody-listens"
        flow = httpx.post(
            f"{live.base}/api/flows", json=paid_after_approval(closed), headers=author, timeout=HTTP_TIMEOUT_S
        )
        run_id = httpx.post(
            f"{live.base}/api/flows/{flow.json()['id']}/runs",
            json={"input": {}},
            headers=author,
            timeout=HTTP_TIMEOUT_S,
        ).json()["run"]
        (code,) = wait_for(
            database_url,
            "SELECT data->>'error' FROM journal WHERE run_id = %s AND code = 'resume_failed'",
            run_id,
        )
    samples = scrape(live.base)
    assert value(samples, "flowyard_resume_failures_total", code=code) == 1
    assert value(samples, "flowyard_action_seconds_count", kind="http", outcome="error") == 1
    assert value(samples, "flowyard_resumes_total", result="failed") == 1


def test_a_request_id_is_given_back_and_a_plain_one_kept(live: Live) -> None:
    mine = httpx.get(f"{live.base}/healthz", headers={"X-Request-Id": "proxy-42.a"}, timeout=HTTP_TIMEOUT_S)
    assert mine.headers["x-request-id"] == "proxy-42.a"
    odd = httpx.get(
        f"{live.base}/healthz", headers={"X-Request-Id": "two words\tand a tab"}, timeout=HTTP_TIMEOUT_S
    )
    assert odd.headers["x-request-id"] != "two words\tand a tab" and len(odd.headers["x-request-id"]) == 32
    wanted = {"proxy-42.a", odd.headers["x-request-id"]}
    assert wanted <= live.requests_served(*wanted)


def test_made_up_methods_and_non_ascii_tokens_add_no_series_and_no_error(
    live: Live, database_url: str
) -> None:
    for method in ("BREW", "X1", "X2"):
        httpx.request(method, f"{live.base}/healthz", timeout=HTTP_TIMEOUT_S)
    odd = httpx.get(
        f"{live.base}/metrics", headers=[(b"Authorization", "Bearer café".encode())], timeout=HTTP_TIMEOUT_S
    )
    assert (odd.status_code, odd.json()["error"]["code"]) == (401, "auth_token_invalid")
    text = httpx.get(
        f"{live.base}/metrics",
        headers={"Authorization": f"Bearer {make_user(database_url, 'scrape-odd', 'admin')}"},
        timeout=HTTP_TIMEOUT_S,
    ).text
    assert 'method="BREW"' not in text and 'method="X1"' not in text
    assert 'method="other"' in text


def test_a_run_stopped_after_its_last_attempt_is_counted_as_stopped_not_ended() -> None:
    def counted() -> tuple[float, float]:
        stopped = REGISTRY.get_sample_value("flowyard_runs_stopped_total", {"code": "action_failed"}) or 0.0
        ended = sum(
            sample.value
            for family in REGISTRY.collect()
            if family.name == "flowyard_runs_ended"
            for sample in family.samples
            if sample.name == "flowyard_runs_ended_total"
        )
        return stopped, ended

    before = counted()
    events.resume_failed("action_failed", final=False)
    events.resume_failed("action_failed", final=True)
    assert counted() == (before[0] + 1, before[1])
