"""How every command refuses: one line on stderr, the catalog's sentence and its reason code."""

from __future__ import annotations

import sys
from typing import Any

from backend.i18n.catalogs import message


def refuse(*, code: str, exit_code: int = 1, **params: Any) -> int:
    """Print why a command stops and return its exit code.

    Examples:
        >>> import contextlib, io
        >>> err = io.StringIO()
        >>> with contextlib.redirect_stderr(err):
        ...     refuse(code="flow_not_found")
        1
        >>> err.getvalue()
        'flowyard: There is no such flow. (flow_not_found)\\n'
    """
    print(f"flowyard: {message(code, **params)} ({code})", file=sys.stderr)
    return exit_code
