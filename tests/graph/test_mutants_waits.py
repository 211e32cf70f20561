"""Survivors of `make mutation` in backend/graph/parallels.py `check_parallels`: a join's or a parallel's
`wait` larger than its wires is a finding pointing at `/nodes/N/config/wait`, and a wait equal to its wires
is valid; and a report with no room left for findings gives no warnings either.
"""

from __future__ import annotations

from typing import Any

from backend.graph import Finding, check_flow
from backend.i18n.catalogs import message
from tests.support import flow


def join(wait: int) -> dict[str, Any]:
    return {"id": "j", "type": "join", "config": {"wait": wait}}


def parallel(wait: int) -> dict[str, Any]:
    return {"id": "p", "type": "parallel", "config": {"wait": wait}}


JOINED = "t>c c.true>a c.false>b a>j b>j"
BRANCHED = "t>p p.branches>a p.branches>b"


def test_a_join_waiting_for_more_arrivals_than_its_wires_points_at_its_wait() -> None:
    document = flow("t:trigger c:condition a:log b:log", join(3), wires=JOINED)
    sentence = message("join_wait_invalid", node="j", wait=3, wires=2)
    assert check_flow(document) == (
        [Finding("join_wait_invalid", "j", None, sentence, "/nodes/4/config/wait")],
        [],
    )


def test_a_join_waiting_for_exactly_its_wires_is_valid() -> None:
    assert check_flow(flow("t:trigger c:condition a:log b:log", join(2), wires=JOINED)) == ([], [])


def test_a_parallel_waiting_for_more_branches_than_its_wires_points_at_its_wait() -> None:
    document = flow("t:trigger", parallel(3), "a:log b:log", wires=BRANCHED)
    sentence = message("parallel_wait_invalid", node="p", wait=3, wires=2)
    assert check_flow(document) == (
        [Finding("parallel_wait_invalid", "p", None, sentence, "/nodes/1/config/wait")],
        [],
    )


def test_a_parallel_waiting_for_exactly_its_branches_is_valid() -> None:
    assert check_flow(flow("t:trigger", parallel(2), "a:log b:log", wires=BRANCHED)) == ([], [])


def test_a_report_filled_exactly_to_its_limit_gives_no_warnings() -> None:
    document = flow("t:trigger a:log b:log z:log x:log", wires="t>a t>b a>z b>z")
    unreachable = Finding("node_unreachable", "x", None, message("node_unreachable", node="x"), None)
    meets = message("branches_meet_without_join", node="z")
    assert check_flow(document, limit=2) == (
        [unreachable],
        [Finding("branches_meet_without_join", "z", None, meets, None)],
    )
    assert check_flow(document, limit=1) == ([unreachable], [])
