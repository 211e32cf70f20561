"""The full crash sweep: every scenario of the corpus, crashed before and after every commit it makes.

Run: `.venv/bin/python bench/crash_sweep.py [--scenario NAME ...]` (DATABASE_URL, or the embedded
server). It makes a database of its own (`flowyard_bench_crashes`), runs each scenario of
tests/crashes/scenarios.py once crash-free to count its commits, then once per commit index K, armed with
crash_before_commit=K and with crash_after_commit=K, a fresh player taking over after each crash, and
prints the number of (scenario, K) crashes, the invariants checked and violated, and the resent-effect
rate: how often a crash made an effect go out a second time under the same Idempotency-Key. `make test`
runs a reduced corpus (tests/crashes); this is the whole of it. It exits 1 when an invariant broke.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.common import drop_database, fresh_database
from tests.actions.servers import recording_server
from tests.crashes.scenarios import CORPUS
from tests.crashes.sweep import Sweep, report

DATABASE = "flowyard_bench_crashes"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", action="append", choices=[s.name for s in CORPUS], help="only these")
    args = parser.parse_args()
    os.environ.setdefault("FLOWYARD_LOG_LEVEL", "WARNING")
    # The takeovers run in this process: their warnings (a resume that failed on purpose) are not figures.
    logging.getLogger("flowyard").setLevel(logging.ERROR)
    url = fresh_database(DATABASE)
    began = time.monotonic()
    try:
        with recording_server() as receiver, Sweep(url, receiver, keep_errors=True) as sweep:
            for scenario in CORPUS:
                if args.scenario and scenario.name not in args.scenario:
                    continue
                started = time.monotonic()
                commits = sweep.scenario(scenario)
                print(
                    f"{scenario.name}: {commits} commits crash-free, {2 * commits} crashes tried"
                    f" in {time.monotonic() - started:.0f} s",
                    flush=True,
                )
            print(report(sweep.tally, time.monotonic() - began))
            print(f"the players' warnings: {sweep.errors.name}")
            return 1 if sweep.tally.violations else 0
    finally:
        drop_database(DATABASE)


if __name__ == "__main__":
    sys.exit(main())
