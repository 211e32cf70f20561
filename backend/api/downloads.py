"""The audit exports as files to download: CSV (by default) or JSON, named alike, the CSV with a byte-order
mark unless asked for none.

Excel reads a CSV without a byte-order mark in the machine's ANSI code page (Shift-JIS on Japanese
Windows, Windows-1252 on German), so "Genehmigt" survives but 承認 and "Prüfer" do not; with the mark it
reads UTF-8. Programs that read the CSV themselves may turn it off (`bom=false`). JSON never carries one
(RFC 8259 forbids it).

Examples:
    >>> answer = download("a,b\\r\\n", "flowyard-runs", {"format": "csv"}, {})
    >>> answer.body[:3] == BOM, answer.headers["content-disposition"]
    (True, 'attachment; filename="flowyard-runs.csv"')
    >>> download("a,b\\r\\n", "flowyard-runs", {"bom": "false"}, {}).body[:3]
    b'a,b'
    >>> download("[]", "flowyard-runs", {"format": "json"}, {}).headers["content-disposition"]
    'attachment; filename="flowyard-runs.json"'
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Mapping
from typing import Any

from starlette.responses import Response, StreamingResponse

BOM = "\ufeff".encode()
log = logging.getLogger("flowyard.api")

# The query parameters every export takes beside its filter.
QUERY: dict[str, dict[str, Any]] = {
    "format": {"enum": ["csv", "json"], "description": "csv (the default) or json"},
    "bom": {
        "enum": ["true", "false"],
        "description": "whether the CSV starts with a UTF-8 byte-order mark, so that Excel reads it as "
        "UTF-8 (true, the default); JSON never has one",
    },
}


def wants_json(query: Mapping[str, Any]) -> bool:
    """Whether the export is asked for as JSON rather than CSV."""
    return bool(query.get("format", "csv") == "json")


def download(text: str, name: str, query: Mapping[str, Any], headers: dict[str, str]) -> Response:
    """`text` (the CSV or JSON the query asks for) as a file named `name` plus its format's extension."""
    media_type, mark = _kind(name, query, headers)
    return Response(mark + text.encode(), media_type=media_type, headers=headers)


async def streamed(pieces: AsyncIterator[str], name: str, query: Mapping[str, Any]) -> StreamingResponse:
    """`download` of a file written a piece at a time while it is sent (chunked): the server holds one
    piece, however long the file. The first piece (which holds the first page read) is made before the
    answer starts: a failure there, the database away or a statement refused, is an error answer with
    its code, not a 200 cut short. A failure halfway comes after the 200: the connection is cut before
    the chunked body's end, which an HTTP client reports as an incomplete read (a JSON array is also left
    unclosed; a CSV's last lines are missing, which its rows alone do not show), and it is logged."""
    headers: dict[str, str] = {}
    media_type, mark = _kind(name, query, headers)
    first = await anext(pieces, "")
    return StreamingResponse(
        _sent(first, pieces, mark, f"the download {name}"), media_type=media_type, headers=headers
    )


async def streamed_json(pieces: AsyncIterator[str]) -> StreamingResponse:
    """A JSON answer (not a file to save) written a piece at a time while it is sent, its first piece
    made before the answer starts, as `streamed` does."""
    first = await anext(pieces, "")
    return StreamingResponse(_sent(first, pieces, b"", "a streamed answer"), media_type="application/json")


async def _sent(first: str, pieces: AsyncIterator[str], mark: bytes, what: str) -> AsyncIterator[bytes]:
    """`mark`, `first` and the rest of `pieces` as bytes; a failure halfway is logged (the reader only
    sees the answer cut)."""
    yield mark + first.encode()
    try:
        async for piece in pieces:
            yield piece.encode()
    except Exception:
        log.exception("%s failed halfway; its reader got it cut short", what)
        raise


def _kind(name: str, query: Mapping[str, Any], headers: dict[str, str]) -> tuple[str, bytes]:
    """The media type and the leading mark of the file the query asks for; its name in `headers`."""
    if wants_json(query):
        extension, media_type, mark = "json", "application/json", b""
    else:
        extension, media_type = "csv", "text/csv; charset=utf-8"
        mark = b"" if query.get("bom") == "false" else BOM
    headers["Content-Disposition"] = f'attachment; filename="{name}.{extension}"'
    return media_type, mark
