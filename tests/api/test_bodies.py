"""Bodies that arrive too slowly, not at all, nested too deep, or with a value a refusal must not quote."""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import replace
from typing import Any, cast

import pytest
from starlette.testclient import TestClient

from backend.api.app import create_app
from backend.api.body import MAX_DEPTH
from backend.settings import Settings
from tests.api.support import app_client, approval_and_delay_flow, auth, make_user
from tests.support import Queue

Message = dict[str, Any]


def asgi_call(
    client: TestClient, path: str, headers: dict[str, str], messages: list[Message]
) -> list[Message]:
    """POST `path` to the app the client serves, its body as the ASGI `messages` given and then none:
    a client that stops sending. What the app sent back."""
    app = client.app

    async def go() -> list[Message]:
        pending, sent = list(messages), []
        silence = asyncio.Event()  # never set: the rest of the body never comes

        async def receive() -> Message:
            if pending:
                return pending.pop(0)
            await silence.wait()
            raise AssertionError("unreachable")

        async def send(message: Message) -> None:
            sent.append(message)

        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
            "client": ("127.0.0.1", 50000),
            "server": ("testserver", 80),
        }
        await app(scope, receive, send)  # type: ignore[arg-type]
        return sent

    assert client.portal is not None
    return cast(list[Message], client.portal.call(go))


def answer_of(sent: list[Message]) -> tuple[int, dict[str, Any]]:
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], json.loads(body)


def test_a_body_that_stops_coming_is_408_after_the_deadline(queue: Queue) -> None:
    token = make_user(queue.url, "slowpoke", "edit")
    app = create_app(queue.url, settings=replace(Settings.from_environment(), body_timeout_s=0.2))
    headers = {"content-type": "application/json", "content-length": "100", **auth(token)}
    with TestClient(app) as client:
        sent = asgi_call(
            client,
            "/api/flows/validate",
            headers,
            [{"type": "http.request", "body": b"{", "more_body": True}],
        )
    status, body = answer_of(sent)
    assert (status, body["error"]["code"]) == (408, "request_body_timeout")
    assert "0.2" in body["error"]["message"]


def test_a_client_that_leaves_mid_body_is_no_server_error(
    queue: Queue, caplog: pytest.LogCaptureFixture
) -> None:
    token = make_user(queue.url, "leaver", "edit")
    headers = {"content-type": "application/json", "content-length": "100", **auth(token)}
    messages: list[Message] = [
        {"type": "http.request", "body": b'{"na', "more_body": True},
        {"type": "http.disconnect"},
    ]
    with caplog.at_level(logging.INFO, logger="flowyard.api"), TestClient(create_app(queue.url)) as client:
        sent = asgi_call(client, "/api/flows", headers, messages)
    status, body = answer_of(sent)
    assert (status, body["error"]["code"]) == (400, "request_body_incomplete")
    records = [r for r in caplog.records if r.name == "flowyard.api"]
    assert records, "the departure is noted"
    assert all(r.levelno < logging.ERROR and r.exc_info is None for r in records), records


def nested(depth: int) -> bytes:
    return b'{"input": ' + b"[" * depth + b"]" * depth + b"}"


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 950, 100_000])
def test_json_nested_too_deep_is_a_400_at_parse_and_starts_nothing(queue: Queue, depth: int) -> None:
    token = make_user(queue.url, f"deep{depth}", "edit", "run")
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=approval_and_delay_flow(), headers=auth(token)).json()["id"]
        before = queue.one("SELECT count(*) FROM runs")
        answer = api.post(
            f"/api/flows/{flow_id}/runs",
            content=nested(depth),
            headers=auth(token, **{"Content-Type": "application/json"}),
        )
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"]["code"] == "request_json_too_deep"
    assert answer.json()["error"]["detail"] == {"limit": MAX_DEPTH}
    assert queue.one("SELECT count(*) FROM runs") == before


def test_json_as_deep_as_the_limit_is_taken(queue: Queue) -> None:
    token = make_user(queue.url, "deepok", "edit", "run")
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=approval_and_delay_flow(), headers=auth(token)).json()["id"]
        answer = api.post(
            f"/api/flows/{flow_id}/runs",
            content=nested(MAX_DEPTH - 1),  # the input's own depth, under the body's object
            headers=auth(token, **{"Content-Type": "application/json"}),
        )
    assert answer.status_code == 201, answer.text


def test_a_refusal_never_quotes_the_value_it_refuses(queue: Queue) -> None:
    password = "correct-horse-" + "x" * 1021  # 1,035 characters: over the limit
    with app_client(queue.url) as api:
        answer = api.post("/api/session", json={"name": "bob", "password": password})
        unknown = api.post("/api/session", json={"name": "bob", "password": "pw", "otp": "secret-654321"})
    assert answer.status_code == 422
    assert "correct-horse" not in answer.text
    assert answer.json()["error"]["detail"] == {
        "pointer": "/password",
        "rule": "maxLength",
        "reason": "problem_max_characters",
    }
    assert unknown.status_code == 422
    assert "secret-654321" not in unknown.text
    assert unknown.json()["error"]["code"] == "request_field_unknown"
    assert unknown.json()["error"]["detail"]["pointer"] == "/otp"
