"""`flowyard policy show` and `flowyard policy set self_approval per_node|never`: the installation's
policies at the database, as admins set them over the API (backend/approvals/four_eyes.py). The terminal
holds the database's credentials and sets them as `cli`."""

from __future__ import annotations

import argparse
import asyncio

from psycopg import AsyncConnection

from backend.approvals.four_eyes import SelfApprovalPolicy, self_approval_policy, set_self_approval_policy
from backend.console import locale
from backend.i18n.catalogs import message

OPERATOR = "cli"


def policy_command(args: argparse.Namespace, url: str) -> int:
    return asyncio.run(_policy(url, args.action, getattr(args, "value", None)))


async def _policy(url: str, action: str, value: str | None) -> int:
    async with await AsyncConnection.connect(url, autocommit=True) as conn:
        if action == "set":
            assert value is not None  # argparse requires it
            policy = await set_self_approval_policy(conn, value, by=OPERATOR)
        else:
            policy = await self_approval_policy(conn)
    print(describe(policy, locale()))
    return 0


def describe(policy: SelfApprovalPolicy, locale: str) -> str:
    """The policy as a sentence, and who set it when.

    Examples:
        >>> describe(SelfApprovalPolicy(), "en")
        'Self-approval: each approval node says whether the people of its own run may decide it.'
    """
    code = {"never": "policy_self_approval_never"}.get(policy.value, "policy_self_approval_per_node")
    sentence = message(code, locale)
    if policy.set_by is None or policy.set_at is None:
        return sentence
    return sentence + " " + message("policy_set_by", locale, by=policy.set_by, at=policy.set_at)
