"""`flowyard check FLOW.json [--json]`: validate a flow file, no database.

Exit codes: 0 valid, 1 findings, 2 a file that cannot be read as a flow document at all (missing, larger
than 5 MB, not UTF-8, not JSON): one line on stderr, never a traceback. A UTF-8 byte order mark is
accepted, as editors on Windows write one. The file is read by the one strict reader
(`backend.strict_json`), as the API reads a body: JSON that Python reads but the standard does not (NaN,
Infinity) and an object with the same key twice are refused (the second would make the result depend
on which of the two a reader keeps), and so is what PostgreSQL could not store.

Human output is one line per finding, `FLOW.json: code: message`; `--json` prints
`{"valid": bool, "findings": [{"code", "node", "wire", "message"}...]}` as FLOW_FORMAT.md says.
"""

from __future__ import annotations

import argparse
import errno
import json
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TextIO

from backend.config import DEFAULT_MAX_FINDINGS
from backend.errors import CodedError
from backend.graph.findings import Finding
from backend.graph.validator import check_flow
from backend.i18n.catalogs import message
from backend.strict_json import MAX_BYTES, JsonRefused, read_json

MAX_FILE_BYTES = MAX_BYTES
# The keys of a finding that `check --json` prints (FLOW_FORMAT.md, "Command-line contract").
_JSON_KEYS = ("code", "node", "wire", "message")


class FlowFileUnreadable(CodedError):
    """The file is no JSON document: the reason code, and its sentence's parameters but the path."""


def check_command(args: argparse.Namespace) -> int:
    """`flowyard check`, as backend/cli.py registers it."""
    return run_check(args.flow, as_json=args.json, max_findings=args.settings.max_findings)


def run_check(path: str, *, as_json: bool, max_findings: int = DEFAULT_MAX_FINDINGS) -> int:
    """Check the flow file at `path`, print the findings, and return the exit code.

    Examples:
        >>> run_check("/nonexistent/flow.json", as_json=True)
        2
    """
    try:
        document = read_flow_file(path)
    except FlowFileUnreadable as unreadable:
        sentence = message(unreadable.code, "en", path=path, **unreadable.params)
        write_line(sys.stderr, f"flowyard check: {sentence}")
        return 2
    findings, warnings = check_flow(document, limit=max_findings, now=datetime.now(UTC))
    print_findings(path, findings, as_json=as_json, warnings=warnings)
    # Warnings leave the flow valid: the exit code is the findings' alone.
    return 1 if findings else 0


def print_findings(
    path: str, findings: Sequence[Finding], *, as_json: bool, warnings: Sequence[Finding] | None = None
) -> None:
    """Findings on stdout as `flowyard check` prints them (`flowyard walk` prints them the same way).

    With `warnings` (check does; walk, which stops at findings, does not), `--json` adds a
    `"warnings"` list of the findings' shape, and the lines print them after the findings.

    Examples:
        >>> print_findings("f.json", [Finding("cycle", "a", 2, "A cycle.")], as_json=True)
        {"valid": false, "findings": [{"code": "cycle", "node": "a", "wire": 2, "message": "A cycle."}]}
        >>> print_findings("f.json", [], as_json=True, warnings=[])
        {"valid": true, "findings": [], "warnings": []}
    """
    if as_json:
        rows = [{key: finding.to_json()[key] for key in _JSON_KEYS} for finding in findings]
        answer: dict[str, object] = {"valid": not findings, "findings": rows}
        if warnings is not None:
            answer["warnings"] = [{key: warning.to_json()[key] for key in _JSON_KEYS} for warning in warnings]
        write_line(sys.stdout, json.dumps(answer))
        return
    if findings:
        for finding in findings:
            write_line(sys.stdout, f"{path}: {finding.code}: {finding.message}")
    else:
        write_line(sys.stdout, f"{path}: {_sentence(code='flow_valid')}")
    for warning in warnings or ():
        write_line(sys.stdout, f"{path}: {warning.code}: {warning.message}")


def _sentence(*, code: str) -> str:
    """A sentence of the CLI's own, in English whatever the machine's locale: the contract other programs
    read (a `code=` keyword, so the catalog guard finds the code)."""
    return message(code)


def read_flow_file(path: str) -> object:
    """The JSON value in a flow file; FlowFileUnreadable when it cannot be read as one.

    Examples:
        >>> read_flow_file("/nonexistent/flow.json")
        Traceback (most recent call last):
        ...
        backend.graph.cli.FlowFileUnreadable: flow_file_unreadable
    """
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        # Why, in the reader's language: the system's own words (`strerror`) are English.
        raise FlowFileUnreadable(
            code="flow_file_unreadable",
            reason=_file_problem(error),
        ) from None
    try:
        return read_json(data, max_bytes=MAX_FILE_BYTES, allow_bom=True)
    except JsonRefused as refused:
        if refused.kind == "too_large":
            raise FlowFileUnreadable(code="flow_file_too_large", limit="5 MB") from None
        if refused.kind == "not_utf8":
            raise FlowFileUnreadable(code="flow_file_not_utf8", offset=refused.params["offset"]) from None
        if refused.kind == "key_duplicate":
            raise FlowFileUnreadable(code="flow_file_key_duplicate", key=refused.params["key"]) from None
        raise FlowFileUnreadable(
            code="flow_file_not_json", reason=refused.reason_code, **refused.params
        ) from None


_FILE_PROBLEMS = {
    errno.ENOENT: "file_problem_missing",
    errno.EACCES: "file_problem_denied",
    errno.EPERM: "file_problem_denied",
    errno.EISDIR: "file_problem_folder",
}


def _file_problem(error: OSError) -> str:
    """The reason code for a file the system would not open (tested here: a test run as root is never denied).

    Examples:
        >>> [_file_problem(OSError(number, "")) for number in (errno.ENOENT, errno.EACCES, errno.EPERM)]
        ['file_problem_missing', 'file_problem_denied', 'file_problem_denied']
        >>> _file_problem(IsADirectoryError(errno.EISDIR, ""))
        'file_problem_folder'
        >>> _file_problem(OSError(errno.ENOSPC, "")), _file_problem(OSError("no number"))
        ('file_problem_other', 'file_problem_other')
    """
    return _FILE_PROBLEMS.get(error.errno or 0, "file_problem_other")


def write_line(stream: TextIO, line: str) -> None:
    """One line, with what the stream cannot encode escaped rather than raised.

    Examples:
        >>> import io
        >>> stream = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
        >>> write_line(stream, "caf\u00e9")
        >>> stream.flush(); stream.buffer.getvalue().splitlines()
        [b'caf\\\\xe9']
    """
    encoding = stream.encoding or "utf-8"
    stream.write(line.encode(encoding, "backslashreplace").decode(encoding) + "\n")
