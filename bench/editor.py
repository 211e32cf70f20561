"""The editor in headless chromium: how long a 500-node flow takes to open and be interactive, how long an
edit's findings take to appear, and the built bundle's size (gzip) next to the last run's figure.

    .venv/bin/python bench/editor.py       (needs `make frontend` and /usr/bin/chromium)

Figures are printed, never asserted. The last bundle size is kept in .flowyard/bench-editor.json.
"""

from __future__ import annotations

import gzip
import itertools
import json
import statistics
import sys
import time
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])

from playwright.sync_api import Page, sync_playwright

from bench.common import fresh_database
from tests.browser.support import DIST, chromium_path, log_in, serve

LAST = Path(".flowyard/bench-editor.json")
NODES = 500


def bundle_gzip_bytes() -> int:
    return sum(len(gzip.compress(p.read_bytes(), 9)) for p in (DIST / "assets").iterdir() if p.is_file())


def big_flow(nodes: int) -> dict[str, object]:
    """A trigger and a chain of log nodes: `nodes` nodes in all, laid out by the editor on open."""
    chain = [{"id": f"n{i}", "type": "log", "config": {"message": f"step {i}"}} for i in range(1, nodes)]
    ids = ["start"] + [n["id"] for n in chain]
    return {
        "format": "flowyard.flow/1",
        "name": f"{nodes} nodes",
        "nodes": [{"id": "start", "type": "trigger", "config": {"kind": "manual"}}, *chain],
        "wires": [{"from": a, "to": b} for a, b in itertools.pairwise(ids)],
    }


def main() -> None:
    size = bundle_gzip_bytes()
    previous = json.loads(LAST.read_text())["bundle_gzip_bytes"] if LAST.is_file() else None
    print(f"bundle (gzip -9 of dist/assets): {size / 1024:.1f} KiB", end="")
    print(f" (previous run: {previous / 1024:.1f} KiB)" if previous else " (no previous run)")
    LAST.parent.mkdir(exist_ok=True)
    LAST.write_text(json.dumps({"bundle_gzip_bytes": size}))

    with serve(fresh_database("flowyard_bench_editor")) as server, sync_playwright() as playwright:
        server.user("bench", "edit", "run")
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
        page = log_in(browser, server, "bench")
        made = page.request.post(
            "/api/flows", data=json.dumps(big_flow(NODES)), headers=_csrf(page, "application/json")
        )
        flow_id = made.json()["id"]

        opens = []
        for _ in range(3):
            page.goto("/flows")
            started = time.perf_counter()
            page.goto(f"/flows/{flow_id}")
            page.locator(".react-flow__node").nth(NODES - 1).wait_for()
            page.get_by_role("button", name="Undo").wait_for()
            opens.append(time.perf_counter() - started)
        print(f"open a {NODES}-node flow until all nodes are drawn: median {statistics.median(opens):.2f} s")

        latencies = []
        for _ in range(5):
            before = page.get_by_role("heading", name="Findings").first.inner_text()
            started = time.perf_counter()
            page.get_by_role("complementary").get_by_role("button").filter(has_text="Log").first.click()
            page.wait_for_function(
                "before => document.querySelector('#findings-title')?.textContent !== before", arg=before
            )
            latencies.append(time.perf_counter() - started)
        median = statistics.median(latencies)
        print(f"an edit's findings shown (250 ms debounce included): median {median * 1000:.0f} ms")
        browser.close()


def _csrf(page: Page, content_type: str) -> dict[str, str]:
    me = page.request.get("/api/me").json()
    return {"X-CSRF-Token": me["csrf_token"], "Content-Type": content_type}


if __name__ == "__main__":
    main()
