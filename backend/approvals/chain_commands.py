"""`flowyard audit verify [--flow ID] [--json]` against the database, `flowyard audit verify --file F`
against a chain export (GET /api/audit/chain), offline: exit 0 when intact, 1 with each break."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from psycopg import AsyncConnection

from backend.approvals.chain import Break, Record, Verdict, check_links, verify
from backend.console import refuse
from backend.i18n.catalogs import message
from backend.i18n.terminal import terminal_locale

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
                }
            )
        )
        return 0 if verdict.intact else 1
    for name, head in sorted(verdict.heads.items()):
        print(message("audit_chain_head", terminal_locale(), chain=name, hash=head))
    for found in verdict.breaks:
        print(_break_line(found), file=sys.stderr)
    if verdict.intact:
        print(
            message(
                "audit_chain_intact", terminal_locale(), records=verdict.records, chains=len(verdict.heads)
            )
        )
        return 0
    return refuse(code="audit_chain_broken", breaks=len(verdict.breaks), records=verdict.records)


def _break_line(found: Break) -> str:
    params = {"chain": found.chain, "seq": found.seq or "", "kind": found.kind or ""}
    params["ref"] = found.ref_id or ""
    return f"{message(found.code, terminal_locale(), **params)} ({found.code})"


async def _verify(url: str, flow_id: int | None) -> Verdict:
    from backend.queue.sweep import approval_retention_from_env

    async with await AsyncConnection.connect(url, autocommit=True) as conn:
        return await verify(conn, flow_id, approval_retention_from_env())


def run_audit_command(args: argparse.Namespace, url: str) -> int:
    return _say(asyncio.run(_verify(url, args.flow)), args.json)


def run_offline_verify(args: argparse.Namespace) -> int:
    verdict = _read_export(args.file)
    if verdict is None:
        return refuse(code="audit_chain_export_invalid", file=args.file)
    return _say(verdict, args.json)
