"""The walker's speed and its continuation's size: prints figures and their ratio to the targets.

Run: `.venv/bin/python bench/walk.py`. Not a test: a figure under its target is worth a look, not a red
build, because it depends on the machine.

- Visits per second of a 500-visit run: a foreach over 100 invoices with a 4-node body (set, condition,
  log, log: 400 visits), the trigger and the loop (2), and a 98-node chain after `done`: exactly the
  500-visit limit. Target: at least 100,000 visits per second.
- The continuation at a pause: the same flow with the body's last node a delay, so the run pauses on
  every pass. At each of the 100 pauses it is frozen to JSON text and thawed; the figures are the
  largest continuation (target: under 16 KB) and its freeze + thaw time (target: under 0.5 ms).
- Four branches side by side (issue 24): a parallel whose 4 branches each run a foreach over their quarter
  of the same 100 invoices with a delay in the body, so all four are pending at every pause; the pauses
  are answered round robin. Figures: the largest `"v": 2` continuation and its freeze + thaw, as above and
  with the walker's own thaw and freeze of the branches added, against the same targets.
- What the size limits cost (issue 12): the first figure again with the counting of value sizes switched
  off, side by side, and what serializing the variables at every visit would cost instead of counting
  them as they change.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

# The repository, in place of this folder: bench/queue.py would otherwise shadow the standard library's queue.
sys.path[0] = str(Path(__file__).resolve().parents[1])

import backend.walker.sizes as sizes
import backend.walker.templates as templates
from backend.graph.model import Flow
from backend.walker import Resume, walk
from backend.walker.branches import freeze, thaw

TARGET_VISITS_PER_SECOND = 100_000
TARGET_BYTES = 16 * 1024
TARGET_FREEZE_THAW_MS = 0.5


def invoice_flow(last_in_body: dict[str, Any]) -> Flow:
    nodes: list[dict[str, Any]] = [
        {"id": "start", "type": "trigger", "config": {"kind": "manual"}},
        {"id": "each", "type": "foreach", "config": {"items": "{{trigger.invoices}}", "as": "invoice"}},
        {"id": "mark", "type": "set", "config": {"values": {"current": "{{invoice.id}}"}}},
        {
            "id": "big",
            "type": "condition",
            "config": {"left": "{{invoice.amount}}", "op": "gt", "right": 1000},
        },
        {"id": "note", "type": "log", "config": {"message": "invoice {{invoice.id}}: {{invoice.amount}}"}},
        {"id": "tally", **last_in_body},
    ]
    wires = [
        {"from": "start", "to": "each"},
        {"from": "each", "port": "body", "to": "mark"},
        {"from": "mark", "to": "big"},
        {"from": "big", "port": "true", "to": "note"},
        {"from": "big", "port": "false", "to": "note"},
        {"from": "note", "to": "tally"},
    ]
    previous, port = "each", "done"
    for index in range(98):
        nodes.append({"id": f"after{index}", "type": "log", "config": {"message": "after {{current}}"}})
        wires.append({"from": previous, "port": port, "to": f"after{index}"})
        previous, port = f"after{index}", "out"
    return Flow.load({"format": "flowyard.flow/1", "name": "bench", "nodes": nodes, "wires": wires})


PAYLOAD = {"invoices": [{"id": f"INV-{index:04d}", "amount": index * 37 % 2000} for index in range(100)]}


def visits_per_second(flow: Flow) -> float:
    step = walk(flow, None, trigger=PAYLOAD)
    assert (step.status, step.visit_count) == ("succeeded", 500), (step.status, step.error)
    runs, started = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - started) < 1.0 or runs < 20:
        walk(flow, None, trigger=PAYLOAD)
        runs += 1
    return 500 * runs / elapsed


@contextmanager
def sizes_not_counted() -> Iterator[None]:
    """Every size counts as 0: the walk as it was before the limits, for the side-by-side figure."""
    # templates imported its own name for sizes.measure: both are replaced (vars(): it is not re-exported).
    modules = (vars(sizes), vars(templates))
    saved = [module["measure"] for module in modules]

    def nothing(value: Any, limit: int) -> int:
        return 0

    for module in modules:
        module["measure"] = nothing
    try:
        yield
    finally:
        for module, measure in zip(modules, saved, strict=True):
            module["measure"] = measure


def serialize_every_visit_ms(flow: Flow) -> float:
    """What `json.dumps` of the run's variables at each of its 500 visits would take, in ms per run."""
    variables = {"trigger": PAYLOAD, "invoice": PAYLOAD["invoices"][-1], "current": "INV-0099"}
    variables.update({node: {"current": "INV-0099"} for node in flow.nodes})
    started = time.perf_counter()
    for _ in range(500):
        json.dumps(variables)
    return (time.perf_counter() - started) * 1000


def freeze_thaw_ms(continuation: dict[str, Any], repeats: int = 200) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        json.loads(json.dumps(continuation))
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def paused_run(flow: Flow) -> tuple[int, int, float, float]:
    """Walk with a freeze and thaw at every pause: pauses, largest size, its freeze+thaw ms, visits/s."""
    pauses, largest, largest_at = 0, 0, None
    started = time.perf_counter()
    step = walk(flow, None, trigger=PAYLOAD)
    while step.status == "waiting":
        assert step.request is not None and step.continuation is not None
        pauses += 1
        size = len(json.dumps(step.continuation).encode("utf-8"))
        if size > largest:
            largest, largest_at = size, step.continuation
        thawed = json.loads(json.dumps(step.continuation))
        step = walk(flow, thawed, resume=Resume(step.request.node, step.request.visit, "passed"))
    elapsed = time.perf_counter() - started
    assert (step.status, step.visit_count) == ("succeeded", 500), (step.status, step.error)
    assert largest_at is not None
    return pauses, largest, freeze_thaw_ms(largest_at), 500 / elapsed


def parallel_flow() -> Flow:
    nodes: list[dict[str, Any]] = [
        {"id": "start", "type": "trigger", "config": {"kind": "manual"}},
        {"id": "fan", "type": "parallel", "config": {"wait": "all"}},
        {"id": "done", "type": "log", "config": {"message": "all four done"}},
    ]
    wires = [{"from": "start", "to": "fan"}, {"from": "fan", "port": "done", "to": "done"}]
    for branch in range(4):
        each, note, wait = f"each{branch}", f"note{branch}", f"wait{branch}"
        items = f"{{{{trigger.quarters.{branch}}}}}"
        nodes += [
            {"id": each, "type": "foreach", "config": {"items": items, "as": f"invoice{branch}"}},
            {
                "id": note,
                "type": "set",
                "config": {"values": {f"current{branch}": f"{{{{invoice{branch}.id}}}}"}},
            },
            {"id": wait, "type": "delay", "config": {"duration": "PT1S"}},
        ]
        wires += [
            {"from": "fan", "port": "branches", "to": each},
            {"from": each, "port": "body", "to": note},
            {"from": note, "to": wait},
        ]
    return Flow.load({"format": "flowyard.flow/1", "name": "bench", "nodes": nodes, "wires": wires})


QUARTERS = {"quarters": [PAYLOAD["invoices"][quarter::4] for quarter in range(4)]}


def walker_freeze_thaw_ms(flow: Flow, continuation: dict[str, Any], repeats: int = 200) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        state, root = thaw(json.loads(json.dumps(continuation)), flow.nodes)
        freeze(state, root)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def four_branches() -> tuple[int, int, float, float, int]:
    """Pauses, the largest continuation, its JSON freeze + thaw ms, with the walker's thaw and freeze too,
    and the most pauses pending at once."""
    flow = parallel_flow()
    pauses, largest, largest_at, most = 0, 0, None, 0
    step = walk(flow, None, trigger=QUARTERS)
    turn = 0
    while step.status == "waiting":
        assert step.continuation is not None
        pauses += 1
        most = max(most, len(step.pending))
        size = len(json.dumps(step.continuation).encode("utf-8"))
        if size > largest:
            largest, largest_at = size, step.continuation
        node, visit = step.pending[turn % len(step.pending)]
        turn += 1
        step = walk(flow, json.loads(json.dumps(step.continuation)), resume=Resume(node, visit, "passed"))
    assert step.status == "succeeded", (step.status, step.error)
    assert largest_at is not None
    return pauses, largest, freeze_thaw_ms(largest_at), walker_freeze_thaw_ms(flow, largest_at), most


def main() -> None:
    plain = invoice_flow({"type": "log", "config": {"message": "seen {{current}}"}})
    # Side by side, in turns, the best of three each: the machine's load moves both alike.
    rates, uncounted_rates = [], []
    for _ in range(3):
        rates.append(visits_per_second(plain))
        with sizes_not_counted():
            uncounted_rates.append(visits_per_second(plain))
    rate, uncounted = max(rates), max(uncounted_rates)
    serialized = serialize_every_visit_ms(plain)
    pauses, size, ms, paused_rate = paused_run(
        invoice_flow({"type": "delay", "config": {"duration": "PT1S"}})
    )
    branch_pauses, branch_size, branch_ms, branch_walker_ms, most = four_branches()
    rows = [
        (
            "walk, 500 visits, no pause",
            f"{rate:,.0f} visits/s",
            f"{rate / TARGET_VISITS_PER_SECOND:.2f}x target",
        ),
        (
            f"walk, 500 visits, {pauses} pauses",
            f"{paused_rate:,.0f} visits/s",
            "freeze + thaw at every pause",
        ),
        ("largest continuation", f"{size:,} bytes", f"{size / TARGET_BYTES:.2f} of the 16 KB target"),
        ("its freeze + thaw", f"{ms:.3f} ms", f"{ms / TARGET_FREEZE_THAW_MS:.2f} of the 0.5 ms target"),
        (
            f"4 branches, {branch_pauses} pauses",
            f"{most} pending at once",
            "a parallel of 4 foreach branches, answered round robin",
        ),
        (
            "largest v2 continuation",
            f"{branch_size:,} bytes",
            f"{branch_size / TARGET_BYTES:.2f} of the 16 KB target",
        ),
        (
            "its freeze + thaw (JSON)",
            f"{branch_ms:.3f} ms",
            f"{branch_ms / TARGET_FREEZE_THAW_MS:.2f} of the 0.5 ms target",
        ),
        (
            "+ the walker's thaw, freeze",
            f"{branch_walker_ms:.3f} ms",
            f"{branch_walker_ms / TARGET_FREEZE_THAW_MS:.2f} of the 0.5 ms target",
        ),
        (
            "the same, sizes not counted",
            f"{uncounted:,.0f} visits/s",
            f"counting costs {(1 / rate - 1 / uncounted) * 500e3:.2f} ms a run, {uncounted / rate:.2f}x",
        ),
        (
            "serializing vars every visit",
            f"{serialized:.2f} ms a run",
            f"{serialized / (500e3 / rate):.2f}x the whole counted walk",
        ),
    ]
    print(f"python {sys.version.split()[0]}")
    for label, figure, ratio in rows:
        print(f"{label:<32}{figure:>18}  ({ratio})")


if __name__ == "__main__":
    main()
