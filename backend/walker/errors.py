"""The ways a walk stops short: a run that fails, and a call the walker refuses.

A `WalkFailure` ends the run: the walker catches it, writes `run_failed` with its code to the journal and
returns a failed `Step`. `ResumeMismatch` and `ContinuationInvalid` are raised to the caller instead: they
mean the driver asked something the walker cannot answer, and the run itself is not at fault.

Every code is a reason code with a sentence in the catalogs; it is passed as the keyword `code=`, as a
string literal, so that the catalog guard can read it from the source.

Examples:
    >>> failure = WalkFailure(code="foreach_items_invalid", got="string")
    >>> failure.code, failure.detail
    ('foreach_items_invalid', {'got': 'string'})
    >>> str(ResumeMismatch(code="resume_mismatch", expected="ask@7", got="ask@8"))
    'resume_mismatch: expected=ask@7, got=ask@8'
"""

from __future__ import annotations

from backend import errors


class CodedError(errors.CodedError):
    """The walker's coded errors: their text names the details too, for the driver's logs."""

    def __str__(self) -> str:
        details = ", ".join(f"{key}={value}" for key, value in self.params.items())
        return f"{self.code}: {details}" if details else self.code


class WalkFailure(CodedError):
    """The run fails with this reason code; `detail` goes into the `run_failed` journal line."""


class ResumeMismatch(CodedError, ValueError):
    """The resume does not answer the pause the continuation is at (node, visit, or outcome)."""


class ContinuationInvalid(CodedError, ValueError):
    """The continuation is not one this release can thaw (an unknown version, a broken shape)."""
