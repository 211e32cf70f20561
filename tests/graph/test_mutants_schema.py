"""Survivors of `make mutation` in backend/graph/schema.py: an action's undo is checked as a config of the
action's own type and may not have an undo of its own; the durations and a delay's literal `until` are
held to the longest wait, each finding whole (code, node, sentence, pointer)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from backend.graph import Finding, validate
from backend.graph.explain import problem
from backend.graph.schema import MAX_EXPLAINED_DEPTH, _in_order
from backend.graph.validator import check_flow
from backend.i18n.catalogs import message
from tests.support import config_invalid, flow


def with_config(node_type: str, **config: Any) -> dict[str, Any]:
    document = flow(f"t:trigger w:{node_type}", wires="t>w")
    document["nodes"][1]["config"].update(config)
    return document


def test_an_undo_of_the_actions_own_type_may_read_the_result() -> None:
    undo = {"method": "DELETE", "url": "https://example.test/pay/{{result.id}}"}
    assert validate(with_config("http", undo=undo)) == []


def test_an_undo_with_an_undo_of_its_own_is_refused_where_the_inner_one_is() -> None:
    inner = {"method": "GET", "url": "https://example.test/undo"}
    undo = {"method": "DELETE", "url": "https://example.test/pay", "undo": inner}
    where = "/nodes/1/config/undo/undo"
    assert validate(with_config("http", undo=undo)) == [
        Finding("undo_nested", "w", None, message("undo_nested", "en", node="w", pointer=where), where)
    ]


def test_an_undo_is_checked_by_its_actions_schema_each_fault_where_it_is() -> None:
    methods = '"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", or "OPTIONS"'
    assert validate(with_config("http", undo={"method": "FLY", "url": 5})) == [
        config_invalid("w", "/nodes/1/config/undo/method", f"The value must be {methods}"),
        config_invalid("w", "/nodes/1/config/undo/url", "The value must be a text"),
    ]


def test_a_later_duration_is_checked_after_an_earlier_one_that_is_not_set() -> None:
    document = with_config("wait_event", timeout=None, keep_early="P3661D")
    assert validate(document) == [
        config_invalid("w", "/nodes/1/config/keep_early", "The wait must not be longer than 3,660 days")
    ]


def test_a_delay_until_that_is_no_timestamp_is_refused_with_what_it_must_be() -> None:
    document = flow("t:trigger w:delay", wires="t>w")
    document["nodes"][1]["config"] = {"until": "tomorrow"}
    assert validate(document) == [
        config_invalid("w", "/nodes/1/config/until", "The value must be a date and time, or a template")
    ]


def test_a_delay_until_further_ahead_than_the_longest_wait_is_refused_when_now_is_known() -> None:
    document = flow("t:trigger w:delay", wires="t>w")
    document["nodes"][1]["config"] = {"until": "2040-01-01T00:00:00Z"}
    assert validate(document) == []
    assert validate(document, now=datetime(2026, 1, 1, tzinfo=UTC)) == [
        config_invalid("w", "/nodes/1/config/until", "The moment must not be more than 3,660 days ahead")
    ]


@pytest.mark.parametrize("locale", ["en", "de", "ja"])
def test_a_fault_of_the_settings_as_a_whole_names_them_in_the_readers_words(locale: str) -> None:
    deep: object = "x"
    for _ in range(MAX_EXPLAINED_DEPTH + 2):
        deep = {"k": deep}
    findings, _ = check_flow(with_config("set", values={"a": deep}), locale)
    whole = message("node_settings_whole", locale)
    assert [(f.code, f.detail) for f in findings] == [("node_config_invalid", "/nodes/1/config")]
    assert whole in findings[0].message
    if locale != "en":
        assert message("node_settings_whole", "en") not in findings[0].message


def test_of_two_faults_of_one_code_at_one_value_the_same_is_named_whatever_their_order() -> None:
    at = ("nodes", 1, "config", "url")
    first, later = problem("problem_form", form="a"), problem("problem_form", form="b")
    assert list(_in_order([(at, first), (at, later)])) == [(at, first)]
    assert list(_in_order([(at, later), (at, first)])) == [(at, first)]
