"""Loops as waypoints: foreach, repeat, nested loops, break, and the scope of each pass."""

from __future__ import annotations

from backend.walker import JournalLine, walk
from tests.walker.walker_flows import build, cond, drive, foreach, log, repeat, set_, trigger


def messages(journal: list[JournalLine]) -> list[str]:
    return [line.data["message"] for line in journal if line.code == "log_written"]


def test_foreach_visits_its_body_once_per_item_then_follows_done() -> None:
    nodes = {"t": trigger(), "each": foreach("{{trigger}}", "x"), "say": log("{{x}}"), "after": log("end")}
    step = walk(build(nodes, "t>each each.body>say each.done>after"), None, trigger=["a", "b", "c"])
    assert step.visits == ["t", "each", "say", "say", "say", "after"]
    assert messages(step.journal) == ["a", "b", "c", "end"]
    assert step.visit_count == 6


def test_the_loop_node_is_one_visit_and_its_passes_are_journaled() -> None:
    nodes = {"t": trigger(), "each": foreach("{{trigger}}", "x"), "say": log("{{x}}")}
    step = walk(build(nodes, "t>each each.body>say"), None, trigger=[1, 2])
    loop_lines = [(line.code, line.visit, line.data) for line in step.journal if line.node == "each"]
    assert loop_lines == [
        ("node_visited", 2, {"type": "foreach", "port": "body"}),
        ("loop_pass_started", 2, {"pass": 1}),
        ("loop_pass_started", 2, {"pass": 2}),
        ("loop_finished", 2, {"passes": 2}),
    ]


def test_each_pass_visits_a_diamond_in_the_body_afresh() -> None:
    nodes = {"t": trigger(), "each": foreach("{{trigger}}"), "l": log(), "r": log(), "join": log()}
    step = walk(build(nodes, "t>each each.body>l each.body>r l>join r>join"), None, trigger=[1, 2])
    assert step.visits == ["t", "each", "l", "join", "r", "l", "join", "r"]


def test_done_is_followed_in_the_enclosing_scope() -> None:
    # `seen` was visited before the loop, so reaching it again from `done` is no visit.
    nodes = {"t": trigger(), "seen": log(), "each": foreach("{{trigger}}"), "say": log(), "after": log()}
    flow = build(nodes, "t>seen t>each each.body>say each.done>seen each.done>after")
    assert walk(flow, None, trigger=[1]).visits == ["t", "seen", "each", "say", "after"]


def test_the_item_variable_is_removed_after_the_loop_when_it_did_not_exist() -> None:
    nodes = {
        "t": trigger(),
        "each": foreach("{{trigger}}", "x"),
        "say": log("{{x}}"),
        "after": log("[{{x}}]"),
    }
    step = walk(build(nodes, "t>each each.body>say each.done>after"), None, trigger=[7])
    assert messages(step.journal) == ["7", "[]"]


def test_the_item_variable_gets_back_its_earlier_value_after_the_loop() -> None:
    nodes = {
        "t": trigger(),
        "s": set_(x="before"),
        "each": foreach("{{trigger}}", "x"),
        "say": log("{{x}}"),
        "after": log("{{x}}"),
    }
    step = walk(build(nodes, "t>s s>each each.body>say each.done>after"), None, trigger=[1, 2])
    assert messages(step.journal) == ["1", "2", "before"]


def test_a_foreach_whose_items_are_missing_runs_no_pass_and_follows_done() -> None:
    nodes = {"t": trigger(), "each": foreach("{{trigger.items}}"), "say": log(), "after": log()}
    step = walk(build(nodes, "t>each each.body>say each.done>after"), None, trigger={})
    assert step.visits == ["t", "each", "after"]
    assert step.journal[1].data == {"type": "foreach", "port": "done"}


def test_a_foreach_over_an_empty_list_follows_done() -> None:
    nodes = {"t": trigger(), "each": foreach([]), "say": log(), "after": log()}
    assert walk(build(nodes, "t>each each.body>say each.done>after"), None).visits == ["t", "each", "after"]


def test_a_foreach_over_a_literal_list_renders_its_templates() -> None:
    nodes = {"t": trigger(), "each": foreach(["{{trigger}}", "b"], "x"), "say": log("{{x}}")}
    assert messages(walk(build(nodes, "t>each each.body>say"), None, trigger="a").journal) == ["a", "b"]


def test_foreach_items_that_are_not_a_list_fail_the_run() -> None:
    nodes = {"t": trigger(), "each": foreach("{{trigger}}"), "say": log()}
    for items, kind in (("abc", "string"), ({"a": 1}, "object"), (3, "number"), (None, "null")):
        step = walk(build(nodes, "t>each each.body>say"), None, trigger=items)
        assert (step.status, step.error, step.visits) == ("failed", "foreach_items_invalid", ["t", "each"])
        assert (step.journal[-1].code, step.journal[-1].node) == ("run_failed", "each")
        assert step.journal[-1].data == {"error": "foreach_items_invalid", "got": kind}


def test_nested_loops_run_the_inner_loop_in_full_on_every_outer_pass() -> None:
    nodes = {
        "t": trigger(),
        "rows": foreach("{{trigger}}", "row"),
        "cells": foreach("{{row}}", "cell"),
        "say": log("{{cell}}"),
        "row_done": log("row"),
        "all_done": log("all"),
    }
    flow = build(nodes, "t>rows rows.body>cells cells.body>say cells.done>row_done rows.done>all_done")
    step = walk(flow, None, trigger=[[1, 2], [3]])
    assert messages(step.journal) == ["1", "2", "row", "3", "row", "all"]
    assert step.visits == [
        "t",
        "rows",
        "cells",
        "say",
        "say",
        "row_done",
        "cells",
        "say",
        "row_done",
        "all_done",
    ]


def test_break_leaves_the_innermost_loop_and_the_outer_loop_goes_on() -> None:
    nodes = {
        "t": trigger(),
        "rows": foreach("{{trigger}}", "row"),
        "cells": foreach("{{row}}", "cell"),
        "stop": cond("{{cell}}", "eq", "x"),
        "out": ("break", {}),
        "say": log("{{cell}}"),
        "row_done": log("row"),
    }
    wires = "t>rows rows.body>cells cells.body>stop stop.true>out stop.false>say cells.done>row_done"
    step = walk(build(nodes, wires), None, trigger=[["a", "x", "b"], ["c"]])
    assert messages(step.journal) == ["a", "row", "c", "row"]
    broken = [(line.node, line.data) for line in step.journal if line.code == "loop_broken"]
    assert broken == [("cells", {"passes": 2})]


def test_break_drops_what_is_left_of_the_pass_including_siblings() -> None:
    nodes = {
        "t": trigger(),
        "each": foreach("{{trigger}}"),
        "out": ("break", {}),
        "sib": log(),
        "after": log(),
    }
    step = walk(build(nodes, "t>each each.body>out each.body>sib each.done>after"), None, trigger=[1, 2])
    assert step.visits == ["t", "each", "out", "after"]
    assert [line.code for line in step.journal[2:5]] == ["loop_pass_started", "node_visited", "loop_broken"]
    assert step.journal[3].data == {"type": "break", "port": None}


def test_repeat_tests_while_before_every_pass_including_the_first() -> None:
    nodes = {"t": trigger(), "again": repeat("{{go}}", "eq", True), "say": log(), "after": log()}
    step = walk(build(nodes, "t>again again.body>say again.done>after"), None)
    assert step.visits == ["t", "again", "after"]


def test_repeat_does_not_start_on_a_missing_path_even_with_ne() -> None:
    nodes = {"t": trigger(), "poll": repeat("{{status.state}}", "ne", "ready"), "say": log(), "after": log()}
    step = walk(build(nodes, "t>poll poll.body>say poll.done>after"), None)
    assert step.visits == ["t", "poll", "after"]


def test_repeat_runs_while_its_test_holds() -> None:
    # The body moves a state machine on: a -> b -> c; the loop runs while state is not c.
    nodes = {
        "t": trigger(),
        "init": set_(state="a"),
        "again": repeat("{{state}}", "ne", "c"),
        "step": cond("{{state}}", "eq", "a"),
        "to_b": set_(state="b"),
        "to_c": set_(state="c"),
        "after": log("{{state}}"),
    }
    wires = "t>init init>again again.body>step step.true>to_b step.false>to_c again.done>after"
    step = walk(build(nodes, wires), None)
    assert step.visits == ["t", "init", "again", "step", "to_b", "step", "to_c", "after"]
    assert messages(step.journal) == ["c"]
    assert [line.data for line in step.journal if line.code == "loop_finished"] == [{"passes": 2}]


def test_break_leaves_a_repeat_without_testing_while_again() -> None:
    nodes = {"t": trigger(), "again": repeat(1, "eq", 1), "out": ("break", {}), "after": log()}
    run = drive(build(nodes, "t>again again.body>out again.done>after"))
    assert run.visits == ["t", "again", "out", "after"]
    assert run.codes("again") == ["node_visited", "loop_pass_started", "loop_broken"]


def test_a_loop_inside_a_loop_inside_a_loop_with_break_at_the_middle() -> None:
    nodes = {
        "t": trigger(),
        "a": foreach([1, 2], "i"),
        "b": foreach([1, 2, 3], "j"),
        "c": foreach([1, 2], "k"),
        "say": log("{{i}}{{j}}{{k}}"),
        "second": cond("{{j}}", "eq", 2),
        "out": ("break", {}),
    }
    wires = "t>a a.body>b b.body>second second.true>out second.false>c c.body>say"
    step = walk(build(nodes, wires), None)
    assert messages(step.journal) == ["111", "112", "211", "212"]


def test_a_foreach_reads_its_items_once_when_it_is_entered() -> None:
    nodes = {
        "t": trigger(),
        "each": foreach("{{list}}", "x"),
        "shrink": set_(list="{{trigger.short}}"),
        "init": set_(list="{{trigger.long}}"),
        "say": log("{{x}}"),
    }
    flow = build(nodes, "t>init init>each each.body>shrink shrink>say")
    step = walk(flow, None, trigger={"long": [1, 2, 3], "short": []})
    assert messages(step.journal) == ["1", "2", "3"]
