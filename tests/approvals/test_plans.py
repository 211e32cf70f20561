"""The approvals' statements (a table that grows forever), and the flows' and people's, explained at scale:
none reads a growing table whole."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import psycopg
import pytest
from psycopg import sql

from backend.approvals.audit import TEXT_WINDOW, AuditFilter
from backend.approvals.audit import _params as audit_params
from backend.approvals.evidence import QUERIES as EVIDENCE
from backend.approvals.heads_mail import QUERIES as HEADS_MAIL
from backend.approvals.records import QUERIES as APPROVALS
from backend.approvals.since_last import QUERIES as VERIFIED
from backend.flows.store import QUERIES as FLOWS
from backend.observability.queries import QUERIES as GAUGES
from backend.people.accounts import QUERIES as PEOPLE
from tests.store.test_roles import APP_PRIVILEGES, as_app
from tests.store.test_roles import ROLE as APP_ROLE
from tests.support import Queue, flow, plan_text, sequential_scans

PARAMS: dict[str, Any] = {
    "run_id": 1,
    "flow_id": 1,
    "window": "15 minutes",
    "version": 1,
    "node": "n",
    "visit": 1,
    "title": "t",
    "explanation": "e",
    "approvers": [],
    "deadline": None,
    "on_timeout": None,
    "now": None,
    "id": 1,
    "outcome": "approved",
    "by": "u",
    "comment": None,
    "name": "u",
    "principals": ["user:u"],
    "limit": 100,
    "after_at": None,
    "after_id": None,
    "before_id": None,
    "decider": None,
    "since": None,
    "until": None,
    "text": None,
    "after": None,
    "retention": "30 days",
    "document": None,
    "user": "u",
    "before": None,
    "digest": "d",
    "password_hash": None,
    "locale": None,
    "time_zone": "UTC",
    "group": "g",
    "right": "decide",
    "token_hash": "t",
    "id_hash": "h",
    "csrf": "c",
    "lifetime": "1 hour",
    "address": "10.0.0.1",
    "max_address": 30,
    "max_name": 10,
    "value": "never",
    "actor": "cli",
    "server": "web-1",
    "expires_in": None,
    "only": None,
    "email": None,
    "approval_id": 1,
    "user_names": ["u"],
    "group_names": ["g"],
    "lease": "2 minutes",
    "attempts": 1,
    "status": "sent",
    "error": None,
    "backoff": "1 minute",
    "max_attempts": 5,
    "voter": "u",
    "on_behalf_of": None,
    "vote": "approve",
    "line_code": "approval_vote_approve",
    "ids": [1],
    "keep": [1],
    "quorum": 1,
    "reject": "any",
    "allow_self_approval": False,
    "remind_after": [],
    "escalate_after": None,
    "escalate_to": [],
    "round": 1,
    "chain": "flow:1",
    "sent": 1,
    "from_user": "u1",
    "to_user": "u2",
    "starts_at": None,
    "ends_at": None,
    "shown": "[]",
    "with_values": True,
    "run_ids": [1, 2],
    "approval": 1,
    "scan": 20000,
    "description": None,
    "run": 1,
    "flow": 1,
    "first": 1,
    "last": 10,
    "users": ["u1"],
    "at": "2026-01-01T00:00:00+00:00",
    "chains": ["flow:1"],
    "seqs": [1],
    "hashes": ["h"],
    "key": "k",
    "line": "{}",
}
GROWING = {
    *("approvals", "flows", "flow_versions", "runs", "tokens", "sessions", "login_failures", "rights_trail"),
    "approval_mails",
    *("approval_votes", "delegations", "audit_chain"),
}
# Statements that read what is small by nature (one user's grants and groups), or write one row.
SMALL = {"declare_retention_sweep"}
STATEMENTS = {
    **{f"approvals.{n}": q for n, q in APPROVALS.items()},
    **{f"flows.{n}": q for n, q in FLOWS.items()},
    **{f"people.{n}": q for n, q in PEOPLE.items()},
    **{f"evidence.{n}": q for n, q in EVIDENCE.items()},
    # `audit verify --since-last`: one chain's records after its point, its rows written since a moment.
    **{f"verified.{n}": q for n, q in VERIFIED.items()},
    # The signed heads' outbox: one row per signing (hourly at most), claimed by its partial index.
    **{f"heads_mail.{n}": q for n, q in HEADS_MAIL.items()},
    # The metrics' gauges: approvals_waiting counts open approvals here; waits_due is planned on
    # tests/events/test_plans.py's waits.
    **{f"observability.{n}": q for n, q in GAUGES.items()},
}


@pytest.fixture(scope="module")
def big_trail(database_url: str) -> Queue:
    """100,000 approvals (most decided, over a year), 20,000 flows, tokens and sessions."""
    queue = Queue(database_url)
    queue.save(flow("start:trigger", wires=[]))
    with psycopg.connect(database_url) as conn:
        # Every rights change appends to the global chain, one head-row update at a time: 40,000 of them
        # in one transaction each walk the head's earlier versions, minutes in all. The plans are measured
        # on the decisions' chain records written below; the rights trail's rows go in unchained.
        conn.execute("ALTER TABLE rights_trail DISABLE TRIGGER rights_trail_chained")
        conn.execute("INSERT INTO users (name) SELECT 'u' || g FROM generate_series(1, 20000) AS g")
        conn.execute("INSERT INTO users (name) VALUES ('u')")
        conn.execute("INSERT INTO grants (user_name, \"right\", flow_id) VALUES ('u', 'audit', NULL)")
        conn.execute(
            "INSERT INTO flows (name, latest_version) SELECT 'f' || g, 1 FROM generate_series(1, 20000) AS g"
        )
        conn.execute(
            "INSERT INTO flow_versions (flow_id, version, document)"
            " SELECT id, 1, '{}' FROM flows WHERE id > 1"
        )
        # The chain's trigger appends one record at a time (about 1,000 a second): the 98,000 decided rows
        # go in without it, and their chain records in one statement after (hashes stand-ins: no plan
        # reads them).
        conn.execute("ALTER TABLE approvals DISABLE TRIGGER approvals_chained")
        conn.execute(
            "INSERT INTO approvals (run_id, flow_id, version, node, visit, title, explanation, approvers,"
            " requested_at, outcome, decided_by, decided_at)"
            " SELECT g, 1 + g % 20000, 1, 'ask', 1, 'Pay invoice ' || g || ' of supplier ' || g % 500,"
            " 'Amount over the limit', '{}', now() - g * interval '5 minutes',"
            " CASE WHEN g % 50 = 0 THEN NULL ELSE 'approved' END,"
            " CASE WHEN g % 50 = 0 THEN NULL ELSE 'u' || g % 20 END,"
            " CASE WHEN g % 50 = 0 THEN NULL ELSE now() - g * interval '4 minutes' END"
            " FROM generate_series(1, 100000) AS g"
        )
        conn.execute("ALTER TABLE approvals ENABLE TRIGGER approvals_chained")
        conn.execute(
            "INSERT INTO audit_chain (chain, seq, kind, ref_id, content, prev_hash, hash)"
            " SELECT 'flow:' || flow_id, row_number() OVER (PARTITION BY flow_id ORDER BY id), 'decision',"
            " id, '{}', md5(id::text), md5((-id)::text) FROM approvals WHERE outcome IS NOT NULL"
        )
        conn.execute(
            "INSERT INTO audit_chain_heads (chain, seq, hash)"
            " SELECT DISTINCT ON (chain) chain, seq, hash FROM audit_chain WHERE kind = 'decision'"
            " ORDER BY chain, seq DESC"
            " ON CONFLICT (chain) DO UPDATE SET seq = EXCLUDED.seq, hash = EXCLUDED.hash"
        )
        conn.execute(
            "INSERT INTO runs (flow_id, version, status, trigger_kind, started_by)"
            " SELECT 1 + g % 20000, 1, 'succeeded', 'manual', 'u' FROM generate_series(1, 20000) AS g"
        )
        conn.execute(
            "INSERT INTO approval_mails (approval_id, user_name, key, status, attempts)"
            " SELECT id, 'u' || id % 20, 'k' || id,"
            " CASE WHEN outcome IS NULL THEN 'pending' ELSE 'sent' END, 1"
            " FROM approvals"
        )
        conn.execute(
            "INSERT INTO tokens (user_name, token_hash)"
            " SELECT 'u' || g, md5(g::text) FROM generate_series(1, 20000) g"
        )
        conn.execute(
            "INSERT INTO sessions (id_hash, user_name, csrf_token, expires_at)"
            " SELECT md5(g::text), 'u' || g, 'c', now() + interval '1 hour' FROM generate_series(1, 20000) g"
        )
        conn.execute(
            "INSERT INTO login_failures (user_name, address, at)"
            " SELECT 'u' || g % 5000, '10.0.' || g % 200 || '.1', now() - g * interval '1 second'"
            " FROM generate_series(1, 20000) g"
        )
        conn.execute(
            "INSERT INTO runs (flow_id, version, status, trigger_kind)"
            " SELECT 1, 1, 'succeeded', 'manual' FROM generate_series(1, 20000)"
        )
        # Votes unchained too: the 98,000 decisions' records above are the chain the plans are measured on.
        conn.execute("ALTER TABLE approval_votes DISABLE TRIGGER approval_votes_chained")
        conn.execute(
            "INSERT INTO approval_votes (approval_id, flow_id, voter, vote, cast_at)"
            " SELECT id, flow_id, decided_by, 'approve', decided_at FROM approvals"
            " WHERE outcome IS NOT NULL AND id % 5 = 0"
        )
        conn.execute(
            "INSERT INTO delegations (from_user, to_user, starts_at, ends_at, created_by)"
            " SELECT 'u' || g, 'u' || (g % 20000 + 1), now() - g * interval '1 hour',"
            " now() - g * interval '1 hour' + interval '7 days', 'u' FROM generate_series(1, 20000) g"
        )
        conn.execute("ALTER TABLE approval_votes ENABLE TRIGGER approval_votes_chained")
        conn.execute("ALTER TABLE rights_trail ENABLE TRIGGER rights_trail_chained")
        conn.commit()
        conn.autocommit = True
        conn.execute("VACUUM ANALYZE")
    return queue


@pytest.mark.parametrize("name", sorted(set(STATEMENTS) - {f"approvals.{n}" for n in SMALL}))
def test_no_statement_reads_a_growing_table_whole(big_trail: Queue, name: str) -> None:
    scans = sequential_scans(big_trail.url, STATEMENTS[name], PARAMS, GROWING)
    assert scans == [], f"{name} scans {scans}:\n{plan_text(big_trail.url, STATEMENTS[name], PARAMS)}"


@pytest.mark.parametrize(
    "where",
    [
        {},
        {"flow_id": 7},
        {"decider": "u3"},
        {"outcome": "approved"},
        {"since": "2026-01-01T00:00:00+00:00", "until": "2026-02-01T00:00:00+00:00"},
        {"text": "invoice 4711 "},  # one decision in 100,000: the text index, not the whole trail
        {"text": "請求書"},  # no decision holds it: the index says so at once
    ],
)
def test_every_audit_filter_reads_an_index(big_trail: Queue, where: dict[str, Any]) -> None:
    params = {**PARAMS, "flow_id": None, "outcome": None, **where}
    scans = sequential_scans(big_trail.url, APPROVALS["audit"], params, GROWING)
    assert scans == [], (
        f"audit {where} scans {scans}:\n{plan_text(big_trail.url, APPROVALS['audit'], params)}"
    )


@pytest.mark.parametrize("text", ["invoice 4711 ", "請求書"])
def test_a_text_searched_for_is_looked_up_in_the_text_index(big_trail: Queue, text: str) -> None:
    """Two- and three-character pieces, so that Japanese (no spaces between words) is found as English is."""
    params = {**PARAMS, "flow_id": None, "outcome": None, "text": text}
    assert "approvals_text_pieces" in plan_text(big_trail.url, APPROVALS["audit"], params)


def test_the_trail_holds_what_the_plans_were_measured_on(big_trail: Queue) -> None:
    assert big_trail.one("SELECT count(*) FROM approvals") == (100000,)
    assert big_trail.one("SELECT count(*) FROM approvals WHERE outcome IS NULL") == (2000,)


def test_a_week_starts_the_index_scan_at_its_first_day(big_trail: Queue) -> None:
    """`since` is where the page's key starts (audit.py): a scan from the first decision ever read a year
    of them for the last week."""
    where = AuditFilter(since=datetime(2026, 1, 1, tzinfo=UTC), until=datetime(2026, 2, 1, tzinfo=UTC))
    params = {**PARAMS, **audit_params(where, None, None, 101, TEXT_WINDOW)}
    plan = plan_text(big_trail.url, APPROVALS["audit"], params)
    ordered = plan.split("CTE hits")[0]  # the index scan of the decisions in order
    assert "ROW(decided_at, id) > ROW(" in ordered and "-infinity" not in ordered, plan


def test_a_text_is_looked_up_by_its_pieces_that_most_decisions_lack(big_trail: Queue) -> None:
    """Every decision's title says "Pay invoice ... of supplier ...": those pieces rule out nothing, and
    reading their lists of the index would cost more than the rest of the search. A text of three
    characters or more is looked up by its three-character pieces, rarer than its two-character ones."""
    assert set(_search_pieces(big_trail, "Invoice 4711 ")) == {"e 4", " 47", "471", "711", "11 "}
    every = _search_pieces(big_trail, "pay invoice")  # all of them common: all of them, as before
    assert "inv" in every and len(every) == len({"pay invoice"[i : i + 3] for i in range(9)})
    assert _search_pieces(big_trail, "請求") == ["請求"]  # two characters: the one piece of two
    assert _search_pieces(big_trail, "x") == []  # one: every decision is a candidate, the text decides


def test_a_text_is_looked_up_by_all_its_pieces_before_the_index_was_counted(
    migrated_databases: Callable[[], str],
) -> None:
    queue = Queue(migrated_databases())  # nothing decided, nothing counted
    assert sorted(_search_pieces(queue, "Pay invoice")) == sorted(
        {"pay invoice"[i : i + 3] for i in range(9)}
    )


def test_the_apps_role_that_owns_nothing_drops_the_common_pieces_too(big_trail: Queue) -> None:
    """An index's statistics are its owner's to read (pg_stats): the app's role (docs/security.md) asks
    through a function that runs as the owner."""
    with psycopg.connect(big_trail.url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(ROLE)))
        conn.execute(
            sql.SQL("CREATE ROLE {} NOSUPERUSER NOCREATEDB NOCREATEROLE").format(sql.Identifier(ROLE))
        )
        for statement in APP_PRIVILEGES:
            conn.execute(sql.SQL(statement).format(role=sql.Identifier(ROLE)))
    try:
        with as_app(big_trail.url, ROLE) as conn:
            row = conn.execute("SELECT audit_search_pieces(lower('Invoice 4711 '))").fetchone()
            seen = conn.execute(
                "SELECT count(*) FROM pg_stats WHERE tablename = 'approvals_text_pieces'"
            ).fetchone()
        assert row is not None and isinstance(row[0], list)
        assert set(row[0]) == {"e 4", " 47", "471", "711", "11 "}
        assert seen == (0,)  # what the function is for: the role itself is shown nothing
    finally:
        with psycopg.connect(big_trail.url, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(ROLE)))
            conn.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(ROLE)))


ROLE = f"{APP_ROLE}_stats"


def _search_pieces(queue: Queue, text: str) -> list[str]:
    row = queue.one("SELECT audit_search_pieces(lower(%s))", text)
    assert row is not None
    return list(row[0])


def test_the_previous_releases_text_lookup_still_runs_during_an_upgrade(big_trail: Queue) -> None:
    """Old processes serve until they are stopped (docs/deploy.md): their statement's function stays,
    though its index is gone."""
    old = (
        "SELECT count(*) FROM approvals WHERE outcome IS NOT NULL"
        " AND audit_grams(audit_text(title, explanation, comment)) @> audit_grams(lower('Invoice 4711 '))"
        " AND strpos(lower(title), 'invoice 4711 ') > 0"
    )
    assert big_trail.one(old) == (1,)
