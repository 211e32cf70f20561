"""What the crash sweep exercised, printed at the end of the test session (the issue asks for the figures
in every `make test`, not only when something fails)."""

from __future__ import annotations

import pytest

REPORTS: list[str] = []


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for report in REPORTS:
        terminalreporter.write_line(report)
