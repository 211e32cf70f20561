"""The chained trail: decisions, votes and rights changes recorded with hashes by the database itself;
`flowyard audit verify` finds a row changed by hand (as a superuser, triggers disabled), a record
removed, a row written past the chain; an export verifies offline and shows an edit in it."""

from __future__ import annotations

import asyncio
import io
import json
import os
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from datetime import timedelta
from pathlib import Path
from typing import Any
from unittest.mock import patch

import psycopg
import pytest

from backend.approvals import chain, since_last
from backend.approvals.breaks import Break
from backend.approvals.chain import GENESIS, Record, Verdict, link, verify
from backend.approvals.chain import QUERIES as CHAIN
from backend.cli import main
from tests.approvals.test_decisions import approval_flow, decide, user
from tests.support import Queue, plan_text


def verdict(queue: Queue, flow_id: int | None = None, retention: timedelta | None = None) -> Verdict:
    async def go() -> Verdict:
        async with await psycopg.AsyncConnection.connect(queue.url, autocommit=True) as conn:
            return await verify(conn, flow_id, retention)

    return asyncio.run(go())


def cli(queue: Queue, *args: str) -> subprocess.CompletedProcess[str]:
    """`flowyard audit verify` with these arguments, run in process (`backend.cli.main`, as typed: a new
    process costs a second of CPU, and this module verifies twenty times); `process` runs one for real."""
    out, err = io.StringIO(), io.StringIO()
    # The environment the process had: this one only (no key, retention or crash setting of the shell's).
    only = {"DATABASE_URL": queue.url, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    with patch.dict(os.environ, only, clear=True), redirect_stdout(out), redirect_stderr(err):
        code = main(argv := ["audit", "verify", *args])
    return subprocess.CompletedProcess(argv, code, out.getvalue(), err.getvalue())


def process(queue: Queue, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"DATABASE_URL": queue.url, "PATH": "/usr/bin:/bin"}
    return subprocess.run(
        [sys.executable, "-m", "backend.cli", "audit", "verify", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def by_hand(queue: Queue, table: str, statement: str) -> None:
    """What someone with the database's superuser can do: disable the triggers, write, enable them."""
    with psycopg.connect(queue.url, autocommit=True) as conn:
        conn.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
        try:
            conn.execute(statement)
        finally:
            conn.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")


@pytest.fixture
def decided(database_url: str) -> tuple[Queue, int, list[int]]:
    """A flow with three decided approvals (one rejected) through the real queue, and rights changes."""
    queue = Queue(database_url)
    flow_id = queue.save(approval_flow())
    ann = user(queue, f"ann{flow_id}", "decide")
    approvals = []
    for i in range(3):
        run_id = queue.start(flow_id, input={"id": f"A-{i}"})
        queue.clock.advance(timedelta(minutes=1))  # the fake clock past the start, however slow the machine
        queue.drain()
        row = queue.one("SELECT id FROM approvals WHERE run_id = %s", run_id)
        assert row is not None, (queue.status(run_id), queue.codes(run_id))
        decide(queue, row[0], "rejected" if i == 1 else "approved", ann)
        approvals.append(row[0])
    queue.drain()
    return queue, flow_id, approvals


def test_every_decision_and_vote_is_chained_and_the_chain_verifies(
    decided: tuple[Queue, int, list[int]],
) -> None:
    queue, flow_id, approvals = decided
    rows = queue.all(
        "SELECT seq, kind, ref_id, content, prev_hash, hash FROM audit_chain WHERE chain = %s ORDER BY seq",
        f"flow:{flow_id}",
    )
    assert [kind for _, kind, *_ in rows] == ["vote", "decision"] * 3
    assert [ref for _, kind, ref, *_ in rows if kind == "decision"] == approvals
    previous = GENESIS
    for _, _, _, content, prev_hash, hash_ in rows:
        assert prev_hash == previous and hash_ == link(prev_hash, content)
        previous = hash_
    assert json.loads(rows[3][3])["outcome"] == "rejected"
    found = verdict(queue, flow_id)
    assert found.intact and found.records == 6 and found.heads == {f"flow:{flow_id}": previous}
    result = cli(queue, "--flow", str(flow_id))
    assert result.returncode == 0, result.stderr
    assert previous in result.stdout


def test_a_decision_changed_by_a_superuser_with_the_trigger_disabled_is_found(
    decided: tuple[Queue, int, list[int]],
) -> None:
    queue, flow_id, approvals = decided
    with pytest.raises(psycopg.errors.IntegrityConstraintViolation), psycopg.connect(queue.url) as conn:
        conn.execute("UPDATE approvals SET outcome = 'approved' WHERE id = %s", (approvals[1],))
    by_hand(queue, "approvals", f"UPDATE approvals SET outcome = 'approved' WHERE id = {approvals[1]}")

    found = verdict(queue, flow_id)
    assert [(b.code, b.kind, b.ref_id) for b in found.breaks] == [
        ("chain_row_changed", "decision", approvals[1])
    ]
    result = cli(queue, "--flow", str(flow_id))
    assert result.returncode == 1
    assert "chain_row_changed" in result.stderr and "audit_chain_broken" in result.stderr
    as_json = json.loads(cli(queue, "--flow", str(flow_id), "--json").stdout)
    assert as_json["intact"] is False and as_json["breaks"][0]["ref_id"] == approvals[1]


def test_a_record_removed_and_a_row_written_past_the_chain_are_found(
    decided: tuple[Queue, int, list[int]],
) -> None:
    queue, flow_id, approvals = decided
    chain = f"flow:{flow_id}"
    by_hand(queue, "audit_chain", f"DELETE FROM audit_chain WHERE chain = '{chain}' AND seq = 2")
    by_hand(
        queue,
        "approval_votes",
        "INSERT INTO approval_votes (approval_id, flow_id, voter, vote, cast_at)"
        f" VALUES ({approvals[0]}, {flow_id}, 'mallory', 'approve', now())",
    )
    codes = sorted(b.code for b in verdict(queue, flow_id).breaks)
    # the removed record's decision now has no record, and neither has the vote written past the chain
    assert codes == ["chain_record_missing", "chain_row_unrecorded", "chain_row_unrecorded"]


def test_an_export_verifies_offline_and_an_edit_in_it_is_found(
    decided: tuple[Queue, int, list[int]], tmp_path: Path
) -> None:
    from tests.api.support import app_client, auth, make_user

    queue, flow_id, _ = decided
    token = make_user(queue.url, f"auditor{flow_id}", f"audit:{flow_id}")
    with app_client(queue.url) as client:
        exported = client.get(f"/api/audit/chain?flow={flow_id}", headers=auth(token))
        checked = client.get(f"/api/audit/verify?flow={flow_id}", headers=auth(token))
        refused = client.get("/api/audit/chain", headers=auth(token))
    assert exported.status_code == 200 and checked.json()["intact"] is True
    assert refused.status_code == 403, "the audit right on one flow reads that flow's chain only"
    document = exported.json()
    kinds = [record["kind"] for record in document["records"]]
    assert kinds == ["vote", "decision"] * 3 + ["rights"], "the auditor's grant on this flow is on its chain"
    export = tmp_path / "chain.json"
    export.write_text(json.dumps(document))
    assert process(queue, "--file", str(export)).returncode == 0, "the command itself, as typed"

    content = json.loads(document["records"][1]["content"])
    content["decided_by"] = "mallory"
    document["records"][1]["content"] = json.dumps(content)
    export.write_text(json.dumps(document))
    result = cli(queue, "--file", str(export), "--json")
    assert result.returncode == 1
    assert [b["code"] for b in json.loads(result.stdout)["breaks"]] == ["chain_hash_mismatch"]


def test_rights_changes_are_chained(database_url: str) -> None:
    queue = Queue(database_url)
    user(queue, "rita", "decide")
    rows = queue.all("SELECT content FROM audit_chain WHERE chain = 'global' AND kind = 'rights'")
    changes = [json.loads(content) for (content,) in rows]
    assert {"user": "rita", "change": "user_added"}.items() <= changes[-2].items() or any(
        c["user"] == "rita" and c["change"] == "user_added" for c in changes
    )
    assert any(c["user"] == "rita" and c["change"] == "granted" and c["right"] == "decide" for c in changes)


def test_the_retention_sweep_takes_votes_with_their_approval_and_verify_counts_them_swept(
    decided: tuple[Queue, int, list[int]],
) -> None:
    from backend.approvals.retention import record_retention, sweep_decided_approvals

    queue, flow_id, approvals = decided
    # Forty days pass for the first approval: its decision, its vote and their records.
    aged = f"{approvals[0]}"
    by_hand(
        queue,
        "approvals",
        f"UPDATE approvals SET decided_at = decided_at - interval '40 days' WHERE id = {aged}",
    )
    by_hand(
        queue,
        "approval_votes",
        f"UPDATE approval_votes SET cast_at = cast_at - interval '40 days' WHERE approval_id = {aged}",
    )
    by_hand(
        queue,
        "audit_chain",
        f"UPDATE audit_chain SET at = at - interval '40 days' WHERE chain = 'flow:{flow_id}' AND seq <= 2",
    )
    # The aged row no longer makes its record: what a change by hand looks like, until the sweep takes it.
    assert [b.code for b in verdict(queue, flow_id).breaks] == ["chain_row_changed"] * 2

    with psycopg.connect(queue.url) as owner:
        record_retention(owner, timedelta(days=30))  # as `flowyard migrate` does, as the schema's owner

    async def sweep() -> int:
        async with await psycopg.AsyncConnection.connect(queue.url, autocommit=True) as conn:
            return await sweep_decided_approvals(conn, None, timedelta(days=30))

    assert asyncio.run(sweep()) == 1
    assert queue.one("SELECT count(*) FROM approval_votes WHERE approval_id = %s", approvals[0]) == (0,)

    async def with_retention(retention: timedelta | None) -> Verdict:
        async with await psycopg.AsyncConnection.connect(queue.url, autocommit=True) as conn:
            return await verify(conn, flow_id, retention)

    kept = asyncio.run(with_retention(timedelta(days=30)))
    assert kept.intact and kept.swept == 2, "the records keep what the swept rows said"
    unexplained = asyncio.run(with_retention(None))
    assert [b.code for b in unexplained.breaks] == ["chain_row_removed", "chain_row_removed"]


def test_the_values_an_approval_showed_are_part_of_its_chained_decision(
    decided: tuple[Queue, int, list[int]],
) -> None:
    """The approver decided on the values shown (issue 31): changing them afterwards, by hand, is found like
    a changed title. So is who had set the webhook secret that started the run (issue 32's four eyes)."""
    queue, flow_id, approvals = decided
    shown = queue.one("SELECT shown FROM approvals WHERE id = %s", approvals[0])
    assert shown is not None and shown[0] == [{"label": None, "path": "trigger", "value": {"id": "A-0"}}]
    chained = "SELECT content FROM audit_chain WHERE kind = 'decision' AND ref_id = %s"
    record = queue.one(chained, approvals[0])
    assert record is not None and json.loads(record[0])["shown"] == shown[0]

    other = '[{"label": null, "path": "trigger", "value": {"id": "A-9"}}]'
    by_hand(queue, "approvals", f"UPDATE approvals SET shown = '{other}' WHERE id = {approvals[0]}")
    by_hand(queue, "approvals", f"UPDATE approvals SET hook_secret_by = 'mallory' WHERE id = {approvals[2]}")

    found = verdict(queue, flow_id)
    assert [(b.code, b.kind, b.ref_id) for b in found.breaks] == [
        ("chain_row_changed", "decision", approvals[0]),
        ("chain_row_changed", "decision", approvals[2]),
    ]


def test_a_vote_and_a_rights_change_changed_or_removed_by_hand_are_found_in_every_chain(
    decided: tuple[Queue, int, list[int]],
) -> None:
    """A verify of every chain joins each kind of record with its own table: each kind is checked."""
    queue, flow_id, approvals = decided
    votes = [
        row[0] for row in queue.all("SELECT id FROM approval_votes WHERE flow_id = %s ORDER BY id", flow_id)
    ]
    change = queue.one("SELECT max(id) FROM rights_trail WHERE user_name = %s", f"ann{flow_id}")
    assert len(votes) == 3 and change is not None and change[0] is not None
    by_hand(queue, "approval_votes", f"UPDATE approval_votes SET comment = 'later' WHERE id = {votes[0]}")
    by_hand(queue, "approval_votes", f"DELETE FROM approval_votes WHERE id = {votes[1]}")
    by_hand(queue, "rights_trail", f"UPDATE rights_trail SET actor = 'mallory' WHERE id = {change[0]}")
    by_hand(queue, "approvals", f"UPDATE approvals SET comment = 'later' WHERE id = {approvals[2]}")

    ours = {("vote", votes[0]), ("vote", votes[1]), ("rights", change[0]), ("decision", approvals[2])}
    found = {(b.code, b.kind, b.ref_id) for b in verdict(queue).breaks if (b.kind, b.ref_id) in ours}
    assert found == {
        ("chain_row_changed", "vote", votes[0]),
        ("chain_row_removed", "vote", votes[1]),
        ("chain_row_changed", "rights", change[0]),
        ("chain_row_changed", "decision", approvals[2]),
    }


def test_a_decision_moved_to_another_flow_by_hand_is_a_changed_row_not_a_swept_one(
    decided: tuple[Queue, int, list[int]],
) -> None:
    """A one-flow verify finds the row by its id wherever it went: changed, even where a retention would
    let a row that is gone pass as swept (its record is old enough: the retention here is zero)."""
    queue, flow_id, approvals = decided
    elsewhere = queue.save(approval_flow())
    by_hand(queue, "approvals", f"UPDATE approvals SET flow_id = {elsewhere} WHERE id = {approvals[0]}")
    found = verdict(queue, flow_id, retention=timedelta(0))
    assert [(b.code, b.kind, b.ref_id) for b in found.breaks] == [
        ("chain_row_changed", "decision", approvals[0])
    ]
    assert found.swept == 0


def test_verify_makes_each_record_again_with_the_content_functions_inlined(database_url: str) -> None:
    """Declared IMMUTABLE over a STABLE `to_char`, the content functions were called one by one, three
    times the cost of their body written into the statement (migration 0030)."""
    plan = plan_text(database_url, CHAIN["chain_rows_differing"], {"chain": None})
    assert "jsonb_build_object" in plan
    assert "audit_decision_content" not in plan and "audit_vote_content" not in plan
    assert "audit_rights_content" not in plan and "audit_utc" not in plan


def _pending(queue: Queue, flow_id: int) -> int:
    """An approval of a new run of the flow, waiting for its decision."""
    run_id = queue.start(flow_id, input={"id": "A-late"})
    queue.clock.advance(timedelta(minutes=1))
    queue.drain()
    row = queue.one("SELECT id FROM approvals WHERE run_id = %s AND outcome IS NULL", run_id)
    assert row is not None, (queue.status(run_id), queue.codes(run_id))
    return int(row[0])


def deciding_during_the_first_read(
    monkeypatch: pytest.MonkeyPatch, module: object, queue: Queue, approval_id: int, by: str
) -> None:
    """`module`'s reads of a page of records, the first of which is followed by a decision, committed
    (as a person deciding in the minutes a verify of a year reads)."""
    read_page = chain.record_page
    pending = [approval_id]

    async def read_then_decide(*args: Any, **kwargs: Any) -> list[Record]:
        page = await read_page(*args, **kwargs)
        while pending:
            await asyncio.to_thread(decide, queue, pending.pop(), "approved", by)
        return page

    monkeypatch.setattr(module, "record_page", read_then_decide)


def test_a_decision_recorded_while_a_verify_reads_is_no_break(
    decided: tuple[Queue, int, list[int]], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A verify of a year reads for minutes while people decide, and each decision moves its chain's head.
    One recorded while a verify, an export or a verify since the last reads is read with them, not taken
    for a tail missing or a record appended by hand (chain_head_mismatch)."""
    from tests.api.support import app_client, auth, make_user

    queue, flow_id, _ = decided
    name = f"flow:{flow_id}"

    def newest() -> str:
        row = queue.one("SELECT hash FROM audit_chain_heads WHERE chain = %s", name)
        assert row is not None
        return str(row[0])

    deciding_during_the_first_read(monkeypatch, chain, queue, _pending(queue, flow_id), f"ann{flow_id}")
    found = verdict(queue, flow_id)
    assert found.intact, found.breaks
    assert found.records == 8, "the decision and its vote, recorded meanwhile, are read and linked too"
    assert found.heads == {name: newest()}

    token = make_user(queue.url, f"auditor{flow_id}", f"audit:{flow_id}")
    deciding_during_the_first_read(monkeypatch, chain, queue, _pending(queue, flow_id), f"ann{flow_id}")
    with app_client(queue.url) as client:
        document = client.get(f"/api/audit/chain?flow={flow_id}", headers=auth(token)).json()
    assert document["heads"] == {name: newest()}
    assert [record["seq"] for record in document["records"]] == list(range(1, 12))
    export = tmp_path / "chain.json"
    export.write_text(json.dumps(document))
    assert cli(queue, "--file", str(export)).returncode == 0

    assert asyncio.run(_since_last(queue, flow_id)).intact  # a first point, at the chain's end
    deciding_during_the_first_read(monkeypatch, chain, queue, _pending(queue, flow_id), f"ann{flow_id}")
    since = asyncio.run(_since_last(queue, flow_id))
    assert since.intact, since.breaks
    assert since.records == 2, "only the decision made meanwhile and its vote are after the last point"
    assert since.heads == {name: newest()}


async def _since_last(queue: Queue, flow_id: int | None) -> Verdict:
    async with await psycopg.AsyncConnection.connect(queue.url, autocommit=True) as conn:
        return await since_last.verify_since_last(conn, flow_id)


def test_a_record_appended_by_hand_past_its_head_is_still_found(
    decided: tuple[Queue, int, list[int]],
) -> None:
    """Reading on while a chain's head moves ahead of what was read stops at the head: a record written
    past it, without it, is a break for the full verify and for the verify since the last."""
    queue, flow_id, _ = decided
    name = f"flow:{flow_id}"
    last = queue.one("SELECT seq, hash FROM audit_chain_heads WHERE chain = %s", name)
    assert last is not None
    content = '{"forged": true}'
    by_hand(
        queue,
        "audit_chain",
        "INSERT INTO audit_chain (chain, seq, kind, ref_id, content, prev_hash, hash)"
        f" VALUES ('{name}', {last[0] + 1}, 'decision', 1000000000, '{content}', '{last[1]}',"
        f" '{link(last[1], content)}')",
    )
    # Its decision is no row either (chain_row_removed): the head's break is the one read on past it.
    assert "chain_head_mismatch" in {b.code for b in verdict(queue, flow_id).breaks}
    assert "chain_head_mismatch" in {b.code for b in asyncio.run(_since_last(queue, flow_id)).breaks}


def test_the_export_is_written_a_page_at_a_time_and_verifies(
    decided: tuple[Queue, int, list[int]], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """GET /api/audit/chain sends what `export_pieces` writes: the records a page at a time (a year's
    chains are gigabytes, never held), then the heads; together one document that verifies offline."""
    from backend.approvals.chain_commands import export_pieces

    queue, flow_id, _ = decided
    monkeypatch.setattr(chain, "PAGE", 2)

    async def pieces() -> list[str]:
        async with await psycopg.AsyncConnection.connect(queue.url, autocommit=True) as conn:
            return [piece async for piece in export_pieces(chain.held(conn), f"flow:{flow_id}")]

    written = asyncio.run(pieces())
    # The six records two a page (the document's opening with the first), the heads.
    assert len(written) == 3 + 1, written
    document = json.loads("".join(written))
    assert [record["seq"] for record in document["records"]] == [1, 2, 3, 4, 5, 6]
    assert document["format"] == "flowyard.audit-chain/1" and list(document["heads"]) == [f"flow:{flow_id}"]
    export = tmp_path / "chain.json"
    export.write_text("".join(written))
    assert cli(queue, "--file", str(export)).returncode == 0


def test_an_export_is_read_in_any_key_order_and_anything_else_is_refused(
    decided: tuple[Queue, int, list[int]], tmp_path: Path
) -> None:
    """`audit verify --file` reads the export a record at a time (ijson): the keys in any order verify the
    same; a file that is no chain export is refused with its reason code, never taken as an intact chain
    of nothing."""
    from tests.api.support import app_client, auth, make_user

    queue, flow_id, _ = decided
    token = make_user(queue.url, f"auditor{flow_id}", f"audit:{flow_id}")
    with app_client(queue.url) as client:
        document = client.get(f"/api/audit/chain?flow={flow_id}", headers=auth(token)).json()
    export = tmp_path / "chain.json"
    reordered = {"heads": document["heads"], "records": document["records"], "format": document["format"]}
    export.write_text(json.dumps(reordered, indent=2))
    result = cli(queue, "--file", str(export), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["records"] == len(document["records"]) == 7

    record = document["records"][0]
    refused = {
        "not JSON": '{"format": "flowyard.audit-chain/1", "records": [',
        "another format": json.dumps({**document, "format": "flowyard.flow/1"}),
        "no format": json.dumps({"records": document["records"], "heads": document["heads"]}),
        "no heads": json.dumps({"format": document["format"], "records": document["records"]}),
        "no records": json.dumps({"format": document["format"], "heads": document["heads"]}),
        "records no list": json.dumps({**document, "records": {"0": record}}),
        "a record no object": json.dumps({**document, "records": [record, 5]}),
        "a record with a field more": json.dumps({**document, "records": [{**record, "by": "x"}]}),
        "a record without its hash": json.dumps(
            {**document, "records": [{key: value for key, value in record.items() if key != "hash"}]}
        ),
        "heads no object": json.dumps({**document, "heads": ["x"]}),
        "a head no text": json.dumps(
            {**document, "heads": {chain_name: 5 for chain_name in document["heads"]}}
        ),
        "a key twice": json.dumps(document)[:-1] + ', "records": []}',
        "a key of another export": json.dumps({**document, "records.item": record}),
        "a record nested": json.dumps({**document, "records": [{**record, "content": {"a": 1}}]}),
        "nested a hundred thousand deep": '{"format": "flowyard.audit-chain/1", "x": ' + "[" * 100_000,
        "a second document": json.dumps(document) + " {}",
    }
    for why, text in refused.items():
        export.write_text(text)
        result = cli(queue, "--file", str(export))
        assert result.returncode == 1, (why, result.stdout)
        assert "(audit_chain_export_invalid)" in result.stderr, (why, result.stderr)


def test_a_tail_removed_is_a_break_while_a_chain_decided_on_meanwhile_is_none(
    decided: tuple[Queue, int, list[int]], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Two chains: one whose last record was removed by hand under its head, one a person decides on while
    the verify reads. The first is a break for the verify, the export and --since-last, the second none;
    and each of them ends (a head past records that are gone is not waited for)."""
    from tests.api.support import app_client, auth, make_user

    queue, flow_id, _ = decided
    other = queue.save(approval_flow())
    cut, decided_on = f"flow:{flow_id}", f"flow:{other}"
    by_hand(queue, "audit_chain", f"DELETE FROM audit_chain WHERE chain = '{cut}' AND seq = 6")
    token = make_user(queue.url, f"auditor{flow_id}", "audit")

    def heads_broken(breaks: list[Any]) -> set[str]:
        """Of the two chains, those whose head is a break (the module's other tests break chains of their
        own in this database)."""
        return {cut, decided_on} & {
            b.chain if isinstance(b, Break) else b["chain"]
            for b in breaks
            if _code(b) == "chain_head_mismatch"
        }

    deciding_during_the_first_read(monkeypatch, chain, queue, _pending(queue, other), f"ann{flow_id}")
    found = verdict(queue)
    assert heads_broken(found.breaks) == {cut}, found.breaks
    assert found.reached[decided_on][0] == 2, "the decision made meanwhile and its vote were read"

    deciding_during_the_first_read(monkeypatch, chain, queue, _pending(queue, other), f"ann{flow_id}")
    with app_client(queue.url) as client:
        document = client.get("/api/audit/chain", headers=auth(token)).json()
    export = tmp_path / "chain.json"
    export.write_text(json.dumps(document))
    result = cli(queue, "--file", str(export), "--json")
    assert result.returncode == 1
    assert heads_broken(json.loads(result.stdout)["breaks"]) == {cut}

    deciding_during_the_first_read(monkeypatch, chain, queue, _pending(queue, other), f"ann{flow_id}")
    since = asyncio.run(_since_last(queue, None))
    assert heads_broken(since.breaks) == {cut}, since.breaks
    assert since.reached[decided_on][0] == 6


def _code(found: Any) -> str:
    return str(found.code if isinstance(found, Break) else found["code"])
