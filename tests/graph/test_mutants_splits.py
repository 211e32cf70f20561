"""Survivors of `make mutation` in backend/graph/parallels.py `_meet_without_join` and `check_parallels`.

`branches_meet_without_join` splits at every port with several wires except a parallel's `branches` (a
parallel's `done` port included), leaves out the branches of a parallel (whose meeting is a finding), gives
each split its own bits (a split further down a part is no meeting with that part), carries a node's bits
from all its incoming wires and none from a wire that is no split's, and says nothing inside a cycle of
two. A set node in the branch of a parallel over items names that parallel in its finding.
"""

from __future__ import annotations

from typing import Any

from backend.graph import Finding, check_flow
from backend.i18n.catalogs import message
from tests.support import flow


def meets(node: str) -> Finding:
    return Finding(
        "branches_meet_without_join", node, None, message("branches_meet_without_join", node=node), None
    )


def test_branches_of_a_parallel_that_meet_are_a_finding_and_no_warning() -> None:
    document = flow("t:trigger p:parallel a:log b:log z:log", wires="t>p p.branches>a p.branches>b a>z b>z")
    sentence = message("parallel_branches_meet", node="z", parallel="p")
    assert check_flow(document) == ([Finding("parallel_branches_meet", "z", None, sentence, "p")], [])


def test_two_done_wires_of_a_parallel_that_meet_are_a_warning() -> None:
    document = flow(
        "t:trigger p:parallel a:log x:log y:log z:log", wires="t>p p.branches>a p.done>x p.done>y x>z y>z"
    )
    assert check_flow(document) == ([], [meets("z")])


def test_a_part_meeting_a_split_further_down_it_is_no_meeting_whichever_split_comes_first() -> None:
    # x's split is first in the document, y's split around it second: their bits must not share one.
    nodes = "t:trigger x:log r:log s:log y:log p:condition q:log z:log"
    wires = "x>r x>s y>p y>q t>y p.true>x p.false>z r>z"
    assert check_flow(flow(nodes, wires=wires)) == ([], [])


def test_a_part_meeting_a_wire_from_before_the_split_is_no_meeting() -> None:
    document = flow(
        "t:trigger c:condition s:log a:log b:log z:log", wires="t>c c.true>s c.false>z s>a s>b b>z"
    )
    assert check_flow(document) == ([], [])


def test_a_node_carries_the_parts_of_each_of_its_incoming_wires_not_only_the_last() -> None:
    # m's last incoming wire carries no part; its first carries a's, which meets b's at z.
    nodes = "t:trigger c:condition s:log a:log b:log m:log z:log"
    wires = "t>c c.true>s s>a s>b a>m c.false>m m>z b>z"
    assert check_flow(flow(nodes, wires=wires)) == ([], [meets("z")])


def test_parts_that_meet_inside_a_cycle_of_two_nodes_are_no_warning() -> None:
    document = flow("t:trigger a:log b:log c:log d:log", wires="t>a t>b a>c b>c c>d d>c")
    sentence = message("cycle", node="c", path="c -> d -> c")
    assert check_flow(document) == ([Finding("cycle", "c", 5, sentence, "c -> d -> c")], [])


def test_a_set_node_in_the_branch_of_a_parallel_over_items_names_the_parallel() -> None:
    over_items: dict[str, Any] = {
        "id": "p",
        "type": "parallel",
        "config": {"items": "{{trigger.items}}", "as": "item"},
    }
    document = flow("t:trigger", over_items, "s:set", wires="t>p p.branches>s")
    sentence = message("parallel_branches_write_same_name", node="s", name="total", parallel="p")
    assert check_flow(document) == (
        [Finding("parallel_branches_write_same_name", "s", None, sentence, "total")],
        [],
    )
