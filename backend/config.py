"""Settings from the environment, each with a default that works on a laptop."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

# Defaults of the limits below, here so that the pure parts (graph/, walker/) can take them as their
# default arguments without reading the environment themselves.
DEFAULT_MAX_FINDINGS = 200
DEFAULT_MAX_VALUE_BYTES = 1 << 20
DEFAULT_MAX_VARIABLES_BYTES = 1 << 20
DEFAULT_MAX_WALK_JOURNAL_BYTES = 2 << 20


@dataclass(frozen=True, slots=True)
class Settings:
    database_url: str | None
    data_dir: Path
    host: str
    port: int
    # Findings a validation lists before one `findings_truncated` says how many more there are.
    max_findings: int = DEFAULT_MAX_FINDINGS
    # The JSON size of one rendered value, and of a run's whole variable set (`value_too_large`).
    max_value_bytes: int = DEFAULT_MAX_VALUE_BYTES
    max_variables_bytes: int = DEFAULT_MAX_VARIABLES_BYTES
    # The JSON size of the journal of a walk with sample input (`walk_journal_too_large`).
    max_walk_journal_bytes: int = DEFAULT_MAX_WALK_JOURNAL_BYTES
    # Where people reach this Flowyard: the links in mails start with it (a proxy's address, not ours).
    base_url: str = "http://127.0.0.1:8000"

    @property
    def pgdata(self) -> Path:
        """Where the embedded PostgreSQL keeps its data when DATABASE_URL is unset."""
        return self.data_dir / "pgdata"


def settings() -> Settings:
    host = os.environ.get("FLOWYARD_HOST", "127.0.0.1")
    port = int(os.environ.get("FLOWYARD_PORT", "8000"))
    max_value_bytes, max_variables_bytes = value_limits()
    return Settings(
        database_url=os.environ.get("DATABASE_URL") or None,
        data_dir=Path(os.environ.get("FLOWYARD_DATA_DIR", ".flowyard")).resolve(),
        max_findings=_positive("FLOWYARD_MAX_FINDINGS", DEFAULT_MAX_FINDINGS),
        max_value_bytes=max_value_bytes,
        max_variables_bytes=max_variables_bytes,
        max_walk_journal_bytes=_positive("FLOWYARD_MAX_WALK_JOURNAL_BYTES", DEFAULT_MAX_WALK_JOURNAL_BYTES),
        host=host,
        port=port,
        base_url=os.environ.get("FLOWYARD_BASE_URL") or f"http://{host}:{port}",
    )


def value_limits() -> tuple[int, int]:
    """`Settings.max_value_bytes` and `max_variables_bytes` alone: what every walk reads, without the rest
    of `settings()` (whose data directory costs a file system call: about a fifth of a worker's CPU per run
    of a two-node flow, in the profile of a drain of bench/peers.py)."""
    return (
        _positive("FLOWYARD_MAX_VALUE_BYTES", DEFAULT_MAX_VALUE_BYTES),
        _positive("FLOWYARD_MAX_VARIABLES_BYTES", DEFAULT_MAX_VARIABLES_BYTES),
    )


def _positive(name: str, default: int) -> int:
    """A whole number above 0 from the environment; a limit of 0 or less would refuse everything."""
    value = int(os.environ.get(name) or default)
    if value < 1:
        raise ValueError(f"{name} must be at least 1, not {value}")
    return value
