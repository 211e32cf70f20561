"""The secret store: values sealed with Fernet in the `secrets` table, opened only to send an action.

Flows name a secret as `{{secrets.NAME}}` in an action's config; a server's agent token is the secret
`server:<server name>`. A value is sealed with the first key of `secret_key.load_keys` before it reaches
the database and opened only by `reveal`, which the action sender calls with the names one request
needs, right before it sends. Nothing lists, returns or logs a value: `names` gives names and dates.

Examples:
    >>> check_secret_name("smtp_password")
    'smtp_password'
    >>> check_secret_name("a.b")
    Traceback (most recent call last):
    ...
    backend.actions.failures.ActionFailure: secret_name_invalid
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from cryptography.fernet import InvalidToken, MultiFernet
from psycopg import AsyncConnection
from psycopg.rows import class_row

from backend.actions.failures import ActionFailure
from backend.actions.queries import QUERIES
from backend.actions.secret_key import load_keys
from backend.actions.settings import ActionSettings
from backend.store.queries import every, scalar

# What a template path segment may be, so that `{{secrets.NAME}}` can name every secret.
_NAME = re.compile(r"[A-Za-z0-9_-]{1,100}")
MAX_VALUE_BYTES = 64 * 1024
SERVER_PREFIX = "server:"


@dataclass(frozen=True, slots=True)
class _Stored:
    """A secret's stored value: sealed, or (a token migration 0008 moved) still in the clear."""

    name: str
    sealed: bytes | None = None
    legacy_plain: str | None = None


@dataclass(frozen=True, slots=True)
class SecretName:
    name: str
    created_at: datetime
    updated_at: datetime
    updated_by: str | None


def check_secret_name(name: str) -> str:
    if not _NAME.fullmatch(name):
        raise ActionFailure(code="secret_name_invalid", name=name[:100])
    return name


def server_secret(server: str) -> str:
    """The name under which a server's agent token is kept."""
    return SERVER_PREFIX + server


class SecretStore:
    """Seals, opens and lists secrets; `SecretStore.from_settings(settings)` takes the key the process was
    given."""

    def __init__(self, keys: MultiFernet) -> None:
        self._keys = keys

    def __repr__(self) -> str:
        return "SecretStore(keys=[hidden])"

    @classmethod
    def from_settings(cls, settings: ActionSettings) -> SecretStore:
        return cls(load_keys(settings.key_dir, settings.secret_key))

    def seal(self, value: str) -> bytes:
        return self._keys.encrypt(value.encode())

    def _open(self, name: str, sealed: bytes | None, plain: str | None) -> str:
        if sealed is None:
            assert plain is not None, "the table's CHECK: one of the two"
            return plain
        try:
            return self._keys.decrypt(bytes(sealed)).decode()
        except InvalidToken:
            # Sealed under a key this process was not given: say which secret, never guess.
            raise ActionFailure(code="secret_key_wrong", name=name) from None

    async def put(self, conn: AsyncConnection[Any], name: str, value: str, by: str | None) -> bool:
        """Store a secret, or replace its value; True when it is new."""
        if not value:
            raise ActionFailure(code="secret_value_empty", name=name)
        if len(value.encode()) > MAX_VALUE_BYTES:
            raise ActionFailure(code="secret_too_large", name=name, limit=MAX_VALUE_BYTES)
        params = {"name": name, "sealed": self.seal(value), "by": by}
        return bool(await scalar(conn, QUERIES["set_secret"], params))

    async def reveal(self, conn: AsyncConnection[Any], names: set[str]) -> dict[str, str]:
        """The values of `names`; the first one missing is `secret_missing`. Only the sender calls this."""
        if not names:
            return {}
        rows = await every(conn, _Stored, QUERIES["open_secrets"], {"names": sorted(names)})
        values = {row.name: self._open(row.name, row.sealed, row.legacy_plain) for row in rows}
        for name in sorted(names):
            if name not in values:
                raise ActionFailure(code="secret_missing", name=name)
        return values

    def seal_moved_tokens(self, conn: psycopg.Connection[Any]) -> int:
        """Seal the server tokens migration 0008 moved here in the clear; how many. Run by migrate."""
        with conn.transaction():
            with conn.cursor(row_factory=class_row(_Stored)) as cur:
                rows = cur.execute(QUERIES["unsealed_secrets"]).fetchall()
            for row in rows:
                conn.execute(
                    QUERIES["reseal_secret"], {"name": row.name, "sealed": self.seal(str(row.legacy_plain))}
                )
        return len(rows)

    async def rotate(self, conn: AsyncConnection[Any]) -> int:
        """Seal every secret again under the first key, in one transaction; how many."""
        async with conn.transaction():
            rows = await every(conn, _Stored, QUERIES["all_sealed_secrets"])
            for row in rows:
                try:
                    again = self._keys.rotate(bytes(row.sealed or b""))
                except InvalidToken:
                    raise ActionFailure(code="secret_key_wrong", name=row.name) from None
                await conn.execute(QUERIES["reseal_secret"], {"name": row.name, "sealed": again})
        return len(rows)


async def secret_names(conn: AsyncConnection[Any]) -> list[SecretName]:
    return await every(conn, SecretName, QUERIES["list_secrets"])


async def remove_secret(conn: AsyncConnection[Any], name: str) -> bool:
    return await (await conn.execute(QUERIES["remove_secret"], {"name": name})).fetchone() is not None
