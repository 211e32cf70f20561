"""`flowyard server|template|secret ...` as an admin types them; tokens and secret values never shown."""

from __future__ import annotations

import io

import pytest

from backend.actions.commands import run
from backend.cli import _parser, _read_settings
from tests.support import Queue


def flowyard(url: str, *argv: str) -> int:
    args = _parser().parse_args(argv)
    _read_settings(args)
    return run(args, url)


def test_servers_are_added_listed_updated_and_removed_and_the_token_never_shown(
    queue: Queue, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEB_TOKEN", "tok-123")
    add = ("server", "add", "web-1", "--token-env", "WEB_TOKEN", "--url")
    assert flowyard(queue.url, *add, "https://web-1:7777/run") == 0
    assert flowyard(queue.url, "server", "list") == 0
    monkeypatch.setenv("WEB_TOKEN", "tok-456")
    assert flowyard(queue.url, *add, "https://web-1:7778/run") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Registered server web-1 at https://web-1:7777/run."
    assert out[1].startswith("web-1\thttps://web-1:7777/run\t")
    assert out[2] == "Updated server web-1: it is now at https://web-1:7778/run."
    assert queue.one("SELECT agent_url FROM servers WHERE name = 'web-1'") == ("https://web-1:7778/run",)
    sealed = queue.one("SELECT sealed, legacy_plain FROM secrets WHERE name = 'server:web-1'")
    assert sealed is not None and sealed[1] is None and b"tok-456" not in bytes(sealed[0])

    assert flowyard(queue.url, "server", "remove", "web-1") == 0
    assert flowyard(queue.url, "server", "list") == 0
    assert capsys.readouterr().out.splitlines() == ["Removed server web-1.", "No servers are registered."]
    assert queue.one("SELECT count(*) FROM secrets WHERE name = 'server:web-1'") == (0,)


def test_server_mistakes_are_one_line_with_a_code(
    queue: Queue, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("UNSET_TOKEN", raising=False)
    monkeypatch.setenv("SOME_TOKEN", "t")
    add = ("server", "add", "--url")
    assert flowyard(queue.url, *add, "https://a.example", "a", "--token-env", "UNSET_TOKEN") == 1
    assert flowyard(queue.url, *add, "ftp://a.example", "a", "--token-env", "SOME_TOKEN") == 1
    assert flowyard(queue.url, *add, "https://a.example", "bad name", "--token-env", "SOME_TOKEN") == 1
    assert flowyard(queue.url, "server", "remove", "never-added") == 1
    errors = capsys.readouterr().err.splitlines()
    assert [line.rsplit("(", 1)[1] for line in errors] == [
        "server_token_missing)",
        "action_url_invalid)",
        "server_name_invalid)",
        "action_server_missing)",
    ]
    assert all(line.startswith("flowyard: ") for line in errors)
    assert queue.one("SELECT count(*) FROM servers") == (0,)


def test_templates_belong_to_a_server_and_are_typed(
    queue: Queue, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("T", "t")
    assert (
        flowyard(queue.url, "server", "add", "web-2", "--url", "https://w.example", "--token-env", "T") == 0
    )
    unit = '{"unit": {"type": "string"}}'
    add = ("template", "add", "web-2", "restart", "--argv")
    assert flowyard(queue.url, *add, '["systemctl", "restart", "{unit}"]', "--params", unit) == 0
    assert flowyard(queue.url, *add, '["service", "{unit}", "restart"]', "--params", unit) == 0
    assert flowyard(queue.url, "template", "list", "--server", "web-2") == 0
    # Refused: an untyped parameter, a typed one not used, the program as a parameter, no such server.
    assert flowyard(queue.url, *add, '["kill", "{pid}"]') == 1
    assert flowyard(queue.url, *add, '["uptime"]', "--params", unit) == 1
    assert flowyard(queue.url, *add, '["{unit}"]', "--params", unit) == 1
    assert flowyard(queue.url, "template", "add", "nowhere", "x", "--argv", '["uptime"]') == 1
    assert flowyard(queue.url, *add, "not json") == 1
    assert flowyard(queue.url, "template", "remove", "web-2", "restart") == 0
    assert flowyard(queue.url, "template", "remove", "web-2", "restart") == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines()[1:] == [
        "Stored template restart for server web-2.",
        "Replaced template restart of server web-2.",
        'web-2\trestart\t["service", "{unit}", "restart"]\t{"unit": {"type": "string"}}',
        "Removed template restart of server web-2.",
    ]
    assert [line.rsplit("(", 1)[1] for line in captured.err.splitlines()] == [
        "template_params_invalid)",
        "template_params_invalid)",
        "template_argv_invalid)",
        "action_server_missing)",
        "cli_json_invalid)",
        "action_template_missing)",
    ]


def test_secrets_are_set_from_stdin_or_a_variable_listed_by_name_and_removed(
    queue: Queue, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("s3cr3t-from-stdin\n"))
    assert flowyard(queue.url, "secret", "set", "api_key") == 0
    monkeypatch.setenv("DB_PASSWORD", "s3cr3t-from-env")
    assert flowyard(queue.url, "secret", "set", "db", "--from-env", "DB_PASSWORD") == 0
    assert flowyard(queue.url, "secret", "set", "db", "--from-env", "DB_PASSWORD") == 0
    assert flowyard(queue.url, "secret", "list") == 0
    assert flowyard(queue.url, "secret", "rotate") == 0
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert flowyard(queue.url, "secret", "set", "empty") == 1
    assert flowyard(queue.url, "secret", "set", "bad.name", "--from-env", "DB_PASSWORD") == 1
    assert flowyard(queue.url, "secret", "remove", "api_key") == 0
    assert flowyard(queue.url, "secret", "remove", "api_key") == 1
    captured = capsys.readouterr()
    out = captured.out.splitlines()
    assert out[:3] == ["Stored secret api_key.", "Stored secret db.", "Replaced the value of secret db."]
    assert [line.split("\t")[0] for line in out[3:5]] == ["api_key", "db"]
    # Server tokens (an earlier test registered one) are sealed again too, but listed as servers.
    assert out[5:] == ["Sealed 3 secrets again under the first key.", "Removed secret api_key."]
    assert "s3cr3t" not in captured.out + captured.err
    assert [line.rsplit("(", 1)[1] for line in captured.err.splitlines()] == [
        "secret_value_empty)",
        "secret_name_invalid)",
        "secret_missing)",
    ]
    [(sealed,)] = queue.all("SELECT sealed FROM secrets WHERE name = 'db'")
    assert b"s3cr3t" not in bytes(sealed)
