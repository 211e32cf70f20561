"""`parallel` with `rest: continue` (workflow pattern 9, the non-cancelling discriminator): once the wait
rule is met the run follows `done`, the branches still open keep walking, their arrivals are journaled and
ignored, and the run ends only after they have ended too."""

from __future__ import annotations

import json
from typing import Any

import pytest

from backend.walker import Resume, walk
from backend.walker.branches import freeze, thaw
from backend.walker.errors import ContinuationInvalid
from backend.walker.step import Step
from tests.walker.support import reason_of
from tests.walker.walker_flows import NodeSpec, approval, build, log, node, set_, trigger


def rest(wait: Any = "first", mode: str | None = "continue", **config: Any) -> NodeSpec:
    if mode is not None:
        config["rest"] = mode
    return ("parallel", {"wait": wait, **config})


RACE = {
    "t": trigger(),
    "p": rest(),
    "fast": log("fast"),
    "slow": approval("Slow?"),
    "late": log("slow done"),
    "next": approval("Next?"),
    "fin": log("fin"),
}
RACE_WIRES = "t>p p.branches>fast p.branches>slow slow.approve>late p.done>next next.approve>fin"


def thawed(continuation: Any) -> Any:
    return json.loads(json.dumps(continuation))


def resume(flow: Any, step: Step, node: str, visit: int, outcome: str = "approve") -> Step:
    return walk(flow, thawed(step.continuation), resume=Resume(node, visit, outcome))


def codes(step: Step) -> list[str]:
    return [line.code for line in step.journal]


def test_done_is_followed_at_the_first_and_the_slower_branch_stays_pending() -> None:
    flow = build(RACE, RACE_WIRES)
    first = walk(flow, None)
    assert first.status == "waiting" and first.visits == ["t", "p", "fast", "slow", "next"]
    assert first.pending == (("next", 5), ("slow", 4))
    assert "branch_cancelled" not in codes(first) and "parallel_finished" in codes(first)
    assert first.continuation is not None and first.continuation["v"] == 3


def test_the_run_ends_only_after_the_rest_and_their_arrival_is_ignored() -> None:
    flow = build(RACE, RACE_WIRES)
    main_done = resume(flow, walk(flow, None), "next", 5)
    assert main_done.status == "waiting" and main_done.visits == ["fin"]
    assert main_done.pending == (("slow", 4),)
    last = resume(flow, main_done, "slow", 4)
    assert last.status == "succeeded" and last.visits == ["late"]
    assert codes(last) == [
        "run_resumed",
        "node_visited",
        "log_written",
        "branch_arrival_ignored",
        "parallel_rest_ended",
        "run_succeeded",
    ]
    # Each line names the parallel's own visit and what ended: the operator reads which parallel's rest.
    assert [(line.node, line.visit, line.data) for line in last.journal[3:5]] == [
        ("p", 2, {"parallel": "p", "branch": 2}),
        ("p", 2, {"branches": 2}),
    ]


def test_the_rest_may_end_before_the_main_path() -> None:
    flow = build(RACE, RACE_WIRES)
    rest_done = resume(flow, walk(flow, None), "slow", 4)
    assert rest_done.status == "waiting" and rest_done.pending == (("next", 5),)
    assert codes(rest_done)[-2:] == ["branch_arrival_ignored", "parallel_rest_ended"]
    # Nothing is left running: the continuation is version 1 again.
    assert rest_done.continuation is not None and rest_done.continuation["v"] == 1
    assert resume(flow, rest_done, "next", 5).status == "succeeded"


def test_cancel_is_the_default_and_cancels_as_before() -> None:
    for mode in ("cancel", None):
        flow = build({**RACE, "p": rest(mode=mode)}, RACE_WIRES)
        first = walk(flow, None)
        # The slower branch never starts: the first met the rule before it.
        assert first.pending == (("next", 4),) and "branch_cancelled" in codes(first)
        assert first.continuation is not None and first.continuation["v"] == 1


def test_branches_after_the_first_still_start_and_their_arrival_is_ignored() -> None:
    nodes = {"t": trigger(), "p": rest(), "a": log("a"), "b": log("b"), "z": log("z")}
    wires = "t>p p.branches>a p.branches>b p.done>z"
    step = walk(build(nodes, wires), None)
    assert step.status == "succeeded" and step.visits == ["t", "p", "a", "b", "z"]
    # Only the arrival after the rule was met is ignored: the first one met it.
    ignored = [line.data for line in step.journal if line.code == "branch_arrival_ignored"]
    assert ignored == [{"parallel": "p", "branch": 2}]
    cancelled = walk(build({**nodes, "p": rest(mode="cancel")}, wires), None)
    assert cancelled.visits == ["t", "p", "a", "z"]


def test_an_end_after_done_cancels_the_rest_and_says_so() -> None:
    nodes = {**RACE, "fin": node("end", message="over")}
    flow = build(nodes, RACE_WIRES)
    over = resume(flow, walk(flow, None), "next", 5)
    assert over.status == "succeeded"
    cancelled = [line for line in over.journal if line.code == "branch_cancelled"]
    assert [(line.node, line.visit, line.data) for line in cancelled] == [
        ("slow", 4, {"parallel": "p", "branch": 2, "paused": True})
    ]


def test_the_rest_over_items_sees_its_item_and_gives_the_variable_back() -> None:
    nodes = {
        "t": trigger(),
        "p": rest(wait=1, items=["a", "b"], **{"as": "it"}),
        "ask": approval("{{it}}?"),
        "got": set_(late="got {{it}}"),
        "mark": set_(it="main"),
        "next": approval("Next?"),
        "fin": log("{{it}} {{late}}"),
    }
    wires = "t>p p.branches>ask ask.approve>got p.done>mark mark>next next.approve>fin"
    flow = build(nodes, wires)
    first = walk(flow, None)
    assert first.pending == (("ask", 3), ("ask", 4))
    went_on = resume(flow, first, "ask", 3)
    assert went_on.pending == (("next", 7), ("ask", 4)) and went_on.visits == ["got", "mark", "next"]
    late = resume(flow, went_on, "ask", 4)
    assert late.continuation is not None
    assert late.continuation["vars"]["it"] == "main" and late.continuation["vars"]["late"] == "got b"
    end = resume(flow, late, "next", 7)
    # A variable the rest wrote after `done` is there for the main path's next stretch.
    assert [line.data["message"] for line in end.journal if line.code == "log_written"] == ["main got b"]


def test_the_rest_over_items_leaves_no_variable_where_there_was_none() -> None:
    nodes = {
        "t": trigger(),
        "p": rest(wait=1, items=["a", "b"], **{"as": "it"}),
        "ask": approval("{{it}}?"),
        "next": approval("Next?"),
    }
    flow = build(nodes, "t>p p.branches>ask p.done>next")
    went_on = resume(flow, walk(flow, None), "ask", 3)
    assert went_on.continuation is not None and "it" not in went_on.continuation["vars"]
    # The branch left running walks with its item, and gives back nothing: `it` had no value before.
    late = resume(flow, went_on, "ask", 4)
    assert late.pending == (("next", 5),)
    assert late.continuation is not None and "it" not in late.continuation["vars"]


def test_a_parallel_around_waits_for_the_rest_of_one_inside_it() -> None:
    nodes = {
        "t": trigger(),
        "outer": rest(wait="all", mode=None),
        "p": rest(),
        "fast": log("fast"),
        "slow": approval("Slow?"),
        "other": log("other"),
        "z": log("z"),
    }
    wires = "t>outer outer.branches>p outer.branches>other p.branches>fast p.branches>slow outer.done>z"
    flow = build(nodes, wires)
    first = walk(flow, None)
    assert first.status == "waiting" and "z" not in first.visits and first.pending == (("slow", 5),)
    last = resume(flow, first, "slow", 5)
    assert last.status == "succeeded" and last.visits == ["z"]


def test_a_version_3_continuation_reads_back_as_it_was_written() -> None:
    flow = build(RACE, RACE_WIRES)
    for step in (walk(flow, None), resume(flow, walk(flow, None), "next", 5)):
        state, root = thaw(thawed(step.continuation), set(flow.nodes))
        assert freeze(state, root) == step.continuation


def test_a_rest_branch_ending_while_another_is_open_ends_nothing_else() -> None:
    """Two branches left running: the first to end is journaled and ignored, the parallel stays (the other
    is still open), and the run waits on for both the main path and the other branch."""
    nodes = {**RACE, "slower": approval("Slower?"), "later": log("slower done")}
    wires = RACE_WIRES + " p.branches>slower slower.approve>later"
    flow = build(nodes, wires)
    first = walk(flow, None)
    assert first.pending == (("next", 6), ("slow", 4), ("slower", 5))
    one = resume(flow, first, "slow", 4)
    assert one.status == "waiting" and one.pending == (("next", 6), ("slower", 5))
    assert codes(one)[-1] == "branch_arrival_ignored" and "parallel_rest_ended" not in codes(one)
    assert one.continuation is not None and one.continuation["v"] == 3
    both = resume(flow, one, "slower", 5)
    assert both.status == "waiting" and both.pending == (("next", 6),)
    assert [(line.code, line.data) for line in both.journal[-2:]] == [
        ("branch_arrival_ignored", {"parallel": "p", "branch": 3}),
        ("parallel_rest_ended", {"branches": 3}),
    ]


def test_a_continuation_with_parallels_left_running_in_a_shape_not_written_is_refused() -> None:
    """A stored continuation's parallels left running, damaged: refused with the part that is wrong, which
    reaches the run's failure for an operator to read."""
    flow = build(RACE, RACE_WIRES)
    written = thawed(walk(flow, None).continuation)
    nodes = set(RACE)

    def said(continuation: dict[str, Any]) -> str:
        with pytest.raises(ContinuationInvalid) as raised:
            thaw(continuation, nodes)
        return str(reason_of(raised.value.params)["reason"])

    running: object
    for running in ({"p": 1}, [], "p"):
        assert said({**written, "rest": running}) == "parallels left running only in version 3"
    assert said({**written, "v": 2, "rest": written["rest"]}) == "parallels left running only in version 3"
    ended = json.loads(json.dumps(written))
    for branch in ended["rest"][0]["branches"]:
        branch.clear()
        branch["ended"] = True
    assert said(ended) == "a parallel left running with a branch still open"


def test_a_parallel_left_running_inside_a_branch_left_running_reads_back_and_walks_on() -> None:
    """A branch left running opens a parallel of its own and goes on past it too: the continuation holds
    parallels left running at two depths, reads back as written, and the run ends once all have."""
    nodes = {
        "t": trigger(),
        "p": rest(),
        "fast": log("fast"),
        "q": rest(),
        "qfast": log("q fast"),
        "qslow": approval("Q slow?"),
        "mid": approval("Mid?"),
        "next": approval("Next?"),
    }
    wires = "t>p p.branches>fast p.branches>q q.branches>qfast q.branches>qslow q.done>mid p.done>next"
    flow = build(nodes, wires)
    first = walk(flow, None)
    assert first.status == "waiting" and first.continuation is not None
    assert {node for node, _ in first.pending} == {"next", "mid", "qslow"}
    (inner,) = first.continuation["rest"][0]["branches"][1]["rest"]
    assert inner["node"] == "q"
    state, root = thaw(thawed(first.continuation), set(nodes))
    assert freeze(state, root) == first.continuation
    step, ended = first, []
    for paused in ("qslow", "mid", "next"):
        (visit,) = [visit for at, visit in step.pending if at == paused]
        step = resume(flow, step, paused, visit)
        ended.append([line.node for line in step.journal if line.code == "parallel_rest_ended"])
    assert ended == [["q"], ["p"], []] and step.status == "succeeded"
