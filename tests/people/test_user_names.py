"""User names are one name in any capitals ("Bob" and "bob" read alike in an audit): a second is refused,
and names that already differ only by case are kept, never merged, and named by `flowyard migrate`."""

from __future__ import annotations

import pytest

from backend.cli import _parser
from backend.people.commands import run_people_command
from backend.processes import _migrate_and_seal
from backend.settings import Settings
from backend.store import migrations
from backend.store.database import connect
from tests.api.support import app_client, auth, make_user
from tests.support import Queue


def test_a_name_that_differs_only_by_case_is_refused_at_the_terminal_and_over_the_api(
    queue: Queue, capsys: pytest.CaptureFixture[str]
) -> None:
    admin = make_user(queue.url, "root", "admin")
    assert run_people_command(_parser().parse_args(["user", "add", "Bob"]), queue.url) == 0
    assert run_people_command(_parser().parse_args(["user", "add", "bob"]), queue.url) == 1
    refused = capsys.readouterr().err
    assert refused.rstrip().endswith("(user_name_taken)")
    assert "Bob" in refused
    with app_client(queue.url) as api:
        answer = api.post("/api/users", json={"name": "BOB"}, headers=auth(admin))
        assert (answer.status_code, answer.json()["error"]["code"]) == (409, "user_name_taken")
        again = api.post("/api/users", json={"name": "Bob"}, headers=auth(admin))
        assert again.json()["error"]["code"] == "user_exists"
    assert queue.all("SELECT name FROM users WHERE lower(name) = 'bob'") == [("Bob",)]


def test_names_that_already_differ_only_by_case_are_kept_and_named_by_migrate(
    empty_database_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shipped = migrations.known()
    [ours] = [m for m in shipped if m.name == "security_round_two"]
    # A database from before the rule, with two users whose names read alike.
    monkeypatch.setattr(migrations, "known", lambda: [m for m in shipped if m.number < ours.number])
    with connect(empty_database_url) as conn:
        migrations.migrate(conn)
        conn.execute(
            "INSERT INTO users (name, created_at) VALUES ('Ann', now() - interval '1 day'), ('ann', now())"
        )
        conn.commit()
    monkeypatch.undo()

    _migrate_and_seal(empty_database_url, Settings.from_environment())
    said = capsys.readouterr().err
    assert said.count("(user_name_case_duplicate)") == 1
    assert "ann" in said and "Ann" in said
    with connect(empty_database_url) as conn:
        assert conn.execute("SELECT name FROM users ORDER BY name").fetchall() == [("Ann",), ("ann",)]
        conn.commit()
    # A third spelling is refused all the same, by the older name.
    assert run_people_command(_parser().parse_args(["user", "add", "ANN"]), empty_database_url) == 1
    assert "Ann" in capsys.readouterr().err
    # Once the younger one is removed, migrate has nothing left to say.
    assert run_people_command(_parser().parse_args(["user", "remove", "ann"]), empty_database_url) == 0
    capsys.readouterr()
    _migrate_and_seal(empty_database_url, Settings.from_environment())
    assert "user_name_case_duplicate" not in capsys.readouterr().err


def test_when_the_older_of_two_alike_names_is_removed_a_third_spelling_is_still_refused(
    empty_database_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shipped = migrations.known()
    [ours] = [m for m in shipped if m.name == "security_round_two"]
    monkeypatch.setattr(migrations, "known", lambda: [m for m in shipped if m.number < ours.number])
    with connect(empty_database_url) as conn:
        migrations.migrate(conn)
        conn.execute(
            "INSERT INTO users (name, created_at) VALUES ('Ann', now() - interval '1 day'), ('ann', now())"
        )
        conn.commit()
    monkeypatch.undo()
    _migrate_and_seal(empty_database_url, Settings.from_environment())
    # The admin removes the older one: 'ann' stays, the only user of that name.
    assert run_people_command(_parser().parse_args(["user", "remove", "Ann"]), empty_database_url) == 0
    capsys.readouterr()

    # A third spelling still reads like 'ann' in the audit: refused, by the name that holds it.
    assert run_people_command(_parser().parse_args(["user", "add", "ANN"]), empty_database_url) == 1
    refused = capsys.readouterr().err
    assert refused.rstrip().endswith("(user_name_taken)")
    assert "ann" in refused
    with connect(empty_database_url) as conn:
        assert conn.execute("SELECT name FROM users WHERE lower(name) = 'ann'").fetchall() == [("ann",)]
        conn.commit()
