"""Action settings from the environment (backend/settings.py's `Settings.actions`)."""

from __future__ import annotations

import pytest

from backend.settings import SettingInvalid, Settings


def test_defaults_work_on_a_laptop() -> None:
    settings = Settings.from_environ({}).actions
    assert settings.allow.networks == () and settings.allow.hosts == frozenset()
    assert (settings.timeout_s, settings.max_response_bytes, settings.max_redirects) == (30.0, 1048576, 5)
    assert settings.smtp_host is None


def test_every_variable_is_read() -> None:
    settings = Settings.from_environ(
        {
            "FLOWYARD_ACTIONS_ALLOW": "127.0.0.1,agents.internal",
            "FLOWYARD_ACTIONS_TIMEOUT_S": "5",
            "FLOWYARD_HTTP_MAX_RESPONSE_BYTES": "100",
            "FLOWYARD_HTTP_MAX_REDIRECTS": "0",
            "FLOWYARD_SMTP_HOST": "mail.internal",
            "FLOWYARD_SMTP_PORT": "587",
            "FLOWYARD_SMTP_USER": "flowyard",
            "FLOWYARD_SMTP_PASSWORD": "pw",
            "FLOWYARD_SMTP_FROM": "robot@example.com",
        }
    ).actions
    assert settings.allow.hosts == frozenset({"agents.internal"})
    assert (settings.timeout_s, settings.max_response_bytes, settings.max_redirects) == (5.0, 100, 0)
    assert (settings.smtp_host, settings.smtp_port, settings.smtp_security) == (
        "mail.internal",
        587,
        "starttls",
    )
    assert (settings.smtp_user, settings.smtp_password, settings.smtp_from) == (
        "flowyard",
        "pw",
        "robot@example.com",
    )
    assert "pw" not in repr(settings)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("FLOWYARD_HTTP_MAX_REDIRECTS", "five"),
        ("FLOWYARD_SMTP_PORT", "-1"),
        ("FLOWYARD_SMTP_SECURITY", "ssl"),
        ("FLOWYARD_ACTIONS_ALLOW", "10.0.0.0/8,bad host"),
    ],
)
def test_a_value_that_does_not_parse_names_its_variable(name: str, value: str) -> None:
    with pytest.raises(SettingInvalid) as refused:
        Settings.from_environ({name: value})
    assert (refused.value.code, refused.value.params) == ("setting_invalid", {"name": name, "given": value})
