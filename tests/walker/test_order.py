"""The visit order: depth first, a port's wires in document order, each node once per scope."""

from __future__ import annotations

from backend.walker import walk
from tests.walker.walker_flows import build, cond, drive, log, node, set_, trigger


def test_a_single_trigger_is_one_visit_and_succeeds() -> None:
    step = walk(build({"t": trigger()}), None)
    assert (step.status, step.visits, step.visit_count, step.error) == ("succeeded", ["t"], 1, None)
    assert step.continuation is None and step.request is None
    assert [line.code for line in step.journal] == ["node_visited", "run_succeeded"]


def test_fan_out_follows_wires_in_document_order_not_node_order() -> None:
    flow = build({"t": trigger(), "a": log(), "b": log(), "c": log()}, "t>c t>a t>b")
    assert walk(flow, None).visits == ["t", "c", "a", "b"]


def test_the_walk_is_depth_first() -> None:
    flow = build(
        {"t": trigger(), "a": log(), "a1": log(), "a2": log(), "b": log(), "b1": log()},
        "t>a t>b a>a1 a1>a2 b>b1",
    )
    assert walk(flow, None).visits == ["t", "a", "a1", "a2", "b", "b1"]


def test_a_diamond_join_is_visited_once_on_the_first_path_that_reaches_it() -> None:
    flow = build(
        {"t": trigger(), "l": log(), "r": log(), "join": log(), "after": log()},
        "t>l t>r l>join r>join join>after",
    )
    step = walk(flow, None)
    assert step.visits == ["t", "l", "join", "after", "r"]
    assert step.visit_count == 5


def test_a_node_reached_again_later_is_not_visited_again_nor_journaled() -> None:
    flow = build({"t": trigger(), "a": log(), "b": log()}, "t>a t>b t>a b>a")
    step = walk(flow, None)
    assert step.visits == ["t", "a", "b"]
    assert [line.node for line in step.journal if line.code == "node_visited"] == ["t", "a", "b"]


def test_each_visit_has_one_line_with_its_type_port_and_visit_number() -> None:
    flow = build(
        {"t": trigger(), "c": cond(1, "eq", 1), "yes": log("y"), "no": log("n")}, "t>c c.true>yes c.false>no"
    )
    step = walk(flow, None)
    visited = [(line.node, line.visit, line.data) for line in step.journal if line.code == "node_visited"]
    assert visited == [
        ("t", 1, {"type": "trigger", "port": "out"}),
        ("c", 2, {"type": "condition", "port": "true"}),
        ("yes", 3, {"type": "log", "port": "out"}),
    ]
    assert step.journal[-1].code == "run_succeeded"


def test_a_condition_follows_only_the_port_it_chose() -> None:
    nodes = {"t": trigger(), "c": cond("{{trigger.n}}", "gt", 10), "big": log(), "small": log()}
    flow = build(nodes, "t>c c.true>big c.false>small")
    assert walk(flow, None, trigger={"n": 11}).visits == ["t", "c", "big"]
    assert walk(flow, None, trigger={"n": 9}).visits == ["t", "c", "small"]
    assert walk(flow, None, trigger={}).visits == ["t", "c", "small"]


def test_an_unwired_port_ends_that_path_and_the_walk_goes_on_with_the_stack() -> None:
    flow = build(
        {"t": trigger(), "c": cond(1, "eq", 2), "yes": log(), "other": log()}, "t>c t>other c.true>yes"
    )
    assert walk(flow, None).visits == ["t", "c", "other"]


def test_set_assigns_variables_and_its_output_is_what_it_assigned() -> None:
    nodes = {
        "t": trigger(),
        "s": set_(who="{{trigger.name}}", n=3, gone="{{trigger.nothing}}"),
        "say": log("{{who}} {{n}} {{s.who}} [{{gone}}]"),
    }
    step = walk(build(nodes, "t>s s>say"), None, trigger={"name": "ann"})
    assert [line.data["message"] for line in step.journal if line.code == "log_written"] == ["ann 3 ann []"]


def test_set_reads_the_variables_as_they_were_before_it() -> None:
    nodes = {"t": trigger(), "s1": set_(a=1, b=2), "s2": set_(a="{{b}}", b="{{a}}"), "say": log("{{a}}{{b}}")}
    step = walk(build(nodes, "t>s1 s1>s2 s2>say"), None)
    assert step.journal[-2].data["message"] == "21"


def test_log_writes_its_rendered_message_and_level() -> None:
    nodes = {"t": trigger(), "a": log("hi {{trigger}}", level="warning"), "b": log("plain")}
    step = walk(build(nodes, "t>a a>b"), None, trigger="you")
    assert [line.data for line in step.journal if line.code == "log_written"] == [
        {"message": "hi you", "level": "warning"},
        {"message": "plain", "level": "info"},
    ]


def test_end_succeeded_stops_the_run_at_once_with_its_message() -> None:
    nodes = {
        "t": trigger(),
        "stop": ("end", {"status": "succeeded", "message": "all {{trigger}}"}),
        "later": log(),
    }
    step = walk(build(nodes, "t>stop t>later"), None, trigger="done")
    assert (step.status, step.visits) == ("succeeded", ["t", "stop"])
    assert step.journal[-1].code == "run_succeeded"
    assert (step.journal[-1].node, step.journal[-1].data) == ("stop", {"message": "all done"})


def test_end_failed_fails_the_run_with_run_ended_failed_and_the_message() -> None:
    nodes = {"t": trigger(), "stop": ("end", {"status": "failed", "message": "no invoices"}), "later": log()}
    step = walk(build(nodes, "t>stop t>later"), None)
    assert (step.status, step.error, step.visits) == ("failed", "run_ended_failed", ["t", "stop"])
    assert step.journal[-1].code == "run_failed"
    assert step.journal[-1].data == {"error": "run_ended_failed", "message": "no invoices"}


def test_a_long_chain_walks_without_recursion() -> None:
    nodes = {"t": trigger(), **{f"n{i}": log() for i in range(450)}}
    wires = " ".join(["t>n0", *(f"n{i}>n{i + 1}" for i in range(449))])
    step = walk(build(nodes, wires), None)
    assert step.status == "succeeded" and step.visit_count == 451


def test_the_trigger_payload_is_the_trigger_variable() -> None:
    run = drive(build({"t": trigger(), "say": log("{{trigger.a.0}}")}, "t>say"), trigger={"a": ["x"]})
    assert run.lines("log_written") == [{"message": "x", "level": "info"}]


def test_an_unknown_node_type_fails_the_run() -> None:
    step = walk(build({"t": trigger(), "x": node("teleport")}, "t>x"), None)
    assert (step.status, step.error) == ("failed", "node_type_unknown")


def test_set_with_a_missing_value_makes_the_variable_missing() -> None:
    nodes = {
        "t": trigger(),
        "s1": set_(x="{{trigger}}"),
        "s2": set_(x="{{trigger.nothing}}", y="{{trigger}}"),
        "has": cond("{{x}}", "exists"),
        "yes": log("{{s2}}"),
        "no": log("{{s2}}"),
    }
    step = walk(build(nodes, "t>s1 s1>s2 s2>has has.true>yes has.false>no"), None, trigger="v")
    assert step.visits == ["t", "s1", "s2", "has", "no"]
    assert step.journal[-2].data["message"] == '{"y":"v"}'
