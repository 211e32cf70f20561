"""`flowyard approvals list [--as NAME]` and `flowyard approvals decide ID approve|reject --as NAME`.

The terminal decides through the ApprovalDecisions the API uses, so the rules are the API's: the decide
right on the flow, being among the approvers the node names, the first decision wins, a deadline that
passed closes the approval. `--as` names whose rights apply and who is recorded as the decider; the
terminal holds the database's credentials, so it is trusted as an administrator is (docs/approvals.md).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from datetime import UTC
from typing import Any

from psycopg import AsyncConnection

from backend.approvals.audit import AuditRefused
from backend.approvals.decisions import ApprovalDecisions, Decision, DecisionRefused
from backend.approvals.records import Approval
from backend.console import listed, refuse, say, word
from backend.people.accounts import user_exists
from backend.people.commands import speak_as_user

_OUTCOMES = {"approve": "approved", "reject": "rejected"}


class _UnknownUser(Exception):
    pass


async def _require_user(conn: AsyncConnection[Any], name: str) -> None:
    """The user `--as` names must exist; the command then speaks their language, in their zone."""
    if not await user_exists(conn, name):
        raise _UnknownUser(name)
    await speak_as_user(conn, name)


def printable(text: str) -> str:
    r"""`text` with control characters written as escapes: a title rendered from a webhook's payload
    must not move the cursor, recolour or clear an approver's terminal, nor break the one-line listing.

    Examples:
        >>> print(printable("Pay A-7?\x1b[2J\nnow \u2028 ok ✓"))
        Pay A-7?\x1b[2J\nnow \u2028 ok ✓
    """
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


def _say_line(approval: Approval) -> None:
    params: dict[str, Any] = {
        "approval": approval.id,
        "title": printable(approval.title),
        "run": approval.run_id,
        "flow": approval.flow_id,
        "node": approval.node,
        "approvers": listed([_approver(named) for named in approval.approvers])
        if approval.approvers
        else word(code="approvers_anyone"),
    }
    if approval.deadline_at is None:
        say(code="approval_line_no_deadline", **params)
    else:
        say(code="approval_line", deadline=approval.deadline_at.astimezone(UTC), **params)


def _approver(named: str) -> str:
    """An approver as a person says it: `user:anna` is anna, `group:finance` the group finance.

    Examples:
        >>> _approver("user:anna"), _approver("group:finance")
        ('anna', 'group finance')
    """
    kind, _, name = named.partition(":")
    if kind == "group":
        return word(code="cli_approver_group", name=name)
    return name if kind == "user" else named


async def _list(conn: AsyncConnection[Any], user: str | None, cursor: str | None) -> int:
    if user is not None:
        await _require_user(conn, user)
    found, next_cursor = await ApprovalDecisions().inbox(conn, user, limit=100, cursor=cursor)
    for approval in found:
        _say_line(approval)
    if not found and user is None:
        say(code="approvals_none")
    elif not found:
        say(code="approvals_none_for", user=user)
    if next_cursor is not None:
        # A page, never a silent cut: the rest is one command away.
        say(code="approvals_more", cursor=next_cursor)
    return 0


async def _decide(conn: AsyncConnection[Any], args: argparse.Namespace) -> int:
    await _require_user(conn, args.as_user)
    decision = await ApprovalDecisions().decide(
        conn, args.id, _OUTCOMES[args.outcome], by=args.as_user, comment=args.comment
    )
    approval = await ApprovalDecisions().get(conn, decision.approval_id)
    assert approval is not None
    if decision.outcome is None:  # a vote towards a quorum: the approval still waits
        approves = sum(1 for vote in approval.votes if vote.vote == "approve")
        say(
            code="approval_vote_counted",
            approval=approval.id,
            user=args.as_user,
            approves=approves,
            quorum=approval.quorum,
        )
        return 0
    code = {"approved": "approval_decided_approved"}.get(decision.outcome, "approval_decided_rejected")
    say(code=code, approval=approval.id, user=args.as_user, run=approval.run_id)
    return 0


async def _run(args: argparse.Namespace, url: str) -> int:
    """The command, its refusals said inside it: in the language of the user `--as` names, once known."""
    try:
        async with await AsyncConnection.connect(url, autocommit=True) as conn:
            if args.action == "list":
                return await _list(conn, args.as_user, args.after)
            return await _decide(conn, args)
    except _UnknownUser as unknown:
        return refuse(code="user_unknown", name=str(unknown))
    except AuditRefused as refused:
        return refuse(refused)
    except DecisionRefused as refused:
        params = {"approval": args.id, "user": args.as_user, **refused.params}
        exit_code = refuse(refused, **params)
        if refused.standing is not None:  # what the API's 409 carries as detail.standing
            _say_standing(refused.standing)
        return exit_code


def run_approvals_command(args: argparse.Namespace, url: str) -> int:
    return asyncio.run(_run(args, url))


def _say_standing(decision: Decision) -> None:
    # Anything but a person's approve or reject (a deadline, a cancel, a failed run) is named by its code.
    code = {"approved": "approval_standing_approved", "rejected": "approval_standing_rejected"}.get(
        decision.outcome or "", "approval_standing_closed"
    )
    at = decision.decided_at.astimezone(UTC)
    say(code=code, stream=sys.stderr, user=decision.decided_by or "", outcome=decision.outcome, at=at)
