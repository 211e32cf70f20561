"""Password hashing off the event loop, a bounded number at a time.

An argon2 hash costs ~150 ms of CPU by design. On the event loop, thirty logins at once stall every
other request for seconds; on unbounded threads, they take every core from the worker. So hashes run on
a small executor of their own (argon2-cffi releases the GIL while it hashes): at most `size` at once,
the rest wait their turn in its queue without holding the loop, a database connection, or a thread.
The queue has a depth: a login past it is told at once that the server is busy (`HashingBusy`) rather
than waiting behind a burst of guesses for tens of seconds.

On Linux the hashing threads also run at a lower priority (nice 10; a nice value there belongs to a
thread, and argon2's own lane threads inherit it): with the cores busy hashing, the event loop still
gets the CPU first, so `/healthz` and every other request keep answering at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from backend.errors import CodedError

_hasher = PasswordHasher()


def hash_now(password: str) -> str:
    """A new hash, computed here (for the CLI, which has no loop to keep free)."""
    return _hasher.hash(password)


def _verify(stored: str | None, password: str) -> tuple[bool, bool]:
    if stored is None:
        _hasher.hash(password)  # the same work whether or not the user exists
        return False, False
    try:
        _hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False, False
    return True, _hasher.check_needs_rehash(stored)


HASHING_NICENESS = 10


def _lower_priority() -> None:
    # A container may forbid it; hashing then still runs off the loop, only without yielding to it.
    if sys.platform == "linux":
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HASHING_NICENESS)


class HashingBusy(CodedError):
    """Every hasher is busy and the queue behind them is full: try again in a moment."""

    status = 429


class PasswordHashing:
    """`with hashing.slot(): await hashing.verify(stored, password)`; one per process (the app keeps it
    in its state). A slot is a place among the `size` hashing now or the `depth` waiting behind them.

    Examples:
        >>> hashing = PasswordHashing(1, depth=1)
        >>> with hashing.slot(), hashing.slot():
        ...     with hashing.slot():
        ...         pass
        Traceback (most recent call last):
        ...
        backend.people.hashing.HashingBusy: login_busy
        >>> with hashing.slot():
        ...     pass
        >>> hashing.close()
    """

    def __init__(self, size: int, *, depth: int) -> None:
        self._executor = ThreadPoolExecutor(
            max_workers=size, thread_name_prefix="argon2", initializer=_lower_priority
        )
        # Only the event loop's thread takes and gives slots back, so a plain count holds.
        self._free = size + depth

    @contextlib.contextmanager
    def slot(self) -> Iterator[None]:
        """A place in the hashing queue for one login, or `HashingBusy` at once when there is none."""
        if self._free <= 0:
            raise HashingBusy(code="login_busy")
        self._free -= 1
        try:
            yield
        finally:
            self._free += 1

    async def verify(self, stored: str | None, password: str) -> tuple[bool, bool]:
        """(the password matches, the stored hash should be replaced by a new one)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, _verify, stored, password)

    async def hash(self, password: str) -> str:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, hash_now, password)

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
