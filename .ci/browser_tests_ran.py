"""Fails unless every browser test pytest collects passed in the JUnit report of the run just made.

`make test` can be green with browser tests that never ran: skipped, deselected by an option from the
environment, or lost by a worker. The count that passed, read from the report, must be the count that
`pytest --collect-only` finds in the directory.

Usage: python .ci/browser_tests_ran.py REPORT.xml tests/browser
"""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ElementTree


def collected(directory: str) -> set[str]:
    """The ids pytest collects under `directory`, as `tests.browser.test_x::test_y[param]`."""
    listing = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:xdist", directory],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    ids = set()
    for line in listing.splitlines():
        parts = line.split("::")
        if len(parts) < 2 or not parts[0].endswith(".py"):
            continue  # the summary and blank lines
        path, *classes, name = parts
        # JUnit names a test's module and class with dots, as `tests.browser.test_x.Class`.
        ids.add(".".join([path.removesuffix(".py").replace("/", "."), *classes]) + "::" + name)
    return ids


def passed(report: str, directory: str) -> set[str]:
    """The ids of the tests under `directory` that the JUnit report shows passed."""
    module = directory.rstrip("/").replace("/", ".") + "."
    ids = set()
    for case in ElementTree.parse(report).iter("testcase"):
        name, classname = case.get("name", ""), case.get("classname", "")
        if classname.startswith(module) and not any(child.tag in OUTCOMES for child in case):
            ids.add(f"{classname}::{name}")
    return ids


OUTCOMES = {"skipped", "failure", "error"}  # anything but a pass

if __name__ == "__main__":
    report, directory = sys.argv[1], sys.argv[2]
    expected, ran = collected(directory), passed(report, directory)
    print(f"--- browser tests: {len(ran)} passed of {len(expected)} collected")
    if not expected or ran != expected:
        for test_id in sorted(expected - ran):
            print(f"did not pass: {test_id}", file=sys.stderr)
        sys.exit(1)
