"""The defaults of the limits that the pure parts (graph/, walker/) take as their default arguments.

The settings themselves, these limits' variables among them, are backend/settings.py's: read once where a
process starts, and passed down.
"""

from __future__ import annotations

DEFAULT_MAX_FINDINGS = 200
DEFAULT_MAX_VALUE_BYTES = 1 << 20
DEFAULT_MAX_VARIABLES_BYTES = 1 << 20
DEFAULT_MAX_WALK_JOURNAL_BYTES = 2 << 20
