"""Settings from the environment, each with a default that works on a laptop."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Settings:
    database_url: str | None
    data_dir: Path
    host: str
    port: int
    # Where people reach this Flowyard: the links in mails start with it (a proxy's address, not ours).
    base_url: str

    @property
    def pgdata(self) -> Path:
        """Where the embedded PostgreSQL keeps its data when DATABASE_URL is unset."""
        return self.data_dir / "pgdata"


def settings() -> Settings:
    host = os.environ.get("FLOWYARD_HOST", "127.0.0.1")
    port = int(os.environ.get("FLOWYARD_PORT", "8000"))
    return Settings(
        database_url=os.environ.get("DATABASE_URL") or None,
        data_dir=Path(os.environ.get("FLOWYARD_DATA_DIR", ".flowyard")).resolve(),
        host=host,
        port=port,
        base_url=os.environ.get("FLOWYARD_BASE_URL") or f"http://{host}:{port}",
    )
