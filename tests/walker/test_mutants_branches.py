"""Survivors of `make mutation` in backend/walker/continuation.py's version 2: a continuation with an open
parallel is read back exactly as it was written, and every shape this release does not write is refused
with `continuation_invalid` and the reason that names what was wrong (the reason reaches the run's
failure, so an operator reading it learns which part of a stored continuation was broken)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from backend.walker.branches import Branch, freeze, root_of, thaw
from backend.walker.continuation import State
from backend.walker.errors import ContinuationInvalid
from backend.walker.templates import MISSING
from tests.walker.support import reason_of

NODES = {"t", "p", "a", "b", "j", "rows", "ask"}


def written() -> dict[str, Any]:
    """A version 2 continuation as `freeze` writes it: a parallel open at p, its first branch paused at
    `ask` inside a loop, the second ended, the third waiting with a join arrival in its loop's scope."""
    return {
        "v": 2,
        "visits": 9,
        "vars": {"x": 1},
        "stack": ["j"],
        "seen": [["t", "p"]],
        "loops": [],
        "par": {
            "node": "p",
            "visit": 2,
            "need": 3,
            "branches": [
                {
                    "stack": ["b", "a"],
                    "seen": [["a"], ["rows"]],
                    "loops": [{"node": "rows", "visit": 4, "base": 1, "pass": 2}],
                    "at": {"node": "ask", "visit": 8},
                },
                {"ended": True},
                {
                    "stack": ["b"],
                    "seen": [["b"], []],
                    "loops": [
                        {"node": "rows", "visit": 5, "base": 1, "pass": 0, "items": [1, 2], "as": "row"}
                    ],
                    "arrivals": [[1, {"j": 7}]],
                    "at": {"node": "ask", "visit": 9},
                },
            ],
        },
    }


def refused(continuation: Any) -> tuple[str, dict[str, Any]]:
    with pytest.raises(ContinuationInvalid) as raised:
        thaw(continuation, NODES)
    return raised.value.code, reason_of(raised.value.params)


def nested(depth: int) -> dict[str, Any]:
    """A version 2 continuation whose parallels nest `depth` deep, the innermost branch paused."""
    branch: dict[str, Any] = {"stack": [], "seen": [[]], "loops": [], "at": {"node": "ask", "visit": 1}}
    for _ in range(depth):
        branch = {
            "stack": [],
            "seen": [[]],
            "loops": [],
            "par": {"node": "p", "visit": 1, "need": 1, "branches": [branch]},
        }
    return {"v": 2, "visits": 1, "vars": {}, **branch}


def test_a_written_version_2_continuation_is_read_back_as_it_was_written() -> None:
    state, root = thaw(written(), NODES)
    assert freeze(state, root) == written()
    assert (state.visits, state.variables, state.stack, state.loops, state.arrivals) == (
        9,
        {"x": 1},
        ["j"],
        [],
        {},
    )
    assert root.par is not None
    assert (root.par.node, root.par.visit, root.par.need, root.at) == ("p", 2, 3, None)
    first, second, third = root.par.branches
    assert first.at == ("ask", 8) and first.loops[0].base == 1 and first.loops[0].passes == 2
    assert second.ended and not first.ended and not third.ended
    assert third.arrivals == {1: {"j": 7}}
    assert (third.loops[0].items, third.loops[0].name, third.loops[0].saved) == ([1, 2], "row", MISSING)
    assert list(root.pending()) == [("ask", 8), ("ask", 9)]


def test_a_parallel_over_items_is_read_back_with_its_items_name_and_saved_value() -> None:
    for saved in ({"saved": 7}, {"saved": None}, {}):
        continuation = written()
        continuation["par"].update({"items": ["x", "y", "z"], "as": "it", **saved})
        state, root = thaw(continuation, NODES)
        assert root.par is not None
        assert (root.par.items, root.par.name) == (["x", "y", "z"], "it")
        assert root.par.saved == saved.get("saved", MISSING)
        assert freeze(state, root) == continuation


def test_the_runs_own_join_arrivals_are_the_states() -> None:
    continuation = {**written(), "arrivals": [[0, {"j": 3}]]}
    state, root = thaw(continuation, NODES)
    assert state.arrivals == root.arrivals == {0: {"j": 3}}
    assert state.arrivals is root.arrivals
    assert freeze(state, root) == continuation


def test_a_continuation_that_is_no_object_is_refused() -> None:
    for value in (["v", 2], "v", None, 2):
        assert refused(value) == ("continuation_invalid", {"reason": "version null"})


def test_reading_does_not_share_the_callers_containers() -> None:
    continuation = written()
    state, _root = thaw(continuation, NODES)
    state.variables["y"] = 2
    state.stack.append("t")
    assert continuation == written()


def test_the_runs_own_branch_is_never_an_ended_one() -> None:
    # Only a branch of a parallel can say it ended; the run's own is read from its fields whatever it says.
    _state, root = thaw({**written(), "ended": True}, NODES)
    assert not root.ended and root.par is not None
    assert refused({**written(), "ended": True, "stack": None}) == (
        "continuation_invalid",
        {"reason": "a list of this flow's node ids"},
    )


def test_parallels_nest_eight_deep_and_no_deeper() -> None:
    state, root = thaw(nested(8), NODES)
    assert list(root.pending()) == [("ask", 1)]
    assert freeze(state, root) == nested(8)
    assert refused(nested(9)) == ("continuation_invalid", {"reason": "a branch"})


def change(path: list[Any], value: Any) -> dict[str, Any]:
    """`written()` with the value at `path` replaced (or removed, for `...`)."""
    continuation = copy.deepcopy(written())
    holder: Any = continuation
    for key in path[:-1]:
        holder = holder[key]
    if value is ...:
        del holder[path[-1]]
    else:
        holder[path[-1]] = value
    return continuation


FIRST = ["par", "branches", 0]
THIRD = ["par", "branches", 2]


@pytest.mark.parametrize(
    ("path", "value", "reason"),
    [
        # The run's own branch, and what only the top level holds.
        (["v"], 4, "version 4"),
        (["v"], True, "version true"),
        (["v"], 2.0, "version 2.0"),
        # version 3 is written only when a parallel was left running (`rest: continue`).
        (["v"], 3, "a parallel left running"),
        (["vars"], ["x"], "variables as an object"),
        (["vars"], ..., "'vars'"),
        (["visits"], -1, "a count as 'visits'"),
        (["visits"], 2.0, "a count as 'visits'"),
        (["stack"], ["nowhere"], "a list of this flow's node ids"),
        (["stack"], ..., "'stack'"),
        (["seen"], [["t"], ["p"]], "one visited list per open scope"),
        (["seen"], "tp", "one visited list per open scope"),
        (["seen"], [["nowhere"]], "a list of this flow's node ids"),
        (["loops"], ..., "'loops'"),
        # version 2 is an open parallel and no pause of the run's own.
        (["par"], ..., "an open parallel"),
        (["at"], {"node": "ask", "visit": 1}, "an open parallel of this flow"),
        (["par"], ["p"], "an open parallel of this flow"),
        (["par", "node"], "nowhere", "an open parallel of this flow"),
        (["par", "visit"], -2, "a count as 'visit'"),
        (["par", "need"], "3", "a count as 'need'"),
        (["par", "need"], 0, "an open parallel whose rule is not met yet"),
        (["par", "branches"], {"0": {}}, "a parallel's branches"),
        (["par", "branches"], ..., "'branches'"),
        (["par", "items"], ["only one"], "a parallel's items (one per branch) and name"),
        (["par", "items"], "xyz", "a parallel's items (one per branch) and name"),
        # A branch of the parallel.
        ([*FIRST], ["ask"], "a branch"),
        ([*FIRST], {"ended": 1}, "'stack'"),
        ([*FIRST, "at"], ..., "a branch paused, waiting on a parallel, or ended"),
        ([*FIRST, "stack"], ["nowhere"], "a list of this flow's node ids"),
        ([*FIRST, "at"], {"node": "nowhere", "visit": 8}, "a pause at one of this flow's nodes"),
        ([*FIRST, "at"], {"node": "ask", "visit": -8}, "a pause at one of this flow's nodes"),
        ([*FIRST, "at"], ["ask", 8], "a pause at one of this flow's nodes"),
        ([*FIRST, "seen"], [["a"]], "one visited list per open scope"),
        ([*FIRST, "loops", 0, "node"], "nowhere", "an open loop of this flow"),
        ([*FIRST, "loops", 0, "base"], 3, "an open loop's base within the stack, above the enclosing loop's"),
        ([*FIRST, "loops", 0, "pass"], -1, "a count as 'pass'"),
        ([*THIRD, "arrivals"], [[2, {"j": 7}]], "join arrivals by open scope"),
        ([*THIRD, "arrivals"], [[-1, {"j": 7}]], "join arrivals by open scope"),
        ([*THIRD, "arrivals"], [[True, {"j": 7}]], "join arrivals by open scope"),
        ([*THIRD, "arrivals"], [[1, [["j", 7]]]], "join arrivals by open scope"),
        ([*THIRD, "arrivals"], [[1, {"nowhere": 7}]], "a list of this flow's node ids"),
        ([*THIRD, "arrivals"], [[1, {"j": -7}]], "a count as 'j'"),
        ([*THIRD, "loops", 0, "as"], None, "a foreach's items and name"),
    ],
)
def test_a_version_2_continuation_we_did_not_write_is_refused_with_its_reason(
    path: list[Any], value: Any, reason: str
) -> None:
    assert refused(change(path, value)) == ("continuation_invalid", {"reason": reason})


def test_a_loop_nested_in_a_branch_may_not_start_below_the_loop_around_it() -> None:
    two_loops = [
        {"node": "rows", "visit": 4, "base": 1, "pass": 2},
        {"node": "rows", "visit": 6, "base": 2, "pass": 0},
    ]
    fits = change([*FIRST, "loops"], two_loops)
    fits["par"]["branches"][0]["seen"] = [["a"], [], []]
    _state, root = thaw(fits, NODES)
    assert [loop.base for loop in root.par.branches[0].loops] == [1, 2]  # type: ignore[union-attr]
    below = copy.deepcopy(fits)
    below["par"]["branches"][0]["loops"][1]["base"] = 0
    assert refused(below) == (
        "continuation_invalid",
        {"reason": "an open loop's base within the stack, above the enclosing loop's"},
    )


def test_join_arrivals_may_be_in_every_open_scope() -> None:
    _state, root = thaw(change([*THIRD, "arrivals"], [[0, {"j": 1}], [1, {"j": 2}]]), NODES)
    assert root.par.branches[2].arrivals == {0: {"j": 1}, 1: {"j": 2}}  # type: ignore[union-attr]


def test_version_1_is_one_pause_of_the_run_and_no_parallel() -> None:
    one = {"v": 1, "visits": 3, "vars": {}, "stack": [], "seen": [["t"]], "loops": []}
    assert refused(one) == ("continuation_invalid", {"reason": "a pause at one of this flow's nodes"})
    with_par = {**one, "at": {"node": "ask", "visit": 2}, "par": written()["par"]}
    assert refused(with_par) == ("continuation_invalid", {"reason": "an open parallel of this flow"})
    paused = {**one, "at": {"node": "ask", "visit": 2}}
    state, root = thaw(paused, NODES)
    assert (root.at, root.par, state.visits) == (("ask", 2), None, 3)


def test_the_runs_own_branch_shares_the_states_lists() -> None:
    state = State(stack=["a"], seen=[{"t": None}], variables={}, visits=1, loops=[], arrivals={0: {"j": 1}})
    root = root_of(state, ("ask", 4))
    assert root == Branch(["a"], [{"t": None}], [], {0: {"j": 1}}, ("ask", 4))
    assert root.stack is state.stack and root.seen is state.seen
    assert root.loops is state.loops and root.arrivals is state.arrivals
    assert root_of(state).at is None
