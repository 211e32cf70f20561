"""Values that grow without bound fail the run with `value_too_large`, never a truncation (issue 12, item 5).

The figures are small limits passed to the walker, so that each test builds kilobytes, not megabytes;
one test keeps the default limit and the chain of the issue.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from backend.cli import main
from backend.walker import Limits, Resume, walk
from backend.walker.sizes import measure
from tests.walker.walker_flows import build, document, foreach, http, log, set_, trigger

SMALL = Limits(value_bytes=1000, variables_bytes=4000)


def doubling(count: int) -> dict[str, Any]:
    """The issue's flow: `count` set nodes, each `{"v": "{{v}}{{v}}"}`, after one that sets `v` to "x"."""
    nodes = {
        "t": trigger(),
        "s0": set_(v="x"),
        **{f"s{i}": set_(v="{{v}}{{v}}") for i in range(1, count + 1)},
    }
    wires = " ".join(["t>s0", *(f"s{i}>s{i + 1}" for i in range(count))])
    return document(nodes, wires)


def failure(step: Any) -> dict[str, Any]:
    assert (step.status, step.error) == ("failed", "value_too_large")
    last = step.journal[-1]
    assert last.code == "run_failed"
    return dict(last.data)


def test_forty_doublings_fail_at_the_first_value_past_the_default_limit() -> None:
    from backend.graph.model import Flow

    step = walk(Flow.load(doubling(40)), None)
    data = failure(step)
    assert data["limit"] == 1 << 20
    # At s19, `v` is 512 KiB and the node's output `{{s19.v}}` holds it again: the variables are past
    # 1 MiB together there, although no one value is. Nothing after it runs.
    assert (step.journal[-1].node, data["what"]) == ("s19", "variables")
    assert "s20" not in step.visits


def test_a_value_exactly_at_the_limit_is_accepted() -> None:
    flow = build({"t": trigger(), "say": log("{{trigger.a}}{{trigger.b}}")}, "t>say")
    # 998 characters and their quotes: 1,000 bytes of JSON.
    step = walk(flow, None, trigger={"a": "a" * 499, "b": "b" * 499}, limits=SMALL)
    assert step.status == "succeeded"
    step = walk(flow, None, trigger={"a": "a" * 499, "b": "b" * 500}, limits=SMALL)
    assert failure(step)["limit"] == 1000


def test_a_template_of_many_placeholders_fails_before_the_copies_exist() -> None:
    flow = build({"t": trigger(), "say": log("{{trigger}}" * 10_000)}, "t>say")
    step = walk(flow, None, trigger="y" * 900, limits=SMALL)
    failure(step)
    assert [line.code for line in step.journal].count("log_written") == 0


def test_an_action_config_that_repeats_a_large_value_fails_before_it_is_sent() -> None:
    body = {f"k{i}": "{{trigger}}" for i in range(100)}
    flow = build({"t": trigger(), "send": http(body=body)}, "t>send")
    step = walk(flow, None, trigger={"blob": "z" * 200}, limits=SMALL)
    failure(step)
    assert step.request is None
    assert "action_requested" not in [line.code for line in step.journal]


def test_the_variables_as_a_whole_are_held_to_their_own_limit() -> None:
    # Each value is 900 bytes, under the value limit; four of them (and the set nodes' outputs) are not.
    names = ["a", "b", "c", "d"]
    nodes = {"t": trigger(), **{name: set_(**{f"v{name}": "{{trigger}}"}) for name in names}}
    flow = build(nodes, "t>a a>b b>c c>d")
    step = walk(flow, None, trigger="w" * 890, limits=Limits(value_bytes=1000, variables_bytes=4000))
    data = failure(step)
    assert data["what"] == "variables"
    assert step.journal[-1].node in names[1:]


def test_a_payload_past_the_limit_fails_the_run_at_its_start() -> None:
    flow = build({"t": trigger(), "say": log("hi")}, "t>say")
    step = walk(flow, None, trigger="p" * 5000, limits=SMALL)
    failure(step)
    assert step.visits == []


def test_an_output_past_the_limit_fails_the_run_when_it_resumes() -> None:
    flow = build({"t": trigger(), "send": http(), "after": log("done")}, "t>send send>after")
    paused = walk(flow, None, limits=SMALL)
    assert paused.status == "waiting" and paused.request is not None and paused.continuation is not None
    resume = Resume("send", paused.request.visit, "out", {"body": "b" * 5000})
    step = walk(flow, json.loads(json.dumps(paused.continuation)), resume=resume, limits=SMALL)
    failure(step)
    assert "after" not in step.visits


def test_loop_items_count_as_they_are_assigned_and_the_walk_goes_on_under_the_limit() -> None:
    nodes = {"t": trigger(), "each": foreach("{{trigger}}"), "say": log("{{item}}")}
    flow = build(nodes, "t>each each.body>say")
    step = walk(flow, None, trigger=["i" * 300] * 5, limits=SMALL)
    assert step.status == "succeeded"
    step = walk(flow, None, trigger=["i" * 300] * 5 + ["j" * 2000], limits=Limits(3000, 4000))
    failure(step)


def test_the_count_is_the_compact_json_size() -> None:
    values: list[Any] = [
        {"a": [1, 2.5, None, True, False], "b": {"c": "d"}},
        ["é", "日本", ""],
        "x",
        0,
        [],
        {},
    ]
    for value in values:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        assert measure(value, 10**6) == len(text.encode("utf-8"))


def test_flowyard_walk_reports_the_failure(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "flow.json"
    path.write_text(json.dumps(doubling(40)), encoding="utf-8")
    assert main(["walk", str(path), "--json"]) == 1
    result = json.loads(capsys.readouterr().out)
    assert (result["status"], result["error"]) == ("failed", "value_too_large")
    assert result["journal"][-1]["data"]["error"] == "value_too_large"
    # The sentence cites the failure by its own sentence; the code stays in `data` (docs/i18n.md).
    assert "value_too_large" not in result["journal"][-1]["message"]
    assert "the most a run may hold" in result["journal"][-1]["message"]


def test_flowyard_walk_reads_the_limit_from_the_settings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FLOWYARD_MAX_VALUE_BYTES", "64")
    path = tmp_path / "flow.json"
    path.write_text(json.dumps(doubling(7)), encoding="utf-8")
    assert main(["walk", str(path), "--json"]) == 1
    result = json.loads(capsys.readouterr().out)
    assert result["error"] == "value_too_large"
    # "x" doubled five times is 32 characters, 34 bytes of JSON; doubled six times, 66 bytes.
    assert result["journal"][-1]["node"] == "s6"
