"""The validator's issue-24 rules: parallel branches, event names, wait rules, and the one warning."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from backend.graph import check_flow, validate
from backend.graph.cli import run_check
from tests.support import flow


def codes(document: dict[str, Any]) -> list[tuple[str, str | None]]:
    return [(f.code, f.node) for f in validate(document)]


def warnings(document: dict[str, Any]) -> list[tuple[str, str | None]]:
    findings, found = check_flow(document)
    assert findings == []
    return [(w.code, w.node) for w in found]


def node(id_: str, type_: str, **config: Any) -> dict[str, Any]:
    return {"id": id_, "type": type_, "config": config}


def test_a_parallel_with_separate_branches_is_valid_and_warns_nothing() -> None:
    document = flow("t:trigger p:parallel a:log b:log z:log", wires="t>p p.branches>a p.branches>b p.done>z")
    assert warnings(document) == []


def test_branches_that_meet_are_a_finding_at_the_meeting_node_only() -> None:
    document = flow(
        "t:trigger p:parallel a:log b:log m:log n:log",
        wires="t>p p.branches>a p.branches>b a>m b>m m>n",
    )
    assert codes(document) == [("parallel_branches_meet", "m")]


def test_a_branch_node_also_reached_from_done_leaks_like_a_loop_body() -> None:
    document = flow("t:trigger p:parallel a:log", wires="t>p p.branches>a p.done>a")
    assert [(f.code, f.detail) for f in validate(document)] == [("loop_body_leaks", "p")]


def test_end_inside_a_branch_and_break_across_a_parallel_are_findings() -> None:
    document = flow(
        "t:trigger p:parallel stop:end each:foreach q:parallel out:break",
        wires="t>p p.branches>stop p.branches>each each.body>q q.branches>out",
    )
    assert codes(document) == [("end_inside_parallel", "stop"), ("break_crosses_parallel", "out")]


def test_a_break_inside_a_loop_inside_a_branch_is_fine() -> None:
    document = flow("t:trigger p:parallel each:foreach out:break", wires="t>p p.branches>each each.body>out")
    assert codes(document) == []


def test_parallels_count_toward_the_nesting_limit() -> None:
    document = flow(
        "t:trigger p1:parallel p2:parallel p3:parallel p4:parallel a:log",
        wires="t>p1 p1.branches>p2 p2.branches>p3 p3.branches>p4 p4.branches>a",
    )
    assert codes(document) == [("loop_nesting_too_deep", "p4")]


def test_two_branches_setting_one_name_is_a_finding_at_the_later_set() -> None:
    document = flow(
        "t:trigger p:parallel",
        node("s1", "set", values={"total": "1", "a": "1"}),
        node("s2", "set", values={"total": "2", "b": "2"}),
        wires="t>p p.branches>s1 p.branches>s2",
    )
    assert [(f.code, f.node, f.detail) for f in validate(document)] == [
        ("parallel_branches_write_same_name", "s2", "total")
    ]


@pytest.mark.parametrize("name", ["Paid", "timeout", "9lives", "a-b", "x" * 65])
def test_event_names_must_be_lower_snake_case_and_not_timeout(name: str) -> None:
    wait = node("w", "wait_event", events=["paid", name], key="{{trigger.id}}")
    assert [(f.code, f.detail) for f in validate(flow("t:trigger", wait, wires="t>w"))] == [
        ("event_name_invalid", "/nodes/1/config/events/1")
    ]


def test_an_event_name_given_twice_is_a_finding() -> None:
    wait = node("w", "wait_event", events=["paid", "paid"], key="{{trigger.id}}")
    assert codes(flow("t:trigger", wait, wires="t>w")) == [("event_name_invalid", "w")]


def test_wait_rules_larger_than_the_wires_are_findings() -> None:
    document = flow(
        "t:trigger a:log b:log",
        node("j", "join", wait=3),
        node("p", "parallel", wait=2),
        "c:log",
        wires="t>a t>b a>j b>j j>p p.branches>c",
    )
    assert codes(document) == [("join_wait_invalid", "j"), ("parallel_wait_invalid", "p")]
    assert "3" in validate(document)[0].message and "2" in validate(document)[0].message


def test_rest_continue_where_every_branch_is_awaited_is_a_finding() -> None:
    wires = "t>p p.branches>a p.branches>b"
    for wait in ("all", 2, None):
        config = {"rest": "continue"} if wait is None else {"wait": wait, "rest": "continue"}
        document = flow("t:trigger", node("p", "parallel", **config), "a:log b:log", wires=wires)
        assert codes(document) == [("parallel_rest_needs_wait", "p")]
        assert validate(document)[0].detail == "/nodes/1/config/rest"
    for wait in ("first", 1):
        document = flow(
            "t:trigger", node("p", "parallel", wait=wait, rest="continue"), "a:log b:log", wires=wires
        )
        assert codes(document) == []
    cancelling = flow("t:trigger", node("p", "parallel", rest="cancel"), "a:log b:log", wires=wires)
    assert codes(cancelling) == []


def test_branches_meeting_without_a_join_is_a_warning_not_a_finding() -> None:
    document = flow("t:trigger a:log b:log z:log", wires="t>a t>b a>z b>z")
    assert warnings(document) == [("branches_meet_without_join", "z")]
    joined = flow("t:trigger a:log b:log j:join z:log", wires="t>a t>b a>j b>j j>z")
    assert warnings(joined) == []


def test_a_condition_whose_two_ports_merge_is_a_simple_merge_without_warning() -> None:
    document = flow("t:trigger c:condition a:log b:log z:log", wires="t>c c.true>a c.false>b a>z b>z")
    assert warnings(document) == []


def test_check_prints_warnings_and_still_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "flow.json"
    path.write_text(json.dumps(flow("t:trigger a:log b:log z:log", wires="t>a t>b a>z b>z")))
    assert run_check(str(path), as_json=True) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["valid"] is True and printed["findings"] == []
    assert [(w["code"], w["node"]) for w in printed["warnings"]] == [("branches_meet_without_join", "z")]
    assert run_check(str(path), as_json=False) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and lines[1].startswith(f"{path}: branches_meet_without_join: ")


def over_items(**config: Any) -> dict[str, Any]:
    return node("p", "parallel", items="{{trigger.lines}}", **{"as": "line"}, **config)


def test_a_parallel_over_items_with_one_branches_wire_is_valid_whatever_its_wait() -> None:
    for wait in ("all", "first", 7):
        document = flow("t:trigger", over_items(wait=wait), "a:log z:log", wires="t>p p.branches>a p.done>z")
        assert codes(document) == [] and warnings(document) == []


@pytest.mark.parametrize("wires", ["t>p p.done>z t>a", "t>p p.branches>a p.branches>z"])
def test_a_parallel_over_items_wants_exactly_one_branches_wire(wires: str) -> None:
    document = flow("t:trigger", over_items(), "a:log z:log", wires=wires)
    found = validate(document)
    assert [(f.code, f.node, f.detail) for f in found] == [
        ("parallel_items_one_branch", "p", "/nodes/1/config/items")
    ]
    count = "0" if "p.done" in wires else "2"
    assert count in found[0].message


def test_a_set_node_in_the_branch_of_a_parallel_over_items_writes_its_name_once_per_item() -> None:
    document = flow(
        "t:trigger", over_items(), node("s", "set", values={"x": "{{line}}"}), wires="t>p p.branches>s"
    )
    assert codes(document) == [("parallel_branches_write_same_name", "s")]


@pytest.mark.parametrize(
    ("config", "where"),
    [({"items": "{{trigger}}"}, "as"), ({"as": "line"}, "as"), ({"items": "", "as": "line"}, "items")],
)
def test_items_and_as_come_together_in_the_schema(config: dict[str, Any], where: str) -> None:
    document = flow("t:trigger", node("p", "parallel", **config), "a:log", wires="t>p p.branches>a")
    assert [(f.code, f.detail) for f in validate(document)] == [
        ("node_config_invalid", f"/nodes/1/config/{where}")
    ]
