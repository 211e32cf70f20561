"""Nine languages through the API: refusals, the frontend's catalogs, and an auditor's export."""

from __future__ import annotations

from backend.approvals.audit import COLUMNS, column_label
from backend.i18n.catalogs import LOCALES, message
from tests.api.support import app_client, approval_and_delay_flow, auth, csv_rows, make_user
from tests.support import Queue

ACCEPT = {
    "en": "en",
    "de": "de-DE",
    "fr": "fr-CA",
    "es": "es",
    "it": "it-IT",
    "nl": "nl",
    "pl": "pl",
    "pt_BR": "pt-BR",
    "ja": "ja-JP",
}


def test_a_refusal_reads_in_each_of_the_nine_languages(queue: Queue) -> None:
    with app_client(queue.url) as api:
        messages = {
            locale: api.get("/api/me", headers={"Accept-Language": ACCEPT[locale]}).json()["error"]
            for locale in LOCALES
        }
    assert {error["code"] for error in messages.values()} == {"auth_required"}
    texts = [error["message"] for error in messages.values()]
    assert len(set(texts)) == 9, "each language its own sentence"
    assert all(text and text != "auth_required" for text in texts)


def test_a_reader_of_european_or_african_portuguese_reads_the_brazilian_catalog(queue: Queue) -> None:
    with app_client(queue.url) as api:
        said = {
            tag: api.get("/api/me", headers={"Accept-Language": tag}).json()["error"]["message"]
            for tag in ("pt-BR", "pt-PT", "pt-AO", "pt", "en")
        }
    assert said["pt-PT"] == said["pt-AO"] == said["pt"] == said["pt-BR"] == message("auth_required", "pt_BR")
    assert said["pt-PT"] != said["en"]


def test_the_frontend_gets_each_catalog_flat_and_complete(queue: Queue) -> None:
    token = make_user(queue.url, "reader", "audit")
    with app_client(queue.url) as api:
        english = api.get("/api/i18n/en", headers=auth(token)).json()
        japanese = api.get("/api/i18n/ja", headers=auth(token)).json()
        missing = api.get("/api/i18n/tlh", headers=auth(token))
    # The same keys, but for i18next's plural keys, one per plural category of each language.
    plural = ("_zero", "_one", "_two", "_few", "_many", "_other")
    assert {k for k in english if not k.endswith(plural)} == {k for k in japanese if not k.endswith(plural)}
    assert all("." not in key for key in english), "keys never split at dots"
    assert english["node_type_approval"] != japanese["node_type_approval"]
    assert (missing.status_code, missing.json()["error"]["code"]) == (404, "locale_not_found")


def test_a_german_auditors_csv_export_has_german_dates(queue: Queue) -> None:
    author = make_user(queue.url, "autor", "edit", "run")
    approver = make_user(queue.url, "pruefer", "decide", groups=("finance",))
    auditor = make_user(queue.url, "revision", "audit")
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=approval_and_delay_flow(), headers=auth(author)).json()["id"]
        api.post(f"/api/flows/{flow_id}/runs", json={"input": {"invoice": "R-1"}}, headers=auth(author))
        queue.drain()
        [approval] = api.get("/api/approvals", headers=auth(approver)).json()["approvals"]
        api.post(
            f"/api/approvals/{approval['id']}/decision", json={"outcome": "reject"}, headers=auth(approver)
        )
        german = api.get(
            "/api/audit/export", params={"format": "csv"}, headers=auth(auditor, **{"Accept-Language": "de"})
        )
        english = api.get("/api/audit/export", params={"format": "json"}, headers=auth(auditor))
    assert german.headers["content-type"].startswith("text/csv")
    header, values = csv_rows(german)
    row = dict(zip(COLUMNS, values, strict=True))
    assert header == [column_label(column, "de") for column in COLUMNS]
    decided = english.json()[0]["decided_at_utc"]
    year, month, day = decided[:10].split("-")
    assert row["decided_at_utc"] == decided
    assert row["decided_at_local"].startswith(f"{day}.{month}.{year}"), row["decided_at_local"]
    assert english.json()[0]["decided_at_local"] != row["decided_at_local"]
    assert (row["outcome"], row["outcome_code"], row["decided_by"]) == ("Abgelehnt", "rejected", "pruefer")
