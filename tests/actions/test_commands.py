"""`flowyard server ...` and `flowyard template ...` as an admin types them; tokens never printed."""

from __future__ import annotations

import pytest

from backend.actions.commands import run
from backend.cli import _parser
from tests.support import Queue


def flowyard(url: str, *argv: str) -> int:
    return run(_parser().parse_args(argv), url)


def test_servers_are_added_listed_updated_and_removed_and_the_token_never_shown(
    queue: Queue, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEB_TOKEN", "tok-123")
    assert (
        flowyard(
            queue.url, "server", "add", "web-1", "--url", "https://web-1:7777/run", "--token-env", "WEB_TOKEN"
        )
        == 0
    )
    assert flowyard(queue.url, "server", "list") == 0
    monkeypatch.setenv("WEB_TOKEN", "tok-456")
    assert (
        flowyard(
            queue.url, "server", "add", "web-1", "--url", "https://web-1:7778/run", "--token-env", "WEB_TOKEN"
        )
        == 0
    )
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "registered server web-1 at https://web-1:7777/run"
    assert out[1].startswith("web-1\thttps://web-1:7777/run\tsince ")
    assert out[2] == "updated server web-1 at https://web-1:7778/run"
    assert queue.one("SELECT agent_url, token FROM servers WHERE name = 'web-1'") == (
        "https://web-1:7778/run",
        "tok-456",
    )

    assert flowyard(queue.url, "server", "remove", "web-1") == 0
    assert flowyard(queue.url, "server", "list") == 0
    assert capsys.readouterr().out.splitlines() == ["removed server web-1", "no servers are registered"]


def test_server_mistakes_are_one_line_with_a_code(
    queue: Queue, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("UNSET_TOKEN", raising=False)
    monkeypatch.setenv("SOME_TOKEN", "t")
    assert (
        flowyard(queue.url, "server", "add", "a", "--url", "https://a.example", "--token-env", "UNSET_TOKEN")
        == 1
    )
    assert (
        flowyard(queue.url, "server", "add", "a", "--url", "ftp://a.example", "--token-env", "SOME_TOKEN")
        == 1
    )
    assert (
        flowyard(
            queue.url, "server", "add", "bad name", "--url", "https://a.example", "--token-env", "SOME_TOKEN"
        )
        == 1
    )
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


def test_templates_are_stored_listed_replaced_and_removed(
    queue: Queue, capsys: pytest.CaptureFixture[str]
) -> None:
    assert flowyard(queue.url, "template", "add", "restart", "--command", "systemctl restart {service}") == 0
    assert flowyard(queue.url, "template", "add", "restart", "--command", "service {service} restart") == 0
    assert flowyard(queue.url, "template", "list") == 0
    assert flowyard(queue.url, "template", "remove", "restart") == 0
    assert flowyard(queue.url, "template", "remove", "restart") == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [
        "stored template restart",
        "replaced template restart",
        "restart\tservice {service} restart",
        "removed template restart",
    ]
    assert captured.err.strip().endswith("(action_template_missing)")
