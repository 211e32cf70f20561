"""`flowyard audit evidence APPROVAL [--output FILE]` writes the evidence for one decision;
`flowyard audit check-evidence FILE --public-key KEY [--public-key KEY ...]` checks one without the
database, with any of the keys given (evidence.py)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

from psycopg import AsyncConnection

from backend.approvals.evidence import EvidenceRefused, gather, manifest
from backend.approvals.evidence_check import check
from backend.approvals.evidence_page import assemble, render
from backend.approvals.heads_mail import mailing
from backend.approvals.signing import SigningKeyInvalid, load_key
from backend.console import coded, locale, refuse, say
from backend.i18n.catalogs import message
from backend.settings import Settings


async def make(
    conn: AsyncConnection[Any], settings: Settings, approval_id: int, locale: str, made_by: str | None
) -> bytes:
    """The evidence file for a decided approval, in `locale`; signs with the data folder's key (or
    FLOWYARD_SIGNING_KEY), which must be the key the workers sign the heads with."""
    key = await asyncio.to_thread(load_key, settings.data_dir, settings.signing_key)
    parts = await gather(conn, approval_id, key, settings.signed_heads, mailing(settings))
    rendering = render(parts, locale)
    return assemble(rendering, {**manifest(approval_id, parts, rendering, key, made_by), "parts": parts})


async def _make(url: str, settings: Settings, approval_id: int, locale: str) -> bytes:
    async with await AsyncConnection.connect(url, autocommit=True) as conn:
        return await make(conn, settings, approval_id, locale, None)


def run_evidence_command(args: argparse.Namespace, url: str) -> int:
    try:
        page = asyncio.run(_make(url, args.settings, args.approval, locale()))
    except (EvidenceRefused, SigningKeyInvalid) as refused:
        return refuse(refused)
    path = Path(args.output or f"evidence-{args.approval}.html")
    path.write_bytes(page)
    say(code="evidence_written", approval=args.approval, file=str(path))
    return 0


def run_check_command(args: argparse.Namespace) -> int:
    speaking = locale()
    try:
        page = Path(args.file).read_bytes()
    except OSError:
        return refuse(code="evidence_invalid", file=args.file)
    outcome = check(page, [key.strip() for key in args.public_key])
    parts = {
        "chain": message("evidence_part_chain", speaking),
        "signed_head": message("evidence_part_signed_head", speaking),
        "run": message("evidence_part_run", speaking),
        "flow": message("evidence_part_flow", speaking),
        "rights": message("evidence_part_rights", speaking),
        "rendering": message("evidence_part_rendering", speaking),
    }
    for problem in outcome.problems:
        part = parts.get(problem.part or "", "")
        print(coded(code=problem.code, file=args.file, part=part), file=sys.stderr)
    if outcome.problems:
        return 1
    say(code="evidence_intact", approval=outcome.approval, file=args.file)
    return 0
