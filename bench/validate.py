"""How long `backend.graph.validate` takes on valid flows of 100 and 1,000 nodes, and the ratio; then on
the shapes an attacker would send (bench/adversarial.py), with their findings and output size.

The flows are what an editor saves: a trigger, then actions, conditions whose branches merge again,
loops (nested up to three deep) whose bodies sometimes break out, approvals, in a shuffled document order.
Run: `.venv/bin/python bench/validate.py [--repeat N]`. It prints figures; it passes or fails nothing.
The aim (issue #3): 1,000 nodes under 50 ms on the 2-core dev machine, growing no worse than linearly.
The aim for the adversarial shapes (issue #12): each well under a second, its output a few dozen KB.
The aim for the CLI's start (issue #36): `flowyard check` and `flowyard walk` of a small flow under 0.5 s
wall, printed beside `flowyard --help` (the floor: the interpreter and the parser) and the modules each
command imported, so that a heavy import creeping back shows here.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

# The repository, in place of this folder: bench/queue.py would otherwise shadow the standard library's queue.
sys.path[0] = str(Path(__file__).resolve().parents[1])

from backend.graph import validate
from bench.adversarial import SHAPES

_ACTIONS: list[tuple[str, dict[str, Any]]] = [
    ("log", {"message": "item {{item.id}} done", "level": "info"}),
    ("set", {"values": {"total": "{{item.amount}}", "who": "{{trigger.user}}"}}),
    (
        "http",
        {
            "method": "POST",
            "url": "https://api.example.com/pay",
            "headers": {"X-Id": "{{item.id}}"},
            "body": {"amount": "{{item.amount}}"},
            "timeout_s": 10,
        },
    ),
    ("notify", {"channel": "email", "to": "finance@example.com", "message": "Paid {{item.id}}"}),
    (
        "approval",
        {
            "title": "Pay {{item.id}}?",
            "explanation": "Over the limit",
            "deadline": "P2D",
            "on_timeout": "skip",
            "approvers": ["group:finance"],
        },
    ),
    ("delay", {"duration": "PT30M"}),
    ("command", {"server": "web-1", "template": "restart", "args": {"service": "{{item.name}}"}}),
]
_FOLLOW = {"http": "out", "notify": "out", "command": "out", "approval": "approve"}


def make_flow(size: int, seed: int = 7) -> dict[str, Any]:
    """A valid flow of `size` nodes (a multiple of 100): chapters of 100 nodes, end to end.

    Every chapter is drawn from the same seed, under new ids, so that a flow of 1,000 nodes has the mix
    of one of 100 and the ratio between them measures growth, not a different mix.
    """
    nodes: list[dict[str, Any]] = [{"id": "n0", "type": "trigger", "config": {"kind": "manual"}}]
    wires: list[dict[str, str]] = []
    pending = [("n0", "out")]  # the ports the next node is wired from
    while len(nodes) < size:
        pending = _chapter(random.Random(seed), nodes, wires, pending, stop=min(size, len(nodes) + 100))
    random.Random(seed).shuffle(nodes)
    return {"format": "flowyard.flow/1", "name": f"bench {size}", "nodes": nodes, "wires": wires}


def _chapter(
    rng: random.Random,
    nodes: list[dict[str, Any]],
    wires: list[dict[str, str]],
    pending: list[tuple[str, str]],
    stop: int,
) -> list[tuple[str, str]]:
    """Add nodes up to `stop`; return the ports the next chapter's first node is wired from."""
    loops: list[tuple[str, int]] = []  # open loops: id, nodes in the body so far

    def add(node_type: str, config: dict[str, Any]) -> str:
        node_id = f"n{len(nodes)}"
        nodes.append({"id": node_id, "type": node_type, "config": config})
        wires.extend({"from": source, "port": port, "to": node_id} for source, port in pending)
        if loops:
            loops[-1] = (loops[-1][0], loops[-1][1] + 1)
        return node_id

    while len(nodes) < stop:
        roll = rng.random()
        if loops and loops[-1][1] >= 3 and roll < 0.2:
            loop_id, _ = loops.pop()  # the body ends here; the flow goes on from the loop's done port
            pending = [(loop_id, "done")]
        elif len(loops) < 3 and roll < 0.3 and len(nodes) < stop - 3:
            kind = rng.choice(["foreach", "repeat"])
            config = (
                {"items": "{{trigger.items}}", "as": f"item{len(loops)}"}
                if kind == "foreach"
                else {"while": {"left": "{{count}}", "op": "lt", "right": 10}}
            )
            loop_id = add(kind, config)
            loops.append((loop_id, 0))
            pending = [(loop_id, "body")]
        elif roll < 0.45 and len(nodes) < stop - 1:
            test = add("condition", {"left": "{{item.amount}}", "op": "gt", "right": 1000})
            if loops and rng.random() < 0.3:
                pending = [(test, "false")]
                add("break", {})
                pending = [(test, "true")]
            else:
                pending = [(test, "true"), (test, "false")]  # both branches meet at the next node
        else:
            node_type, config = rng.choice(_ACTIONS)
            node_id = add(node_type, config)
            pending = [(node_id, _FOLLOW.get(node_type, "out"))]
    return [(loops[0][0], "done")] if loops else pending


def timings_ms(document: dict[str, Any], repeat: int) -> tuple[float, float]:
    """The median and the best time of `validate` over `repeat` runs, in milliseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        validate(document)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, min(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=31, help="runs per size (default 31)")
    args = parser.parse_args()
    medians, bests = {}, {}
    for size in (100, 1000):
        document = make_flow(size)
        findings = validate(document)
        assert not findings, f"the bench flow of {size} nodes is not valid: {findings[:3]}"
        medians[size], bests[size] = timings_ms(document, args.repeat)
        wires = len(document["wires"])
        print(
            f"validate, {size:>5} nodes, {wires:>5} wires: median {medians[size]:6.2f} ms"
            f" (best {bests[size]:6.2f} ms, {args.repeat} runs)"
        )
    print(
        f"ratio 1,000 / 100 nodes: median {medians[1000] / medians[100]:.1f},"
        f" best {bests[1000] / bests[100]:.1f} (10.0 is linear)"
    )
    adversarial(max(3, args.repeat // 10), medians[1000])
    cli_start(max(5, args.repeat // 3))


_EXAMPLE = str(Path(__file__).resolve().parent.parent / "examples" / "invoice-approval.json")
_COMMANDS = {"--help": ["--help"], "check": ["check", _EXAMPLE], "walk": ["walk", _EXAMPLE, "--json"]}
# What a command imported, counted in a child that runs it and then prints len(sys.modules).
_COUNT = (
    "import sys, contextlib, io; from backend.cli import main\n"
    "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit): main(sys.argv[1:])\n"
    "print(len(sys.modules), 'networkx' in sys.modules, 'psycopg' in sys.modules)"
)
_IMPORTED = {"True": "imported", "False": "not imported", "?": "?"}


def cli_start(repeat: int) -> None:
    """Each command's wall time as a user starts it (a new interpreter each time), median and best."""
    print(f"the CLI's start ({repeat} runs each, a new process each; the invoice example):")
    cli = str(Path(sys.executable).parent / "flowyard")
    for name, argv in _COMMANDS.items():
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            subprocess.run([cli, *argv], check=False, capture_output=True)
            times.append(time.perf_counter() - start)
        counted = subprocess.run(
            [sys.executable, "-c", _COUNT, *argv], check=False, capture_output=True, text=True
        ).stdout.split()
        modules, networkx, psycopg = counted[-3:] if len(counted) >= 3 else ("?", "?", "?")
        print(
            f"  flowyard {name:<7} median {statistics.median(times) * 1000:6.0f} ms"
            f" (best {min(times) * 1000:5.0f} ms; target 500 ms): {modules} modules,"
            f" networkx {_IMPORTED[networkx]}, psycopg {_IMPORTED[psycopg]}"
        )


def adversarial(repeat: int, valid_ms: float) -> None:
    """Each shape: its size, the findings listed and counted, the answer's size, and the time."""
    print(f"adversarial shapes ({repeat} runs each; ratio to the valid 1,000-node flow's median):")
    for name, make in SHAPES.items():
        document = make()
        findings = validate(document)
        answer = len(json.dumps([f.to_json() for f in findings]).encode())
        more = findings[-1].detail if findings and findings[-1].code == "findings_truncated" else "0"
        median, best = timings_ms(document, repeat)
        print(
            f"  {name:<21} {len(json.dumps(document)) / 1e6:5.2f} MB {len(document['wires']):>7} wires"
            f" {len(findings):>4} findings (+{more:>6}) {answer / 1e3:7.1f} KB:"
            f" median {median:7.1f} ms (best {best:7.1f}) {median / valid_ms:6.1f}x"
        )


if __name__ == "__main__":
    main()
