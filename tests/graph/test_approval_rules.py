"""The approval node's further rules: the schema accepts them, the validator finds what cannot work."""

from __future__ import annotations

from typing import Any

from backend.graph.validator import validate


def document(**config: Any) -> dict[str, Any]:
    return {
        "format": "flowyard.flow/1",
        "name": "Quorum",
        "nodes": [
            {"id": "start", "type": "trigger", "config": {"kind": "manual"}},
            {"id": "ask", "type": "approval", "config": {"title": "Pay?", **config}},
        ],
        "wires": [{"from": "start", "to": "ask"}],
    }


def codes(**config: Any) -> list[tuple[str, str | None]]:
    return [(f.code, f.node) for f in validate(document(**config))]


def test_every_rule_together_is_valid() -> None:
    assert (
        codes(
            approvers=["user:ann", "user:bob", "group:finance"],
            quorum=3,
            reject="quorum",
            allow_self_approval=True,
            remind_after=["PT4H", "P1D"],
            escalate_after="P1DT12H",
            escalate_to=["group:leads"],
            deadline="P3D",
            on_timeout="reject",
        )
        == []
    )


def test_a_quorum_larger_than_the_named_users_is_a_finding_and_a_group_makes_it_unknowable() -> None:
    assert codes(approvers=["user:ann", "user:bob"], quorum=3) == [("approval_quorum_unreachable", "ask")]
    assert codes(approvers=["user:ann", "group:finance"], quorum=3) == []
    assert codes(quorum=3) == [], "nobody named: anyone with the decide right may vote"


def test_reminders_and_escalations_the_deadline_precedes_are_findings() -> None:
    found = codes(
        deadline="P1D",
        on_timeout="reject",
        remind_after=["PT1H", "P2D"],
        escalate_after="P1D",
        escalate_to=["user:x"],
    )
    assert found == [
        ("approval_reminder_after_deadline", "ask"),
        ("approval_escalation_after_deadline", "ask"),
    ]


def test_the_schema_refuses_what_the_rules_cannot_mean() -> None:
    assert [c for c, _ in codes(quorum=0)] == ["node_config_invalid"]
    assert [c for c, _ in codes(reject="majority")] == ["node_config_invalid"]
    assert [c for c, _ in codes(escalate_after="P1D")] == ["node_config_invalid"], "escalate_to is required"
    assert [c for c, _ in codes(remind_after=["tomorrow"])] == ["node_config_invalid"]
