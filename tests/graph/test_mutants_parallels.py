"""Survivors of `make mutation` in backend/graph/parallels.py and model.py: whole findings (code, node,
sentence, pointer) for event names and branches, configs that are not objects, and the arrivals each
join of a loaded flow waits for."""

from __future__ import annotations

from typing import Any

from backend.graph import Finding, validate
from backend.graph.model import Flow, join_need
from tests.support import flow


def node(id_: str, type_: str, config: Any) -> dict[str, Any]:
    return {"id": id_, "type": type_, "config": config}


def test_every_event_name_is_checked_after_one_that_is_not_text() -> None:
    wait = node("w", "wait_event", {"events": [3, "Bad", "paid"], "key": "{{trigger.id}}"})
    assert validate(flow("t:trigger", wait, wires="t>w")) == [
        Finding(
            "node_config_invalid",
            "w",
            None,
            "In node w, “Events” is not valid: The value must be a text.",
            "/nodes/1/config/events/0",
        ),
        Finding(
            "event_name_invalid",
            "w",
            None,
            "Event name Bad of w is not valid: a lowercase letter, then up to 63 lowercase letters, digits"
            " or _, not timeout, and each name once.",
            "/nodes/1/config/events/1",
        ),
    ]


def test_a_config_that_is_not_an_object_is_one_finding_in_a_branch_and_at_a_wait() -> None:
    document = flow(
        "t:trigger p:parallel",
        node("s", "set", [1]),
        node("w", "wait_event", ["paid"]),
        wires="t>p p.branches>s p.branches>w",
    )
    assert [(f.code, f.node, f.detail) for f in validate(document)] == [
        ("format_invalid", "s", "/nodes/2/config"),
        ("format_invalid", "w", "/nodes/3/config"),
    ]


def test_a_break_names_the_innermost_parallel_it_would_cross() -> None:
    # The inner parallel comes first in the document: the innermost is found by depth, not by place.
    document = flow(
        "t:trigger each:foreach inner:parallel outer:parallel out:break",
        wires="t>each each.body>outer outer.branches>inner inner.branches>out",
    )
    assert validate(document) == [
        Finding(
            "break_crosses_parallel",
            "out",
            None,
            "Break out would leave a loop outside parallel inner: a break may only leave a loop inside its"
            " own branch.",
            "inner",
        )
    ]


def test_of_two_parallels_as_deep_the_break_names_the_first() -> None:
    document = flow(
        "t:trigger each:foreach p1:parallel p2:parallel out:break",
        wires="t>each each.body>p1 each.body>p2 p1.branches>out p2.branches>out",
    )
    assert [(f.code, f.detail) for f in validate(document)] == [
        ("loop_body_leaks", "p2"),
        ("loop_body_leaks", "p1"),
        ("break_crosses_parallel", "p1"),
    ]


def test_two_of_three_branches_meeting_is_a_finding() -> None:
    document = flow(
        "t:trigger p:parallel a:log b:log c:log m:log",
        wires="t>p p.branches>a p.branches>b p.branches>c a>m b>m",
    )
    assert validate(document) == [
        Finding(
            "parallel_branches_meet",
            "m",
            None,
            "Two branches of parallel p both reach m: branches must stay apart until Done (it would run once"
            " in each).",
            "p",
        )
    ]


def test_a_set_node_after_another_node_in_its_branch_is_compared_too() -> None:
    document = flow(
        "t:trigger p:parallel a:log",
        node("s1", "set", {"values": {"total": "1"}}),
        node("s2", "set", {"values": {"total": "2"}}),
        wires="t>p p.branches>a a>s1 p.branches>s2",
    )
    assert validate(document) == [
        Finding(
            "parallel_branches_write_same_name",
            "s2",
            None,
            "Set node s2 assigns total, which another branch of parallel p assigns too: the branch answered"
            " last would win.",
            "total",
        )
    ]


def test_values_that_are_not_an_object_are_not_names_a_branch_writes() -> None:
    document = flow(
        "t:trigger p:parallel",
        node("s1", "set", {"values": ["total"]}),
        node("s2", "set", {"values": ["total"]}),
        wires="t>p p.branches>s1 p.branches>s2",
    )
    assert [(f.code, f.node) for f in validate(document)] == [
        ("node_config_invalid", "s1"),
        ("node_config_invalid", "s2"),
    ]


def test_a_loaded_flow_knows_how_many_arrivals_each_join_waits_for() -> None:
    document = flow(
        "t:trigger a:log b:log c:log",
        node("j", "join", {"wait": "all"}),
        node("k", "join", {"wait": 2}),
        node("f", "join", {"wait": "first"}),
        node("n", "join", {}),
        wires="t>a t>b t>c a>j b>j c>j a>k b>k c>k a>f b>f t>n",
    )
    assert Flow.load(document).joins == {"j": 3, "k": 2, "f": 1, "n": 1}
    assert Flow.load(flow("t:trigger a:log", wires="t>a")).joins == {}


def test_a_wait_of_one_is_one_arrival_and_zero_or_true_are_all() -> None:
    assert (join_need(1, 3), join_need(0, 3), join_need(True, 3), join_need(2, 3)) == (1, 3, 3, 2)


def test_a_parallel_whose_config_is_not_an_object_is_one_finding_and_its_branches_are_still_read() -> None:
    document = flow(
        "t:trigger",
        node("p", "parallel", "all"),
        "a:log b:log j:join",
        wires="t>p p.branches>a p.branches>b a>j b>j",
    )
    assert [(f.code, f.node) for f in validate(document)] == [
        ("format_invalid", "p"),
        ("parallel_branches_meet", "j"),
    ]
