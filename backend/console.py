"""How every command refuses: one line on stderr, the catalog's sentence and its reason code."""

from __future__ import annotations

import sys
from typing import Any

from backend.errors import CodedError
from backend.i18n.catalogs import message
from backend.i18n.terminal import terminal_locale
from backend.strict_json import JsonRefused, read_json


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
    print(f"flowyard: {message(code, terminal_locale(), **params)} ({code})", file=sys.stderr)
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
        raise InputRefused(code="walk_input_invalid", reason=refused.reason) from None
