"""Signed chain heads: the chains' heads, signed with a key the database never holds, kept in a file.

The chain proves that no record changed as long as the database is trusted. A superuser who rewrites a
whole chain consistently, or a restore of an older backup, leaves a chain that verifies on its own. A
signed head is each chain's last (seq, hash) at a moment, signed with an Ed25519 key from the data folder
(or `FLOWYARD_SIGNING_KEY`) and appended as one line to `signed-heads.jsonl` (or
`FLOWYARD_SIGNED_HEADS`). `audit verify` then holds the database to every line: a record at a signed seq
whose hash differs is `chain_head_mismatch` (rewritten), a chain shorter than a signed seq is
`chain_rolled_back` (an older backup), and a line whose signature does not hold, or that another key
signed, is `signed_heads_invalid`. An auditor keeps the public key (`flowyard audit public-key`) and copies
of the file elsewhere; docs/approvals.md says how.

Keys are rotated (docs/audit.md): each line names its key (`public_key`, and `key_id`, the first 16 hex
digits of the key's SHA-256), and a line holds when any key known to the reader signed it: the signing
key's, the retired ones kept for verifying (`FLOWYARD_RETIRED_SIGNING_KEYS`), or the auditor's
`--public-key`s. A line that names another key is `signed_heads_unknown_key`.

Examples:
    >>> key = Ed25519PrivateKey.from_private_bytes(bytes(32))
    >>> line = sign({"flow:1": (2, "ab" * 32)}, key, "2026-12-02T12:00:00Z")
    >>> signed = read_line(line, [public_key_text(key)])
    >>> signed.heads == {"flow:1": (2, "ab" * 32)}, signed.signed_at, signed.key_id == key_id(key)
    (True, '2026-12-02T12:00:00Z', True)
    >>> read_line(line.replace('"seq":2', '"seq":3'), [public_key_text(key)]).code
    'signed_heads_invalid'
    >>> other = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    >>> read_line(line, [public_key_text(other)]).code
    'signed_heads_unknown_key'
    >>> [b.code for b in check_signed([signed], {("flow:1", 2): "cd" * 32}, {"flow:1": 2})]
    ['chain_head_mismatch']
    >>> [b.code for b in check_signed([signed], {}, {"flow:1": 1})]
    ['chain_rolled_back']
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import stat
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from backend.approvals.breaks import Break
from backend.errors import CodedError

FORMAT = "flowyard.signed-heads/1"
KEY_FILE = "signing.key"
HEADS_FILE = "signed-heads.jsonl"

Heads = Mapping[str, tuple[int, str]]  # chain -> (seq, hash) of its last record


class SigningKeyInvalid(CodedError):
    """The signing key cannot be read, or others may read it."""


@dataclass(frozen=True, slots=True)
class Refused:
    """A line of the signed heads file that does not hold, and why."""

    code: str


@dataclass(frozen=True, slots=True)
class Signed:
    """One line of the signed heads file whose signature holds."""

    number: int  # its line in the file, from 1
    signed_at: str
    heads: dict[str, tuple[int, str]]
    key_id: str


def _canonical(document: Mapping[str, Any]) -> bytes:
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def public_key_text(key: Ed25519PrivateKey | Ed25519PublicKey) -> str:
    """The public key as auditors keep it: its 32 raw bytes in base64."""
    public = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    return base64.b64encode(public.public_bytes(Encoding.Raw, PublicFormat.Raw)).decode()


def key_id(key: Ed25519PrivateKey | Ed25519PublicKey | str) -> str:
    """A key's short name, as lines and evidence files give it: the first 16 hex digits of the SHA-256 of
    its 32 raw public bytes."""
    text = key if isinstance(key, str) else public_key_text(key)
    return hashlib.sha256(base64.b64decode(text)).hexdigest()[:16]


def sign(heads: Heads, key: Ed25519PrivateKey, signed_at: str) -> str:
    """One line of the file: the heads, when, the public key and its id, and the signature over the rest."""
    body = {
        "format": FORMAT,
        "signed_at": signed_at,
        "heads": {chain: {"seq": seq, "hash": hash_} for chain, (seq, hash_) in sorted(heads.items())},
        "public_key": public_key_text(key),
        "key_id": key_id(key),
    }
    signature = base64.b64encode(key.sign(_canonical(body))).decode()
    return json.dumps({**body, "signature": signature}, sort_keys=True, separators=(",", ":"))


def read_line(line: str, public_keys: Collection[str], number: int = 1) -> Signed | Refused:
    """The line's heads when it is a signed heads line that one of `public_keys` signed; else the reason
    code: `signed_heads_unknown_key` when it names another key, `signed_heads_invalid` when it does not
    hold. A line from before key ids (no `key_id`) is read by its public key alone."""
    try:
        document = json.loads(line)
        signature = base64.b64decode(document.pop("signature"), validate=True)
        public_key = document.get("public_key")
        if document.get("format") != FORMAT or not isinstance(public_key, str):
            return Refused(code="signed_heads_invalid")
        if public_key not in public_keys:
            return Refused(code="signed_heads_unknown_key")
        if document.get("key_id", key_id(public_key)) != key_id(public_key):
            return Refused(code="signed_heads_invalid")
        key = Ed25519PublicKey.from_public_bytes(base64.b64decode(public_key, validate=True))
        key.verify(signature, _canonical(document))
        heads = {
            str(chain): (int(head["seq"]), str(head["hash"])) for chain, head in document["heads"].items()
        }
        return Signed(number, str(document["signed_at"]), heads, key_id(public_key))
    except (ValueError, TypeError, KeyError, AttributeError, binascii.Error, InvalidSignature):
        return Refused(code="signed_heads_invalid")


def check_signed(
    signed: Iterable[Signed], hashes: Mapping[tuple[str, int], str], last: Mapping[str, int]
) -> list[Break]:
    """Each signed head the database contradicts: `hashes` are the records' (chain, seq) -> hash, `last`
    each chain's last seq (a chain with no record: absent)."""
    breaks = []
    for line in signed:
        for chain, (seq, hash_) in sorted(line.heads.items()):
            if last.get(chain, 0) < seq:
                breaks.append(Break(code="chain_rolled_back", chain=chain, seq=seq))
            elif hashes.get((chain, seq)) != hash_:
                breaks.append(Break(code="chain_head_mismatch", chain=chain, seq=seq))
    return breaks


def read_file(path: Path, public_keys: Collection[str]) -> tuple[list[Signed], list[Break]]:
    """The file's lines that hold, and a break for each that does not (read_line's reason code)."""
    if not path.exists():
        return [], []
    signed, breaks = [], []
    text = path.read_text(encoding="utf-8")
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        found = read_line(line, public_keys, number)
        if isinstance(found, Signed):
            signed.append(found)
        else:
            breaks.append(Break(code=found.code, chain="", seq=number))
    return signed, breaks


def append(path: Path, line: str) -> None:
    """Add a line at the end, in one write, on disk before returning (several workers may sign)."""
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(descriptor, (line + "\n").encode())
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def signed_so_far(path: Path) -> dict[str, tuple[int, str]]:
    """Each chain's latest head over the file's lines, unchecked: only to sign no head twice."""
    heads: dict[str, tuple[int, str]] = {}
    if not path.exists():
        return heads
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            for chain, head in json.loads(line)["heads"].items():
                heads[str(chain)] = (int(head["seq"]), str(head["hash"]))
        except (ValueError, TypeError, KeyError, AttributeError):
            continue
    return heads


def existing_key(data_dir: Path, given: str | None = None) -> Ed25519PrivateKey | None:
    """The signing key when there is one (`load_key`), None when nothing has signed here yet."""
    if (given or "").strip() or (data_dir / KEY_FILE).exists():
        return load_key(data_dir, given)
    return None


def load_key(data_dir: Path, given: str | None = None) -> Ed25519PrivateKey:
    """The signing key `given` (FLOWYARD_SIGNING_KEY: its 32 raw bytes in base64), else the data folder's
    key file, made with mode 0600 on first use."""
    text = (given or "").strip()
    if not text:
        path = data_dir / KEY_FILE
        if not path.exists():
            _create(path)
        if path.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise SigningKeyInvalid(code="signing_key_readable", file=str(path))
        text = path.read_text(encoding="utf-8").strip()
    try:
        return Ed25519PrivateKey.from_private_bytes(base64.b64decode(text, validate=True))
    except (ValueError, binascii.Error):
        raise SigningKeyInvalid(code="signing_key_invalid") from None


def _create(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    seed = base64.b64encode(os.urandom(32)).decode()
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first: its key is the key
        return
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(seed + "\n")
