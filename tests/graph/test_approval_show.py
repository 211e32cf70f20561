"""An approval's `show` (issue 31): a list of labelled template paths the schema holds to its form, and
no path that reads a secret."""

from __future__ import annotations

from typing import Any

import pytest

from backend.graph.validator import validate
from tests.graph.test_approval_rules import document


def findings(show: Any) -> list[tuple[str, str | None, str | None]]:
    return [(f.code, f.node, f.detail) for f in validate(document(show=show))]


def test_labelled_paths_and_an_empty_list_are_valid() -> None:
    show = [
        {"label": "Amount of {{trigger.invoice}}", "value": "trigger.amount"},
        {"value": "trigger"},
        {"value": "lines.0.sku"},
        {"value": "vendor-name_2"},
    ]
    assert findings(show) == []
    assert findings([]) == []
    assert findings([{"value": "v"}] * 20) == []


@pytest.mark.parametrize(
    ("show", "where"),
    [
        ("trigger", "/nodes/1/config/show"),
        ([{"value": "v"}] * 21, "/nodes/1/config/show"),
        (["trigger"], "/nodes/1/config/show/0"),
        ([{"label": "Amount"}], "/nodes/1/config/show/0/value"),
        ([{"value": ""}], "/nodes/1/config/show/0/value"),
        ([{"value": "{{trigger.amount}}"}], "/nodes/1/config/show/0/value"),
        ([{"value": "trigger amount"}], "/nodes/1/config/show/0/value"),
        ([{"value": "trigger."}], "/nodes/1/config/show/0/value"),
        ([{"value": ".trigger"}], "/nodes/1/config/show/0/value"),
        ([{"value": "trigger\n"}], "/nodes/1/config/show/0/value"),
        ([{"value": "a" * 201}], "/nodes/1/config/show/0/value"),
        ([{"value": 3}], "/nodes/1/config/show/0/value"),
        ([{"value": "v", "label": 3}], "/nodes/1/config/show/0/label"),
        ([{"value": "v", "label": "x" * 201}], "/nodes/1/config/show/0/label"),
        ([{"value": "v", "format": "money"}], "/nodes/1/config/show/0/format"),
    ],
)
def test_a_show_out_of_form_is_a_config_finding_where_it_is(show: Any, where: str) -> None:
    assert findings(show) == [("node_config_invalid", "ask", where)]


def test_a_path_or_a_label_that_reads_a_secret_is_a_finding_at_the_first() -> None:
    show = [{"value": "trigger"}, {"value": "secrets.bank_token"}, {"value": "secrets"}]
    assert findings(show) == [("secret_outside_action", "ask", "/nodes/1/config/show/1/value")]
    labelled = [{"value": "secrets.x"}, {"label": "{{ secrets.bank }}", "value": "trigger"}]
    assert findings(labelled) == [("secret_outside_action", "ask", "/nodes/1/config/show/1/label")]
    assert findings([{"value": "secretsauce.amount"}, {"value": "trigger.secrets"}]) == []


def test_only_an_approval_reads_show_for_secret_paths() -> None:
    flow = document()
    flow["nodes"][1] = {
        "id": "ask",
        "type": "log",
        "config": {"message": "m", "show": [{"value": "secrets.x"}]},
    }
    assert [(f.code, f.detail) for f in validate(flow)] == [("node_config_invalid", "/nodes/1/config/show")]
