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
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

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
    # The opening goes out with the first page (or with the heads, when there is none): the first piece
    # is made before the answer starts, so a failure to read it is an error answer, not a 200 cut short
    # (downloads.streamed_json).
    opening, first = f'{{"format": {json.dumps(EXPORT_FORMAT)}, "records": [', True
    async for page in records_to_heads(connect, chain, heads):
        records = ", ".join(json.dumps(record.to_json()) for record in page)
        yield (opening if first else ", ") + records
        first = False
    yield (opening if first else "") + f'], "heads": {json.dumps(heads)}}}'


def _read_export(path: str) -> Verdict | None:
    """A chain export (GET /api/audit/chain) checked as it is read, a record at a time with ijson's C
    parser: a year's is gigabytes, and only each chain's last record is kept. None when the file is no
    chain export (`_exported`)."""
    import ijson  # here, not at the top: the API imports this module and never reads a file

    try:
        with open(path, "rb") as file:
            return _exported(iter(ijson.basic_parse(file)))
    except (OSError, ValueError, TypeError, AttributeError, ijson.JSONError):
        return None


# What ijson calls a value that is neither an object nor a list.
_SCALARS = frozenset({"string", "number", "integer", "double", "boolean", "null"})
_END = ("end", None)


def _exported(events: Iterator[tuple[str, Any]]) -> Verdict | None:
    """The export's events checked against its shape, one record at a time: an object of `format` (the
    export's), `records` (a list of objects whose fields are values) and `heads` (an object of texts),
    each once, in any order, and nothing else. Anything else is None: read no further, so a file nested
    a hundred thousand deep costs nothing."""
    if next(events, _END) != ("start_map", None):
        return None
    links, records, form, heads = Links(), 0, None, None
    seen: set[str] = set()
    for event, key in events:
        if event == "end_map":
            break
        if event != "map_key" or key in seen:
            return None
        seen.add(key)
        if key == "format":
            form = next(events, _END)[1]
        elif key == "records":
            if next(events, _END) != ("start_array", None):
                return None
            for event, _ in events:
                if event == "end_array":
                    break
                fields = _flat(events) if event == "start_map" else None
                if fields is None:
                    return None
                links.add(Record(**fields))
                records += 1
        elif key == "heads" and next(events, _END) == ("start_map", None):
            heads = _flat(events)
        else:
            return None
    if next(events, None) is not None or form != EXPORT_FORMAT or "records" not in seen or heads is None:
        return None
    if not all(isinstance(head, str) for head in heads.values()):
        return None
    return Verdict(records=records, heads=heads, breaks=links.breaks + head_breaks(links, heads))


def _flat(events: Iterator[tuple[str, Any]]) -> dict[str, Any] | None:
    """The rest of an object whose start was read: its keys and values, or None when a value is an object
    or a list, or a key comes twice."""
    found: dict[str, Any] = {}
    for event, key in events:
        if event == "end_map":
            return found
        kind, value = next(events, _END)
        if event != "map_key" or key in found or kind not in _SCALARS:
            return None
        found[key] = value
    return None


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
