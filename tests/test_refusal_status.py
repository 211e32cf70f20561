"""A coded refusal that escapes its handler untranslated is answered with its code and a 4xx (its
class's status, 404 for a thing not there), in the reader's language; an uncoded exception, or a coded
failure no client can cause, is a 500.

The endpoints here are declared as the API's are (`backend.api.endpoint.Endpoint`), public and without a
connection: what is proven is the endpoint's own answer, which touches no data."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.responses import Response
from starlette.testclient import TestClient

from backend.actions.failures import ActionFailure
from backend.api.endpoint import Call, Endpoint
from backend.i18n.catalogs import message
from backend.people.logins import LoginThrottled
from backend.queue.stops import StopRefused

REFUSALS: dict[str, Exception] = {
    "/stopped": StopRefused(code="run_not_stopped", state="waiting"),
    "/gone": StopRefused(code="run_not_found"),
    "/throttled": LoginThrottled(code="login_throttled", minutes=3),
    "/bug": RuntimeError("a bug, not a refusal"),
    # A coded failure of ours, not a refusal: its parameters (here a host) never reach the client.
    "/failed": ActionFailure(code="action_unreachable", host="10.0.0.7", detail="connection refused"),
}


def _raising(path: str) -> Endpoint:
    async def handler(call: Call) -> Response:
        raise REFUSALS[path]

    return Endpoint("GET", path, handler, summary="raises", tag="test", public=True, pooled=False)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    app = Starlette(routes=[_raising(path).route() for path in REFUSALS])
    app.state.pool = None  # read by every endpoint; these take no connection
    with TestClient(app, raise_server_exceptions=False) as running:
        yield running


def _error(client: TestClient, path: str, status: int, language: str = "en") -> dict[str, Any]:
    answer = client.get(path, headers={"Accept-Language": language})
    assert answer.status_code == status, answer.text
    error: dict[str, Any] = answer.json()["error"]
    return error


def test_a_package_refusal_is_a_422_with_its_code_sentence_and_parameters(client: TestClient) -> None:
    error = _error(client, "/stopped", 422)
    assert error == {
        "code": "run_not_stopped",
        "message": message("run_not_stopped", "en", state="waiting"),
        "detail": {"state": "waiting"},
    }


def test_a_refusal_naming_what_is_not_there_is_a_404(client: TestClient) -> None:
    error = _error(client, "/gone", 404, "de")
    assert error["code"] == "run_not_found" and error["message"] == message("run_not_found", "de")
    assert error["message"] != message("run_not_found", "en")


def test_a_refusal_class_with_its_own_status_keeps_it(client: TestClient) -> None:
    error = _error(client, "/throttled", 429)
    assert error["code"] == "login_throttled" and error["detail"] == {"minutes": 3}


def test_an_uncoded_exception_is_still_a_500_without_its_text(client: TestClient) -> None:
    error = _error(client, "/bug", 500)
    assert error["code"] == "internal_error" and "a bug" not in str(error)


def test_a_coded_failure_that_is_no_refusal_is_a_500_without_its_parameters(client: TestClient) -> None:
    error = _error(client, "/failed", 500)
    assert error["code"] == "internal_error"
    assert "10.0.0.7" not in str(error) and "action_unreachable" not in str(error)
