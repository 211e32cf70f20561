"""`flowyard user ...` and `flowyard token ...`: rights granted, revoked, users removed, tokens listed,
revoked and expired, and each change on the append-only rights trail."""

from __future__ import annotations

import pytest

from backend.cli import _parser, main
from backend.i18n.catalogs import message
from backend.people.accounts import user_of_token
from backend.people.commands import run_people_command
from tests.support import Connected, Queue


def flowyard(url: str, *argv: str) -> int:
    return run_people_command(_parser().parse_args(argv), url)


def holder(url: str, token: str) -> str | None:
    return Connected(url)(lambda conn: user_of_token(conn, token))


def trail(queue: Queue, user: str) -> list[tuple[object, ...]]:
    return queue.all(
        'SELECT actor, change, "right", flow_id, server FROM rights_trail WHERE user_name = %s ORDER BY id',
        user,
    )


def test_rights_are_granted_revoked_and_listed_and_every_change_is_on_the_trail(
    queue: Queue, capsys: pytest.CaptureFixture[str]
) -> None:
    flow_id = queue.save({"format": "flowyard.flow/1", "name": "f", "nodes": [], "wires": []})
    assert flowyard(queue.url, "user", "add", "cleo", "--grant", "edit", "--group", "ops") == 0
    assert flowyard(queue.url, "user", "grant", "cleo", f"decide:{flow_id}", "use_server:web-1") == 0
    assert flowyard(queue.url, "user", "list") == 0
    assert flowyard(queue.url, "user", "revoke", "cleo", "edit") == 0
    assert flowyard(queue.url, "user", "revoke", "cleo", "use_server:web-1") == 0
    # Refused, changing nothing: a right not held, an unknown right, an unknown flow, an unknown user.
    assert flowyard(queue.url, "user", "revoke", "cleo", "edit") == 1
    assert flowyard(queue.url, "user", "grant", "cleo", "sign") == 1
    assert flowyard(queue.url, "user", "grant", "cleo", "run:999999") == 1
    assert flowyard(queue.url, "user", "grant", "nobody", "run") == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [
        "Added user cleo with rights: edit.",
        f"Granted cleo: decide:{flow_id} and use_server:web-1.",
        f"cleo\tdecide:{flow_id} edit use_server:web-1\tops",
        "Revoked Edit from cleo.",  # a right is cited by its name in the reader's language
        "Revoked use_server:web-1 from cleo.",
    ]
    assert [line.rsplit("(", 1)[1] for line in captured.err.splitlines()] == [
        "grant_not_held)",
        "right_unknown)",
        "grant_flow_unknown)",
        "user_unknown)",
    ]
    assert trail(queue, "cleo") == [
        ("cli", "user_added", None, None, None),
        ("cli", "granted", "edit", None, None),
        ("cli", "granted", "decide", flow_id, None),
        ("cli", "granted", "use_server", None, "web-1"),
        ("cli", "revoked", "edit", None, None),
        ("cli", "revoked", "use_server", None, "web-1"),
    ]


def test_a_removed_user_loses_everything_and_the_trail_says_so(
    queue: Queue, capsys: pytest.CaptureFixture[str]
) -> None:
    assert flowyard(queue.url, "user", "add", "dan", "--grant", "run") == 0
    assert flowyard(queue.url, "token", "create", "dan") == 0
    token = capsys.readouterr().out.splitlines()[-1]
    assert holder(queue.url, token) == "dan"
    assert flowyard(queue.url, "user", "remove", "dan") == 0
    assert flowyard(queue.url, "user", "remove", "dan") == 1
    assert holder(queue.url, token) is None
    changes = [str(row[1]) for row in trail(queue, "dan")]
    assert changes[:3] == ["user_added", "granted", "token_created"]
    assert sorted(changes[3:]) == ["revoked", "token_revoked", "user_removed"]


def test_tokens_are_listed_revoked_and_expire(queue: Queue, capsys: pytest.CaptureFixture[str]) -> None:
    assert flowyard(queue.url, "user", "add", "eve") == 0
    assert flowyard(queue.url, "token", "create", "eve", "--expires-in", "30") == 0
    lasting = capsys.readouterr().out.splitlines()[-1]
    assert flowyard(queue.url, "token", "create", "eve") == 0
    revoked = capsys.readouterr().out.splitlines()[-1]
    assert holder(queue.url, lasting) == holder(queue.url, revoked) == "eve"
    [(first,), (second,)] = queue.all("SELECT id FROM tokens WHERE user_name = 'eve' ORDER BY id")

    assert flowyard(queue.url, "token", "revoke", str(second)) == 0
    assert flowyard(queue.url, "token", "revoke", str(second)) == 1
    assert holder(queue.url, revoked) is None and holder(queue.url, lasting) == "eve"
    queue.one("UPDATE tokens SET expires_at = now() - interval '1 second' WHERE id = %s RETURNING id", first)
    assert holder(queue.url, lasting) is None, "an expired token is refused"

    assert flowyard(queue.url, "token", "create", "eve", "--expires-in", "0") == 1
    assert flowyard(queue.url, "token", "create", "eve", "--expires-in", "99999") == 1
    assert flowyard(queue.url, "token", "list", "eve") == 0
    captured = capsys.readouterr()
    listed = [line.split("\t") for line in captured.out.splitlines()[-2:]]
    assert [(row[0], row[1], row[3]) for row in listed] == [
        (str(first), "eve", "expires"),
        (str(second), "eve", "revoked"),
    ]
    assert lasting not in captured.out and revoked not in captured.out
    assert [line.rsplit("(", 1)[1] for line in captured.err.splitlines()] == [
        "token_unknown)",
        "token_expiry_invalid)",
        "token_expiry_invalid)",
    ]
    assert [row[1] for row in trail(queue, "eve")] == [
        "user_added",
        "token_created",
        "token_created",
        "token_revoked",
    ]


def test_no_user_may_be_named_as_the_terminal_is_in_the_trails(
    queue: Queue, capsys: pytest.CaptureFixture[str]
) -> None:
    assert flowyard(queue.url, "user", "add", "cli", "--grant", "edit") == 1
    assert "(user_name_reserved)" in capsys.readouterr().err
    assert queue.one("SELECT count(*) FROM users WHERE name = 'cli'") == (0,)


def test_a_command_answers_in_the_terminals_language(
    queue: Queue, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    monkeypatch.setenv("DATABASE_URL", queue.url)
    assert main(["user", "add", "dora", "--grant", "run"]) == 0  # the command's start reads LANG
    assert main(["user", "remove", "dora"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        message("cli_user_added", "de", name="dora", rights="run"),
        message("cli_user_removed", "de", name="dora"),
    ]
    assert message("cli_user_removed", "de", name="dora") != message("cli_user_removed", "en", name="dora")
