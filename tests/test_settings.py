"""A setting with a value its reader refuses stops `serve` and `worker` before they start, named."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from backend.settings_check import SETTING_CHECKS, check_settings
from backend.store.errors import StoreError


@pytest.mark.parametrize("name", sorted(SETTING_CHECKS))
def test_every_checked_setting_refuses_what_is_not_of_its_form(name: str) -> None:
    with pytest.raises(StoreError) as refused:
        check_settings({name: "not a value"})
    assert (refused.value.code, refused.value.params) == (
        "setting_invalid",
        {"name": name, "given": "not a value"},
    )


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("FLOWYARD_RUN_RECORD_RETENTION_DAYS", "-1"),  # read as is, it would sweep every ended run's record
        ("FLOWYARD_KEY_RETENTION_DAYS", "a week"),
        ("FLOWYARD_BODY_TIMEOUT_S", "0"),
        ("FLOWYARD_API_POOL_SIZE", "ten"),
        ("FLOWYARD_LOGIN_HASHERS", "0"),
        ("FLOWYARD_LOGIN_QUEUE", "-3"),
        ("FLOWYARD_EVENTS_MAX_KEPT", "0"),
        ("FLOWYARD_EVENTS_MAX_KEPT_BYTES", "lots"),
        ("FLOWYARD_SIGN_HEADS_MINUTES", "hourly"),
        ("FLOWYARD_SIGN_HEADS_MINUTES", "-5"),
        ("FLOWYARD_RETIRED_SIGNING_KEYS", "not-a-key"),
        ("FLOWYARD_RETIRED_SIGNING_KEYS", "AAAA"),  # base64, but not 32 bytes
        ("FLOWYARD_AUDITORS_EMAIL", "the auditors"),
    ],
)
def test_the_retentions_and_the_api_settings_of_the_readme_table_are_checked_too(
    name: str, value: str
) -> None:
    with pytest.raises(StoreError) as refused:
        check_settings({name: value})
    assert refused.value.params == {"name": name, "given": value}


def test_an_empty_retention_reads_as_unset_as_check_settings_passes_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from datetime import timedelta

    from backend.queue.sweep import DEFAULT_RETENTION, key_retention_from_env, retention_from_env

    empty = {"FLOWYARD_RUN_RETENTION_DAYS": "", "FLOWYARD_KEY_RETENTION_DAYS": ""}
    check_settings(empty)
    for name, value in empty.items():
        monkeypatch.setenv(name, value)
    assert retention_from_env() == DEFAULT_RETENTION
    assert key_retention_from_env(timedelta(days=30)) == timedelta(days=90)


def test_the_defaults_and_usual_values_pass() -> None:
    check_settings({})
    check_settings(
        {
            "FLOWYARD_EVENTS_KEEP": "P7D",
            "FLOWYARD_RUN_RETENTION_DAYS": "0",
            "FLOWYARD_SMTP_PORT": "587",
            "FLOWYARD_KEY_RETENTION_DAYS": "90",
            "FLOWYARD_API_POOL_SIZE": "20",
        }
    )


@pytest.mark.parametrize(
    ("command", "setting", "value"),
    [
        (["serve", "--port", "1"], "FLOWYARD_EVENTS_KEEP", "a day"),
        (["worker"], "FLOWYARD_RUN_RETENTION_DAYS", "-1"),
    ],
)
def test_a_process_with_a_bad_setting_says_which_and_exits_2(
    database_url: str, command: list[str], setting: str, value: str
) -> None:
    env = {**os.environ, "DATABASE_URL": database_url, setting: value}
    done = subprocess.run(
        [sys.executable, "-m", "backend.cli", *command], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        f"flowyard: The setting {setting} cannot be “{value}”: see the settings table in the README"
        " for what it takes. (setting_invalid)\n"
    )


def test_a_worker_with_a_bad_setting_refuses_before_it_reads_settings_or_migrates(
    empty_database_url: str,
) -> None:
    """`flowyard worker` migrates its database before its handler runs: the check comes first, so a
    misread FLOWYARD_MAX_FINDINGS is a coded line, not a traceback, and the schema is left as it was."""
    import psycopg

    env = {**os.environ, "DATABASE_URL": empty_database_url, "FLOWYARD_MAX_FINDINGS": "many"}
    done = subprocess.run(
        [sys.executable, "-m", "backend.cli", "worker"], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.endswith("(setting_invalid)\n") and "FLOWYARD_MAX_FINDINGS" in done.stderr
    with psycopg.connect(empty_database_url) as conn:
        tables = conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()
    assert tables == (0,)


def test_a_command_of_the_database_refuses_a_bad_setting_before_it_reads_one(database_url: str) -> None:
    env = {**os.environ, "DATABASE_URL": database_url, "FLOWYARD_MAX_FINDINGS": "many"}
    done = subprocess.run(
        [sys.executable, "-m", "backend.cli", "runs", "show", "1"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (done.returncode, done.stderr.rstrip().rsplit(" ", 1)[-1]) == (2, "(setting_invalid)"), done.stderr


@pytest.mark.parametrize("port", ["0", "65536"])
def test_an_smtp_port_is_one_of_1_to_65535(port: str) -> None:
    with pytest.raises(StoreError) as refused:
        check_settings({"FLOWYARD_SMTP_PORT": port})
    assert refused.value.params == {"name": "FLOWYARD_SMTP_PORT", "given": port}
