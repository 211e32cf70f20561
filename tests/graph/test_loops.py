"""The loop rules: leaking bodies, nesting depth, `break` outside and `end` inside loops."""

from __future__ import annotations

from backend.graph import validate
from tests.graph.graph_flows import found
from tests.support import flow


def test_a_body_reached_only_through_the_body_port_does_not_leak() -> None:
    document = flow(
        "t:trigger each:foreach a:log b:log after:log",
        wires="t>each each.body>a a>b each.done>after",
    )
    assert validate(document) == []


def test_a_body_node_also_wired_from_done_leaks_at_that_wire() -> None:
    document = flow("t:trigger each:foreach a:log b:log", wires="t>each each.body>a a>b each.done>b")
    findings = validate(document)
    assert found(findings) == [("loop_body_leaks", "b", 3)]
    assert findings[0].detail == "each"


def test_a_body_node_wired_from_before_the_loop_leaks() -> None:
    document = flow("t:trigger s:set each:foreach a:log", wires="t>s s>each each.body>a s>a")
    assert found(validate(document)) == [("loop_body_leaks", "a", 3)]


def test_only_the_wire_into_the_body_is_reported_not_every_node_after_it() -> None:
    document = flow(
        "t:trigger each:foreach a:log b:log c:log d:log",
        wires="t>each each.body>a a>b b>c c>d t>b",
    )
    assert found(validate(document)) == [("loop_body_leaks", "b", 5)]


def test_a_wire_from_the_body_to_after_the_loop_leaks_what_follows() -> None:
    # The body wires on to `after`, which the loop's done port also reaches: `after` is in the body region.
    document = flow(
        "t:trigger each:foreach a:log after:log",
        wires="t>each each.body>a a>after each.done>after",
    )
    assert found(validate(document)) == [("loop_body_leaks", "after", 3)]


def test_a_wire_from_an_unreachable_node_into_a_body_does_not_leak() -> None:
    document = flow("t:trigger each:foreach a:log lost:log", wires="t>each each.body>a lost>a")
    assert found(validate(document)) == [("node_unreachable", "lost", None)]


def test_a_leak_into_two_loops_is_one_finding_naming_the_first_loop() -> None:
    document = flow(
        "t:trigger outer:foreach inner:repeat a:log",
        wires="t>outer outer.body>inner inner.body>a t>a",
    )
    assert found(validate(document)) == [("loop_body_leaks", "a", 3)]
    assert [f.detail for f in validate(document)] == ["outer"]


def test_a_wire_within_the_outer_body_into_the_inner_body_leaks_the_inner_loop_only() -> None:
    document = flow(
        "t:trigger outer:foreach s:set inner:repeat a:log",
        wires="t>outer outer.body>s s>inner inner.body>a s>a",
    )
    findings = validate(document)
    assert found(findings) == [("loop_body_leaks", "a", 4)]
    assert findings[0].detail == "inner"


def test_loops_in_sequence_and_side_by_side_do_not_leak() -> None:
    document = flow(
        "t:trigger one:foreach two:repeat a:log b:log c:condition d:log",
        wires="t>one one.body>a one.done>two two.body>c c.true>b c.false>d",
    )
    assert validate(document) == []


def test_three_nested_loops_are_fine_and_a_fourth_is_too_deep() -> None:
    three = flow(
        "t:trigger l1:foreach l2:repeat l3:foreach a:log", wires="t>l1 l1.body>l2 l2.body>l3 l3.body>a"
    )
    assert validate(three) == []
    four = flow(
        "t:trigger l1:foreach l2:repeat l3:foreach l4:repeat l5:foreach a:log",
        wires="t>l1 l1.body>l2 l2.body>l3 l3.body>l4 l4.body>l5 l5.body>a",
    )
    findings = validate(four)
    assert found(findings) == [("loop_nesting_too_deep", "l4", None), ("loop_nesting_too_deep", "l5", None)]


def test_a_loop_after_another_loops_done_is_not_nested_in_it() -> None:
    document = flow(
        "t:trigger l1:foreach l2:repeat l3:foreach l4:repeat a:log",
        wires="t>l1 l1.body>l2 l2.body>l3 l3.done>l4 l3.body>a l4.body>a2",
    )
    document["nodes"].append({"id": "a2", "type": "log", "config": {"message": "x"}})
    # l4 follows l3's done port: it is in l1's and l2's bodies, at the third level, which is allowed.
    assert validate(document) == []


def test_break_outside_any_loop() -> None:
    document = flow("t:trigger c:condition stop:break a:log", wires="t>c c.true>stop c.false>a")
    assert found(validate(document)) == [("break_outside_loop", "stop", None)]


def test_break_inside_a_loop_body_and_after_its_done_port() -> None:
    inside = flow(
        "t:trigger each:foreach c:condition stop:break a:log",
        wires="t>each each.body>c c.true>stop c.false>a",
    )
    assert validate(inside) == []
    after = flow("t:trigger each:foreach a:log stop:break", wires="t>each each.body>a each.done>stop")
    assert found(validate(after)) == [("break_outside_loop", "stop", None)]


def test_an_unreachable_break_in_no_body_is_still_outside_any_loop() -> None:
    document = flow("t:trigger a:log stop:break", wires="t>a")
    assert found(validate(document)) == [
        ("node_unreachable", "stop", None),
        ("break_outside_loop", "stop", None),
    ]


def test_end_inside_a_loop_body_names_the_innermost_loop() -> None:
    document = flow(
        "t:trigger outer:foreach inner:repeat stop:end",
        wires="t>outer outer.body>inner inner.body>stop",
    )
    findings = validate(document)
    assert found(findings) == [("end_inside_loop", "stop", None)]
    assert findings[0].detail == "inner"


def test_end_after_a_loop_and_on_an_error_port_is_fine() -> None:
    document = flow(
        "t:trigger each:foreach a:log h:http fail:end done:end",
        wires="t>each each.body>a each.done>h h.error>fail h.out>done",
    )
    assert validate(document) == []


def test_the_loop_rules_report_in_the_order_of_the_table() -> None:
    document = flow(
        "t:trigger stop:break l1:foreach l2:foreach l3:foreach l4:foreach e:end a:log",
        wires="t>stop t>l1 l1.body>l2 l2.body>l3 l3.body>l4 l4.body>e t>e l4.done>a",
    )
    assert [f.code for f in validate(document)] == [
        "loop_body_leaks",
        "loop_nesting_too_deep",
        "break_outside_loop",
        "end_inside_loop",
    ]
