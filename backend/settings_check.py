"""Every setting with a form, checked before a command reads one (`setting_invalid`).

A bad value stops the command at once with the setting's name, instead of a traceback from the first
reader or a failure of the first request, walk or post that needs it. backend/cli.py calls
`check_settings` before any command that uses the database; it imports only the settings' readers.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping

from backend.actions.settings import ActionSettings
from backend.api.settings import ApiSettings
from backend.approvals.heads_mail import auditors_from_env
from backend.approvals.signing import retired_keys
from backend.events.store import keep_from_env, quota_from_env
from backend.store.errors import StoreError


def _whole(text: str, least: int = 1, most: int | None = None) -> None:
    value = int(text)
    if value < least or (most is not None and value > most):
        raise ValueError(text)


def _days(text: str) -> None:
    if not 0 <= float(text) < 36_500:  # NaN and infinity compare false: refused too
        raise ValueError(text)


def _minutes(text: str) -> None:
    if not 0 <= float(text) <= 525_600:  # a year at most; NaN and infinity refused
        raise ValueError(text)


# Every setting the commands take from the environment with a form to keep, each with the check
# of that form. Secrets (the SMTP
# password, the keys) are not here: no value of theirs is ever printed.
_ACTION_SETTINGS = (
    "FLOWYARD_SMTP_SECURITY",
    "FLOWYARD_ACTIONS_ALLOW",
    "FLOWYARD_ACTIONS_TIMEOUT_S",
    "FLOWYARD_ACTIONS_ATTEMPT_MARGIN_S",
    "FLOWYARD_HTTP_MAX_RESPONSE_BYTES",
    "FLOWYARD_HTTP_MAX_REDIRECTS",
)
_API_SETTINGS = (
    "FLOWYARD_BODY_TIMEOUT_S",
    "FLOWYARD_API_POOL_SIZE",
    "FLOWYARD_LOGIN_HASHERS",
    "FLOWYARD_LOGIN_QUEUE",
)
SETTING_CHECKS: dict[str, Callable[[str], object]] = {
    "FLOWYARD_PORT": lambda text: _whole(text, 1, 65_535),
    "FLOWYARD_MAX_FINDINGS": _whole,
    "FLOWYARD_MAX_VALUE_BYTES": _whole,
    "FLOWYARD_MAX_VARIABLES_BYTES": _whole,
    "FLOWYARD_MAX_WALK_JOURNAL_BYTES": _whole,
    "FLOWYARD_RUN_RETENTION_DAYS": _days,
    "FLOWYARD_APPROVAL_RETENTION_DAYS": _days,
    "FLOWYARD_RUN_RECORD_RETENTION_DAYS": _days,
    "FLOWYARD_KEY_RETENTION_DAYS": _days,
    "FLOWYARD_SIGN_HEADS_MINUTES": _minutes,
    "FLOWYARD_RETIRED_SIGNING_KEYS": lambda text: retired_keys({"FLOWYARD_RETIRED_SIGNING_KEYS": text}),
    "FLOWYARD_AUDITORS_EMAIL": lambda text: auditors_from_env({"FLOWYARD_AUDITORS_EMAIL": text}),
    "FLOWYARD_EVENTS_KEEP": keep_from_env,
    "FLOWYARD_EVENTS_MAX_KEPT": lambda text: quota_from_env({"FLOWYARD_EVENTS_MAX_KEPT": text}),
    "FLOWYARD_EVENTS_MAX_KEPT_BYTES": lambda text: quota_from_env({"FLOWYARD_EVENTS_MAX_KEPT_BYTES": text}),
    **{
        name: lambda text, name=name: ActionSettings.from_env({name: text})  # type: ignore[misc]
        for name in _ACTION_SETTINGS
    },
    **{
        name: lambda text, name=name: ApiSettings.from_env({name: text})  # type: ignore[misc]
        for name in _API_SETTINGS
    },
    # Not the actions' own reading, which takes any whole number from 0: a port is one of 1 to 65535.
    "FLOWYARD_SMTP_PORT": lambda text: _whole(text, 1, 65_535),
}


def check_settings(environ: Mapping[str, str] = os.environ) -> None:
    """Refuse the first setting in `environ` whose value its reader would refuse (`setting_invalid`).

    Examples:
        >>> check_settings({"FLOWYARD_EVENTS_KEEP": "PT1H", "FLOWYARD_PORT": "8080"})
        >>> check_settings({"FLOWYARD_EVENTS_KEEP": "a day"})
        Traceback (most recent call last):
        ...
        backend.store.errors.StoreError: setting_invalid
        >>> check_settings({"FLOWYARD_RUN_RETENTION_DAYS": "-1"})
        Traceback (most recent call last):
        ...
        backend.store.errors.StoreError: setting_invalid
    """
    for name, check in SETTING_CHECKS.items():
        text = environ.get(name)
        if not text:
            continue
        try:
            check(text)
        except ValueError:
            raise StoreError(code="setting_invalid", name=name, given=text) from None
