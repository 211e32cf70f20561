"""Evidence for one decision: one self-contained file an auditor can check with the public key alone.

The file is an HTML page (evidence_page.py renders it in the reader's language) that carries its data in
one JSON block: five **parts**, a **manifest** naming each part's SHA-256 (and the rendering's), and the
manifest's Ed25519 signature, made with the key that signs the chains' heads (signing.py):

- `chain`: the chain records from the approval's first vote (or its decision) to a signed head, content
  and hashes: they prove the question as the approver saw it (title, explanation, the values shown), who
  decided, when, with what comment, on whose behalf, and every vote;
- `signed_head`: the signed heads line whose head ends that span, signed when the workers (or `flowyard
  audit sign`, or the making of this evidence when no line covered it yet) signed it;
- `run`: the run's record for auditors: who started it and when, its input (credentials masked) or its
  digest when the input was not kept;
- `flow`: the flow version's document as saved, with its digest;
- `rights`: the chained rights changes about each person who decided or voted (and whom they decided
  for) up to the decision, and the rights they held then.

evidence_check.py checks a file: each part against its digest (a changed part is named), the manifest's
signature, and the chain span up to the signed head. Records between the decision and the head are other
records of the same flow's chain, content included: the evidence shows them to whoever may audit that flow.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from psycopg import AsyncConnection

from backend.approvals.chain import Record
from backend.approvals.head_signer import sign_heads
from backend.approvals.heads_mail import Auditors
from backend.approvals.signing import Signed, key_id, public_key_text, read_line, signed_so_far
from backend.errors import CodedError
from backend.store.queries import every, load
from backend.walker.redact import mask_credentials

QUERIES = load("backend.approvals", "evidence.sql")
FORMAT = "flowyard.evidence/1"
PARTS = ("chain", "signed_head", "run", "flow", "rights")


class EvidenceRefused(CodedError):
    """No evidence for this approval: unknown, or not decided."""

    status = 404


@dataclass(frozen=True, slots=True)
class _Approval:
    id: int
    flow_id: int
    version: int
    run_id: int
    outcome: str | None
    decided_by: str | None
    on_behalf_of: str | None
    decided_at: datetime | None


@dataclass(frozen=True, slots=True)
class _Run:
    run_id: int
    trigger_kind: str
    started_by: str | None
    started_at: datetime
    status: str
    input_digest: str
    input_kept: bool
    input: Any


@dataclass(frozen=True, slots=True)
class _Version:
    name: str
    document: dict[str, Any]
    created_at: datetime
    created_by: str | None


def canonical(value: Any) -> bytes:
    """The bytes a digest or a signature is computed over: JSON, keys sorted, no spaces."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def digest(value: Any) -> str:
    return hashlib.sha256(canonical(value)).hexdigest()


def utc(moment: datetime | None) -> str | None:
    return None if moment is None else moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


async def gather(
    conn: AsyncConnection[Any],
    approval_id: int,
    key: Ed25519PrivateKey,
    heads_file: Path,
    auditors: Auditors | None = None,
) -> dict[str, Any]:
    """The five parts for a decided approval; signs the heads first when no signed line covers its
    records yet (the records of a decision taken since the last signing)."""
    found = await every(conn, _Approval, QUERIES["evidence_approval"], {"approval": approval_id})
    if not found or found[0].outcome is None or found[0].decided_at is None:
        raise EvidenceRefused(code="evidence_not_decided", approval=approval_id)
    approval = found[0]
    own = await every(conn, Record, QUERIES["evidence_records_of"], {"approval": approval_id})
    chain = f"flow:{approval.flow_id}"
    own = [record for record in own if record.chain == chain]
    if not any(record.kind == "decision" for record in own):
        raise EvidenceRefused(code="evidence_not_decided", approval=approval_id)
    first, last = own[0].seq, own[-1].seq
    head = await _signed_head(conn, key, heads_file, chain, last, auditors)
    span = await every(
        conn,
        Record,
        QUERIES["evidence_chain_span"],
        {"chain": chain, "first": first, "last": head[1].heads[chain][0]},
    )
    voters = [json.loads(r.content) for r in own if r.kind == "vote"]
    people = {approval.decided_by, approval.on_behalf_of, *(v.get("voter") for v in voters)}
    people |= {v.get("on_behalf_of") for v in voters}
    users = sorted(name for name in people if name)
    rights = await every(
        conn, Record, QUERIES["evidence_rights_records"], {"users": users, "at": approval.decided_at}
    )
    return {
        "chain": {"chain": chain, "approval": approval_id, "records": [r.to_json() for r in span]},
        "signed_head": head[0],
        "run": await _run(conn, approval.run_id),
        "flow": await _flow(conn, approval.flow_id, approval.version),
        "rights": {"users": users, "at": utc(approval.decided_at), "records": [r.to_json() for r in rights]},
    }


async def _signed_head(
    conn: AsyncConnection[Any],
    key: Ed25519PrivateKey,
    path: Path,
    chain: str,
    seq: int,
    auditors: Auditors | None,
) -> tuple[str, Signed]:
    """The first signed line whose head of `chain` is at or after `seq`, and its text (the file read once
    per look: a worker may append to it meanwhile)."""
    public_key = public_key_text(key)
    for attempt in range(2):
        text = await asyncio.to_thread(_text_of, path)
        for number, line in enumerate(text.splitlines(), start=1):
            signed = read_line(line, [public_key], number) if line.strip() else None
            if isinstance(signed, Signed) and signed.heads.get(chain, (0, ""))[0] >= seq:
                return line, signed
        if attempt == 0:
            so_far = await asyncio.to_thread(signed_so_far, path)
            await sign_heads(conn, key, path, so_far, auditors, send=False)
    raise EvidenceRefused(code="evidence_not_signed", chain=chain)


def _text_of(path: Path) -> str:
    return path.read_text(encoding="utf-8") if path.exists() else ""


async def _run(conn: AsyncConnection[Any], run_id: int) -> dict[str, Any]:
    found = await every(conn, _Run, QUERIES["evidence_run"], {"run": run_id})
    if not found:
        return {"run": run_id, "kept": False}
    run = found[0]
    value, masked = mask_credentials(run.input) if run.input_kept else (None, False)
    return {
        "run": run_id,
        "kept": True,
        "trigger": run.trigger_kind,
        "started_by": run.started_by,
        "started_at": utc(run.started_at),
        "status": run.status,
        "input_digest": run.input_digest,
        "input_kept": run.input_kept,
        "input": value,
        "input_masked": masked,
    }


async def _flow(conn: AsyncConnection[Any], flow_id: int, version: int) -> dict[str, Any]:
    found = await every(
        conn, _Version, QUERIES["evidence_flow_version"], {"flow": flow_id, "version": version}
    )
    if not found:
        return {"flow": flow_id, "version": version, "kept": False}
    saved = found[0]
    return {
        "flow": flow_id,
        "name": saved.name,
        "version": version,
        "kept": True,
        "saved_at": utc(saved.created_at),
        "saved_by": saved.created_by,
        "document": saved.document,
        "digest": digest(saved.document),
    }


def rights_then(records: list[dict[str, Any]], user: str) -> list[tuple[str, int | None]]:
    """The rights `user` held after `records` (chained rights changes, in order): (right, flow or None).

    Examples:
        >>> changes = [{"user": "ann", "change": "granted", "right": "decide", "flow": None},
        ...            {"user": "ann", "change": "granted", "right": "audit", "flow": 3},
        ...            {"user": "ann", "change": "revoked", "right": "decide", "flow": None}]
        >>> rights_then([{"content": json.dumps(c)} for c in changes], "ann")
        [('audit', 3)]
    """
    held: list[tuple[str, int | None]] = []
    for record in records:
        change = json.loads(record["content"])
        if change.get("user") != user or change.get("server") is not None:
            continue
        right = (str(change.get("right")), change.get("flow"))
        if change.get("change") == "granted" and right not in held:
            held.append(right)
        elif change.get("change") == "revoked" and right in held:
            held.remove(right)
        elif change.get("change") == "user_removed":
            held.clear()
    return held


def manifest(
    approval_id: int, parts: dict[str, Any], rendering: bytes, key: Ed25519PrivateKey, made_by: str | None
) -> dict[str, Any]:
    """The manifest of `parts` and the rendering, and its signature."""
    body = {
        "format": FORMAT,
        "approval": approval_id,
        "made_at": utc(datetime.now(UTC)),
        "made_by": made_by,
        "parts": {name: digest(parts[name]) for name in PARTS},
        "rendering": hashlib.sha256(rendering).hexdigest(),
        "public_key": public_key_text(key),
        "key_id": key_id(key),
    }
    return {"manifest": body, "signature": key.sign(canonical(body)).hex()}
