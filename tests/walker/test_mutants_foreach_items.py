"""Survivor of `make mutation` in backend/walker/loops.py's enter_foreach (enter_foreach_23): a foreach's
items written as a list template are rendered within the run's value limit, and past it the run fails
with `value_too_large`, that limit and `what: value`."""

from __future__ import annotations

from backend.walker import walk
from backend.walker.sizes import Limits
from backend.walker.step import JournalLine
from tests.walker.walker_flows import build, foreach, log, trigger

NODES = {"t": trigger(), "each": foreach(["{{trigger}}", "{{trigger}}"], "x"), "say": log("{{x}}")}
WIRES = "t>each each.body>say"


def test_a_foreach_over_a_list_template_within_the_value_limit_takes_each_item() -> None:
    step = walk(build(NODES, WIRES), None, trigger="x" * 20, limits=Limits(value_bytes=47))
    assert (step.status, [line.data["message"] for line in step.journal if line.code == "log_written"]) == (
        "succeeded",
        ["x" * 20, "x" * 20],
    )


def test_a_foreach_over_a_list_template_past_the_value_limit_fails_the_run_with_that_limit() -> None:
    step = walk(build(NODES, WIRES), None, trigger="x" * 20, limits=Limits(value_bytes=46))
    assert (step.status, step.journal[-1]) == (
        "failed",
        JournalLine("run_failed", "each", 2, {"error": "value_too_large", "limit": 46, "what": "value"}),
    )
