"""`flowyard audit verify [--flow ID] [--json] [--public-key KEY] [--since-last]` against the database and
the signed heads (with `--since-last`, only what was added since the last verify: since_last.py),
`flowyard audit verify --file F` against a chain export (GET /api/audit/chain), offline: exit 0 when
intact, 1 with each break. `flowyard audit sign` signs the heads now; `flowyard audit public-key` prints
the key that checks them (signing.py)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import ijson
from ijson.common import ObjectBuilder
from psycopg import AsyncConnection

from backend.approvals.breaks import Break
from backend.approvals.chain import Connect, Links, Record, Verdict, head_breaks, records_to_heads, verify
from backend.approvals.head_signer import sign_heads
from backend.approvals.heads_mail import mailing
from backend.approvals.signing import (
    Signed,
    SigningKeyInvalid,
    existing_key,
    load_key,
    public_key_text,
    read_file,
)
from backend.approvals.since_last import database_now, remember, verify_since_last
from backend.console import coded, refuse, say
from backend.settings import Settings

EXPORT_FORMAT = "flowyard.audit-chain/1"


async def export_pieces(connect: Connect, chain: str | None) -> AsyncIterator[str]:
    """What GET /api/audit/chain sends and `--file` reads, a page of records at a time: the format, every
    record with its hashes, and the heads they end at (read after them: `records_to_heads`)."""
    heads: dict[str, str] = {}
    yield f'{{"format": {json.dumps(EXPORT_FORMAT)}, "records": ['
    between = ""
    async for page in records_to_heads(connect, chain, heads):
        yield between + ", ".join(json.dumps(record.to_json()) for record in page)
        between = ", "
    yield f'], "heads": {json.dumps(heads)}}}'


def _read_export(path: str) -> Verdict | None:
    """A chain export (GET /api/audit/chain) checked as it is read, a record at a time with ijson's C
    parser: a year's is gigabytes, and only each chain's last record is kept. None when the file is no
    chain export: not JSON, another format, no records or heads, or a record not as an export writes it."""
    links, records, seen = Links(), 0, set()
    form: object = None
    heads: dict[str, Any] | None = None
    building: tuple[str, ObjectBuilder] | None = None  # a record or the heads, while its events come
    try:
        with open(path, "rb") as file:
            for prefix, event, value in ijson.parse(file):
                if building is not None:
                    at, builder = building
                    builder.event(event, value)
                    if prefix == at and event == "end_map":
                        building = None
                        if at == "heads":
                            heads = builder.value
                        else:
                            links.add(Record(**builder.value))
                            records += 1
                elif event == "start_map" and prefix in ("heads", "records.item"):
                    building = (prefix, ObjectBuilder())
                    building[1].event(event, value)
                elif prefix == "records.item" or (prefix == "records" and event != "start_array"):
                    if event != "end_array":
                        return None  # a record that is no object, or records that are no list
                elif prefix == "format":
                    form = value
                seen.add(prefix)
    except (OSError, ValueError, TypeError, AttributeError, ijson.JSONError):
        return None
    if form != EXPORT_FORMAT or heads is None or "records" not in seen:
        return None
    named = {str(chain): str(hash_) for chain, hash_ in heads.items()}
    return Verdict(records=records, heads=named, breaks=links.breaks + head_breaks(links, named))


def _say(verdict: Verdict, as_json: bool, since_last: bool = False) -> int:
    if as_json:
        print(
            json.dumps(
                {
                    "intact": verdict.intact,
                    "since_last": since_last,
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
        if since_last:
            say(code="audit_chain_intact_since_last", records=verdict.records, chains=len(verdict.heads))
        else:
            say(code="audit_chain_intact", records=verdict.records, chains=len(verdict.heads))
        return 0
    return refuse(code="audit_chain_broken", breaks=len(verdict.breaks), records=verdict.records)


def _break_line(found: Break) -> str:
    params = {"chain": found.chain, "seq": found.seq or "", "kind": found.kind or ""}
    params["ref"] = found.ref_id or ""
    return coded(code=found.code, **params)


def signed_heads_here(
    settings: Settings, public_keys: list[str] | None = None, path: Path | None = None
) -> tuple[list[Signed], list[Break]] | None:
    """The signed heads file's lines (this machine's, or `path`: an auditor's own copy, the lines of the
    mails), held to `public_keys`, else to the key that signs here and the retired ones; None when there
    is no key (nothing was signed here). Reads a file: call it off the event loop."""
    if public_keys is None:
        key = existing_key(settings.data_dir, settings.signing_key)
        public_keys = [*([] if key is None else [public_key_text(key)]), *settings.retired_signing_keys]
    return read_file(path or settings.signed_heads, public_keys) if public_keys else None


async def _verify(
    url: str,
    settings: Settings,
    flow_id: int | None,
    public_keys: list[str] | None,
    since_last: bool,
    path: Path | None,
) -> Verdict:
    signed = signed_heads_here(settings, public_keys, path)
    retention = settings.approval_retention
    async with await AsyncConnection.connect(url, autocommit=True) as conn:
        if since_last:
            verdict = await verify_since_last(conn, flow_id, retention, signed)
        else:
            started = await database_now(conn)
            verdict = await verify(conn, flow_id, retention, signed)
            await remember(conn, verdict, started)
    if public_keys is not None and signed is not None and not signed[0] and not signed[1]:
        # The auditor's key says heads were signed: a file gone or emptied is a break, not "intact".
        verdict.breaks.append(Break(code="signed_heads_missing", chain=""))
    return verdict


def run_audit_command(args: argparse.Namespace, url: str) -> int:
    try:
        keys = None if args.public_key is None else [key.strip() for key in args.public_key]
        path = None if args.signed_heads is None else Path(args.signed_heads)
        verdict = asyncio.run(_verify(url, args.settings, args.flow, keys, args.since_last, path))
        return _say(verdict, args.json, args.since_last)
    except SigningKeyInvalid as refused:
        return refuse(refused, exit_code=2)


async def _sign(url: str, settings: Settings) -> dict[str, tuple[int, str]]:
    key = load_key(settings.data_dir, settings.signing_key)
    async with await AsyncConnection.connect(url, autocommit=True) as conn:
        return await sign_heads(conn, key, settings.signed_heads, auditors=mailing(settings))


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
