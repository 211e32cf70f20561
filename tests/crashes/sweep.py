"""The crash sweep: each scenario once crash-free, then once per commit index K, before and after, with a
fresh player taking over; the invariants checked after every crashed run. Used by tests/crashes and by
bench/crash_sweep.py (the full corpus).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import secrets
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg

from backend.actions import servers
from backend.actions.secret_store import SecretStore
from backend.approvals.delegations import delegate
from backend.flows.store import create_flow
from backend.people.accounts import Grant, add_user
from backend.queue.runs import start_run
from backend.settings import Settings
from backend.store.commits import AFTER_ENV, BEFORE_ENV, COUNT_ENV, CRASH_EXIT_CODE
from tests.actions.servers import RecordingServer, Reply
from tests.crashes.scenarios import (
    DECIDER,
    DELEGATE,
    REMINDED,
    SEAT,
    SECOND,
    SERVER,
    TEMPLATE,
    Scenario,
)

# Lines the queue writes around the walker's (docs/walker.md): a crash may add some (a second
# wait_claimed, a resume_failed), so the walk is compared without them.
LIFECYCLE = frozenset(
    {"run_created", "wait_claimed", "resume_failed", "resume_attempts_exhausted", "run_cancelled"}
)
MODES = ("before", "after")


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What a run came to, in the terms the invariants compare."""

    status: str
    error: str | None
    ended: bool
    walk: tuple[tuple[int | None, str | None, str], ...]
    approvals: tuple[tuple[str, int, str | None, str | None, str | None], ...]
    votes: tuple[tuple[str, int, str, str | None, str], ...]  # node, visit, voter, on behalf of, vote
    mails: tuple[tuple[str, int, str, int], ...]  # node, visit, user, round: requests and reminders
    effects: tuple[tuple[int, str, str, str | None], ...]
    keys_per_visit: int  # the most effect keys any (run, visit) has
    received: tuple[str, ...]  # Idempotency-Keys the receiver saw for this run, repeats included
    effect_keys: frozenset[str]
    open_waits: int
    pending: int  # effects without an outcome, approvals without a decision


@dataclass
class Tally:
    crashes: int = 0  # (scenario, K, mode) whose process did exit at its commit
    passed_the_end: int = 0  # armed at a K its process never reached this time (no crash)
    invariants: int = 0
    crashed_runs_with_effects: int = 0
    crashed_runs_resending: int = 0
    effects_sent: int = 0  # distinct keys received after crashes
    effects_resent: int = 0  # requests received beyond one per key, beyond what the crash-free run sent
    per_scenario: Counter[str] = field(default_factory=Counter)
    violations: list[str] = field(default_factory=list)

    def resent_rate(self) -> float:
        return self.effects_resent / self.effects_sent if self.effects_sent else 0.0

    def add(self, other: Tally) -> None:
        """Count `other`'s too (a sweep of another database beside this one)."""
        for count in fields(self):
            if isinstance(mine := getattr(self, count.name), int):
                setattr(self, count.name, mine + getattr(other, count.name))
        self.per_scenario += other.per_scenario
        self.violations += other.violations


class Sweep:
    """One database and one recording receiver; scenarios saved once, a new run per trial."""

    def __init__(self, url: str, receiver: RecordingServer, *, keep_errors: bool = False) -> None:
        self.url = url
        self.keep_errors = keep_errors
        self.receiver = receiver
        self.tally = Tally()
        self.flows: dict[str, int] = {}
        self.process: subprocess.Popen[str] | None = None
        # what the driver and its children say on stderr (warnings of a worker taking over...), for a reader
        self.errors = tempfile.NamedTemporaryFile(  # noqa: SIM115 - close() closes it
            "w+", prefix="flowyard-crash-", suffix=".log", delete=False
        )
        receiver.routes["/fail"] = lambda _r: Reply(500, b'{"error": "broken on purpose"}')
        receiver.routes["/run"] = lambda _r: Reply(200, b'{"exit_code": 0, "stdout": "done"}')
        asyncio.run(self._prepare())

    async def _prepare(self) -> None:
        async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
            await add_user(conn, DECIDER, grants=[Grant.parse("decide")])
            for name in (SECOND, SEAT, DELEGATE, REMINDED):
                await add_user(conn, name, grants=[Grant.parse("decide")], email=f"{name}@example.org")
            now = datetime.now(UTC)
            await delegate(conn, SEAT, DELEGATE, now - timedelta(days=1), now + timedelta(days=300))
            store = SecretStore.from_settings(Settings.from_environment().actions)
            await servers.save_server(conn, store, SERVER, f"{self.receiver.url}/run", "agent-token", by=None)
            await conn.execute("INSERT INTO server_grants VALUES (%s, %s)", (DECIDER, SERVER))
            unit = {"unit": {"type": "string", "pattern": "^[a-z]+$"}}
            await servers.save_template(
                conn, SERVER, TEMPLATE, ["systemctl", "restart", "{unit}"], unit, by=None
            )

    def _flow_id(self, scenario: Scenario) -> int:
        if scenario.name not in self.flows:

            async def save() -> int:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
                    return await create_flow(conn, scenario.document, by=DECIDER)

            self.flows[scenario.name] = asyncio.run(save())
        return self.flows[scenario.name]

    def start(self, scenario: Scenario) -> tuple[int, datetime]:
        """A new run of the scenario, and the moment its script starts (just after the run's start wait)."""
        flow_id = self._flow_id(scenario)

        async def go() -> tuple[int, datetime]:
            async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
                # `order` keys the run's outside events: the corpus's runs share one database.
                payload = scenario.input | {"base": self.receiver.url, "order": secrets.token_hex(8)}
                started = await start_run(
                    conn, flow_id, input=payload, trigger_kind="manual", started_by=DECIDER
                )
                row = await (await conn.execute("SELECT now()")).fetchone()
                assert row is not None
                return started.run_id, row[0] + timedelta(seconds=1)

        return asyncio.run(go())

    def spawn(
        self, scenario: Scenario, run_id: int, started: datetime, env: dict[str, str], takeover: bool = False
    ) -> tuple[int, str]:
        """The script in a process of its own (forked by the driver), armed by `env` (or taking over, see
        `play`); its exit code and the line it printed (empty when it crashed)."""
        driver = self._driver()
        assert driver.stdin is not None and driver.stdout is not None
        request = {
            "run_id": run_id,
            "scenario": scenario.name,
            "started": started.isoformat(),
            "env": env,
            "takeover": takeover,
        }
        driver.stdin.write(json.dumps(request) + "\n")
        driver.stdin.flush()
        printed = ""
        while True:
            line = driver.stdout.readline()
            if not line:
                raise AssertionError(f"the crash driver died; its errors are in {self.errors.name}")
            answer = json.loads(line)
            if "exit" in answer:
                break
            printed = line
        code = int(answer["exit"])
        if code not in (0, CRASH_EXIT_CODE):
            raise AssertionError(f"{scenario.name} {env}: exit {code}; see {self.errors.name}")
        return code, printed

    def _driver(self) -> subprocess.Popen[str]:
        if self.process is None:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "tests.crashes.driver", self.url],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.errors,
                text=True,
            )
            assert self.process.stdout is not None
            if json.loads(self.process.stdout.readline() or "{}") != {"ready": True}:
                self.close()
                raise AssertionError(f"the crash driver did not start; see {self.errors.name}")
        return self.process

    def close(self, keep_errors: bool = False) -> None:
        """Stop the driver (its stdin closed, it ends its loop) and keep nothing running; the players'
        stderr file is removed unless `keep_errors` (a failure, or a bench that names it)."""
        if self.process is not None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            if self.process.stdout is not None:
                self.process.stdout.close()
            self.process = None
        self.errors.close()
        if not keep_errors:
            Path(self.errors.name).unlink(missing_ok=True)

    def __enter__(self) -> Sweep:
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        self.close(keep_errors=kind is not None or bool(self.tally.violations) or self.keep_errors)

    def reference(self, scenario: Scenario) -> tuple[Snapshot, int]:
        """The crash-free run's snapshot and how many commits its process made."""
        run_id, started = self.start(scenario)
        code, line = self.spawn(scenario, run_id, started, {COUNT_ENV: "1"})
        assert code == 0, f"{scenario.name}: the crash-free run exited {code}"
        commits = int(json.loads(line)["commits"])
        snapshot = self.snapshot(run_id)
        problems = self.check(scenario.name, snapshot, None)
        assert not problems, problems
        return snapshot, commits

    def trial(self, scenario: Scenario, mode: str, k: int, reference: Snapshot) -> None:
        """One crash at the K-th commit, a fresh player taking over, then the invariants."""
        run_id, started = self.start(scenario)
        code, _ = self.spawn(
            scenario, run_id, started, {AFTER_ENV if mode == "after" else BEFORE_ENV: str(k)}
        )
        if code == CRASH_EXIT_CODE:
            self.tally.crashes += 1
            self.tally.per_scenario[scenario.name] += 1
            self.pass_dead_deadlines(run_id)
        else:
            self.tally.passed_the_end += 1
        taken, _ = self.spawn(scenario, run_id, started, {}, takeover=True)
        assert taken == 0, f"{scenario.name}: the takeover after crash_{mode}_commit={k} exited {taken}"
        snapshot = self.snapshot(run_id)
        label = f"{scenario.name} crash_{mode}_commit={k}"
        self.tally.violations.extend(self.check(label, snapshot, reference))
        if code == CRASH_EXIT_CODE and snapshot.effect_keys:
            self.tally.crashed_runs_with_effects += 1
            extra = len(snapshot.received) - len(reference.received)
            self.tally.effects_sent += len(set(snapshot.received))
            if extra > 0:
                self.tally.crashed_runs_resending += 1
                self.tally.effects_resent += extra

    def pass_dead_deadlines(self, run_id: int) -> None:
        """The crashed process's tries can no longer answer: their deadlines are over, as if the takeover
        came that much later (what a try in flight is owed is tests/actions/test_deadlines.py's)."""
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(
                "UPDATE effects SET deadline_at = now()"
                " WHERE run_id = %s AND completed_at IS NULL AND deadline_at > now()",
                (run_id,),
            )

    def scenario(self, scenario: Scenario) -> int:
        """The crash-free run, then every K up to its last commit; the crash-free count."""
        reference, commits = self.reference(scenario)
        self.crash_at(scenario, reference, range(1, commits + 1))
        return commits

    def crash_at(self, scenario: Scenario, reference: Snapshot, ks: Iterable[int]) -> None:
        """A trial at each K, before and after its commit, compared with the crash-free run."""
        for k in ks:
            for mode in MODES:
                self.trial(scenario, mode, k, reference)

    def snapshot(self, run_id: int) -> Snapshot:
        with psycopg.connect(self.url) as conn:
            run = conn.execute(
                "SELECT status, error, ended_at IS NOT NULL FROM runs WHERE id = %s", (run_id,)
            ).fetchone()
            assert run is not None
            journal = conn.execute(
                "SELECT visit, node, code FROM journal WHERE run_id = %s ORDER BY seq", (run_id,)
            ).fetchall()
            approvals = conn.execute(
                "SELECT node, visit, outcome, decided_by, on_behalf_of FROM approvals"
                " WHERE run_id = %s ORDER BY visit",
                (run_id,),
            ).fetchall()
            votes = conn.execute(
                "SELECT a.node, a.visit, v.voter, v.on_behalf_of, v.vote"
                " FROM approval_votes v JOIN approvals a ON a.id = v.approval_id"
                " WHERE a.run_id = %s ORDER BY a.visit, v.voter",
                (run_id,),
            ).fetchall()
            mails = conn.execute(
                "SELECT a.node, a.visit, m.user_name, m.round"
                " FROM approval_mails m JOIN approvals a ON a.id = m.approval_id"
                " WHERE a.run_id = %s ORDER BY a.visit, m.round, m.user_name",
                (run_id,),
            ).fetchall()
            effects = conn.execute(
                "SELECT visit, node, type, outcome, key FROM effects WHERE run_id = %s ORDER BY visit",
                (run_id,),
            ).fetchall()
            per_visit = conn.execute(
                "SELECT coalesce(max(n), 0) FROM"
                " (SELECT count(DISTINCT key) AS n FROM effects WHERE run_id = %s GROUP BY visit) AS k",
                (run_id,),
            ).fetchone()
            waits = conn.execute("SELECT count(*) FROM waits WHERE run_id = %s", (run_id,)).fetchone()
        assert per_visit is not None and waits is not None
        keys = frozenset(row[4] for row in effects)
        mine = f"fy-{run_id}-"  # the key's shape: fy-<run>-<visit>-<random>
        received = tuple(
            key
            for r in self.receiver.received
            if (key := r.headers.get("idempotency-key", "")).startswith(mine)
        )
        return Snapshot(
            status=run[0],
            error=run[1],
            ended=run[2],
            walk=tuple((v, n, c) for v, n, c in journal if c not in LIFECYCLE),
            approvals=tuple((n, v, o, d, b) for n, v, o, d, b in approvals),
            votes=tuple((n, v, w, b, o) for n, v, w, b, o in votes),
            mails=tuple((n, v, u, r) for n, v, u, r in mails),
            effects=tuple((v, n, t, o) for v, n, t, o, _ in effects),
            keys_per_visit=int(per_visit[0]),
            received=received,
            effect_keys=keys,
            open_waits=int(waits[0]),
            pending=sum(1 for row in effects if row[3] is None)
            + sum(1 for row in approvals if row[2] is None),
        )

    def check(self, label: str, got: Snapshot, reference: Snapshot | None) -> list[str]:
        """The invariants of one run (against the crash-free run's, when given); what broke."""
        checks: list[tuple[str, bool]] = [
            ("the run ended", got.ended),
            ("no wait left for the ended run", got.open_waits == 0),
            ("nothing pending: every effect has an outcome, every approval a decision", got.pending == 0),
            ("one effect key per (run, visit)", got.keys_per_visit <= 1),
            ("every effect key was sent, under no other key", set(got.received) <= got.effect_keys),
            ("visit numbers unique and increasing", _increasing(got.walk)),
            (
                "each approval once per visit",
                len({(n, v) for n, v, *_ in got.approvals}) == len(got.approvals),
            ),
            (
                "each seat votes once per approval",
                len({(n, v, b or w) for n, v, w, b, _ in got.votes}) == len(got.votes),
            ),
        ]
        if reference is not None:
            checks += [
                ("the same final status", (got.status, got.error) == (reference.status, reference.error)),
                ("the same visits", got.walk == reference.walk),
                ("each approval decided once, the same way", got.approvals == reference.approvals),
                ("the same votes, each cast once", got.votes == reference.votes),
                ("the same mails, one per approver and round", got.mails == reference.mails),
                ("the same effects and outcomes", got.effects == reference.effects),
                (
                    "the deduplicating receiver saw each effect exactly once",
                    len(set(got.received)) == len(set(reference.received)),
                ),
            ]
        self.tally.invariants += len(checks)
        return [f"{label}: {name}" for name, held in checks if not held]


def _increasing(walk: tuple[tuple[int | None, str | None, str], ...]) -> bool:
    visits = [visit for visit, _, code in walk if code == "node_visited" and visit is not None]
    return all(a < b for a, b in itertools.pairwise(visits))


def report(tally: Tally, seconds: float) -> str:
    lines = [
        f"crashes exercised: {tally.crashes} (scenario, K, before/after), "
        f"{len(tally.per_scenario)} scenarios: "
        + ", ".join(f"{name} {n}" for name, n in sorted(tally.per_scenario.items())),
        f"armed past the last commit (no crash that time): {tally.passed_the_end}",
        f"invariants checked: {tally.invariants}, violated: {len(tally.violations)}",
        f"crashed runs with effects: {tally.crashed_runs_with_effects}, of which resent an effect: "
        f"{tally.crashed_runs_resending}",
        f"resent-effect rate: {tally.effects_resent} resent of {tally.effects_sent} effects "
        f"({100 * tally.resent_rate():.1f} %) after crashes",
        f"time: {seconds:.0f} s",
    ]
    return "\n".join(lines + tally.violations[:20])
