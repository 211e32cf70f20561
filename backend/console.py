"""How every command speaks to a person: each line a catalog sentence in the terminal's language.

`say` prints a sentence on stdout (a confirmation, a summary, a progress line), `warn` one on stderr with
its reason code, `refuse` the same and returns the exit code; `row` prints one row of a listing, its cells
tab-separated (names, numbers and dates, never words of ours: a word of a cell is a catalog sentence too),
and `moment` writes a date for such a cell. The language is the terminal's (`terminal_locale`) unless a
command runs as a user (`--as NAME`) and `speak_as` handed it that user's own language and time zone.

A command module never prints a literal: tests/test_cli_words.py holds them to it.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from contextvars import ContextVar
from datetime import datetime
from typing import Any, TextIO

from babel.lists import format_list

from backend.errors import CodedError
from backend.i18n import terminal
from backend.i18n.catalogs import message
from backend.i18n.locales import LOCALES
from backend.i18n.pseudo import PSEUDO_LOCALE
from backend.i18n.zones import format_moment, set_reader_zone, zone
from backend.strict_json import JsonRefused, read_json

_SPEAKING: ContextVar[str | None] = ContextVar("speaking", default=None)


def locale() -> str:
    """The language this command speaks: a user's own (`speak_as`), else the terminal's."""
    return _SPEAKING.get() or terminal.spoken()


def speak_as(user_locale: str | None, time_zone: str | None) -> None:
    """From here on, speak as a user whose settings these are: their language when it is one of ours
    (else the terminal's), and their time zone for every date (else UTC)."""
    if user_locale in (*LOCALES, PSEUDO_LOCALE):
        _SPEAKING.set(user_locale)
    set_reader_zone(zone(time_zone))


def say(*, code: str, stream: TextIO | None = None, **params: Any) -> None:
    """Print the sentence of `code` for a person, on stdout (or `stream`), at once (a banner is awaited)."""
    print(message(code, locale(), **params), file=stream, flush=True)


def word(*, code: str, **params: Any) -> str:
    """The sentence (or word) of `code` for a cell of a listing, in the command's language."""
    return message(code, locale(), **params)


def coded(*, code: str, **params: Any) -> str:
    """The sentence of `code` with the code after it, for a line a person reads and a program greps:
    `<sentence> (<code>)`."""
    return f"{message(code, locale(), **params)} ({code})"


def warn(*, code: str, **params: Any) -> None:
    """Print one line on stderr that a person must know of: `flowyard: <sentence> (<code>)`."""
    print(f"flowyard: {coded(code=code, **params)}", file=sys.stderr, flush=True)


def row(*cells: str) -> None:
    """Print one row of a listing, its cells tab-separated, as programs like `cut` read them."""
    print("\t".join(cells))


def listed(values: Sequence[str]) -> str:
    """Names listed as the reader's language lists them ("a, b, and c", "a, b und c", "a、b、c")."""
    return format_list(list(values), style="standard", locale=locale() if locale() in LOCALES else "en")


def moment(at: datetime) -> str:
    """A date in a listing: in the reader's language and zone, the zone named (`format_moment`)."""
    return format_moment(at, locale())


def refuse(error: CodedError | None = None, /, *, code: str = "", exit_code: int = 1, **params: Any) -> int:
    """Print why a command stops and return its exit code: a refusal raised (`refuse(error)`, its params
    completed by `params`), or a reason code written here (`refuse(code="...")`, where the guard reads it).

    Examples:
        >>> import contextlib, io
        >>> err = io.StringIO()
        >>> with contextlib.redirect_stderr(err):
        ...     refuse(code="flow_not_found")
        1
        >>> err.getvalue()
        'flowyard: There is no such flow. (flow_not_found)\\n'
        >>> with contextlib.redirect_stderr(io.StringIO()) as err:
        ...     refuse(CodedError(code="flow_not_found"), exit_code=2)
        2
        >>> err.getvalue()
        'flowyard: There is no such flow. (flow_not_found)\\n'
    """
    if error is not None:
        code, params = error.code, {**error.params, **params}
    warn(code=code, **params)
    return exit_code


class InputRefused(CodedError):
    """`--input` is no JSON we take: `walk_input_invalid`, with the reader's reason."""


def read_input(text: str | None) -> Any:
    """`--input`'s JSON (`flowyard run`, `flowyard walk`), read by the one strict reader; a refusal
    `walk_input_invalid` saying why, before anything is started.

    Examples:
        >>> read_input('{"a": [1, 2]}'), read_input(None)
        ({'a': [1, 2]}, None)
        >>> read_input('{"a": NaN}')
        Traceback (most recent call last):
        ...
        backend.console.InputRefused: walk_input_invalid
    """
    if text is None:
        return None
    try:
        return read_json(text)
    except JsonRefused as refused:
        raise InputRefused(code="walk_input_invalid", reason=refused.reason_code, **refused.params) from None
