"""Cells of the CSV exports (the audit trail's decisions, the run records) that a spreadsheet cannot run.

A cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is a formula to Excel, LibreOffice
and Google Sheets; user text (a comment, a title, an input) must never be one. Such a cell gets a leading
apostrophe, which every spreadsheet shows as text. This module imports nothing of the project's, so every
package that writes a CSV may use it.

Examples:
    >>> safe_cell("=HYPERLINK(\\"https://evil.example\\")"), safe_cell("-3"), safe_cell("ok")
    ('\\'=HYPERLINK("https://evil.example")', "'-3", 'ok')
"""

from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(text: str) -> str:
    """`text` as a cell no spreadsheet reads as a formula."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text
