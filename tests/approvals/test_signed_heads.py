"""Signed chain heads (issue 38): what the chain alone cannot see, a signed head outside the database can.

A superuser who rewrites a whole chain consistently, or a restore of an older backup, leaves a chain that
verifies on its own; `flowyard audit verify` held to the signed heads finds both (`chain_head_mismatch`,
`chain_rolled_back`), and a signed line edited or signed by another key (`signed_heads_invalid`).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import psycopg
import pytest

from backend.approvals.chain import GENESIS, link
from backend.approvals.head_signer import HeadSigner
from backend.approvals.signing import load_key, public_key_text
from backend.queue.commands import open_pool
from tests.approvals import test_chain
from tests.approvals.test_chain import by_hand, verdict
from tests.approvals.test_decisions import decide, user
from tests.support import Queue

Decided = tuple[Queue, int, list[int]]
decided = test_chain.decided  # the fixture: three decided approvals through the real queue


def audit(queue: Queue, data_dir: Path, *args: str, **environ: str) -> subprocess.CompletedProcess[str]:
    env = {"DATABASE_URL": queue.url, "PATH": "/usr/bin:/bin", "FLOWYARD_DATA_DIR": str(data_dir), **environ}
    return subprocess.run(
        [sys.executable, "-m", "backend.cli", "audit", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def checked(queue: Queue, data_dir: Path, flow_id: int, *args: str) -> dict[str, Any]:
    result = audit(queue, data_dir, "verify", "--flow", str(flow_id), "--json", *args)
    assert result.returncode in (0, 1), result.stderr
    found: dict[str, Any] = json.loads(result.stdout)
    return found


def codes(found: dict[str, Any]) -> list[str]:
    return [b["code"] for b in found["breaks"]]


def test_signed_heads_verify_and_the_public_key_is_the_signers(decided: Decided, tmp_path: Path) -> None:
    queue, flow_id, _ = decided
    signed = audit(queue, tmp_path, "sign")
    assert signed.returncode == 0, signed.stderr
    lines = (tmp_path / "signed-heads.jsonl").read_text().splitlines()
    assert len(lines) == 1
    head = json.loads(lines[0])["heads"][f"flow:{flow_id}"]
    assert head["seq"] == 6 and head["hash"] == verdict(queue, flow_id).heads[f"flow:{flow_id}"]
    assert oct((tmp_path / "signing.key").stat().st_mode & 0o777) == "0o600"

    found = checked(queue, tmp_path, flow_id)
    assert found["intact"] is True and found["signed"] == 1
    key = audit(queue, tmp_path, "public-key").stdout.strip()
    assert key == json.loads(lines[0])["public_key"]
    assert checked(queue, tmp_path, flow_id, "--public-key", key)["intact"] is True

    # Held to another key (an auditor's copy of a different one), every line is refused.
    other = public_key_text(load_key(tmp_path / "elsewhere"))
    refused = checked(queue, tmp_path, flow_id, "--public-key", other)
    assert codes(refused) == ["signed_heads_unknown_key"] and refused["breaks"][0]["seq"] == 1


def test_a_whole_chain_rewritten_consistently_is_found_only_by_the_signed_head(
    decided: Decided, tmp_path: Path
) -> None:
    queue, flow_id, approvals = decided
    chain = f"flow:{flow_id}"
    assert audit(queue, tmp_path, "sign").returncode == 0
    # The rejected decision becomes approved, and every hash from its record on is computed again.
    by_hand(queue, "approvals", f"UPDATE approvals SET outcome = 'approved' WHERE id = {approvals[1]}")
    with psycopg.connect(queue.url, autocommit=True) as conn:
        conn.execute("ALTER TABLE audit_chain DISABLE TRIGGER USER")
        try:
            conn.execute(
                "UPDATE audit_chain AS c SET content = audit_decision_content(a) FROM approvals AS a"
                " WHERE c.chain = %s AND c.kind = 'decision' AND a.id = c.ref_id",
                (chain,),
            )
            rows = conn.execute(
                "SELECT seq, content FROM audit_chain WHERE chain = %s ORDER BY seq", (chain,)
            ).fetchall()
            previous = GENESIS
            for seq, content in rows:
                hash_ = link(previous, content)
                conn.execute(
                    "UPDATE audit_chain SET prev_hash = %s, hash = %s WHERE chain = %s AND seq = %s",
                    (previous, hash_, chain, seq),
                )
                previous = hash_
            conn.execute("UPDATE audit_chain_heads SET hash = %s WHERE chain = %s", (previous, chain))
        finally:
            conn.execute("ALTER TABLE audit_chain ENABLE TRIGGER USER")
    assert verdict(queue, flow_id).intact, "the chain alone cannot see a consistent rewrite"

    found = checked(queue, tmp_path, flow_id)
    assert found["intact"] is False
    assert [(b["code"], b["chain"], b["seq"]) for b in found["breaks"]] == [("chain_head_mismatch", chain, 6)]
    words = audit(queue, tmp_path, "verify", "--flow", str(flow_id), LANG="de_DE.UTF-8")
    assert words.returncode == 1 and "(chain_head_mismatch)" in words.stderr


def test_an_older_backup_restored_is_found_rolled_back(decided: Decided, tmp_path: Path) -> None:
    from tests.api.support import app_client, auth, make_user

    queue, flow_id, approvals = decided
    chain = f"flow:{flow_id}"
    assert audit(queue, tmp_path, "sign").returncode == 0
    # What the database looked like before the third decision: its vote, its decision and their records
    # gone, the head back at the fourth record.
    last = approvals[2]
    with psycopg.connect(queue.url, autocommit=True) as conn:
        for table in ("audit_chain", "approval_votes", "approvals"):
            conn.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
        try:
            conn.execute("DELETE FROM audit_chain WHERE chain = %s AND seq > 4", (chain,))
            conn.execute(
                "UPDATE audit_chain_heads SET seq = 4,"
                " hash = (SELECT hash FROM audit_chain WHERE chain = %s AND seq = 4) WHERE chain = %s",
                (chain, chain),
            )
            conn.execute("DELETE FROM approval_votes WHERE approval_id = %s", (last,))
            conn.execute(
                "UPDATE approvals SET outcome = NULL, decided_by = NULL, decided_at = NULL WHERE id = %s",
                (last,),
            )
        finally:
            for table in ("audit_chain", "approval_votes", "approvals"):
                conn.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
    assert verdict(queue, flow_id).intact, "an older backup is a consistent chain"

    found = checked(queue, tmp_path, flow_id)
    assert [(b["code"], b["seq"]) for b in found["breaks"]] == [("chain_rolled_back", 6)]
    # The audit page's check holds the chain to the same file, where the server keeps its data (the
    # auditor's grant is a record of the flow's chain: the restored chain grows again, still short).
    token = make_user(queue.url, f"auditor{flow_id}", f"audit:{flow_id}")
    with app_client(queue.url, data_dir=tmp_path) as client:
        page = client.get(f"/api/audit/verify?flow={flow_id}", headers=auth(token)).json()
    assert page["intact"] is False and page["signed"] == 1
    assert [b["code"] for b in page["breaks"]] == ["chain_rolled_back"]


def test_an_edited_line_is_refused_and_the_others_still_hold(decided: Decided, tmp_path: Path) -> None:
    queue, flow_id, _ = decided
    assert audit(queue, tmp_path, "sign").returncode == 0
    ann = user(queue, f"bob{flow_id}", "decide")
    run_id = queue.start(flow_id, input={"id": "A-9"})
    queue.drain()
    row = queue.one("SELECT id FROM approvals WHERE run_id = %s", run_id)
    assert row is not None
    decide(queue, row[0], "approved", ann)
    second = audit(queue, tmp_path, "sign")
    assert second.returncode == 0, second.stderr
    path = tmp_path / "signed-heads.jsonl"
    lines = path.read_text().splitlines()
    assert [json.loads(line)["heads"][f"flow:{flow_id}"]["seq"] for line in lines] == [6, 8]

    edited = json.loads(lines[0])
    edited["heads"][f"flow:{flow_id}"]["seq"] = 5
    path.write_text(json.dumps(edited) + "\n" + lines[1] + "\n")
    found = checked(queue, tmp_path, flow_id)
    assert [(b["code"], b["seq"]) for b in found["breaks"]] == [("signed_heads_invalid", 1)]
    assert found["signed"] == 1, "the second line still holds the chain to its head"


def test_a_key_file_others_may_read_is_refused(decided: Decided, tmp_path: Path) -> None:
    queue, _, _ = decided
    load_key(tmp_path)
    os.chmod(tmp_path / "signing.key", 0o644)
    result = audit(queue, tmp_path, "sign")
    assert result.returncode == 2 and "(signing_key_readable)" in result.stderr
    assert not (tmp_path / "signed-heads.jsonl").exists()


def test_the_workers_signer_signs_what_moved_at_its_interval(decided: Decided, tmp_path: Path) -> None:
    """The signer a worker runs: a line per interval with the heads that moved, none when nothing did."""
    queue, flow_id, _ = decided
    path = tmp_path / "signed-heads.jsonl"

    def lines() -> list[dict[str, Any]]:
        return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []

    class Told(HeadSigner):
        """The signer as the worker runs it, telling the test what each interval signed."""

        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            self.rounds: asyncio.Queue[dict[str, tuple[int, str]]] = asyncio.Queue()

        async def sign(self, signed: dict[str, tuple[int, str]]) -> dict[str, tuple[int, str]]:
            moved = await super().sign(signed)
            await self.rounds.put(moved)
            return moved

    async def next_line(signer: Told) -> dict[str, tuple[int, str]]:
        while not (moved := await signer.rounds.get()):  # an interval in which nothing moved writes nothing
            assert len(lines()) == len(seen), "an interval with nothing moved added a line"
        return moved

    seen: list[dict[str, tuple[int, str]]] = []

    async def go() -> None:
        pool = open_pool(queue.url, size=2)
        await pool.open()
        stop = asyncio.Event()
        signer = Told(pool, load_key(tmp_path), path, 0.05)
        task = asyncio.create_task(signer.run(stop))
        try:
            seen.append(await asyncio.wait_for(next_line(signer), 60))
            first = lines()
            # A rights change: the global chain moves (the test's Queue runs a loop of its own: a thread).
            await asyncio.to_thread(queue.aconn, lambda conn: _grant(conn, f"carol{flow_id}"))
            seen.append(await asyncio.wait_for(next_line(signer), 60))
        finally:
            stop.set()
            await task
            await pool.close()
        assert f"flow:{flow_id}" in first[0]["heads"] and "global" in first[0]["heads"]
        assert set(lines()[1]["heads"]) == {"global"}, "only the head that moved is signed again"

    asyncio.run(go())


async def _grant(conn: Any, name: str) -> None:
    from backend.people.accounts import Grant, add_user

    await add_user(conn, name, grants=[Grant.parse("decide")], groups=[])


@pytest.fixture(autouse=True)
def _no_signing_key_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FLOWYARD_SIGNING_KEY", raising=False)
    monkeypatch.delenv("FLOWYARD_SIGNED_HEADS", raising=False)


def test_a_signed_heads_file_gone_is_a_break_when_the_auditors_key_is_given(
    decided: Decided, tmp_path: Path
) -> None:
    queue, flow_id, _ = decided
    assert audit(queue, tmp_path, "sign").returncode == 0
    key = audit(queue, tmp_path, "public-key").stdout.strip()
    (tmp_path / "signed-heads.jsonl").unlink()
    found = checked(queue, tmp_path, flow_id, "--public-key", key)
    assert codes(found) == ["signed_heads_missing"]
