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

    @property
    def pgdata(self) -> Path:
        """Where the embedded PostgreSQL keeps its data when DATABASE_URL is unset."""
        return self.data_dir / "pgdata"


def settings() -> Settings:
    return Settings(
        database_url=os.environ.get("DATABASE_URL") or None,
        data_dir=Path(os.environ.get("FLOWYARD_DATA_DIR", ".flowyard")).resolve(),
        host=os.environ.get("FLOWYARD_HOST", "127.0.0.1"),
        port=int(os.environ.get("FLOWYARD_PORT", "8000")),
    )
