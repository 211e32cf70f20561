"""Helpers of the walker's tests."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def reason_of(params: Mapping[str, Any]) -> dict[str, Any]:
    """A `continuation_invalid` refusal's parameters, with what was wrong as one `reason` to compare.

    A person reads the reason's own sentence (`continuation_version_unknown`, `continuation_damaged`);
    the tests compare what a machine reads beside it: the version found, or the part that is wrong.
    """
    found = dict(params)
    if found.get("reason") == "continuation_version_unknown":
        return {"reason": f"version {found['found']}"}
    if found.get("reason") == "continuation_damaged":
        return {"reason": found["detail"]}
    return found
