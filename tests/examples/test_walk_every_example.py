"""`flowyard walk` answers every flow in examples/ (the patterns and the event patterns included) with a
JSON walk, never a traceback: issue 35, item 1 (a `wait_event` made the walk crash with ResumeMismatch).

Each flow is walked through the real command in its own process, with its sample input, once without
answers and once with an answer for every approval and wait_event it has; in process, also without any
input and with the other answers (reject, the last event, the timeouts).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from backend.cli import main
from backend.graph.ports import event_names
from tests.examples.test_examples import samples

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
FLOWS = sorted(path.relative_to(EXAMPLES).as_posix() for path in EXAMPLES.rglob("*.json"))
# The patterns' own sample (tests/walker/test_patterns.py) and the keys the event patterns wait under.
PATTERN_INPUT = {"order": "A-1", "amount": 1500, "region": "eu", "lines": ["l1", "l2"], "express": False}
EVENT_INPUT = {"offer": "O-1", "order": "A-1", "invoice": "INV-1"}
# A loop may ask the same node again: each answer is given this many times.
REPEATS = 3
STATUSES = {"succeeded", "failed", "waiting"}
ENDED_FAILED = "run_ended_failed"


def sample_of(name: str) -> str:
    if name.startswith("patterns-events/"):
        return json.dumps(EVENT_INPUT)
    if name.startswith("patterns/"):
        return json.dumps(PATTERN_INPUT)
    return samples()[name]


def answers_for(name: str, which: str) -> list[str]:
    """`--answer` values for every approval and wait_event of the flow: `first` approves and sends each
    wait's first event; `other` rejects (or lets time out) and sends the last event (or the timeout)."""
    document = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    given: list[str] = []
    for node in document["nodes"]:
        config = node.get("config") or {}
        if node["type"] == "approval":
            outcome = "approve" if which == "first" else ("timeout" if config.get("on_timeout") else "reject")
        elif node["type"] == "wait_event":
            names = event_names(config)
            outcome = names[0] if which == "first" else ("timeout" if config.get("timeout") else names[-1])
        else:
            continue
        given += [f"{node['id']}={outcome}"] * REPEATS
    return [arg for answer in given for arg in ("--answer", answer)]


def assert_a_walk(code: int, out: str, err: str, context: Any) -> dict[str, Any]:
    assert "Traceback" not in out + err, context
    assert err == "", context
    result: dict[str, Any] = json.loads(out)
    assert set(result) == {"status", "visits", "error", "journal", "pending"}, context
    assert result["status"] in STATUSES, context
    assert code == (1 if result["status"] == "failed" else 0), context
    assert (result["error"] is None) == (result["status"] != "failed"), context
    assert result["visits"][:1] == ["start"], context
    assert bool(result["pending"]) == (result["status"] == "waiting"), context
    return result


def _walks() -> Iterator[tuple[str, list[str]]]:
    for name in FLOWS:
        yield name, []
        yield name, answers_for(name, "first")


def _run(name: str, answers: list[str]) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "backend.cli", "walk", str(EXAMPLES / name), "--input", sample_of(name)]
    return subprocess.run(
        [*command, *answers, "--json"],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_every_example_walks_in_its_own_process_with_and_without_answers() -> None:
    walks = list(_walks())
    # Two at a time: each is a process of its own on a shared machine.
    with ThreadPoolExecutor(max_workers=2) as pool:
        done = list(pool.map(lambda walk: _run(*walk), walks))
    results = {}
    for (name, answers), process in zip(walks, done, strict=True):
        results[name, bool(answers)] = assert_a_walk(process.returncode, process.stdout, process.stderr, name)
    assert len(FLOWS) >= 29 and any(name.startswith("patterns-events/") for name in FLOWS)
    # The case: the deferred choice waits for its event, then takes the one it was given.
    unanswered = results["patterns-events/16-deferred-choice.json", False]
    assert (unanswered["status"], unanswered["pending"]) == ("waiting", [{"node": "answer", "visit": 3}])
    answered = results["patterns-events/16-deferred-choice.json", True]
    assert (answered["status"], answered["visits"]) == ("succeeded", ["start", "offer", "answer", "book"])
    # A flow with a wait_event or an approval waits without answers and goes on with them: none fails
    # but by an `end` node that says so (the cancel-case pattern's reject).
    for (name, with_answers), result in results.items():
        assert result["error"] in (None, ENDED_FAILED), (name, with_answers)


@pytest.mark.parametrize("name", FLOWS)
def test_every_example_walks_without_input_and_with_the_other_answers(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["walk", str(EXAMPLES / name), "--json"])
    captured = capsys.readouterr()
    assert_a_walk(code, captured.out, captured.err, (name, "no input"))
    code = main(
        ["walk", str(EXAMPLES / name), "--input", sample_of(name), *answers_for(name, "other"), "--json"]
    )
    captured = capsys.readouterr()
    result = assert_a_walk(code, captured.out, captured.err, (name, "other answers"))
    assert result["error"] in (None, ENDED_FAILED), name
