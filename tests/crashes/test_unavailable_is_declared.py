"""While the database is away every operation that touches it answers 503 `database_unavailable`, and the
OpenAPI document says so for each of them: asked of an app whose database address has no server behind it
(a port nobody listens on), every operation of the document is called once and its answer compared with
what the document declares for it."""

from __future__ import annotations

import concurrent.futures
import re
from typing import Any

import pytest
from starlette.testclient import TestClient

from backend.api import app as api_app
from backend.api.openapi import document
from tests.ports import closed_port

# Touches no database: the one operation that must not answer 503 (an outage must not restart processes).
NO_DATABASE = {("get", "/livez")}
# Public operations that read a body before they take a connection: a body that passes their checks.
BODIES: dict[tuple[str, str], Any] = {("post", "/api/session"): {"name": "ann", "password": "a password"}}


def database(port: int) -> str:
    return f"postgresql://postgres@127.0.0.1:{port}/flowyard_nowhere?connect_timeout=1"


def _call(client: TestClient, method: str, path: str, operation: dict[str, Any]) -> tuple[int, Any, str]:
    if "/events/" in path:  # an event's name is checked before anything else: one the format allows
        path = path.replace("{name}", "paid")
    url = re.sub(r"{\w+}", "1", path)
    body: Any = None
    if "requestBody" in operation:
        body = BODIES.get((method, path), {})
    answer = client.request(method.upper(), url, json=body, headers={"Authorization": "Bearer fy_nothing"})
    kind = answer.headers.get("content-type", "")
    return answer.status_code, answer.json() if kind.startswith("application/json") else None, kind


def test_every_operation_that_touches_the_database_answers_and_declares_503(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The pool waits this long for a connection that never comes (10 s in production): short here.
    monkeypatch.setattr(api_app, "POOL_WAIT_S", 1.0)
    paths: dict[str, dict[str, Any]] = document()["paths"]
    operations = [(m, p, op) for p, methods in paths.items() for m, op in methods.items()]
    assert len(operations) > 40
    with (
        closed_port() as port,  # held while the app tries it: nothing listens there
        TestClient(api_app.create_app(database(port)), raise_server_exceptions=True) as client,
        concurrent.futures.ThreadPoolExecutor(max_workers=16) as pool,
    ):
        answers = list(pool.map(lambda o: _call(client, *o), operations))
    wrong = []
    for (method, path, operation), (status, payload, _) in zip(operations, answers, strict=True):
        declared = operation["responses"].get("503")
        if (method, path) in NO_DATABASE:
            if status != 200 or declared is not None:
                wrong.append(f"{method} {path}: {status}, 503 declared: {declared is not None}")
            continue
        # the readiness probe answers with its own code, naming the host it could not reach
        code = "database_unreachable" if path == "/readyz" else "database_unavailable"
        if status != 503 or (payload or {}).get("error", {}).get("code") != code:
            wrong.append(f"{method} {path}: answered {status} {payload}")
        schema = (declared or {}).get("content", {}).get("application/json", {}).get("schema")
        if schema != {"$ref": "#/components/schemas/Error"}:
            wrong.append(f"{method} {path}: 503 not declared with the Error schema: {declared}")
    assert wrong == []
