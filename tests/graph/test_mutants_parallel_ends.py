"""Survivors of `make mutation` in backend/graph/parallels.py `check_parallels`: an `end` inside a branch is
one whole finding naming its parallel, an `end` after a parallel's `done` is none, and a `break` in a loop
and a parallel of one depth crosses no parallel.
"""

from __future__ import annotations

from backend.graph import Finding, check_flow
from backend.i18n.catalogs import message
from tests.support import flow


def test_an_end_inside_a_branch_names_its_parallel() -> None:
    document = flow("t:trigger p:parallel e:end", wires="t>p p.branches>e")
    sentence = message("end_inside_parallel", node="e", parallel="p")
    assert check_flow(document) == ([Finding("end_inside_parallel", "e", None, sentence, "p")], [])


def test_an_end_after_the_done_port_of_a_parallel_is_valid() -> None:
    document = flow("t:trigger p:parallel a:log e:end", wires="t>p p.branches>a p.done>e")
    assert check_flow(document) == ([], [])


def test_a_break_in_a_loop_and_a_parallel_of_one_depth_crosses_no_parallel() -> None:
    # x is in l's body and in p's branch, both at depth 0: the parallel is not inside the loop.
    document = flow(
        "t:trigger c:condition l:foreach p:parallel x:break",
        wires="t>c c.true>l c.false>p l.body>x p.branches>x",
    )
    leaks = [(3, "p"), (4, "l")]
    assert check_flow(document) == (
        [
            Finding("loop_body_leaks", "x", wire, message("loop_body_leaks", node="x", loop=loop), loop)
            for wire, loop in leaks
        ],
        [],
    )
