"""The key that seals the secret store: from FLOWYARD_SECRET_KEY, or a file in the data folder.

`FLOWYARD_SECRET_KEY` holds one Fernet key, or several separated by commas: the first seals, all of them
open (MultiFernet), so a key can be rotated by putting the new one first, running `flowyard secret
rotate`, then dropping the old one. Without the variable, the key is `<data folder>/secret.key` (one key
per line, the same order), made on first use with mode 0600 so that `make run` needs no configuration.
A key file that others may read is refused: a key anyone on the machine can read protects nothing.

Examples:
    >>> from cryptography.fernet import Fernet
    >>> first, second = Fernet.generate_key().decode(), Fernet.generate_key().decode()
    >>> box = keys_from_text(f"{first}, {second}")
    >>> box.decrypt(Fernet(second.encode()).encrypt(b"old")) == b"old"
    True
    >>> keys_from_text("not a key")
    Traceback (most recent call last):
    ...
    backend.actions.failures.ActionFailure: secret_key_invalid
"""

from __future__ import annotations

import binascii
import contextlib
import os
import stat
from pathlib import Path

from cryptography.fernet import Fernet, MultiFernet

from backend.actions.failures import ActionFailure

KEY_FILE = "secret.key"


def keys_from_text(text: str) -> MultiFernet:
    """The keys of a comma- or newline-separated list, the first one sealing."""
    keys = [part.strip() for part in text.replace("\n", ",").split(",") if part.strip()]
    if not keys:
        raise ActionFailure(code="secret_key_invalid", position=0)
    fernets = []
    for position, key in enumerate(keys, start=1):
        try:
            fernets.append(Fernet(key.encode()))
        except (ValueError, binascii.Error):
            raise ActionFailure(code="secret_key_invalid", position=position) from None
    return MultiFernet(fernets)


def load_keys(data_dir: Path, given: str | None = None) -> MultiFernet:
    """The keys `given` (FLOWYARD_SECRET_KEY), else the data folder's key file's, made if there is none."""
    text = (given or "").strip()
    if text:
        return keys_from_text(text)
    path = data_dir / KEY_FILE
    if not path.exists():
        _create(path)
    mode = path.stat().st_mode
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise ActionFailure(code="secret_key_file_open", path=str(path), mode=oct(mode & 0o777))
    return keys_from_text(path.read_text(encoding="ascii"))


def _create(path: Path) -> None:
    """Write a new key where two processes starting together agree on one: link() never replaces."""
    path.parent.mkdir(parents=True, exist_ok=True)
    draft = path.with_name(f"{KEY_FILE}.{os.getpid()}.new")
    descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="ascii") as handle:
            handle.write(Fernet.generate_key().decode() + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        # Another process that made it first wins: its key is the key.
        with contextlib.suppress(FileExistsError):
            os.link(draft, path)
    finally:
        draft.unlink(missing_ok=True)
