"""Checking an evidence file with the public key alone, no database (`flowyard audit check-evidence`).

In order, each failure with its reason code (and the part it is in, translated, where there is one):
the file must be an evidence file (`evidence_invalid`); each part and the rendering must match the
digest the manifest gives (`evidence_part_changed`); the manifest must name one of the public keys given
(rotated keys: docs/audit.md; `evidence_unknown_key`) and its signature must hold with it
(`evidence_signature_invalid`); the chain span must link record to record, hold the approval's decision,
and end at the head the signed line gives, whose signature must hold too (`evidence_chain_broken`).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from backend.approvals.chain import GENESIS, link
from backend.approvals.evidence import FORMAT, PARTS, canonical, digest
from backend.approvals.evidence_page import assemble, split
from backend.approvals.signing import Signed, key_id, read_line


@dataclass(frozen=True, slots=True)
class Problem:
    code: str
    part: str | None = None  # a part's name (PARTS, or "rendering")


@dataclass(slots=True)
class Outcome:
    approval: int | None = None
    problems: list[Problem] = field(default_factory=list)


def check(page: bytes, public_keys: Collection[str]) -> Outcome:
    """What is wrong with an evidence file, held to `public_keys` (base64, as `audit public-key` prints
    them): the one it was signed with must be among them."""
    try:
        rendering, data = split(page)
        body, signature, parts = data["manifest"], bytes.fromhex(data["signature"]), data["parts"]
        if body.get("format") != FORMAT or not isinstance(parts, dict):
            raise ValueError(body.get("format"))
    except (ValueError, TypeError, KeyError, AttributeError):
        return Outcome(problems=[Problem(code="evidence_invalid")])
    outcome = Outcome(approval=body.get("approval") if isinstance(body.get("approval"), int) else None)
    digests = body.get("parts") if isinstance(body.get("parts"), dict) else {}
    for name in PARTS:
        if name not in parts or digests.get(name) != digest(parts[name]):
            outcome.problems.append(Problem(code="evidence_part_changed", part=name))
    # The page as written must be the page its data makes: "<\/" written back as "</" parses to the same
    # data but ends the data block early in a browser, which would then show markup of someone's choosing.
    if body.get("rendering") != hashlib.sha256(rendering).hexdigest() or page != assemble(rendering, data):
        outcome.problems.append(Problem(code="evidence_part_changed", part="rendering"))
    refused = _refused(body, signature, public_keys)
    if refused is not None:
        outcome.problems.append(refused)
    if not outcome.problems and not _chain_holds(parts, outcome.approval, public_keys):
        outcome.problems.append(Problem(code="evidence_chain_broken", part="chain"))
    return outcome


def _refused(body: dict[str, Any], signature: bytes, public_keys: Collection[str]) -> Problem | None:
    """Why the manifest's signature does not hold with the keys given; None when it holds."""
    public_key = body.get("public_key")
    if not isinstance(public_key, str) or public_key not in public_keys:
        return Problem(code="evidence_unknown_key")
    try:
        if body.get("key_id", key_id(public_key)) != key_id(public_key):
            raise ValueError(body.get("key_id"))
        key = Ed25519PublicKey.from_public_bytes(base64.b64decode(public_key, validate=True))
        key.verify(signature, canonical(body))
    except (ValueError, binascii.Error, InvalidSignature):
        return Problem(code="evidence_signature_invalid")
    return None


def _chain_holds(parts: dict[str, Any], approval: int | None, public_keys: Collection[str]) -> bool:
    """The span links, holds the approval's decision, and ends at the signed line's head of its chain."""
    try:
        chain, records = parts["chain"]["chain"], parts["chain"]["records"]
        signed = read_line(parts["signed_head"], public_keys)
        if not isinstance(signed, Signed) or not records or chain not in signed.heads:
            return False
        previous = records[0]["prev_hash"]
        seq = records[0]["seq"] - 1
        decided = False
        for record in records:
            if record["chain"] != chain or record["seq"] != seq + 1 or record["prev_hash"] != previous:
                return False
            if record["hash"] != link(record["prev_hash"], record["content"]):
                return False
            decided |= record["kind"] == "decision" and record["ref_id"] == approval
            previous, seq = record["hash"], record["seq"]
        if records[0]["seq"] == 1 and records[0]["prev_hash"] != GENESIS:
            return False
        return decided and signed.heads[chain] == (seq, previous)
    except (TypeError, KeyError, AttributeError):
        return False
