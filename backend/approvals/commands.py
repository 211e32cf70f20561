"""`flowyard approvals list [--as NAME]` and `flowyard approvals decide ID approve|reject --as NAME`.

The terminal decides through the ApprovalService the API uses, so the rules are the API's: the decide
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
from backend.approvals.records import Approval
from backend.approvals.service import ApprovalService, Decision, DecisionRefused
from backend.console import refuse
from backend.i18n.catalogs import message
from backend.i18n.terminal import terminal_locale
from backend.people.accounts import user_exists

_OUTCOMES = {"approve": "approved", "reject": "rejected"}


class _UnknownUser(Exception):
    pass


async def _require_user(conn: AsyncConnection[Any], name: str) -> None:
    if not await user_exists(conn, name):
        raise _UnknownUser(name)


def printable(text: str) -> str:
    r"""`text` with control characters written as escapes: a title rendered from a webhook's payload
    must not move the cursor, recolour or clear an approver's terminal, nor break the one-line listing.

    Examples:
        >>> print(printable("Pay A-7?\x1b[2J\nnow \u2028 ok ✓"))
        Pay A-7?\x1b[2J\nnow \u2028 ok ✓
    """
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


def _line(approval: Approval) -> str:
    params: dict[str, Any] = {
        "approval": approval.id,
        "title": printable(approval.title),
        "run": approval.run_id,
        "flow": approval.flow_id,
        "node": approval.node,
        "approvers": ", ".join(approval.approvers) or message("approvers_anyone", terminal_locale()),
    }
    if approval.deadline_at is None:
        return message("approval_line_no_deadline", terminal_locale(), **params)
    return message(
        "approval_line", terminal_locale(), deadline=approval.deadline_at.astimezone(UTC), **params
    )


async def _list(conn: AsyncConnection[Any], user: str | None, cursor: str | None) -> int:
    if user is not None:
        await _require_user(conn, user)
    found, next_cursor = await ApprovalService().inbox(conn, user, limit=100, cursor=cursor)
    for approval in found:
        print(_line(approval))
    if not found:
        print(
            message("approvals_none", terminal_locale())
            if user is None
            else message("approvals_none_for", terminal_locale(), user=user)
        )
    if next_cursor is not None:
        # A page, never a silent cut: the rest is one command away.
        print(message("approvals_more", terminal_locale(), cursor=next_cursor))
    return 0


async def _decide(conn: AsyncConnection[Any], args: argparse.Namespace) -> int:
    await _require_user(conn, args.as_user)
    decision = await ApprovalService().decide(
        conn, args.id, _OUTCOMES[args.outcome], by=args.as_user, comment=args.comment
    )
    approval = await ApprovalService().get(conn, decision.approval_id)
    assert approval is not None
    if decision.outcome is None:  # a vote towards a quorum: the approval still waits
        approves = sum(1 for vote in approval.votes if vote.vote == "approve")
        print(
            message(
                "approval_vote_counted",
                terminal_locale(),
                approval=approval.id,
                user=args.as_user,
                approves=approves,
                quorum=approval.quorum,
            )
        )
        return 0
    code = {"approved": "approval_decided_approved"}.get(decision.outcome, "approval_decided_rejected")
    print(message(code, terminal_locale(), approval=approval.id, user=args.as_user, run=approval.run_id))
    return 0


async def _run(args: argparse.Namespace, url: str) -> int:
    async with await AsyncConnection.connect(url, autocommit=True) as conn:
        if args.action == "list":
            return await _list(conn, args.as_user, args.after)
        return await _decide(conn, args)


def run_approvals_command(args: argparse.Namespace, url: str) -> int:
    try:
        return asyncio.run(_run(args, url))
    except _UnknownUser as unknown:
        return refuse(code="user_unknown", name=str(unknown))
    except AuditRefused as refused:
        return refuse(refused)
    except DecisionRefused as refused:
        params = {"approval": args.id, "user": args.as_user, **refused.params}
        exit_code = refuse(refused, **params)
        if refused.standing is not None:  # what the API's 409 carries as detail.standing
            print(_standing(refused.standing), file=sys.stderr)
        return exit_code


def _standing(decision: Decision) -> str:
    # Anything but a person's approve or reject (a deadline, a cancel, a failed run) is named by its code.
    code = {"approved": "approval_standing_approved", "rejected": "approval_standing_rejected"}.get(
        decision.outcome or "", "approval_standing_closed"
    )
    at = decision.decided_at.astimezone(UTC)
    return message(code, terminal_locale(), user=decision.decided_by or "", outcome=decision.outcome, at=at)
