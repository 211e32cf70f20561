"""What the effects table keeps of a request: everything but credentials."""

from __future__ import annotations

import json
from urllib.parse import quote

from backend.walker.redact import REDACTED, redact_headers, redact_output, redact_request, redact_url


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


def test_what_redaction_missed_before_is_caught() -> None:
    from backend.walker.redact import redact_body, redact_output

    # URL user-info without a password is usually a token; unusual credential parameter names.
    assert redact_url("https://ghp_abc@git.example/x") == f"https://{REDACTED}@git.example/x"
    assert "abc" not in redact_url("https://h.example/x?pw=abc&sig=abc&X-Amz-Signature=abc&page=2")
    assert redact_url("https://h.example/x?pw=abc&page=2").endswith("page=2")
    # A URL urlsplit cannot parse is not kept at all: it could hold anything.
    assert redact_url("http://[::1/?token=abc") == REDACTED
    assert redact_url("http://h.example:99999999/?token=abc") == REDACTED
    # Any header whose name suggests a credential, not only a short list.
    headers = {"X-Upstream-Signature": "a", "X-Session-Id": "b", "X-Hub-Sig": "c", "Accept": "d"}
    assert [name for name, value in redact_headers(headers).items() if value == REDACTED] == list(headers)[:3]
    # JSON body fields named like credentials, at any depth; a bare `key` field is an identifier.
    body = {"user": "ann", "password": "p", "nested": [{"client_secret": "s", "key": "PROJ-1"}]}
    assert redact_body(body) == {
        "user": "ann",
        "password": REDACTED,
        "nested": [{"client_secret": REDACTED, "key": "PROJ-1"}],
    }
    # An http output: the URL after redirects, the headers and the body, and any secret's value anywhere.
    output = {
        "status": 200,
        "url": "https://ann:pw@h.example/done?token=t",
        "headers": {"set-cookie": "sid=1", "content-type": "application/json"},
        "body": {"echo": "used sk-1", "access_token": "t2"},
    }
    kept = redact_output(output, frozenset({"sk-1"}))
    assert kept == {
        "status": 200,
        "url": f"https://ann:{REDACTED}@h.example/done?token=%5Bredacted%5D",
        "headers": {"set-cookie": REDACTED, "content-type": "application/json"},
        "body": {"echo": f"used {REDACTED}", "access_token": REDACTED},
    }
    assert redact_request("http", {"url": "x", "body": {"password": "p"}})["body"] == {"password": REDACTED}


def test_a_secret_quoted_by_an_error_or_percent_encoded_in_a_url_is_redacted() -> None:
    secret = "-----BEGIN KEY-----\nmäh 1{2}\n-----END KEY-----"
    output = {
        "code": "action_connection_failed",
        "detail": f"Illegal header value {secret.encode()!r}",
        "message": f"Illegal header value {secret!r}",
        "url": "https://api.example/keys/" + quote(secret, safe=""),
    }
    kept = redact_output(output, frozenset({secret}))
    text = json.dumps(kept, ensure_ascii=False)
    assert "BEGIN KEY" not in text and "mäh" not in text and "m%C3%A4h" not in text
    assert kept["code"] == "action_connection_failed"


def test_a_secret_lower_cased_by_idna_or_split_at_its_at_sign_is_redacted() -> None:
    """Issue 32, item 1, the second net: what URL parsing makes of a secret in a host."""
    output = {
        "code": "action_host_unknown",
        "host": "s3cr3tbillingvalue.example.invalid",
        "message": "The host S3CR3TBILLINGVALUE.example.invalid cannot be found.",
        "idna": "xn--bcher-s3cr3t-dlb.example",
    }
    kept = redact_output(output, frozenset({"S3cr3tBillingValue", "Bücher-S3cr3t"}))
    assert kept["host"] == f"{REDACTED}.example.invalid"
    assert kept["message"] == f"The host {REDACTED}.example.invalid cannot be found."
    assert kept["idna"] == f"{REDACTED}.example"

    split = redact_output({"host": "tail-of-it.example", "user": "ann"}, frozenset({"ann@Tail-Of-It"}))
    assert split == {"host": f"{REDACTED}.example", "user": "ann"}, "a side too short to find alone is kept"


def test_the_path_of_a_whole_url_secret_is_redacted_where_a_server_quotes_it() -> None:
    hook = "https://hooks.example/services/T01/B02/XyZ123"
    kept = redact_output({"body": "No route for POST /services/t01/b02/xyz123"}, frozenset({hook}))
    assert kept["body"] == f"No route for POST {REDACTED}"
    assert redact_output({"body": "see https://hooks.example/"}, frozenset({hook}))["body"] == (
        "see https://hooks.example/"
    ), "the host alone is no secret"
