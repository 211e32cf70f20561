"""The graph rules about nodes, wires, the trigger, cycles and reachability: each firing and not firing."""

from __future__ import annotations

from backend.graph import validate
from tests.graph.graph_flows import found
from tests.support import flow


def test_the_example_of_flow_format_md_is_valid() -> None:
    document = flow(
        "start:trigger each:foreach big:condition ask:approval note:log",
        wires="start>each each.body>big big.true>ask big.false>note ask.approve>note",
    )
    assert validate(document) == []


def test_node_id_duplicate_names_every_later_node_with_the_id() -> None:
    document = flow("t:trigger a:log b:log a:log a:set", wires="t>a a>b")
    assert found(validate(document)) == [("node_id_duplicate", "a", None), ("node_id_duplicate", "a", None)]
    assert [f.detail for f in validate(document)] == ["/nodes/3/id", "/nodes/4/id"]
    assert validate(flow("t:trigger a:log b:log", wires="t>a a>b")) == []


def test_node_type_unknown_names_the_node_and_the_type() -> None:
    document = flow("t:trigger a:teleport b:log", wires="t>a a>b")
    assert found(validate(document)) == [("node_type_unknown", "a", None)]
    assert validate(document)[0].detail == "/nodes/1/type"


def test_a_node_type_with_a_dot_is_unknown() -> None:
    document = flow("t:trigger a:approval.wait", wires="t>a")
    assert found(validate(document)) == [("node_type_unknown", "a", None)]


def test_wire_endpoint_unknown_names_the_wire_and_the_end() -> None:
    document = flow("t:trigger a:log", wires="t>a t>ghost ghost>a nobody>nowhere")
    findings = validate(document)
    assert found(findings) == [
        ("wire_endpoint_unknown", None, 1),
        ("wire_endpoint_unknown", None, 2),
        ("wire_endpoint_unknown", None, 3),
        ("wire_endpoint_unknown", None, 3),
    ]
    assert [f.detail for f in findings] == ["/wires/1/to", "/wires/2/from", "/wires/3/from", "/wires/3/to"]


def test_wire_port_unknown_for_a_port_the_node_type_lacks() -> None:
    document = flow(
        "t:trigger c:condition a:log b:log e:end x:log",
        wires="t>c c>a c.yes>b c.true>a c.false>b b.error>e a.out>e e>x",
    )
    findings = validate(document)
    assert found(findings) == [
        ("wire_port_unknown", None, 1),
        ("wire_port_unknown", None, 2),
        ("wire_port_unknown", None, 5),
        ("wire_port_unknown", None, 7),
    ]
    assert findings[0].detail == "/wires/1/port"


def test_every_port_of_every_type_is_known() -> None:
    document = flow(
        "t:trigger c:condition l:foreach r:repeat q:approval h:http n:notify k:command d:delay s:set g:log "
        "b:break e:end",
        wires="t>c c.true>l c.false>l l.body>b l.done>r r.body>b2 r.done>q q.approve>h q.reject>h "
        "h.out>n h.error>n n.out>k n.error>k k.out>d k.error>d d.out>s s.out>g g>e",
    )
    document["nodes"].append({"id": "b2", "type": "break", "config": {}})
    assert validate(document) == []


def test_a_wire_from_an_unknown_type_has_no_port_finding() -> None:
    document = flow("t:trigger a:teleport b:log", wires="t>a a.anywhere>b")
    assert found(validate(document)) == [("node_type_unknown", "a", None)]


def test_a_wire_from_an_unknown_port_still_counts_for_reachability() -> None:
    document = flow("t:trigger c:condition a:log", wires="t>c c.maybe>a")
    assert found(validate(document)) == [("wire_port_unknown", None, 1)]


def test_trigger_missing() -> None:
    document = flow("a:log b:log", wires="a>b")
    assert found(validate(document)) == [("trigger_missing", None, None)]


def test_trigger_multiple_names_every_trigger_after_the_first() -> None:
    document = flow("a:log t1:trigger t2:trigger t3:trigger", wires="t1>a t2>a t3>a")
    assert found(validate(document)) == [
        ("trigger_multiple", "t2", None),
        ("trigger_multiple", "t3", None),
    ]


def test_nodes_reached_from_any_trigger_are_not_unreachable() -> None:
    document = flow("t1:trigger t2:trigger a:log b:log", wires="t1>a t2>b")
    assert found(validate(document)) == [("trigger_multiple", "t2", None)]


def test_trigger_has_inputs_names_each_wire_into_the_trigger() -> None:
    document = flow("t:trigger a:log b:log", wires="t>a b>t a>b")
    findings = validate(document)
    assert found(findings, "trigger_has_inputs") == [("trigger_has_inputs", None, 1)]
    assert findings[0].detail == "/wires/1/to"
    assert found(validate(flow("t:trigger a:log", wires="t>a")), "trigger_has_inputs") == []


def test_a_cycle_is_reported_once_at_its_first_node_and_the_wire_back_into_it() -> None:
    document = flow("t:trigger a:log b:log c:log d:log", wires="t>a a>b b>c c>a c>d")
    findings = validate(document)
    assert found(findings) == [("cycle", "a", 3)]
    assert findings[0].detail == "a -> b -> c -> a"


def test_each_cycle_is_its_own_finding() -> None:
    document = flow("t:trigger a:log b:log c:log d:log", wires="t>a t>c d>c a>b c>d b>a")
    findings = validate(document)
    assert found(findings) == [("cycle", "a", 5), ("cycle", "c", 2)]
    assert [f.detail for f in findings] == ["a -> b -> a", "c -> d -> c"]


def test_a_wire_from_a_node_to_itself_is_a_cycle() -> None:
    document = flow("t:trigger a:log", wires="t>a a>a")
    findings = validate(document)
    assert found(findings) == [("cycle", "a", 1)]
    assert findings[0].detail == "a -> a"


def test_diamonds_are_no_cycle() -> None:
    document = flow(
        "t:trigger c:condition a:log b:log j:log", wires="t>c c.true>a c.false>b a>j b>j c.true>j"
    )
    assert validate(document) == []


def test_node_unreachable_names_each_node_the_trigger_does_not_reach() -> None:
    document = flow("t:trigger a:log b:log c:log d:log", wires="t>a b>c c>d")
    assert found(validate(document)) == [
        ("node_unreachable", "b", None),
        ("node_unreachable", "c", None),
        ("node_unreachable", "d", None),
    ]


def test_no_node_is_unreachable_when_there_is_no_trigger_to_reach_from() -> None:
    document = flow("a:log b:log", wires="")
    assert found(validate(document)) == [("trigger_missing", None, None)]


def test_a_cycle_the_trigger_does_not_reach_is_both_a_cycle_and_unreachable() -> None:
    document = flow("t:trigger a:log b:log", wires="a>b b>a")
    assert found(validate(document)) == [
        ("cycle", "a", 1),
        ("node_unreachable", "a", None),
        ("node_unreachable", "b", None),
    ]


def test_a_duplicate_id_is_one_node_for_the_graph() -> None:
    document = flow("t:trigger a:log a:log", wires="t>a")
    assert found(validate(document)) == [("node_id_duplicate", "a", None)]
