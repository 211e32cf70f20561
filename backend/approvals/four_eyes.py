"""Four eyes: who may not decide an approval themselves, and the policy an admin sets above the nodes.

The run's starter, the author of the flow version it follows, and, for a run the webhook started, whoever
had set the webhook's secret (an anonymous post is theirs to make): none of them may decide it, nor may
anyone stand in for them, unless self-approval is allowed. It is allowed when the approval node says
`allow_self_approval: true` and the `self_approval` policy is not `never`; with `never`, a node that
says so is a finding when its flow is saved, and the approvals of versions saved before the policy are
held to it when decided. The database's `self_approval_allowed` is the one rule: the decision
(`decide_approval`, migration 0028), the inbox and the tally of who could still approve all read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, cast

from psycopg import AsyncConnection
from psycopg.rows import class_row

from backend.graph.findings import Finding, pointer
from backend.i18n.catalogs import message
from backend.store.queries import load

QUERIES = load("backend.approvals", "queries.sql")

SelfApproval = Literal["per_node", "never"]
SELF_APPROVAL_VALUES: tuple[SelfApproval, ...] = ("per_node", "never")


@dataclass(frozen=True, slots=True)
class SelfApprovalPolicy:
    """The `self_approval` policy: its value, and who set it when (None: never set, the default)."""

    value: SelfApproval = "per_node"
    set_by: str | None = None
    set_at: datetime | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "set_by": self.set_by,
            "set_at": self.set_at.isoformat() if self.set_at else None,
        }


async def self_approval_policy(conn: AsyncConnection[Any]) -> SelfApprovalPolicy:
    cur = conn.cursor(row_factory=class_row(SelfApprovalPolicy))
    await cur.execute(QUERIES["policy"], {"name": "self_approval"})
    return await cur.fetchone() or SelfApprovalPolicy()


async def set_self_approval_policy(conn: AsyncConnection[Any], value: str, *, by: str) -> SelfApprovalPolicy:
    """Set the policy (`by`: the admin, or `cli`, also the actor on the rights trail); a value it does not
    know raises ValueError."""
    if value not in SELF_APPROVAL_VALUES:
        raise ValueError(f"self_approval: {value!r} is not one of {SELF_APPROVAL_VALUES}")
    async with conn.transaction():
        await conn.execute(QUERIES["declare_policy_actor"], {"actor": by})
        await conn.execute(QUERIES["set_policy"], {"name": "self_approval", "value": value, "by": by})
        return await self_approval_policy(conn)


def self_approval_findings(document: Mapping[str, Any], policy: SelfApproval, locale: str) -> list[Finding]:
    """Under `never`, a finding for each approval node of a valid `document` that allows self-approval.

    Examples:
        >>> document = {"nodes": [{"id": "ask", "type": "approval", "config": {"allow_self_approval": True}}]}
        >>> self_approval_findings(document, "per_node", "en")
        []
        >>> [(f.code, f.node, f.detail) for f in self_approval_findings(document, "never", "en")]
        [('self_approval_forbidden', 'ask', '/nodes/0/config/allow_self_approval')]
    """
    if policy != "never":
        return []
    findings = []
    for index, node in enumerate(cast(list[Any], document.get("nodes") or [])):
        if not isinstance(node, Mapping) or node.get("type") != "approval":
            continue
        config = node.get("config")
        if isinstance(config, Mapping) and config.get("allow_self_approval") is True:
            node_id = str(node.get("id"))
            findings.append(
                Finding(
                    code="self_approval_forbidden",
                    node=node_id,
                    wire=None,
                    message=message("self_approval_forbidden", locale, node=node_id),
                    detail=pointer(("nodes", index, "config", "allow_self_approval")),
                )
            )
    return findings


async def policy_findings(
    conn: AsyncConnection[Any], document: Mapping[str, Any], locale: str
) -> list[Finding]:
    """The findings the installation's policies add to a valid document's own (none, mostly)."""
    policy = await self_approval_policy(conn)
    return self_approval_findings(document, policy.value, locale)
