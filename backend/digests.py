"""The one digest of a secret Flowyard keeps instead of the secret: API tokens, session ids and webhook
secrets are stored as this and compared as this, never in the clear.

Examples:
    >>> secret_digest("s") == secret_digest("s") != secret_digest("t"), len(secret_digest("s"))
    (True, 64)
"""

from __future__ import annotations

import hashlib


def secret_digest(secret: str) -> str:
    """SHA-256 of the secret's UTF-8 bytes, in hex: enough for a random secret of 32 bytes or more."""
    return hashlib.sha256(secret.encode()).hexdigest()
