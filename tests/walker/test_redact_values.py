"""Secrets replaced wherever an action's output quotes them, and URLs kept exactly but for credentials.

Each test states the whole output it expects: a secret replaced in part, a key lost, a value moved or a
copy made where none is needed is as wrong as a secret kept.
"""

from __future__ import annotations

from datetime import UTC, datetime

from backend.walker.redact import REDACTED, _replace_values, redact_output, redact_url


def test_a_secret_that_contains_another_is_replaced_whole() -> None:
    assert redact_output({"body": "key=zq"}, frozenset({"zq", "q"})) == {"body": f"key={REDACTED}"}
    assert redact_output({"body": "x abc y"}, frozenset({"abc", "ab"})) == {"body": f"x {REDACTED} y"}
    assert redact_output({"body": "zaq zq"}, frozenset({"zaq", "q"})) == {"body": f"{REDACTED} z{REDACTED}"}


def test_a_secret_with_a_quote_or_a_non_ascii_letter_is_found_in_the_output() -> None:
    for secret in ('q"t', "päss", 'pä"ss', "back\\slash"):
        output = {"body": {"echo": f"sent {secret} ok"}, "status": 200}
        assert redact_output(output, frozenset({secret})) == {
            "body": {"echo": f"sent {REDACTED} ok"},
            "status": 200,
        }, secret


def test_values_json_cannot_write_are_kept_as_they_are() -> None:
    when = datetime(2031, 5, 1, tzinfo=UTC)
    output = {"body": {"at": when, "echo": "tok-1"}}
    assert redact_output(output, frozenset({"tok-1"})) == {"body": {"at": when, "echo": REDACTED}}


def test_secrets_are_replaced_in_lists_keys_and_nested_values() -> None:
    output = {
        "body": {
            "rows": [["tok-1", 2], {"tok-1-id": "v", "n": ["a tok-1"]}],
            7: "tok-1 by number",
            "plain": "kept",
        }
    }
    assert redact_output(output, frozenset({"tok-1"})) == {
        "body": {
            "rows": [[REDACTED, 2], {f"{REDACTED}-id": "v", "n": [f"a {REDACTED}"]}],
            7: f"{REDACTED} by number",
            "plain": "kept",
        }
    }
    kept = redact_output(output, frozenset({"tok-1"}))["body"]
    assert list(kept) == ["rows", 7, "plain"]
    assert list(kept["rows"][1]) == ["n", f"{REDACTED}-id"]  # a renamed key goes last; the rest stay put
    assert output["body"]["rows"][0] == ["tok-1", 2]  # the output handed in is not changed


def test_an_output_without_the_secrets_is_returned_without_a_copy() -> None:
    for value in ({"body": "xy yz"}, {"body": ["abc", {"k": "xyyz"}]}, {"body": "ul"}):
        assert _replace_values(value, frozenset({"xyz"})) is value
    copied = {"body": "xyz"}
    assert _replace_values(copied, frozenset({"xyz"})) == {"body": REDACTED}
    assert copied == {"body": "xyz"}


def test_without_secrets_the_output_is_only_redacted_by_name() -> None:
    output = {"url": "https://h.example/x", "body": {"token": "t", "n": 1}}
    assert redact_output(output) == {"url": "https://h.example/x", "body": {"token": REDACTED, "n": 1}}


def test_a_password_with_an_at_sign_leaks_no_part_of_itself() -> None:
    assert redact_url("https://ann:p@ss@h.example/x") == f"https://ann:{REDACTED}@h.example/x"
    assert redact_url("https://p@ss@h.example/x") == f"https://{REDACTED}@h.example/x"


def test_a_query_string_is_kept_with_only_the_credential_values_replaced() -> None:
    assert redact_url("https://h.example/x?page=2&token=abc&q=a+b&empty=#top") == (
        "https://h.example/x?page=2&token=%5Bredacted%5D&q=a+b&empty=#top"
    )
    assert redact_url("https://h.example/x?page=2&q=a%20b") == "https://h.example/x?page=2&q=a%20b"
    assert redact_url("https://h.example/cb#access_token=abc") == f"https://h.example/cb#{REDACTED}"
    assert redact_url("https://u:@h.example/") == f"https://u:{REDACTED}@h.example/"
    assert redact_url(42) == 42


def test_a_secret_percent_encoded_with_or_without_its_reserved_characters_is_replaced() -> None:
    # As a path segment (every reserved character encoded) and as a URL keeps it (`@`, `:` left alone).
    for sent in ("a%2Fb%20c", "p@ss%20w", "p%40ss%20w"):
        secret = {"a%2Fb%20c": "a/b c"}.get(sent, "p@ss w")
        assert redact_output({"body": f"sent {sent}"}, frozenset({secret})) == {"body": f"sent {REDACTED}"}
