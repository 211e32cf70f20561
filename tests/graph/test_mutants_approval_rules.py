"""Survivors of `make mutation` in backend/graph/approval_rules.py and findings.py's `cut`: a quorum of
exactly the users named is reachable and one more is not; a reminder at exactly the deadline is never
sent; an approval without a deadline does not end the checking of the approvals after it; only approval
nodes with an object config are read; each finding whole. A text of exactly SHOWN characters is shown
whole, one more is cut."""

from __future__ import annotations

from typing import Any

from backend.graph import Finding, validate
from backend.graph.approval_rules import check_approvals
from backend.graph.findings import SHOWN, Report, cut
from backend.graph.outline import read_outline
from backend.i18n.catalogs import message
from tests.support import flow


def asking(**config: Any) -> dict[str, Any]:
    document = flow("t:trigger ask:approval", wires="t>ask")
    document["nodes"][1]["config"] = {"title": "Pay?", **config}
    return document


def unreachable(quorum: int, named: int) -> Finding:
    sentence = message("approval_quorum_unreachable", "en", node="ask", quorum=quorum, named=named)
    return Finding("approval_quorum_unreachable", "ask", None, sentence, None)


def reminder_late(after: str, node: str = "ask") -> Finding:
    sentence = message("approval_reminder_after_deadline", "en", node=node, after=after)
    return Finding("approval_reminder_after_deadline", node, None, sentence, None)


def rules_of(nodes: list[dict[str, Any]]) -> list[Finding]:
    report, outline = Report("en"), read_outline({"nodes": nodes, "wires": []})
    assert outline is not None
    check_approvals(outline, report)
    return report.close()


def test_a_quorum_of_exactly_the_users_named_is_reachable_and_one_more_is_not() -> None:
    users = ["user:ann", "user:bob"]
    assert validate(asking(approvers=users, quorum=2)) == []
    assert validate(asking(approvers=users, quorum=3)) == [unreachable(3, 2)]


def test_without_a_quorum_one_approver_is_needed() -> None:
    assert validate(asking(approvers=["user:ann"])) == []
    # Named approvers none of which is text: the quorum of one cannot be reached (the schema says more).
    assert rules_of([{"id": "ask", "type": "approval", "config": {"approvers": [5]}}]) == [unreachable(1, 0)]


def test_a_reminder_at_exactly_the_deadline_is_never_sent() -> None:
    document = asking(
        approvers=["group:finance"], deadline="P1D", on_timeout="reject", remind_after=["PT23H", "PT24H"]
    )
    assert validate(document) == [reminder_late("PT24H")]


def test_an_approval_without_a_deadline_does_not_end_the_checking_of_the_next_one() -> None:
    first = {"id": "first", "type": "approval", "config": {"approvers": ["group:a"]}}
    second = {"id": "ask", "type": "approval", "config": {"deadline": "PT1H", "remind_after": ["PT2H"]}}
    assert rules_of([first, second]) == [reminder_late("PT2H")]


def test_only_approval_nodes_with_an_object_config_are_read() -> None:
    rules = {"approvers": ["user:ann"], "quorum": 5, "deadline": "PT1H", "remind_after": ["PT2H"]}
    assert rules_of([{"id": "say", "type": "log", "config": rules}]) == []
    assert rules_of([{"id": "ask", "type": "approval", "config": ["quorum", 5]}]) == []


def test_a_text_of_exactly_the_shown_length_is_whole_and_one_more_is_cut() -> None:
    assert cut("a" * SHOWN) == "a" * SHOWN
    assert cut("a" * (SHOWN + 1)) == "a" * SHOWN + "…"
