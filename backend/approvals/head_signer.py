"""Signing the chains' heads on demand (`flowyard audit sign`) and at an interval (every worker).

A worker signs every `FLOWYARD_SIGN_HEADS_MINUTES` (60 by default; 0: only on demand) the heads that
moved since they were last signed, so a line is as long as the hour was busy and a quiet night adds none.
Several workers sharing a data folder may each sign the same heads once: a duplicate is harmless, and each
line is one write. `flowyard audit sign` signs every head, moved or not. With an auditors' address, each
line is also mailed (heads_mail.py): queued as it is signed, sent after.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

from backend.approvals.chain import QUERIES
from backend.approvals.heads_mail import Auditors, mailing, queue_line, send_due
from backend.approvals.signing import append, load_key, sign, signed_so_far
from backend.settings import Settings
from backend.store.queries import every

log = logging.getLogger(__name__)

DEFAULT_EVERY_MINUTES = 60.0


@dataclass(frozen=True, slots=True)
class _Head:
    chain: str
    seq: int
    hash: str


async def sign_heads(
    conn: AsyncConnection[Any],
    key: Ed25519PrivateKey,
    path: Path,
    signed: dict[str, tuple[int, str]] | None = None,
    auditors: Auditors | None = None,
    *,
    send: bool = True,
) -> dict[str, tuple[int, str]]:
    """Sign the heads as they are now that differ from `signed` (None: every head) and append the line,
    queued for `auditors` too; then, with `send`, send what the auditors' outbox holds that is due (an
    evidence download only queues: its request never waits on an SMTP server, the worker's signer sends).
    The heads the line holds (none: nothing moved, no line written). `signed` is brought up to date."""
    now = {h.chain: (h.seq, h.hash) for h in await every(conn, _Head, QUERIES["chain_heads_to_sign"], {})}
    moved = {chain: head for chain, head in now.items() if signed is None or signed.get(chain) != head}
    if moved:
        moment = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        line = sign(moved, key, moment)
        await asyncio.to_thread(append, path, line)
        if auditors is not None:
            await queue_line(conn, line)
        if signed is not None:
            signed.update(moved)
    if auditors is not None and send:
        await send_due(conn, auditors)  # a line whose try failed before goes again, moved or not
    return moved


class HeadSigner:
    """The worker's signer: signs at its interval until `stop` is set."""

    def __init__(
        self,
        pool: AsyncConnectionPool[Any],
        key: Ed25519PrivateKey,
        path: Path,
        every_s: float,
        auditors: Auditors | None = None,
    ) -> None:
        self.pool, self.key, self.path, self.every_s = pool, key, path, every_s
        self.auditors = auditors

    async def run(self, stop: asyncio.Event) -> None:
        # The first signing is an interval after the start: a process restarted often signs no more.
        signed: dict[str, tuple[int, str]] | None = None
        while not await _stopped(stop, self.every_s):
            try:
                if signed is None:
                    signed = await asyncio.to_thread(signed_so_far, self.path)
                await self.sign(signed)
            except Exception:  # a database away or a full disk: said, and tried at the next interval
                log.warning("signing the chains' heads failed", exc_info=True)

    async def sign(self, signed: dict[str, tuple[int, str]]) -> dict[str, tuple[int, str]]:
        """One interval's signing: the heads that moved since `signed` (brought up to date)."""
        async with self.pool.connection() as conn:
            return await sign_heads(conn, self.key, self.path, signed, self.auditors)


async def _stopped(stop: asyncio.Event, within_s: float) -> bool:
    """Whether `stop` is set within `within_s` seconds."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), within_s)
    return stop.is_set()


@contextlib.asynccontextmanager
async def signing(pool: AsyncConnectionPool[Any], settings: Settings) -> AsyncIterator[None]:
    """A worker's signer, running while the context is open (nothing when signing by time is off). The
    key is read (or made) here, so a bad key stops the worker at its start, not an hour later."""
    every_s = settings.sign_heads_every_s
    if every_s is None:
        yield
        return
    stop = asyncio.Event()
    key = load_key(settings.data_dir, settings.signing_key)
    signer = HeadSigner(pool, key, settings.signed_heads, every_s, mailing(settings))
    task = asyncio.create_task(signer.run(stop))
    try:
        yield
    finally:
        stop.set()
        await task
