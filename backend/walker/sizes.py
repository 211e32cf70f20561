"""How large a run's values are: each rendered value, and the variables as a whole, have a limit.

A flow can make a value grow without bound: forty `set` nodes `{"v": "{{v}}{{v}}"}` double it forty
times. So every value the walker renders, and the run's whole variable set, is held to a size
(`Limits`, 1 MiB each by default, `FLOWYARD_MAX_VALUE_BYTES` and `FLOWYARD_MAX_VARIABLES_BYTES`);
past it the run fails with `value_too_large`. Nothing is ever cut short.

The size is that of the value as compact JSON in UTF-8, escapes aside: what the continuation and the
journal will hold. It is counted, never serialized, and counting stops as soon as the limit is passed,
so a value shared a thousand times costs at most the limit to refuse. The variables' sizes are kept per
variable (`Ledger`) and changed as variables change, so a visit costs the size of what it assigns, not
of everything the run holds.

Examples:
    >>> measure({"id": "A-7", "n": [1, 22, None]}, 1000)
    28
    >>> len('{"id":"A-7","n":[1,22,null]}')
    28
    >>> measure(["x" * 100] * 100, 500)  # stops counting past the limit
    509
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from backend.config import DEFAULT_MAX_VALUE_BYTES, DEFAULT_MAX_VARIABLES_BYTES
from backend.walker.errors import WalkFailure


@dataclass(frozen=True, slots=True)
class Limits:
    """The largest rendered value and the largest variable set of a run, in bytes of JSON."""

    value_bytes: int = DEFAULT_MAX_VALUE_BYTES
    variables_bytes: int = DEFAULT_MAX_VARIABLES_BYTES


DEFAULT_LIMITS = Limits()


def text_size(text: str) -> int:
    """The UTF-8 length of a string; `isascii` is O(1) in CPython, so most strings cost nothing."""
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


def measure(value: Any, limit: int) -> int:
    """The JSON size of `value`, counted up to a little past `limit` (then the count so far is returned)."""
    size = 0
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)  # exact types first: variables are plain JSON, and ABC checks cost more
        if kind is str:
            size += (len(item) if item.isascii() else text_size(item)) + 2
        elif kind is dict or (kind is not list and isinstance(item, Mapping)):
            # braces, and per entry the key's quotes, a colon and a comma (but after the last)
            size += max(2, 1 + 4 * len(item))
            for key in item:
                size += len(key) if type(key) is str and key.isascii() else text_size(str(key))
            stack.extend(item.values())
        elif kind is list or kind is tuple:
            size += max(2, 1 + len(item))
            stack.extend(item)
        elif isinstance(item, str):
            size += text_size(item) + 2
        else:
            # A number's JSON is its repr; null, true and false are as long as None, True and False.
            size += len(repr(item))
        if size > limit:
            return size
    return size


def too_large(limit: int, **detail: Any) -> WalkFailure:
    """The failure of a run that would hold a value past a limit."""
    return WalkFailure(code="value_too_large", limit=limit, **detail)


class JournalBudget:
    """How many bytes of journal a walk may write, across its stretches: the editor's preview has one
    (backend/api/walk.py), a run has none (its lines are written to the database stretch by stretch).

    Lines are counted as the walk writes them, before the next visit; past the budget the walk fails with
    `walk_journal_too_large`, so a preview never builds a journal it would then refuse.

    Examples:
        >>> from backend.walker.step import JournalLine
        >>> budget = JournalBudget(100)
        >>> budget.spend([JournalLine(code="log_written", node="n", visit=1, data={"message": "hi"})])
        >>> budget.used
        67
        >>> budget.spend([JournalLine(code="log_written", node="n", visit=2, data={"message": "x" * 40})])
        Traceback (most recent call last):
        ...
        backend.walker.errors.WalkFailure: walk_journal_too_large: limit=100
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0

    def spend(self, lines: Iterable[Any]) -> None:
        for line in lines:
            self.used += measure(line.to_json(), self.limit - self.used)
            if self.used > self.limit:
                raise WalkFailure(code="walk_journal_too_large", limit=self.limit)


class Ledger:
    """The size of each variable and of them all, kept as the walk assigns and removes variables.

    `check` fails the run when the whole set is past its limit. A variable whose value is one the
    ledger measured before (the same object: values are never changed in place) is not measured again.
    """

    def __init__(self, variables: Mapping[str, Any], limits: Limits) -> None:
        self.limit = limits.variables_bytes
        self.sizes: dict[str, int] = {}
        self.total = 2
        self._known: dict[int, tuple[Any, int]] = {}
        for name, value in variables.items():
            self.assign(name, value)

    def size_of(self, value: Any) -> int:
        """The JSON size of a value, remembered for containers (a loop's items are read at every pass)."""
        if not isinstance(value, Mapping | list):
            return measure(value, self.limit)
        known = self._known.get(id(value))
        if known is not None and known[0] is value:
            return known[1]
        size = measure(value, self.limit)
        self._known[id(value)] = (value, size)  # the value is kept, so its id is not reused meanwhile
        return size

    def assign(self, name: str, value: Any, size: int | None = None) -> int:
        """Count `name` as holding `value` (of `size`, when the caller knows it); returns its size."""
        if size is None:
            size = self.size_of(value)
        entry = (len(name) if name.isascii() else text_size(name)) + 4 + size
        self.total += entry - self.sizes.get(name, 0)
        self.sizes[name] = entry
        return size

    def remove(self, name: str) -> None:
        self.total -= self.sizes.pop(name, 0)

    def check(self) -> None:
        """`value_too_large` when the variables together are past the limit."""
        if self.total > self.limit:
            raise too_large(self.limit, what="variables")
