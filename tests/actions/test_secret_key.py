"""The key that seals secrets: made on first start with mode 0600, taken from the environment when set,
refused when others may read it; rotation; and server tokens moved out of the clear by migration 0008."""

from __future__ import annotations

import asyncio
import os
import stat
from pathlib import Path
from typing import cast

import psycopg
import pytest
from cryptography.fernet import Fernet

from backend.actions.failures import ActionFailure
from backend.actions.secret_key import KEY_FILE, keys_from_text, load_keys
from backend.actions.secret_store import SecretStore
from backend.store.database import connect
from backend.store.migrations import known


def test_a_key_is_made_on_first_use_readable_by_its_owner_only_and_kept(tmp_path: Path) -> None:
    sealed = load_keys(tmp_path).encrypt(b"v")
    path = tmp_path / KEY_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_keys(tmp_path).decrypt(sealed) == b"v", "the second start reads the same key"
    assert [p.name for p in tmp_path.iterdir()] == [KEY_FILE], "no draft is left behind"


def test_a_key_file_others_may_read_is_refused(tmp_path: Path) -> None:
    load_keys(tmp_path)
    os.chmod(tmp_path / KEY_FILE, 0o644)
    with pytest.raises(ActionFailure) as refused:
        load_keys(tmp_path)
    assert refused.value.code == "secret_key_file_open"


def test_the_environment_wins_and_a_rotation_keeps_old_values_readable(tmp_path: Path) -> None:
    old, new = Fernet.generate_key().decode(), Fernet.generate_key().decode()
    sealed_with_old = load_keys(tmp_path, old).encrypt(b"v")
    assert not (tmp_path / KEY_FILE).exists(), "a key from the environment writes no file"
    both = load_keys(tmp_path, f"{new},{old}")
    assert both.decrypt(sealed_with_old) == b"v"
    assert keys_from_text(new).decrypt(both.rotate(sealed_with_old)) == b"v"
    with pytest.raises(ActionFailure) as refused:
        load_keys(tmp_path, f"{new},short")
    assert (refused.value.code, refused.value.detail) == ("secret_key_invalid", {"position": 2})


def test_migration_0008_moves_server_tokens_into_the_store_and_the_next_start_seals_them(
    empty_database_url: str,
) -> None:
    with connect(empty_database_url) as conn:
        conn.execute(
            "CREATE TABLE schema_migrations (number integer PRIMARY KEY, name text NOT NULL,"
            " applied_at timestamptz NOT NULL DEFAULT now())"
        )
        for migration in known()[:7]:
            conn.execute(migration.sql.encode())
            conn.execute(
                "INSERT INTO schema_migrations (number, name) VALUES (%s, %s)",
                (migration.number, migration.name),
            )
        conn.execute("INSERT INTO servers (name, agent_url, token) VALUES ('web-1', 'https://w', 'tok-old')")
        conn.commit()
    store = SecretStore(keys_from_text(Fernet.generate_key().decode()))
    with connect(empty_database_url) as conn:
        from backend.store.migrations import migrate

        assert [m.number for m in migrate(conn)] == [m.number for m in known()[7:]]
        columns = conn.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'servers'"
        ).fetchall()
        assert ("token",) not in columns, "no token is left in the servers table"
        assert conn.execute("SELECT legacy_plain FROM secrets WHERE name = 'server:web-1'").fetchone() == (
            "tok-old",
        )
        conn.commit()
        assert store.seal_moved_tokens(conn) == 1
        assert store.seal_moved_tokens(conn) == 0
        row = conn.execute("SELECT sealed, legacy_plain FROM secrets WHERE name = 'server:web-1'").fetchone()
        assert row is not None and row[1] is None and b"tok-old" not in bytes(cast(bytes, row[0]))

    async def reveal() -> dict[str, str]:
        async with await psycopg.AsyncConnection.connect(empty_database_url) as conn:
            return await store.reveal(conn, {"server:web-1"})

    assert asyncio.run(reveal()) == {"server:web-1": "tok-old"}
