"""What a person reads through the API is in their language and time zone: plural forms, cited codes as
sentences, dates in the reader's zone with the zone named, the audit CSV, and the pseudo-locale."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from backend.approvals.audit import COLUMNS
from backend.i18n.zones import format_moment
from tests.api.support import app_client, approval_and_delay_flow, auth, csv_rows, make_user
from tests.support import Queue


def loop_flow() -> dict[str, Any]:
    return {
        "format": "flowyard.flow/1",
        "name": "Passes",
        "nodes": [
            {"id": "start", "type": "trigger", "config": {"kind": "manual"}},
            {"id": "each", "type": "foreach", "config": {"items": "{{trigger.items}}", "as": "item"}},
            {"id": "say", "type": "log", "config": {"message": "item {{item}}"}},
        ],
        "wires": [{"from": "start", "to": "each"}, {"from": "each", "port": "body", "to": "say"}],
    }


def test_a_polish_reader_gets_the_plural_form_of_each_count(queue: Queue) -> None:
    ola = make_user(queue.url, "ola", "edit", "run")
    polish = auth(ola, **{"Accept-Language": "pl"})
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=loop_flow(), headers=auth(ola)).json()["id"]
        runs = {
            count: api.post(
                f"/api/flows/{flow_id}/runs", json={"input": {"items": list(range(count))}}, headers=auth(ola)
            ).json()["run"]
            for count in (1, 3, 5)
        }
        queue.drain()
        finished = {
            count: [
                line
                for line in api.get(f"/api/runs/{run}", headers=polish).json()["journal"]
                if line["code"] == "loop_finished"
            ]
            for count, run in runs.items()
        }
    assert finished[1][0]["message"] == "Pętla each wykonała 1 przebieg i zakończyła się."
    assert finished[3][0]["message"] == "Pętla each wykonała 3 przebiegi i zakończyła się."
    assert finished[5][0]["message"] == "Pętla each wykonała 5 przebiegów i zakończyła się."
    assert finished[5][0]["data"] == {"passes": 5}, "the count stays a number beside the sentence"


def test_a_user_sets_a_known_time_zone_and_an_unknown_one_is_refused(queue: Queue) -> None:
    token = make_user(queue.url, "udo", "edit")
    with app_client(queue.url) as api:
        assert api.get("/api/me", headers=auth(token)).json()["time_zone"] is None
        refused = api.put(
            "/api/me", json={"time_zone": "Mars/Olympus"}, headers=auth(token, **{"Accept-Language": "de"})
        )
        assert refused.status_code == 422
        error = refused.json()["error"]
        assert error["code"] == "user_time_zone_unknown" and error["detail"] == {"time_zone": "Mars/Olympus"}
        assert error["message"].startswith("Mars/Olympus ist keine Zeitzone")
        assert queue.one("SELECT time_zone FROM users WHERE name = 'udo'") == (None,)

        stored = api.put("/api/me", json={"time_zone": "Europe/Berlin"}, headers=auth(token))
        assert stored.json() == {"locale": None, "time_zone": "Europe/Berlin"}
        assert api.get("/api/me", headers=auth(token)).json()["time_zone"] == "Europe/Berlin"
        both = api.put("/api/me", json={"locale": "de", "time_zone": "Asia/Tokyo"}, headers=auth(token))
        assert both.json() == {"locale": "de", "time_zone": "Asia/Tokyo"}
        assert api.put("/api/me", json={}, headers=auth(token)).status_code == 422
    assert queue.one("SELECT locale, time_zone FROM users WHERE name = 'udo'") == ("de", "Asia/Tokyo")


def _decided(queue: Queue, api: Any, author: str, approver: str) -> int:
    flow_id = api.post("/api/flows", json=approval_and_delay_flow(), headers=auth(author)).json()["id"]
    api.post(f"/api/flows/{flow_id}/runs", json={"input": {"invoice": "R-1"}}, headers=auth(author))
    queue.drain()
    [approval] = api.get("/api/approvals", headers=auth(approver)).json()["approvals"]
    decided = api.post(
        f"/api/approvals/{approval['id']}/decision", json={"outcome": "reject"}, headers=auth(approver)
    )
    assert decided.status_code == 200
    return int(approval["id"])


def test_a_german_auditors_csv_has_german_headers_outcomes_and_dates_in_the_auditors_zone(
    queue: Queue,
) -> None:
    author = make_user(queue.url, "autor", "edit", "run")
    approver = make_user(queue.url, "pruefer", "decide", groups=("finance",))
    auditor = make_user(queue.url, "revision", "audit")
    with app_client(queue.url) as api:
        _decided(queue, api, author, approver)
        api.put("/api/me", json={"locale": "de", "time_zone": "Europe/Berlin"}, headers=auth(auditor))
        exported = api.get("/api/audit/export", params={"format": "csv"}, headers=auth(auditor))
    header, values = csv_rows(exported)
    row = dict(zip(COLUMNS, values, strict=True))
    assert header[:2] == ["Genehmigung", "Lauf"], header
    assert "Entschieden am (Ihre Zeit)" in header and "Frist (Ihre Zeit)" in header
    assert (row["outcome"], row["outcome_code"]) == ("Abgelehnt", "rejected")
    assert (row["on_timeout"], row["on_timeout_code"]) == ("Ablehnen", "reject")
    berlin = ZoneInfo("Europe/Berlin")
    for local, utc in (
        ("decided_at_local", "decided_at_utc"),
        ("requested_at_local", "requested_at_utc"),
        ("deadline_at_local", "deadline_at_utc"),
    ):
        moment = datetime.fromisoformat(row[utc])
        assert row[utc].endswith("+00:00"), "programs get ISO 8601 in UTC"
        assert row[local] == format_moment(moment, "de", tz=berlin)
        assert row[local].endswith(("Mitteleuropäische Normalzeit", "Mitteleuropäische Sommerzeit"))
        day = moment.astimezone(berlin)
        assert row[local].startswith(f"{day:%d.%m.%Y, %H:%M}"), row[local]


def test_a_date_in_an_api_message_is_in_the_readers_zone_and_names_it(queue: Queue) -> None:
    kenji = make_user(queue.url, "kenji", "edit")
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=loop_flow(), headers=auth(kenji)).json()["id"]
        saved = api.put(f"/api/flows/{flow_id}", params={"base": 1}, json=loop_flow(), headers=auth(kenji))
        assert saved.json()["version"] == 2
        api.put("/api/me", json={"locale": "ja", "time_zone": "Asia/Tokyo"}, headers=auth(kenji))
        stale = api.put(f"/api/flows/{flow_id}", params={"base": 1}, json=loop_flow(), headers=auth(kenji))
    error = stale.json()["error"]
    assert (stale.status_code, error["code"]) == (409, "flow_version_stale")
    tokyo = datetime.fromisoformat(error["detail"]["saved_at"]).astimezone(ZoneInfo("Asia/Tokyo"))
    # Japanese writes the hour without a leading zero (CLDR's "H:mm"): 0:50 after midnight, 15:05 later.
    written = f"{tokyo:%Y/%m/%d} {tokyo.hour}:{tokyo:%M:%S}"
    assert written in error["message"] and "日本標準時" in error["message"], error["message"]


def test_the_pseudo_locale_is_served_when_asked_for_by_name(queue: Queue) -> None:
    token = make_user(queue.url, "xavier", "edit")
    with app_client(queue.url) as api:
        pseudo = api.get("/api/i18n/en-XA").json()
        missing = api.get("/api/flows/999", headers=auth(token, **{"Accept-Language": "en-XA"})).json()
        german_first = api.get("/api/flows/999", headers=auth(token, **{"Accept-Language": "de, en-XA"}))
    assert pseudo["node_type_approval"].startswith("[") and pseudo["node_type_approval"].endswith("]")
    assert pseudo["ui_inbox_count_one"].startswith("[{count} ")
    assert missing["error"]["code"] == "flow_not_found"
    assert missing["error"]["message"].startswith("[") and missing["error"]["message"].endswith("]")
    assert not german_first.json()["error"]["message"].startswith("[")


def test_a_failed_run_explains_its_error_code_and_each_journal_line_cites_it_by_its_sentence(
    queue: Queue,
) -> None:
    rita = make_user(queue.url, "rita", "edit", "run")
    german = auth(rita, **{"Accept-Language": "de"})
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=loop_flow(), headers=auth(rita)).json()["id"]
        run_id = api.post(
            f"/api/flows/{flow_id}/runs", json={"input": {"items": "not a list"}}, headers=auth(rita)
        ).json()["run"]
        queue.drain()
        page = api.get(f"/api/runs/{run_id}", headers=german).json()
    run = page["run"]
    assert (run["status"], run["error"]) == ("failed", "foreach_items_invalid")
    assert run["error_message"].startswith("Die Elemente der Schleife each"), run["error_message"]
    [failed] = [line for line in page["journal"] if line["code"] == "run_failed"]
    assert failed["data"]["error"] == "foreach_items_invalid", "the code stays machine-readable"
    assert "foreach_items_invalid" not in failed["message"]
    cited = "Der Lauf ist bei each fehlgeschlagen: Die Elemente der Schleife each"
    assert failed["message"].startswith(cited), failed["message"]
