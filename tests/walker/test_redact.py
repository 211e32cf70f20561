"""What the effects table keeps of a request: everything but credentials."""

from __future__ import annotations

from backend.walker.redact import REDACTED, redact_headers, redact_request, redact_url


def test_credential_headers_are_redacted_and_the_rest_kept() -> None:
    headers = {
        "Authorization": "Bearer a",
        "proxy-authorization": "b",
        "Cookie": "c",
        "X-API-Key": "d",
        "X-Auth-Token": "e",
        "Idempotency-Key": "fy-1-2-abc",
        "Accept": "application/json",
    }
    kept = redact_headers(headers)
    assert [name for name, value in kept.items() if value == REDACTED] == list(headers)[:5]
    assert kept["Idempotency-Key"] == "fy-1-2-abc" and kept["Accept"] == "application/json"


def test_url_passwords_and_credential_parameters_are_redacted() -> None:
    assert redact_url("https://u:p@h.example/x?page=2") == f"https://u:{REDACTED}@h.example/x?page=2"
    assert "abc" not in redact_url("https://h.example/x?access_token=abc&page=2")
    assert redact_url("https://h.example/x?page=2") == "https://h.example/x?page=2"
    assert redact_url(None) is None


def test_a_request_is_redacted_by_its_type() -> None:
    http = redact_request(
        "http", {"url": "https://u:p@a.example", "headers": {"Authorization": "x"}, "body": 1}
    )
    assert http == {
        "url": f"https://u:{REDACTED}@a.example",
        "headers": {"Authorization": REDACTED},
        "body": 1,
    }
    hook = redact_request(
        "notify", {"channel": "webhook", "to": "https://h.example/?token=t", "message": "m"}
    )
    assert "token=t" not in hook["to"] and hook["message"] == "m"
    mail = {"channel": "email", "to": "ann@example.com", "message": "m"}
    assert redact_request("notify", mail) == mail
