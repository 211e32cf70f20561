"""Survivors of `make mutation` in backend/graph/parallels.py `_meets`: `branches_meet_without_join` is
given where two parts of one split meet, and only there; a merge within one part, or of a part with a
split further down it, is no meeting."""

from __future__ import annotations

from backend.graph import Finding, check_flow
from tests.support import flow

MEETS = Finding(
    "branches_meet_without_join",
    "m",
    None,
    "Branches of one split both lead into m, which is not a join: it runs at the first arrival, between"
    " the branches. Put a join before it to wait for them.",
    None,
)


def warnings(nodes: str, wires: str) -> list[Finding]:
    findings, found = check_flow(flow(nodes, wires=wires))
    assert findings == []
    return found


def test_two_parts_of_a_split_meeting_is_a_warning() -> None:
    assert warnings("t:trigger a:log b:log m:log", "t>a t>b a>m b>m") == [MEETS]


def test_both_ports_of_a_condition_in_one_part_merging_is_no_meeting() -> None:
    assert warnings("t:trigger a:condition b:log m:log", "t>a t>b a.true>m a.false>m") == []


def test_a_part_merging_with_a_split_further_down_it_is_no_meeting() -> None:
    nodes = "t:trigger a:condition b:log x:log s:log y:log w:log m:log"
    assert warnings(nodes, "t>a t>b a.true>x a.false>s s>y s>w x>m y>m") == []


def test_parts_of_a_nested_split_meeting_are_a_warning() -> None:
    nodes = "t:trigger a:condition b:log x:log s:log y:log w:log m:log"
    assert warnings(nodes, "t>a t>b a.true>x a.false>s s>y s>w y>m w>m") == [MEETS]
