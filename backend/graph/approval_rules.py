"""The approval node's rules that a schema cannot say: a quorum the named approvers cannot reach, a
reminder or an escalation that the deadline always comes before.

Examples:
    >>> from backend.graph.findings import Report
    >>> from backend.graph.outline import read_outline
    >>> ask = {"id": "ask", "type": "approval",
    ...        "config": {"title": "t", "approvers": ["user:ann", "user:bob"], "quorum": 3}}
    >>> outline = read_outline({"nodes": [ask], "wires": []})
    >>> report = Report("en")
    >>> check_approvals(outline, report)
    >>> [(f.code, f.node) for f in report.close()]
    [('approval_quorum_unreachable', 'ask')]
"""

from __future__ import annotations

from typing import Any

from backend.graph.durations import parse_duration
from backend.graph.findings import Report
from backend.graph.outline import NodeEntry, Outline


def _duration(text: object) -> float | None:
    if not isinstance(text, str):
        return None
    try:
        return parse_duration(text).total_seconds()
    except ValueError:
        return None  # the schema's finding says what is wrong with it


def check_approvals(outline: Outline, report: Report) -> None:
    """`approval_quorum_unreachable` when a quorum is larger than the users named and no group is named
    (a group's members are known only at run time); `approval_reminder_after_deadline` and
    `approval_escalation_after_deadline` for a reminder or an escalation the deadline always precedes."""
    for node in outline.nodes:
        if node.type != "approval" or not isinstance(node.config, dict):
            continue
        _check_quorum(node, node.config, report)
        _check_deadline(node, node.config, report)


def _check_quorum(node: NodeEntry, config: dict[str, Any], report: Report) -> None:
    """`approval_quorum_unreachable`: more approvals asked for than the users named, and no group named."""
    quorum, approvers = config.get("quorum", 1), config.get("approvers") or []
    if isinstance(quorum, int) and isinstance(approvers, list) and approvers:
        named = {p for p in approvers if isinstance(p, str)}
        if all(p.startswith("user:") for p in named) and quorum > len(named):
            report.add(code="approval_quorum_unreachable", node=node.id, quorum=quorum, named=len(named))


def _check_deadline(node: NodeEntry, config: dict[str, Any], report: Report) -> None:
    """`approval_reminder_after_deadline` at each reminder, `approval_escalation_after_deadline` at an
    escalation, that comes no sooner than the deadline."""
    deadline = _duration(config.get("deadline"))
    if deadline is None:
        return
    reminders = config.get("remind_after")
    for after in reminders if isinstance(reminders, list) else []:
        seconds = _duration(after)
        if seconds is not None and seconds >= deadline:
            report.add(code="approval_reminder_after_deadline", node=node.id, after=after)
    escalate = _duration(config.get("escalate_after"))
    if escalate is not None and escalate >= deadline:
        report.add(code="approval_escalation_after_deadline", node=node.id)
