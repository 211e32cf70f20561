"""Logins: throttled per client address as well as per name, so that failures from one address never lock
the name's owner out from another (docs/logins.md says why these numbers). The password's hash is checked
by the caller, holding no connection; this module keeps the failures and the stored hashes. An attempt is
counted as a failure before its hash is checked (`reserve`), so a burst cannot outrun the count.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from psycopg import AsyncConnection
from psycopg.rows import class_row

from backend.errors import CodedError
from backend.people.accounts import QUERIES

MAX_NAME_FAILURES = 10
MAX_ADDRESS_FAILURES = 30
LOGIN_WINDOW = timedelta(minutes=15)


class LoginThrottled(CodedError):
    """Too many failed logins lately: from this address (`login_throttled_address`), or on this name from
    this address as well as elsewhere (`login_throttled`). Refused before the password is looked at."""

    status = 429


@dataclass(frozen=True, slots=True)
class Failures:
    """Failed logins within the window: from the address (any name), on the name (any address), on the
    name from the address."""

    from_address: int
    on_name: int
    on_name_from_here: int


@dataclass(frozen=True, slots=True)
class _Reservation:
    from_address: int
    on_name: int
    on_name_from_here: int
    reserved: bool


async def reserve(conn: AsyncConnection[Any], name: str, address: str) -> None:
    """Count this attempt as a failure before its password is checked, or `LoginThrottled` when recent
    failures refuse it: the check and the count are one statement, behind locks on the name and the
    address, so sixty logins at once are counted one after the other (`succeeded` takes the count back).
    """
    async with conn.transaction():
        params = {
            "name": name,
            "address": address,
            "window": LOGIN_WINDOW,
            "max_address": MAX_ADDRESS_FAILURES,
            "max_name": MAX_NAME_FAILURES,
        }
        await conn.execute(QUERIES["lock_login"], params)
        cur = conn.cursor(row_factory=class_row(_Reservation))
        await cur.execute(QUERIES["reserve_login"], params)
        row = await cur.fetchone()
    assert row is not None  # an aggregate always has its row
    if not row.reserved:
        check_throttle(Failures(row.from_address, row.on_name, row.on_name_from_here))
        raise AssertionError("reserve_login refused what check_throttle lets in")


def check_throttle(failures: Failures) -> None:
    """`LoginThrottled` when the address, or the name from this address too, failed too often lately
    (reserve_login in queries.sql keeps the same rule in its condition).

    Examples:
        >>> check_throttle(Failures(from_address=0, on_name=MAX_NAME_FAILURES, on_name_from_here=0))
        >>> check_throttle(Failures(from_address=0, on_name=MAX_NAME_FAILURES, on_name_from_here=1))
        Traceback (most recent call last):
        ...
        backend.people.logins.LoginThrottled: login_throttled
    """
    minutes = int(LOGIN_WINDOW.total_seconds() // 60)
    if failures.from_address >= MAX_ADDRESS_FAILURES:
        raise LoginThrottled(code="login_throttled_address", minutes=minutes)
    if failures.on_name >= MAX_NAME_FAILURES and failures.on_name_from_here > 0:
        raise LoginThrottled(code="login_throttled", minutes=minutes)


async def stored_hash(conn: AsyncConnection[Any], name: str) -> str | None:
    """The user's password hash; None for no such user, or one without a password."""
    cur = conn.cursor(row_factory=class_row(_Password))
    await cur.execute(QUERIES["password_of"], {"name": name})
    row = await cur.fetchone()
    return row.password_hash if row else None


@dataclass(frozen=True, slots=True)
class _Password:
    password_hash: str | None
    locale: str | None


async def succeeded(conn: AsyncConnection[Any], name: str, address: str, *, new_hash: str | None) -> None:
    """A good login: the name's failures from this address are cleared, its own reservation with them
    (other addresses' stand), and the password's hash is replaced when its parameters moved on
    (`new_hash`)."""
    if new_hash is not None:
        await conn.execute(QUERIES["set_password"], {"name": name, "password_hash": new_hash})
    await conn.execute(QUERIES["login_succeeded"], {"name": name, "address": address})
