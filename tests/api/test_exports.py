"""The audit exports as downloads: the CSV starts with a UTF-8 byte-order mark (Excel on Japanese or German
Windows reads it as UTF-8 only then) unless `bom=false`, and the JSON download is named like the CSV."""

from __future__ import annotations

import json

import psycopg

from backend.approvals.audit import COLUMNS, column_label
from tests.api.support import app_client, approval_and_delay_flow, auth, csv_rows, make_user
from tests.support import Queue

BOM = "\ufeff".encode()


def test_both_exports_download_a_csv_with_a_byte_order_mark_and_a_json_named_alike(queue: Queue) -> None:
    author = make_user(queue.url, "autor", "edit", "run")
    approver = make_user(queue.url, "shonin", "decide", groups=("finance",))
    auditor = make_user(queue.url, "kansa", "audit")
    japanese = auth(auditor, **{"Accept-Language": "ja"})
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=approval_and_delay_flow(), headers=auth(author)).json()["id"]
        api.post(f"/api/flows/{flow_id}/runs", json={"input": {"invoice": "R-1"}}, headers=auth(author))
        queue.drain()
        [approval] = api.get("/api/approvals", headers=auth(approver)).json()["approvals"]
        api.post(
            f"/api/approvals/{approval['id']}/decision", json={"outcome": "approve"}, headers=auth(approver)
        )
        answers = {
            (path, form): api.get(path, params=params, headers=japanese)
            for path in ("/api/audit/export", "/api/audit/runs")
            for form, params in (("csv", {}), ("plain", {"bom": "false"}), ("json", {"format": "json"}))
        }
        refused = api.get("/api/audit/export", params={"bom": "no"}, headers=japanese)

    for path, name in (("/api/audit/export", "flowyard-decisions"), ("/api/audit/runs", "flowyard-runs")):
        csv_answer, plain, as_json = (answers[path, form] for form in ("csv", "plain", "json"))
        assert csv_answer.status_code == plain.status_code == as_json.status_code == 200
        assert csv_answer.headers["content-disposition"] == f'attachment; filename="{name}.csv"'
        assert plain.headers["content-disposition"] == f'attachment; filename="{name}.csv"'
        assert as_json.headers["content-disposition"] == f'attachment; filename="{name}.json"'
        assert csv_answer.content.startswith(BOM) and csv_answer.content[len(BOM) :] == plain.content
        assert not plain.content.startswith(BOM) and not as_json.content.startswith(BOM)
        assert as_json.headers["content-type"].startswith("application/json")
        assert json.loads(as_json.content), "the JSON download holds the rows"

    header, row = csv_rows(answers["/api/audit/export", "csv"])
    assert header == [column_label(column, "ja") for column in COLUMNS]
    assert dict(zip(COLUMNS, row, strict=True))["decided_by"] == "shonin"
    assert (refused.status_code, refused.json()["error"]["code"]) == (400, "request_query_invalid")


def test_an_export_without_a_limit_streams_every_decision_and_a_limit_gives_one_page(queue: Queue) -> None:
    """The page's Export link sends its filter and no limit: the reader gets every decision it finds (the
    first thousand before, a silent cut), written a page at a time as it is sent (no length announced)."""
    auditor = make_user(queue.url, "pruefer", "audit")
    flow_id = queue.save(approval_and_delay_flow())
    decided = 2345  # more than two of the export's thousand-row pages
    with psycopg.connect(queue.url) as conn:
        conn.execute("ALTER TABLE approvals DISABLE TRIGGER approvals_chained")  # no chain is read here
        conn.execute(
            "INSERT INTO approvals (run_id, flow_id, version, node, visit, title, explanation, approvers,"
            " requested_at, outcome, decided_by, decided_at)"
            " SELECT 700000 + g, %s, 1, 'ask', 1, 'Rechnung ' || g, '', '{}', now() - interval '1 day',"
            " 'approved', 'ann', now() - g * interval '1 second' FROM generate_series(1, %s) AS g",
            (flow_id, decided),
        )
        conn.execute("ALTER TABLE approvals ENABLE TRIGGER approvals_chained")
    german = auth(auditor, **{"Accept-Language": "de"})
    with app_client(queue.url) as api:
        whole = api.get("/api/audit/export", params={"flow": flow_id}, headers=german)
        as_json = api.get("/api/audit/export", params={"flow": flow_id, "format": "json"}, headers=german)
        page = api.get("/api/audit/export", params={"flow": flow_id, "limit": 1000}, headers=german)

    assert whole.status_code == as_json.status_code == page.status_code == 200
    assert "content-length" not in whole.headers and "content-length" not in as_json.headers
    header, *rows = csv_rows(whole)
    assert header == [column_label(column, "de") for column in COLUMNS]
    runs = [int(dict(zip(COLUMNS, row, strict=True))["run"]) for row in rows]
    assert runs == [700000 + g for g in range(decided, 0, -1)], "each once, the oldest decision first"
    assert [row["run"] for row in json.loads(as_json.content)] == runs
    assert len(csv_rows(page)) == 1 + 1000 and page.headers["x-next-cursor"]


def test_an_export_that_cannot_read_its_first_page_answers_an_error_not_a_200_cut_short(queue: Queue) -> None:
    """The streamed answers (the decisions as CSV and JSON, the chain to verify offline) read their first
    page before the status goes out: a statement that fails there is an error answer with its code. Made
    to fail for real: the table each reads is renamed away for the time of the requests."""
    auditor = make_user(queue.url, "leser", "audit")
    asked: dict[str, list[tuple[str, dict[str, str]]]] = {
        "approvals": [("/api/audit/export", {}), ("/api/audit/export", {"format": "json"})],
        "audit_chain": [("/api/audit/chain", {})],
    }
    answers = []
    with app_client(queue.url) as api, psycopg.connect(queue.url, autocommit=True) as conn:
        for table, requests in asked.items():
            conn.execute(f"ALTER TABLE {table} RENAME TO {table}_away")
            try:
                answers += [api.get(path, params=params, headers=auth(auditor)) for path, params in requests]
            finally:
                conn.execute(f"ALTER TABLE {table}_away RENAME TO {table}")
        whole = api.get("/api/audit/chain", headers=auth(auditor))
    assert [(answer.status_code, answer.json()["error"]["code"]) for answer in answers] == [
        (500, "internal_error")
    ] * 3
    assert whole.status_code == 200 and json.loads(whole.content)["format"] == "flowyard.audit-chain/1"


def test_the_streamed_exports_hold_one_connection_at_a_time(queue: Queue) -> None:
    """An export checks the reader's rights on a connection and gives it back before it reads its first
    page on another: with a pool of one connection every export is answered, where holding the first
    while waiting for the second answered 503 database_unavailable after the pool's wait."""
    auditor = make_user(queue.url, "einzeln", "audit")
    with app_client(queue.url, api_pool_size=1) as api:
        answers = [
            api.get(path, params=params, headers=auth(auditor))
            for path, params in (
                ("/api/audit/export", {}),
                ("/api/audit/export", {"format": "json"}),
                ("/api/audit/export", {"limit": 10}),
                ("/api/audit/chain", {}),
            )
        ]
    assert [answer.status_code for answer in answers] == [200] * 4, [answer.text for answer in answers]
    assert json.loads(answers[3].content)["format"] == "flowyard.audit-chain/1"
