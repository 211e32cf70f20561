"""Every command module speaks the terminal's language: the same commands, run as real `flowyard`
processes under `LANG=C`, `de_DE.UTF-8` and `ja_JP.UTF-8`, and no English word of the English output
is left in the German or Japanese one.

An English word is a word of the English output that is not data (a name, a path, a hash, a token the
command was given or made) and that the locale's own catalog never uses: German says *Flow*, *Worker*
and *Token* too, and the check must not count those.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import psycopg
import pytest

from backend.graph import validate
from backend.i18n.catalogs import catalog
from tests.commands import run_commands
from tests.support import Queue, flow

Scenario = Callable[[Queue, Path, str], list[list[str]]]
_WORD = re.compile(r"[A-Za-z]{3,}")
# What a command prints that is data, not words: tokens, hashes, URLs and paths; the name the terminal is
# recorded under (`cli`, as the API and the audit trail show it) and the audit chains' names.
_DATA = re.compile(r"fy_[A-Za-z0-9_-]+|\b[0-9a-f]{12,}\b|\S+://\S+|(?<!\w)/\S+|\bcli\b|\bglobal\b")


def flowyard(url: str, lang: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "backend.cli", *args],
        env=dict(os.environ, DATABASE_URL=url, LANG=lang, SECRET_VALUE="s3cr3t-value"),
        capture_output=True,
        text=True,
        timeout=120,
    )


def _flows(queue: Queue, tmp: Path, tag: str) -> list[list[str]]:
    path = tmp / f"flow-{tag}.json"
    path.write_text(json.dumps(flow("anfang:trigger", wires=[], name="gespeichert")))
    return [["flow", "save", str(path)]]


def _queue(queue: Queue, tmp: Path, tag: str) -> list[list[str]]:
    flow_id = queue.save(flow("anfang:trigger", wires=[]))
    with psycopg.connect(queue.url, autocommit=True) as conn:
        conn.execute("DELETE FROM workers")
        conn.execute("INSERT INTO workers (name, concurrency) VALUES ('wk/1/aa', 4)")
        conn.execute(
            "INSERT INTO workers (name, concurrency, heartbeat_at)"
            " VALUES ('wk/2/bb', 2, now() - interval '2 hours')"
        )
    walked = queue.start(flow_id)
    queue.drain()
    return [["run", str(flow_id)], ["workers"], ["runs", "show", str(walked)]]


def _processes(queue: Queue, tmp: Path, tag: str) -> list[list[str]]:
    return [["migrate"]]


def _people(queue: Queue, tmp: Path, tag: str) -> list[list[str]]:
    ann, bob = f"ann{tag}", f"bob{tag}"
    return [
        ["user", "add", ann, "--grant", "run", "--grant", "audit"],
        ["user", "add", bob],
        ["user", "grant", ann, "edit"],
        ["user", "revoke", ann, "edit"],
        ["token", "create", ann, "--expires-in", "5"],
        ["token", "create", ann],
        ["token", "list", ann],
        ["token", "list", bob],
        ["user", "remove", bob],
    ]


def _store(queue: Queue, tmp: Path, tag: str) -> list[list[str]]:
    return [["db", "status"]]


def _actions(queue: Queue, tmp: Path, tag: str) -> list[list[str]]:
    secret = f"sec{tag}"
    return [
        ["secret", "set", secret, "--from-env", "SECRET_VALUE"],
        ["secret", "list"],
        ["secret", "remove", secret],
        ["secret", "list"],
        ["server", "list"],
        ["template", "list"],
    ]


def _approvals(queue: Queue, tmp: Path, tag: str) -> list[list[str]]:
    return [["approvals", "list"], ["policy", "show"], ["audit", "verify"]]


SCENARIOS: dict[str, Scenario] = {
    "flows": _flows,
    "queue": _queue,
    "processes": _processes,
    "people": _people,
    "store": _store,
    "actions": _actions,
    "approvals": _approvals,
}


def _said(queue: Queue, tmp: Path, module: str, lang: str, tag: str) -> tuple[str, set[str]]:
    """What the module's commands print in `lang`, and the words of what they were given."""
    commands = SCENARIOS[module](queue, tmp, tag)
    # One process per module and language: a third of the processes' start-up cost (tests/commands.py).
    env = {"DATABASE_URL": queue.url, "LANG": lang, "SECRET_VALUE": "s3cr3t-value"}
    printed: list[str] = []
    for args, said in zip(commands, run_commands(commands, env), strict=True):
        assert said.code in (0, None), (lang, args, said.err)
        printed += [said.out, said.err]
    given = {word for args in commands for word in _WORD.findall(" ".join(args))}
    return _DATA.sub(" ", "\n".join(printed)), given


@pytest.mark.parametrize("module", sorted(SCENARIOS))
def test_no_english_word_is_left_in_a_translated_terminal(queue: Queue, tmp_path: Path, module: str) -> None:
    """The module's commands in English once, then in German and in Japanese (a process per command)."""
    english, given_en = _said(queue, tmp_path, module, "C.UTF-8", "en")
    for lang, locale in (("de_DE.UTF-8", "de"), ("ja_JP.UTF-8", "ja")):
        translated, given = _said(queue, tmp_path, module, lang, locale)
        ours = set(_WORD.findall(" ".join(catalog(locale).values())))
        english_words = set(_WORD.findall(english)) - given_en - ours
        assert english_words, f"the English output of {module} has words of its own: {english!r}"
        left = sorted(english_words & (set(_WORD.findall(translated)) - given))
        assert not left, f"{module} in {locale} still says {left}:\n{translated}"
        if locale == "ja":
            assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", translated), translated


def test_flow_save_says_its_findings_in_the_terminals_language(queue: Queue, tmp_path: Path) -> None:
    """`flow save` is for the person saving: its findings are in their language (`check` keeps English)."""
    document = flow("start:trigger", wires="start>nowhere")
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(document))
    findings = validate(document, "de")
    assert findings and findings[0].message != validate(document, "en")[0].message
    refused = flowyard(queue.url, "de_DE.UTF-8", "flow", "save", str(path))
    assert refused.returncode == 1
    assert refused.stdout.splitlines() == [f"{path}: {found.code}: {found.message}" for found in findings]
