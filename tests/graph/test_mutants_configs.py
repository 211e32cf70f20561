"""Survivors of `make mutation` in backend/graph/schema.py's `check_configs`: a node of an unknown type, or
one whose config is no object, is passed over and the configs after it are still checked
(`x_check_configs__mutmut_8`, `break` for `continue`); called without an explainer, it makes its own for
its report and explains each fault (`x_check_configs__mutmut_3` and `_4`). Each finding whole."""

from __future__ import annotations

from typing import Any

from backend.graph import Finding, check_flow
from backend.graph.findings import Report
from backend.graph.outline import read_outline
from backend.graph.schema import check_configs
from backend.i18n.catalogs import message
from tests.support import config_invalid, flow


def ending_in_a_bad_log(middle: str) -> dict[str, Any]:
    """Trigger `t`, then node `x` of type `middle`, then a log `l` whose message is no string."""
    document = flow(f"t:trigger x:{middle} l:log", wires="t>x x>l")
    document["nodes"][2]["config"] = {"message": 5}
    return document


def test_a_config_after_a_node_of_an_unknown_type_is_still_checked() -> None:
    document = ending_in_a_bad_log("teleport")
    findings, _ = check_flow(document)
    assert findings == [
        Finding(
            "node_type_unknown",
            "x",
            None,
            message("node_type_unknown", "en", node="x", type="teleport"),
            "/nodes/1/type",
        ),
        config_invalid("l", "/nodes/2/config/message", "The value must be a text"),
    ]


def test_a_config_after_a_config_that_is_no_object_is_still_checked() -> None:
    document = ending_in_a_bad_log("log")
    document["nodes"][1]["config"] = 5
    findings, _ = check_flow(document)
    assert findings == [
        Finding(
            "format_invalid",
            "x",
            None,
            message(
                "format_invalid",
                "en",
                node="x",
                pointer="/nodes/1/config",
                problem="The value must be an object",
            ),
            "/nodes/1/config",
        ),
        config_invalid("l", "/nodes/2/config/message", "The value must be a text"),
    ]


def test_configs_checked_without_an_explainer_are_explained_in_their_own_report() -> None:
    document = ending_in_a_bad_log("log")
    document["nodes"][1]["config"] = {"message": "hi", "level": "loud"}
    outline = read_outline(document)
    assert outline is not None
    report = Report("en")
    check_configs(outline, report)
    assert report.close() == [
        config_invalid(
            "x", "/nodes/1/config/level", 'The value must be "debug", "info", "warning", or "error"'
        ),
        config_invalid("l", "/nodes/2/config/message", "The value must be a text"),
    ]
