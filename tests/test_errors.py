"""One coded-error root: every refusal keeps its code and params one way, and both ways of showing one to
a person (the CLI's line, the API's JSON) take any of them."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from backend.api.endpoint import refusal_status
from backend.api.errors import ApiError, error_response
from backend.console import refuse
from backend.errors import CodedError
from backend.i18n.catalogs import message
from backend.people.accounts import AccountRefused
from backend.store.errors import StoreError


def test_only_the_root_keeps_a_code_on_an_exception() -> None:
    keepers = []
    for path in sorted(Path("backend").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if (
                        isinstance(target, ast.Attribute)
                        and isinstance(target.value, ast.Name)
                        and target.value.id == "self"
                        and target.attr == "code"
                    ):
                        keepers.append(f"{path}:{node.lineno}")
    assert [place.split(":")[0] for place in keepers] == ["backend/errors.py"]


def test_the_cli_prints_any_refusal_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert refuse(AccountRefused(code="user_unknown", name="zed")) == 1
    assert refuse(StoreError(code="database_unreachable", host="db:5432/x"), exit_code=2) == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith("flowyard: ") and lines[0].endswith("(user_unknown)") and "zed" in lines[0]
    assert lines[1].endswith("(database_unreachable)") and "db:5432/x" in lines[1]


def test_the_api_answers_any_refusal_with_its_status_and_translated_sentence() -> None:
    answer = error_response(AccountRefused(code="user_unknown", name="zed"), "de")
    body = json.loads(bytes(answer.body))
    assert answer.status_code == 422
    assert body["error"]["code"] == "user_unknown" and "zed" in body["error"]["message"]
    assert body["error"]["message"] != message("user_unknown", "en", name="zed")
    assert body["error"]["detail"] == {"name": "zed"}

    # A StoreError is no refusal a client caused: the endpoint answers it as a failure of its own (503
    # database_unavailable, or a logged 500); shown as a refusal anyway, it would be a 500.
    assert refusal_status(StoreError(code="database_unreachable", host="h")) is None
    assert error_response(StoreError(code="database_unreachable", host="h"), "en").status_code == 500
    api = error_response(ApiError(409, code="not_found", detail={"x": 1}), "en")
    assert (api.status_code, json.loads(bytes(api.body))["error"]["detail"]) == (409, {"x": 1})


def test_every_refusal_is_a_coded_error() -> None:
    from backend.actions.command_rights import CommandRefused
    from backend.actions.failures import ActionFailure
    from backend.approvals.audit import AuditRefused
    from backend.approvals.decisions import DecisionRefused
    from backend.graph.cli import FlowFileUnreadable
    from backend.queue.runs import RunAlreadyParked
    from backend.queue.schedules import ScheduleInvalid
    from backend.queue.walked import WaitFailed
    from backend.walker.errors import WalkFailure

    kinds = [
        ActionFailure, CommandRefused, AuditRefused, DecisionRefused, FlowFileUnreadable, WaitFailed,
        RunAlreadyParked, ScheduleInvalid, WalkFailure, AccountRefused, StoreError, ApiError,
    ]  # fmt: skip
    assert [kind.__name__ for kind in kinds if not issubclass(kind, CodedError)] == []
