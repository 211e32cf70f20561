"""`flowyard audit verify [--flow ID] [--json] [--public-key KEY]` against the database and the signed
heads, `flowyard audit verify --file F` against a chain export (GET /api/audit/chain), offline: exit 0 when
intact, 1 with each break. `flowyard audit sign` signs the heads now; `flowyard audit public-key` prints
the key that checks them (signing.py)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from psycopg import AsyncConnection

from backend.approvals.chain import Break, Record, Verdict, check_links, verify
from backend.approvals.head_signer import sign_heads
from backend.approvals.signing import (
    Signed,
    SigningKeyInvalid,
    existing_key,
    load_key,
    public_key_text,
    read_file,
)
from backend.console import coded, refuse, say
from backend.settings import Settings

EXPORT_FORMAT = "flowyard.audit-chain/1"


def export_document(records: list[Record], heads: dict[str, str]) -> dict[str, Any]:
    """What GET /api/audit/chain returns and `--file` reads: every record with its hashes, and the heads."""
    return {"format": EXPORT_FORMAT, "records": [r.to_json() for r in records], "heads": heads}


def _read_export(path: str) -> Verdict | None:
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
        if document.get("format") != EXPORT_FORMAT:
            return None
        records = [Record(**record) for record in document["records"]]
        heads = {str(k): str(v) for k, v in document["heads"].items()}
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None
    return Verdict(records=len(records), heads=heads, breaks=check_links(records, heads))


def _say(verdict: Verdict, as_json: bool) -> int:
    if as_json:
        print(
            json.dumps(
                {
                    "intact": verdict.intact,
                    "records": verdict.records,
                    "swept": verdict.swept,
                    "heads": verdict.heads,
                    "breaks": [b.to_json() for b in verdict.breaks],
                    "signed": verdict.signed,
                    "signed_at": verdict.signed_at,
                }
            )
        )
        return 0 if verdict.intact else 1
    for name, head in sorted(verdict.heads.items()):
        say(code="audit_chain_head", chain=name, hash=head)
    if verdict.signed and verdict.signed_at:
        at = datetime.fromisoformat(verdict.signed_at)
        at = at if at.tzinfo is not None else at.replace(tzinfo=UTC)  # a line written as UTC
        say(code="audit_signed_heads_checked", lines=verdict.signed, at=at)
    for found in verdict.breaks:
        print(_break_line(found), file=sys.stderr)
    if verdict.intact:
        say(code="audit_chain_intact", records=verdict.records, chains=len(verdict.heads))
        return 0
    return refuse(code="audit_chain_broken", breaks=len(verdict.breaks), records=verdict.records)


def _break_line(found: Break) -> str:
    params = {"chain": found.chain, "seq": found.seq or "", "kind": found.kind or ""}
    params["ref"] = found.ref_id or ""
    return coded(code=found.code, **params)


def signed_heads_here(
    settings: Settings, public_key: str | None = None
) -> tuple[list[Signed], list[Break]] | None:
    """The signed heads file's lines, held to `public_key`, else to the key that signs here; None when
    there is no key (nothing was signed here). Reads a file: call it off the event loop."""
    if public_key is None:
        key = existing_key(settings.data_dir, settings.signing_key)
        public_key = None if key is None else public_key_text(key)
    return None if public_key is None else read_file(settings.signed_heads, public_key)


async def _verify(url: str, settings: Settings, flow_id: int | None, public_key: str | None) -> Verdict:
    signed = signed_heads_here(settings, public_key)
    async with await AsyncConnection.connect(url, autocommit=True) as conn:
        verdict = await verify(conn, flow_id, settings.approval_retention, signed)
    if public_key is not None and signed is not None and not signed[0] and not signed[1]:
        # The auditor's key says heads were signed: a file gone or emptied is a break, not "intact".
        verdict.breaks.append(Break(code="signed_heads_missing", chain=""))
    return verdict


def run_audit_command(args: argparse.Namespace, url: str) -> int:
    try:
        return _say(asyncio.run(_verify(url, args.settings, args.flow, args.public_key)), args.json)
    except SigningKeyInvalid as refused:
        return refuse(refused, exit_code=2)


async def _sign(url: str, settings: Settings) -> dict[str, tuple[int, str]]:
    key = load_key(settings.data_dir, settings.signing_key)
    async with await AsyncConnection.connect(url, autocommit=True) as conn:
        return await sign_heads(conn, key, settings.signed_heads)


def run_sign_command(args: argparse.Namespace, url: str) -> int:
    """Sign every chain's head now, even when the file's last line holds the same heads."""
    try:
        heads = asyncio.run(_sign(url, args.settings))
    except SigningKeyInvalid as refused:
        return refuse(refused, exit_code=2)
    if not heads:
        say(code="audit_signed_nothing")
        return 0
    say(code="audit_signed_heads", chains=len(heads), file=str(args.settings.signed_heads))
    return 0


def run_key_command(args: argparse.Namespace) -> int:
    """The public key auditors keep, to check the signed heads with (made with the key on first use)."""
    try:
        print(public_key_text(load_key(args.settings.data_dir, args.settings.signing_key)))
    except SigningKeyInvalid as refused:
        return refuse(refused, exit_code=2)
    return 0


def run_offline_verify(args: argparse.Namespace) -> int:
    verdict = _read_export(args.file)
    if verdict is None:
        return refuse(code="audit_chain_export_invalid", file=args.file)
    return _say(verdict, args.json)
