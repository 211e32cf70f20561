"""The one `Settings`: a value not of its form stops every command before it starts, named; no other
module reads the environment; the README's table is the settings' own."""

from __future__ import annotations

import ast
import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

from backend.settings import VARIABLES, SettingInvalid, Settings, readme_table

ROOT = Path(__file__).resolve().parents[1]
# Variables any text is a value of: names, addresses, paths, secrets, and the log settings (which
# `configure` refuses with `log_setting_invalid`, naming the values it takes).
FREE_FORM = {
    "DATABASE_URL",
    "FLOWYARD_DATA_DIR",
    "FLOWYARD_HOST",
    "FLOWYARD_BASE_URL",
    "FLOWYARD_SIGNING_KEY",
    "FLOWYARD_SIGNED_HEADS",
    "FLOWYARD_SECURE_COOKIES",
    "FLOWYARD_SMTP_HOST",
    "FLOWYARD_SMTP_USER",
    "FLOWYARD_SMTP_PASSWORD",
    "FLOWYARD_SMTP_FROM",
    "FLOWYARD_SECRET_KEY",
    "FLOWYARD_METRICS_TOKEN",
    "PROMETHEUS_MULTIPROC_DIR",
    "FLOWYARD_LOG_FORMAT",
    "FLOWYARD_LOG_LEVEL",
    "FLOWYARD_FRONTEND_DIR",
}
CHECKED = sorted(v.name for v in VARIABLES if v.name not in FREE_FORM)


def check_settings(environ: dict[str, str]) -> None:
    Settings.from_environ(environ)


def test_the_checked_settings_are_those_of_a_form() -> None:
    assert len(CHECKED) + len(FREE_FORM) == len(VARIABLES) and len(CHECKED) == 27, CHECKED


@pytest.mark.parametrize("name", CHECKED)
def test_every_checked_setting_refuses_what_is_not_of_its_form(name: str) -> None:
    with pytest.raises(SettingInvalid) as refused:
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
    with pytest.raises(SettingInvalid) as refused:
        check_settings({name: value})
    assert refused.value.params == {"name": name, "given": value}


def test_an_empty_retention_reads_as_unset() -> None:
    from datetime import timedelta

    from backend.queue.sweep import DEFAULT_RETENTION

    read = Settings.from_environ({"FLOWYARD_RUN_RETENTION_DAYS": "", "FLOWYARD_KEY_RETENTION_DAYS": ""})
    assert (read.run_retention, read.key_retention) == (DEFAULT_RETENTION, timedelta(days=90))


def test_the_defaults_are_what_the_readme_shows() -> None:
    """A default written as a value in the table is the field's default, read as the variable's text."""
    for each in dataclasses.fields(Settings):
        variable = each.metadata["variable"]
        shown = variable.shown.strip("`")
        if variable.shown.startswith("`") and variable.name != "FLOWYARD_BASE_URL":
            assert variable.parse(shown) == each.default, variable.name
        else:
            assert variable.shown in ("unset", "by port", "`http://HOST:PORT`"), variable.name
            assert each.default in (None, False, ()), variable.name


def test_the_readme_table_is_the_settings_own() -> None:
    """Every variable with its default, none missing, none extra: `python -m backend.settings` prints it."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("| variable | default | meaning |")
    assert readme[start : readme.index("\n\n", start) + 1] == readme_table()


def test_no_module_but_the_settings_reads_the_environment() -> None:
    """`os.environ`, `os.getenv` and the like, found in backend/'s syntax trees: the settings' alone."""
    readers = {
        path.relative_to(ROOT).as_posix()
        for path in sorted((ROOT / "backend").rglob("*.py"))
        if any(_reads_environment(node) for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert readers == {"backend/settings.py"}


def _reads_environment(node: ast.AST) -> bool:
    if isinstance(node, ast.Attribute):
        return node.attr in ENVIRONMENT
    if isinstance(node, ast.ImportFrom) and node.module == "os":
        return any(alias.name in ENVIRONMENT for alias in node.names)
    return False


ENVIRONMENT = {"environ", "environb", "getenv", "getenvb", "putenv", "unsetenv"}


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
    with pytest.raises(SettingInvalid) as refused:
        check_settings({"FLOWYARD_SMTP_PORT": port})
    assert refused.value.params == {"name": "FLOWYARD_SMTP_PORT", "given": port}
