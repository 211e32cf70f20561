"""Setting a policy is on the rights trail and its chain (issue 32, item 5): an admin who switches
self-approval to `per_node`, decides their own request and switches back leaves a record of the window,
and a policy trail row changed by hand is found by `flowyard audit verify`."""

from __future__ import annotations

import asyncio
import json

import psycopg
import pytest

from backend.approvals.chain import Verdict, verify
from backend.approvals.policy_commands import policy_command
from backend.cli import _parser
from backend.store import migrations
from backend.store.database import connect
from tests.api.support import app_client, auth, make_user
from tests.approvals.test_chain import by_hand, cli
from tests.support import Queue


def verdict(url: str) -> Verdict:
    async def go() -> Verdict:
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            return await verify(conn)

    return asyncio.run(go())


def policy_rows(url: str) -> list[tuple[int, str, str, str | None, str | None]]:
    with psycopg.connect(url) as conn:
        return conn.execute(
            "SELECT id, actor, user_name, \"right\", value FROM rights_trail WHERE change = 'policy_set'"
            " ORDER BY id"
        ).fetchall()


def test_each_policy_set_is_on_the_trail_the_api_and_the_chain_and_verify_finds_an_edit(
    database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    admin = make_user(database_url, "polly", "admin", "audit")
    with app_client(database_url) as api:
        for value in ("per_node", "never"):
            answer = api.put("/api/policies/self_approval", json={"value": value}, headers=auth(admin))
            assert answer.status_code == 200, answer.text
        assert (
            policy_command(_parser().parse_args(["policy", "set", "self_approval", "per_node"]), database_url)
            == 0
        )
        capsys.readouterr()
        trail = api.get("/api/rights-trail?order=newest", headers=auth(admin)).json()["entries"]

    rows = policy_rows(database_url)
    assert [row[1:] for row in rows] == [
        ("polly", "polly", "self_approval", "per_node"),
        ("polly", "polly", "self_approval", "never"),
        ("cli", "cli", "self_approval", "per_node"),
    ]
    shown = [(e["change"], e["actor"], e["user"], e["right"], e["value"]) for e in trail[:3]]
    assert shown == [
        ("policy_set", "cli", "cli", "self_approval", "per_node"),
        ("policy_set", "polly", "polly", "self_approval", "never"),
        ("policy_set", "polly", "polly", "self_approval", "per_node"),
    ]
    with psycopg.connect(database_url) as conn:
        chained = conn.execute(
            "SELECT content FROM audit_chain WHERE chain = 'global' AND kind = 'rights' AND ref_id = %s",
            (rows[1][0],),
        ).fetchone()
    assert chained is not None
    assert {"change": "policy_set", "right": "self_approval", "value": "never"}.items() <= json.loads(
        chained[0]
    ).items()
    assert verdict(database_url).intact
    assert cli_ok(database_url)

    # The window hidden by hand: the `never` row rewritten as `per_node`, triggers disabled.
    by_hand(
        Queue(database_url),
        "rights_trail",
        f"UPDATE rights_trail SET value = 'per_node' WHERE id = {rows[1][0]}",
    )
    found = verdict(database_url)
    assert [(b.code, b.kind, b.ref_id) for b in found.breaks] == [("chain_row_changed", "rights", rows[1][0])]
    assert not cli_ok(database_url)


def cli_ok(url: str) -> bool:
    result = cli(Queue(url), "--json")
    return result.returncode == 0 and json.loads(result.stdout)["intact"] is True


def test_chains_written_before_the_migration_still_verify(
    empty_database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    every = migrations.known()
    before = [m for m in every if m.number < 23]
    monkeypatch.setattr(migrations, "known", lambda: before)
    with connect(empty_database_url) as conn:
        migrations.migrate(conn)
    with psycopg.connect(empty_database_url) as conn:
        conn.execute("SELECT set_config('flowyard.actor', 'root', true)")
        conn.execute("INSERT INTO users (name) VALUES ('vera'), ('walt')")
        conn.execute("INSERT INTO grants (user_name, \"right\") VALUES ('vera', 'decide')")
        conn.execute(
            "INSERT INTO delegations (from_user, to_user, starts_at, ends_at, created_by)"
            " VALUES ('vera', 'walt', now(), now() + interval '1 day', 'root')"
        )
        conn.execute("INSERT INTO policies (name, value, set_by) VALUES ('self_approval', 'never', 'root')")
        conn.execute("DELETE FROM grants WHERE user_name = 'vera'")
    records_before = verdict(empty_database_url).records
    assert records_before == 5 and verdict(empty_database_url).intact

    monkeypatch.setattr(migrations, "known", lambda: every)
    with connect(empty_database_url) as conn:
        assert [m.number for m in migrations.migrate(conn)] == [m.number for m in every if m.number >= 23]
    with psycopg.connect(empty_database_url) as conn:
        conn.execute("UPDATE policies SET value = 'per_node' WHERE name = 'self_approval'")
    after = verdict(empty_database_url)
    assert after.intact and after.records == 6, after.breaks
    assert cli_ok(empty_database_url)
