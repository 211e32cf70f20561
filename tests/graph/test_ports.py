"""A node's out ports: its type's, and for a wait_event one per event name of its config, then `timeout`."""

from __future__ import annotations

from backend.graph import ports, validate
from backend.graph.model import Node
from backend.node_types import PORTS
from tests.support import flow


def test_every_static_type_has_the_ports_of_its_table_row() -> None:
    for node_type, names in PORTS.items():
        if node_type != "wait_event":
            assert ports(Node("n", node_type, {})) == names


def test_the_new_types_ports() -> None:
    assert ports(Node("p", "parallel", {})) == ("branches", "done")
    assert ports(Node("j", "join", {"wait": 2})) == ("out",)
    assert ports(Node("w", "wait_event", {})) == ("timeout",)


def test_a_wait_event_has_one_port_per_event_name_in_order_then_timeout() -> None:
    config = {"events": ["shipped", "cancelled", "shipped", "timeout", 7], "key": "{{trigger.id}}"}
    assert ports(Node("w", "wait_event", config)) == ("shipped", "cancelled", "timeout")


def test_the_validator_reads_the_event_ports_from_the_config() -> None:
    wait = {"id": "w", "type": "wait_event", "config": {"events": ["paid", "lost"], "key": "{{trigger.id}}"}}
    good = flow("t:trigger", wait, "a:log", "b:log", "c:log", wires="t>w w.paid>a w.lost>b w.timeout>c")
    assert validate(good) == []
    bad = flow("t:trigger", wait, "a:log", wires="t>w w.refunded>a")
    assert [(f.code, f.wire) for f in validate(bad)] == [("wire_port_unknown", 1)]


def test_the_three_new_types_validate_with_their_sample_configs() -> None:
    document = flow(
        "t:trigger",
        "p:parallel",
        "a:log",
        "b:log",
        "j:join",
        "w:wait_event",
        "c:log",
        wires="t>p p.branches>a p.branches>b p.done>j j>w w.paid>c",
    )
    assert validate(document) == []
    wrong = {"id": "p", "type": "parallel", "config": {"wait": 0}}
    assert [f.code for f in validate(flow("t:trigger", wrong, wires="t>p"))] == ["node_config_invalid"]
