"""A parameter that is a list of names, each of them meant: "a, b, and c" in the reader's language.

A plain tuple in a message's parameters is a choice, written "a, b, or c" (`catalogs._listed`); `AllOf`
is every one of them, written "a, b, and c", "a, b und c", "a、b、c". Both reach a JSON answer as an array.
This module imports nothing, so that a module raising a coded error may use it without loading Babel.
"""

from __future__ import annotations


class AllOf(tuple[str, ...]):
    """Names that all hold (the nodes a version lacks), listed with "and" when a message is written."""

    __slots__ = ()
