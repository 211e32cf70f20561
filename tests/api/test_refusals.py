"""Bad input gets a reason code and changes nothing; nothing is answered without a token."""

from __future__ import annotations

import json

import pytest

from backend.api.endpoint import ENDPOINTS
from tests.api.support import app_client, approval_and_delay_flow, auth, make_user
from tests.support import Queue


def _concrete(path: str) -> str:
    return (
        path.replace("{flow_id:int}", "1")
        .replace("{run_id:int}", "1")
        .replace("{approval_id:int}", "1")
        .replace("{version:int}", "1")
        .replace("{name}", "flow")
        .replace("{locale}", "de")
        .replace("{secret}", "x")
        .replace("{token_id:int}", "1")
        .replace("{delegation_id:int}", "1")
        .replace("{right}", "run")
    )


def test_every_endpoint_but_health_login_catalogs_webhooks_and_event_hooks_needs_a_token(
    queue: Queue,
) -> None:
    with app_client(queue.url) as api:
        for ep in ENDPOINTS:
            if ep.public:
                continue
            answer = api.request(ep.method, _concrete(ep.path), json={})
            assert answer.status_code == 401, (ep.method, ep.path, answer.text)
            assert answer.json()["error"]["code"] == "auth_required"
            bad = api.request(ep.method, _concrete(ep.path), json={}, headers=auth("fy_not_a_token"))
            assert bad.json()["error"]["code"] == "auth_token_invalid"
    assert {ep.path for ep in ENDPOINTS if ep.public} == {
        "/healthz",
        "/api/session",
        "/api/i18n/{locale}",
        "/hooks/{flow_id:int}/{secret}",
        # an outside event, authenticated by the secret an admin made for its name (docs/events.md)
        "/hooks/events/{name}/{secret}",
    }


@pytest.mark.parametrize(
    ("body", "headers", "status", "code"),
    [
        (b"{nope", {"content-type": "application/json"}, 400, "request_json_invalid"),
        (b'{"a": NaN}', {"content-type": "application/json"}, 400, "request_json_invalid"),
        (b'{"name": "a\\u0000b"}', {"content-type": "application/json"}, 400, "request_json_invalid"),
        (b"{}", {"content-type": "text/plain"}, 415, "request_content_type"),
        (b" " * 5_000_001, {"content-type": "application/json"}, 413, "request_too_large"),
    ],
)
def test_malformed_bodies_are_refused_with_their_code(
    queue: Queue, body: bytes, headers: dict[str, str], status: int, code: str
) -> None:
    author = make_user(queue.url, f"author{status}{len(body)}", "edit")
    with app_client(queue.url) as api:
        answer = api.post("/api/flows", content=body, headers=auth(author, **headers))
    assert (answer.status_code, answer.json()["error"]["code"]) == (status, code)
    assert queue.one("SELECT count(*) FROM flows") == (0,)


def test_an_invalid_flow_is_422_with_every_finding_and_nothing_saved(queue: Queue) -> None:
    author = make_user(queue.url, "writer", "edit", "run")
    document = approval_and_delay_flow()
    document["wires"].append({"from": "paid", "to": "start"})
    document["nodes"].append({"id": "lost", "type": "log", "config": {"message": "x"}})
    with app_client(queue.url) as api:
        answer = api.post("/api/flows", json=document, headers=auth(author))
        unknown = api.post("/api/flows/1/runs", json={"input": 1, "extra": 2}, headers=auth(author))
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert error["code"] == "flow_invalid"
    assert {f["code"] for f in error["detail"]["findings"]} >= {"trigger_has_inputs", "node_unreachable"}
    assert unknown.status_code == 422 and unknown.json()["error"]["code"] == "request_field_unknown"
    assert queue.one("SELECT count(*) FROM flows") == (0,)


def test_messages_follow_accept_language(queue: Queue) -> None:
    with app_client(queue.url) as api:
        english = api.get("/api/flows").json()["error"]["message"]
        german = api.get("/api/flows", headers={"Accept-Language": "de-CH, en;q=0.5"}).json()["error"][
            "message"
        ]
        unknown = api.get("/api/flows", headers={"Accept-Language": "tlh"}).json()["error"]["message"]
    assert english != german
    assert unknown == english


def test_unknown_routes_and_methods_answer_json_errors(queue: Queue) -> None:
    with app_client(queue.url) as api:
        missing = api.get("/api/nothing-here")
        wrong = api.delete("/healthz")
    assert (missing.status_code, missing.json()["error"]["code"]) == (404, "not_found")
    assert (wrong.status_code, wrong.json()["error"]["code"]) == (405, "method_not_allowed")
    assert json.loads(wrong.text)["error"]["message"]


@pytest.mark.parametrize(
    "body",
    [
        b'{"input": 1e400}',
        b'{"input": ' + b"9" * 5000 + b"}",
        b'{"input": "\\ud800"}',
        b'{"input": "a\\u0000"}',
    ],
)
def test_json_that_postgresql_would_refuse_is_a_400_not_a_500(queue: Queue, body: bytes) -> None:
    runner = make_user(queue.url, f"runner{len(body)}{body[-3]}", "run", "edit")
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=approval_and_delay_flow(), headers=auth(runner)).json()["id"]
        answer = api.post(
            f"/api/flows/{flow_id}/runs",
            content=body,
            headers=auth(runner, **{"content-type": "application/json"}),
        )
    assert (answer.status_code, answer.json()["error"]["code"]) == (400, "request_json_invalid")
    assert queue.one("SELECT count(*) FROM runs WHERE flow_id = %s", flow_id) == (0,)


@pytest.mark.parametrize(
    "query", ["limit=%C2%B2", "limit=--5", "decider=a%00b", "limit=99999999999999999999"]
)
def test_query_parameters_that_are_not_what_they_claim_are_a_400(queue: Queue, query: str) -> None:
    reader = make_user(queue.url, f"reader{abs(hash(query)) % 10**6}", "audit")
    with app_client(queue.url) as api:
        answer = api.get(f"/api/audit?{query}", headers=auth(reader))
    assert (answer.status_code, answer.json()["error"]["code"]) == (400, "request_query_invalid")
