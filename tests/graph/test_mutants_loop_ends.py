"""Survivors of `make mutation` in backend/graph/loops.py `check_loops`: an `end` inside a loop names the
innermost real loop around it (a parallel inside the loop is not one; of two loops of one depth, the first
in the document), and once the report is full each further `end` inside a loop is counted, once.
"""

from __future__ import annotations

from backend.graph import Finding, check_flow, validate
from backend.i18n.catalogs import message
from tests.support import flow


def end_inside(node: str, loop: str) -> Finding:
    return Finding("end_inside_loop", node, None, message("end_inside_loop", node=node, loop=loop), loop)


def test_every_end_inside_a_loop_past_a_full_report_is_counted_once() -> None:
    document = flow(
        "t:trigger each:foreach e1:end e2:end e3:end", wires="t>each each.body>e1 each.body>e2 each.body>e3"
    )
    truncated = message("findings_truncated", count=2, limit=1)
    assert validate(document, limit=1) == [
        end_inside("e1", "each"),
        Finding("findings_truncated", None, None, truncated, "2"),
    ]


def test_an_end_in_a_parallel_inside_a_loop_names_the_loop() -> None:
    document = flow("t:trigger each:foreach p:parallel e:end", wires="t>each each.body>p p.branches>e")
    assert check_flow(document) == ([end_inside("e", "each")], [])


def test_an_end_in_the_bodies_of_two_loops_of_one_depth_names_the_first_in_the_document() -> None:
    document = flow("t:trigger a:foreach b:foreach x:log e:end", wires="t>a a.body>x a.done>b b.body>x x>e")
    leaks = [
        ("x", 1, "b"),
        ("x", 3, "a"),
    ]
    assert check_flow(document) == (
        [
            *(
                Finding("loop_body_leaks", node, wire, message("loop_body_leaks", node=node, loop=loop), loop)
                for node, wire, loop in leaks
            ),
            end_inside("e", "a"),
        ],
        [],
    )
