"""The editor in headless chromium, an earlier build and this tree's side by side in one run: how long a
500-node flow takes to open and be interactive, how long an edit's findings take to appear, and the built
bundles' sizes (gzip), against the targets.

    .venv/bin/python bench/editor.py                 (needs `make frontend`, npm and /usr/bin/chromium)
    .venv/bin/python bench/editor.py --before REV    (the earlier build: REV's frontend/; default a284bd4,
                                                      the editor before its speed work)
    .venv/bin/python bench/editor.py --dist OTHER    (another build as "after")

Figures are printed, never asserted. REV's frontend/ is exported with `git archive` and built with its own
Vite into .flowyard/bench-editor/REV/ (once; its node_modules are this tree's when the lock file is the
same, else `npm ci`). Both builds are served at once by two `flowyard serve` on one database and measured
in turns (before, after, before, ...), so the load of the machine weighs on both alike.

"Open" is from the navigation to the moment the canvas shows its first cards and the toolbar answers, as
Playwright sees it (it includes the load event its goto waits for and its own polling), and "in the page"
the same moment from the navigation's start by the page's clock, once a task queued then has run.
"Findings" is from the click that adds a node (from the palette) until the findings' heading changes,
the debounce included.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import os
import re
import shutil
import statistics
import subprocess
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


def build_of(revision: str) -> Path:
    """REV's frontend built into .flowyard/bench-editor/REV/dist (once)."""
    commit = subprocess.run(
        ["git", "rev-parse", "--short", f"{revision}^{{commit}}"], capture_output=True, text=True, check=True
    ).stdout.strip()
    home = Path(".flowyard/bench-editor").resolve() / commit
    dist = home / "dist"
    if (dist / "index.html").is_file():
        return dist
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", commit, "frontend"], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(home)], input=archive, check=True)
    source = home / "frontend"
    same_lock = (source / "package-lock.json").read_bytes() == Path("frontend/package-lock.json").read_bytes()
    if same_lock:
        (source / "node_modules").symlink_to(Path("frontend/node_modules").resolve())
    else:
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=source, check=True)
    print(f"building {commit}'s editor into {dist} ...", flush=True)
    subprocess.run(
        ["npx", "vite", "build", "--outDir", str(dist), "--emptyOutDir", "--logLevel", "warn"],
        cwd=source,
        check=True,
    )
    return dist


# In the page, from the navigation's start: the first card and the toolbar's Undo are in the document, and
# a task queued then has run (the main thread is free to answer a click). Playwright's own round trips
# (the load event goto waits for, each wait_for's polling) are not in this figure; they are in the other.
WATCH_OPEN = """
(() => {
  const seen = () => document.querySelector('.react-flow__node') &&
    [...document.querySelectorAll('.toolbar button')].some((b) => b.textContent === 'Undo');
  const observer = new MutationObserver(() => {
    if (!seen()) return;
    observer.disconnect();
    setTimeout(() => { window.__flowyardOpen = performance.now(); }, 0);
  });
  observer.observe(document, { childList: true, subtree: true });
})();
"""


def open_once(page: Page, flow_id: int) -> tuple[float, float]:
    """Seconds to open the flow: as Playwright sees it (navigation to cards and toolbar found), and as
    the page does (WATCH_OPEN)."""
    page.goto("/flows")
    started = time.perf_counter()
    page.goto(f"/flows/{flow_id}")
    page.locator(".react-flow__node").first.wait_for()
    page.get_by_role("button", name="Undo").wait_for()
    seen = time.perf_counter() - started
    page.wait_for_function("() => window.__flowyardOpen !== undefined")
    return seen, page.evaluate("window.__flowyardOpen") / 1000


def findings_once(page: Page) -> float:
    before = page.get_by_role("heading", name="Findings").first.inner_text()
    started = time.perf_counter()
    page.get_by_role("complementary").get_by_role("button").filter(has_text="Log").first.click()
    page.wait_for_function(
        "before => document.querySelector('#findings-title')?.textContent !== before", arg=before
    )
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="a284bd4", help="the earlier commit (default: a284bd4)")
    parser.add_argument(
        "--dist", type=Path, default=DIST, help="the build to measure as after (default: frontend/dist)"
    )
    parser.add_argument("--rounds", type=int, default=5, help="opens and edits per build (default: 5)")
    arguments = parser.parse_args()
    after = arguments.dist.resolve()
    before = build_of(arguments.before)
    builds = {f"before ({arguments.before})": before, "after (this tree)": after}

    size = bundle_gzip_bytes(after)
    previous = json.loads(LAST.read_text())["bundle_gzip_bytes"] if LAST.is_file() else None
    if after == DIST.resolve():
        LAST.parent.mkdir(exist_ok=True)
        LAST.write_text(json.dumps({"bundle_gzip_bytes": size}))

    database = fresh_database("flowyard_bench_editor")
    with (
        serve(database, {"FLOWYARD_FRONTEND_DIR": str(before)}) as old,
        serve(database, {"FLOWYARD_FRONTEND_DIR": str(after)}) as new,
        sync_playwright() as playwright,
    ):
        old.user("bench", "edit", "run")
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
        pages = dict(zip(builds, (log_in(browser, old, "bench"), log_in(browser, new, "bench")), strict=True))
        for page in pages.values():
            page.add_init_script(WATCH_OPEN)
        first = next(iter(pages.values()))
        made = first.request.post(
            "/api/flows", data=json.dumps(big_flow(NODES)), headers=_csrf(first, "application/json")
        )
        flow_id = made.json()["id"]

        opens: dict[str, list[float]] = {name: [] for name in builds}
        in_page: dict[str, list[float]] = {name: [] for name in builds}
        edits: dict[str, list[float]] = {name: [] for name in builds}
        mounted: dict[str, int] = {}
        for _ in range(arguments.rounds):
            for name, page in pages.items():
                seen, inside = open_once(page, flow_id)
                opens[name].append(seen)
                in_page[name].append(inside)
                mounted[name] = page.locator(".react-flow__node").count()
        for _ in range(arguments.rounds):
            for name, page in pages.items():
                edits[name].append(findings_once(page))
        browser.close()

    width = max(len(name) for name in builds)
    print(f"\nmedians of {arguments.rounds}, measured in turns; load average {os.getloadavg()[0]:.1f}")
    print(
        f"{'':{width}}  {'open a ' + str(NODES) + '-node flow':>26}  {'(in the page)':>13}"
        f"  {'findings after an edit':>24}"
    )
    for name in builds:
        open_s = statistics.median(opens[name])
        inside_s = statistics.median(in_page[name])
        edit_ms = statistics.median(edits[name]) * 1000
        print(
            f"{name:{width}}  {open_s:>8.2f} s ({mounted[name]:>3} cards)      {inside_s:>11.2f} s"
            f"  {edit_ms:>21.0f} ms"
        )
    print(f"{'target':{width}}  {'under 1.00 s':>26}  {'':>13}  {'within 300 ms':>24}")
    old_name, new_name = builds
    ratio_open = statistics.median(opens[old_name]) / statistics.median(opens[new_name])
    ratio_inside = statistics.median(in_page[old_name]) / statistics.median(in_page[new_name])
    ratio_edit = statistics.median(edits[old_name]) / statistics.median(edits[new_name])
    print(f"{'before / after':{width}}  {ratio_open:>24.1f}x  {ratio_inside:>12.1f}x  {ratio_edit:>22.1f}x")
    print("\nbundle (gzip -9 of dist/assets), and what every page loads (the entry chunk and its preloads):")
    for name, dist in builds.items():
        print(
            f"{name:{width}}  {bundle_gzip_bytes(dist) / 1024:7.1f} KiB, "
            f"entry {entry_gzip_bytes(dist) / 1024:6.1f} KiB"
        )
    if previous:
        print(f"{'(last run of this script)':{width}}  {previous / 1024:7.1f} KiB")


def _csrf(page: Page, content_type: str) -> dict[str, str]:
    me = page.request.get("/api/me").json()
    return {"X-CSRF-Token": me["csrf_token"], "Content-Type": content_type}


if __name__ == "__main__":
    main()
