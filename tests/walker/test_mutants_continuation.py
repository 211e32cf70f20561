"""Survivors of `make mutation` in backend/walker/continuation.py: `from_json` reads version 1 only and
refuses anything else, a value that is not an object too, with the reason code and the version it saw."""

from __future__ import annotations

from typing import Any

import pytest

from backend.walker.branches import from_json
from backend.walker.continuation import State, to_json
from backend.walker.errors import ContinuationInvalid
from tests.walker.support import reason_of


def refused(continuation: Any) -> tuple[str, dict[str, Any]]:
    with pytest.raises(ContinuationInvalid) as raised:
        from_json(continuation, {"t", "ask"})
    return raised.value.code, reason_of(raised.value.params)


def test_a_version_1_continuation_is_read_back() -> None:
    state = State(stack=[], seen=[{"t": None, "ask": None}], variables={"n": 1}, visits=2, loops=[])
    assert from_json(to_json(state, at=("ask", 2)), {"t", "ask"}) == (state, ("ask", 2))


@pytest.mark.parametrize(
    ("continuation", "reason"),
    [
        ({"v": 2}, "version 2"),
        ({"v": "1"}, 'version "1"'),
        ({"v": True}, "version true"),
        ({"v": 1.0}, "version 1.0"),
        ({}, "version null"),
        (["v", 1], "version null"),
        ("v", "version null"),
    ],
)
def test_another_version_or_no_object_is_refused_with_the_version_seen(
    continuation: Any, reason: str
) -> None:
    assert refused(continuation) == ("continuation_invalid", {"reason": reason})
