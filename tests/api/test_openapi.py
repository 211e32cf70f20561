"""The OpenAPI document describes the live app: schemathesis finds no server error and no answer that
contradicts it, on every operation, with a token that holds every right."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from tests.api.support import make_user
from tests.ports import serving_url
from tests.server_logs import server_log

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture(scope="module")
def live(database_url: str) -> Iterator[tuple[str, str]]:
    """`flowyard serve` on a port of its own, and a token with every right."""
    token = make_user(
        database_url, "everything", "edit", "run", "decide", "audit", "admin", groups=("finance",)
    )
    with subprocess.Popen(
        [sys.executable, "-m", "backend.cli", "serve", "--port", "0", "--no-worker"],
        env=dict(os.environ, DATABASE_URL=database_url),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as server:
        assert server.stdout is not None
        try:
            banner = server.stdout.readline()
            if "serving" not in banner:  # an empty database first hears how to add its first administrator
                banner = server.stdout.readline()
            base = serving_url(banner)
            assert base is not None, banner
            yield base, token
        finally:
            server.terminate()
            server.wait(timeout=30)
        assert server.stderr is not None
        errors = server.stderr.read()
        server_log("serve (test_openapi)", errors)
        assert "Traceback" not in errors, errors


@pytest.fixture(scope="module")
def api_schema(live: tuple[str, str]) -> Any:
    base, token = live
    return schemathesis.openapi.from_url(
        f"{base}/api/openapi.json", headers={"Authorization": f"Bearer {token}"}
    )


def test_the_document_is_openapi_3_1_and_needs_a_token(live: tuple[str, str]) -> None:
    base, token = live
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{base}/api/openapi.json", timeout=30)
    assert refused.value.code == 401
    refused.value.close()
    request = urllib.request.Request(f"{base}/api/openapi.json", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        document = json.load(answer)
    assert document["openapi"] == "3.1.0"
    assert "/api/approvals/{approval_id}/decision" in document["paths"]


def test_no_operation_errs_or_contradicts_its_schema(api_schema: Any, live: tuple[str, str]) -> None:
    # schemathesis's pytest plugin does not run under this pytest; its strategies do, one operation at a time.
    base, token = live
    # An event stream never ends, so no generated call could read its answer: tests/api/test_stream.py.
    operations = [
        op
        for op in (result.ok() for result in api_schema.get_all_operations())
        if op.path != "/api/runs/stream"
    ]
    assert len(operations) >= 20
    statuses: dict[int, int] = {}

    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(
            max_examples=15,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            database=None,
            derandomize=True,
        )
        def check(case: Any) -> None:
            response = case.call_and_validate(
                base_url=base, headers={"Authorization": f"Bearer {token}"}, checks=CHECKS
            )
            statuses[response.status_code] = statuses.get(response.status_code, 0) + 1

        try:
            check()
        except Exception as failure:
            raise AssertionError(f"{operation.label}: {failure}") from failure
    assert sum(statuses.values()) > 100, statuses
    assert 500 not in statuses
    assert statuses.get(200, 0) > 20, "the generated calls must reach the handlers, not only the refusals"
