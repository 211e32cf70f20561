"""The editor in headless chromium: how long a 500-node flow takes to open and be interactive, how long an
edit's findings take to appear, and the built bundle's size (gzip) next to the last run's figure.

    .venv/bin/python bench/editor.py               (needs `make frontend` and /usr/bin/chromium)
    .venv/bin/python bench/editor.py --dist OTHER  (another build, e.g. an older commit's, to compare)

Figures are printed, never asserted. The last bundle size is kept in .flowyard/bench-editor.json.

"Open" is from the navigation to the moment the canvas shows its first cards and the toolbar answers:
with all cards mounted (the old editor) that is when all 500 are drawn; a large flow now mounts only
the cards in view, and the rest as they scroll in. The bundle is printed whole and split into what
every page loads (the entry chunk index.html names) and what only the editor and run pages load.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import re
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


def bundle_gzip_bytes(dist: Path = DIST) -> int:
    return sum(len(gzip.compress(p.read_bytes(), 9)) for p in (dist / "assets").iterdir() if p.is_file())


def entry_gzip_bytes(dist: Path = DIST) -> int:
    """What every page loads: the script, styles and preloads index.html names."""
    names = re.findall(r'(?:src|href)="/assets/([^"]+)"', (dist / "index.html").read_text())
    return sum(len(gzip.compress((dist / "assets" / name).read_bytes(), 9)) for name in set(names))


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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--dist", type=Path, default=DIST, help="the build to measure (default: frontend/dist)"
    )
    dist = parser.parse_args().dist.resolve()
    size, entry = bundle_gzip_bytes(dist), entry_gzip_bytes(dist)
    previous = json.loads(LAST.read_text())["bundle_gzip_bytes"] if LAST.is_file() else None
    print(f"build: {dist}")
    print(f"bundle (gzip -9 of dist/assets): {size / 1024:.1f} KiB", end="")
    print(f" (previous run: {previous / 1024:.1f} KiB)" if previous else " (no previous run)")
    print(
        f"  loaded by every page (entry chunk): {entry / 1024:.1f} KiB; by the editor on top: "
        f"{(size - entry) / 1024:.1f} KiB"
    )
    if dist == DIST.resolve():
        LAST.parent.mkdir(exist_ok=True)
        LAST.write_text(json.dumps({"bundle_gzip_bytes": size}))

    database = fresh_database("flowyard_bench_editor")
    with serve(database, {"FLOWYARD_FRONTEND_DIR": str(dist)}) as server, sync_playwright() as playwright:
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
            page.locator(".react-flow__node").first.wait_for()
            page.get_by_role("button", name="Undo").wait_for()
            opens.append(time.perf_counter() - started)
        drawn = page.locator(".react-flow__node").count()
        print(
            f"open a {NODES}-node flow until interactive: median {statistics.median(opens):.2f} s "
            f"({drawn} cards mounted)"
        )

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
        print(f"an edit's findings shown (the debounce included): median {median * 1000:.0f} ms")
        browser.close()


def _csrf(page: Page, content_type: str) -> dict[str, str]:
    me = page.request.get("/api/me").json()
    return {"X-CSRF-Token": me["csrf_token"], "Content-Type": content_type}


if __name__ == "__main__":
    main()
