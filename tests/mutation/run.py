"""`make mutation`: mutmut on the pure core, every survivor re-run in a fresh process, scores per file.

    python -m tests.mutation.run                      # everything: walker, graph, queue, i18n
    python -m tests.mutation.run walker               # one package
    python -m tests.mutation.run backend/graph/rules.py   # one file, while writing its tests
    python -m tests.mutation.run --report walker      # print what the last run found, run nothing

mutmut (configured in pyproject.toml's [tool.mutmut]) runs each mutant in a child forked from one process
that has already run the tests once. Whatever that process cached (the compiled JSON Schemas, the parsed
templates, the catalogs) the child inherits, unmutated, so a mutant of a cached function can survive only
because the cache hid it. Every mutant mutmut calls a survivor is therefore run again here, in a process
of its own that imports the mutated code from scratch; it counts as killed when a test fails there.

Each package is run in a directory of its own (.mutation/<package>/, links to the repository and a
pyproject.toml made from ours), so that its mutants meet only its own tests: a graph mutant is not judged
by the i18n guard's one-minute source scans, and a walker mutant not by the graph's tests.

The score of a file is killed / (mutants - equivalent). The equivalent mutants are listed, each with why
it cannot change behaviour, in tests/mutation/equivalent.toml; an entry names the mutant and the line
mutmut wrote, so an entry whose mutant now means something else (the function was edited, the numbers
moved) no longer excludes anything and is printed as stale.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORK = ROOT / ".mutation"
EQUIVALENT = Path(__file__).with_name("equivalent.toml")
TARGET = 95.0
KILLED = {1, 3, 255, 36, 37, -11}  # a failing test, a crash: the mutant is seen
# mutmut's time limits (SIGXCPU; SIGKILL one second later) are wall-clock ones too, and on a loaded machine
# a mutant can pass them only because it waited for a core: a timeout is not a kill until a fresh process,
# with FRESH_TIMEOUT for all of its tests, says so.
TIMED_OUT = {24, -24, 152, -9}
FRESH_TIMEOUT = 300  # seconds; a mutant that makes a walk loop forever is killed by it
# A mutant that loops while it allocates (two of graph's `loops_around` took 6 GB each in four minutes,
# beside each other) meets a MemoryError, a failing test, before the kernel's OOM killer picks a process of
# its choice (a PostgreSQL of the machine's). Every process of the run inherits the limit; the clean run of
# any package's tests stays under a gigabyte of address space.
MUTANT_MEMORY = 4 << 30  # bytes of address space, each process
# mutmut's own pass runs every property test with at most this many examples (tests/mutation/plugin.py),
# and without the package's `slow` tests; a survivor of it is run again in full in a fresh process.
FIRST_PASS_EXAMPLES = "10"
LINKED = ("backend", "tests", "locales", "examples", "bench", "frontend", "docs", "babel.cfg", "uv.lock")


@dataclass(frozen=True)
class Package:
    files: list[str]  # what mutmut mutates (its only_mutate)
    counted: list[str]  # which mutants the score counts, by name
    tests: list[str]  # the tests that may kill them
    deselect: list[str] = field(default_factory=list)
    slow: list[str] = field(default_factory=list)  # left out of mutmut's pass only, run in the fresh one


# The queue is measured on its pure parts only: the rest of it talks to PostgreSQL, and its tests
# (tests/queue) need a database. The i18n guards that run pybabel and scan the whole source for a minute
# are left out of i18n's measurement: every mutant of `message` would run them.
PACKAGES: dict[str, Package] = {
    "walker": Package(
        ["backend/walker/*"],
        ["backend.walker.*"],
        ["tests/walker", "backend/walker"],
        # Eleven seconds of fresh interpreters: in mutmut's pass it would run for every surviving mutant.
        slow=["tests/walker/test_continuation.py::test_freezing_gives_the_same_text_in_every_process"],
    ),
    "graph": Package(["backend/graph/*"], ["backend.graph.*"], ["tests/graph", "backend/graph"]),
    "queue": Package(
        ["backend/queue/claims.py", "backend/queue/wake_times.py"],
        [
            "backend.queue.claims.x_backoff__mutmut_*",
            "backend.queue.claims.xǁClaimǁ*",
            "backend.queue.claims.xǁClaimedǁ*",
            "backend.queue.wake_times.x_wake_of__mutmut_*",
            "backend.queue.wake_times.x__duration__mutmut_*",
            "backend.queue.wake_times.x__timestamp__mutmut_*",
        ],
        ["tests/queue/test_pure.py", "backend/queue/claims.py", "backend/queue/wake_times.py"],
    ),
    "i18n": Package(
        ["backend/i18n/*"],
        ["backend.i18n.*"],
        ["tests/i18n", "backend/i18n"],
        [
            "tests/i18n/test_guard.py::test_the_keys_come_from_the_source_and_the_node_types",
            "tests/i18n/test_guard.py::test_pybabel_extract_with_babel_cfg_finds_exactly_the_keys_the_guard_requires",
            "tests/i18n/test_gaps.py::test_the_command_prints_each_gap_with_where_english_lacks_it_and_exits_1",
            "tests/i18n/test_gaps.py::test_the_command_exits_0_when_every_catalog_is_full",
        ],
    ),
    # The audit trail's export and search (the decisions auditors read) and the CSV cells no spreadsheet may
    # run. Their tests need a database: `DATABASE_URL` (the machine's server) spares each mutant's process
    # from starting an embedded one.
    "audit": Package(
        ["backend/approvals/audit.py", "backend/spreadsheets.py"],
        ["backend.approvals.audit.*", "backend.spreadsheets.*"],
        [
            "tests/approvals/test_audit_export.py",
            "tests/approvals/test_audit.py",
            "tests/approvals/test_audit_text.py",
            "backend/approvals/audit.py",
            "backend/spreadsheets.py",
        ],
    ),
}
HELD_TO_TARGET = ("walker", "graph")


def _pyproject_for(package: Package) -> str:
    """Our pyproject.toml with [tool.mutmut] narrowed to one package: what to mutate, which tests."""
    text = (ROOT / "pyproject.toml").read_text("utf-8")
    config = tomllib.loads(text)["tool"]["mutmut"]
    head, _, rest = text.partition("[tool.mutmut]")
    tail = rest[rest.index("\n[") :] if "\n[" in rest else ""
    config["only_mutate"] = package.files
    # tests/walker/test_patterns.py reads docs/patterns.md: the mutants' copy of the tree needs it too.
    config["also_copy"] = [*(c for c in config.get("also_copy", []) if c != "docs"), "docs"]
    config["pytest_add_cli_args_test_selection"] = package.tests
    config["pytest_add_cli_args"] = [
        *config.get("pytest_add_cli_args", []),
        "-p",
        "tests.mutation.plugin",
        *(f"--deselect={t}" for t in package.deselect),
        *(f"--deselect={t}" for t in package.slow),
    ]
    # Its time limits are (estimate + constant) * multiplier seconds of wall clock, twice that of CPU:
    # wide enough that a mutant waiting for a core on a shared machine is not cut off (TIMED_OUT above).
    config["timeout_multiplier"] = 30.0
    config["timeout_constant"] = 2.0
    section = "".join(f"{key} = {json.dumps(value)}\n" for key, value in config.items())
    return f"{head}[tool.mutmut]\n{section}{tail}"


def _workdir(name: str) -> Path:
    """.mutation/<name>/: links to the repository, and the package's pyproject.toml."""
    work = WORK / name
    work.mkdir(parents=True, exist_ok=True)
    for entry in LINKED:
        link = work / entry
        if not link.is_symlink() and (ROOT / entry).exists():
            link.symlink_to(ROOT / entry)
    pyproject = work / "pyproject.toml"
    wanted = _pyproject_for(PACKAGES[name])
    if not pyproject.exists() or pyproject.read_text("utf-8") != wanted:
        pyproject.write_text(wanted, "utf-8")
    return work


@dataclass
class Tally:
    mutants: int = 0
    equivalent: int = 0
    killed: int = 0
    fresh_kills: int = 0
    timed_out: int = 0  # of the survivors sent to the fresh re-run, how many mutmut had stopped for time
    unchecked: int = 0
    survivors: list[str] = field(default_factory=list)

    @property
    def score(self) -> float:
        counted = self.mutants - self.equivalent
        return 100.0 * self.killed / counted if counted else 100.0

    def add(self, other: Tally) -> None:
        self.mutants += other.mutants
        self.equivalent += other.equivalent
        self.killed += other.killed
        self.fresh_kills += other.fresh_kills
        self.timed_out += other.timed_out
        self.unchecked += other.unchecked
        self.survivors += other.survivors


def _matches(name: str, patterns: list[str]) -> bool:
    return any(re.fullmatch(re.escape(p).replace(r"\*", ".*"), name) for p in patterns)


def _package_of(name: str) -> str | None:
    return next((key for key, package in PACKAGES.items() if _matches(name, package.counted)), None)


def _function_of(name: str) -> str:
    return name.rsplit("__mutmut_", 1)[0]


def _module(source: str) -> str:
    return source.removesuffix(".py").replace("/", ".") + "."


def _changed_line(work: Path, name: str, source: str) -> str:
    """The line(s) mutmut wrote for this mutant, as its diff shows them, without the leading '+'."""
    from mutmut.mutation.diff_apply import get_diff_for_mutant  # imported late: it reads the config

    os.chdir(work)
    diff = get_diff_for_mutant(name, path=source)
    added = [
        line[1:].strip() for line in diff.splitlines() if line.startswith("+") and not line.startswith("+++")
    ]
    return " / ".join(added)


def _equivalents() -> dict[str, dict[str, str]]:
    entries = tomllib.loads(EQUIVALENT.read_text("utf-8")).get("equivalent", [])
    return {entry["mutant"]: entry for entry in entries}


def _seen_and_own(work: Path, package: Package) -> tuple[dict[str, list[str]], list[str]]:
    """mutmut's stats (the tests it saw calling each function) and the package's test files, in order."""
    stats = json.loads((work / "mutants" / "mutmut-stats.json").read_text("utf-8"))
    own = [ROOT / t for t in package.tests if t.startswith("tests/")]
    files = [
        str(f.relative_to(ROOT)) for d in own for f in (sorted(d.rglob("test_*.py")) if d.is_dir() else [d])
    ]
    return stats["tests_by_mangled_function_name"], files


def _new_files(by_function: dict[str, list[str]], files: list[str]) -> list[str]:
    """The package's test files that mutmut's stats did not see: written since its run began."""
    seen = {test.split("::")[0] for known in by_function.values() for test in known}
    return [f for f in files if f not in seen]


def _import_time(work: Path, *, refresh: bool) -> set[str]:
    """The mutated functions that run while the package's tests are imported (tests/mutation/import_time.py).

    Found anew when `refresh` (a run, after the tests were copied in), else as the last run found them."""
    kept = work / "import-time.json"
    if not refresh:
        return set(json.loads(kept.read_text("utf-8"))) if kept.exists() else set()
    script = Path(__file__).with_name("import_time.py")
    selection = tomllib.loads((work / "pyproject.toml").read_text("utf-8"))["tool"]["mutmut"]
    arguments = [*_fresh_options(work), *selection["pytest_add_cli_args_test_selection"]]
    found = subprocess.run(
        [sys.executable, str(script), str(work / "mutants"), *arguments],
        stdout=subprocess.PIPE,
        text=True,
        check=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    names = sorted(json.loads(found.stdout))
    kept.write_text(json.dumps(names), "utf-8")
    return set(names)


def _tests_for(
    name: str, package: Package, by_function: dict[str, list[str]], new: list[str], import_time: set[str]
) -> list[str]:
    """The files of the tests mutmut saw calling the mutant's function (`by_function`, its stats), and the
    test files written since (`new`); every test of its package when it saw none, or when the function
    runs while the tests are imported (`import_time`).

    A function called only through a cache has no tests of its own in mutmut's stats; one called while
    pytest imports the test modules (the operator table `conditions._ordered` builds) is credited to
    whichever test mutmut ran first: for both, all of the package's tests run."""
    function = _function_of(name)
    tests = by_function.get(function, [])
    # Whole files, not mutmut's test ids: a test added to a file since mutmut's stats runs too. The files
    # written since come first: they were written for the survivors, and `-x` stops at the first failure.
    if not tests or function in import_time:
        return [*new, *package.tests]
    return [*new, *sorted({test.split("::")[0] for test in tests} - set(new))]


def _verdict_key(name: str, tests: list[str], changed: str) -> str:
    digest = hashlib.sha256(f"{name}\n{changed}\n{' '.join(tests)}".encode())
    for folder in sorted({t.split("::")[0] for t in tests}):
        path = ROOT / folder
        for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            digest.update(file.read_bytes())
    return digest.hexdigest()


def _fresh_options(work: Path) -> list[str]:
    """pytest's options for the fresh re-run: mutmut's, with the `slow` tests back in."""
    config = tomllib.loads((work / "pyproject.toml").read_text("utf-8"))["tool"]["mutmut"]
    slow = {f"--deselect={t}" for t in PACKAGES[work.name].slow}
    return [o for o in config.get("pytest_add_cli_args", []) if o not in slow]


def _run_fresh(work: Path, jobs: dict[str, list[str]], workers: int) -> Iterator[tuple[str, bool]]:
    """(mutant, killed) for each job, as they finish: each in a child of tests/mutation/fresh.py, which
    imports the libraries once and never our code, so every child imports the mutated package anew."""
    options = _fresh_options(work)
    lines = "".join(json.dumps({"name": n, "tests": t, "options": options}) + "\n" for n, t in jobs.items())
    server = [sys.executable, str(Path(__file__).with_name("fresh.py")), str(work / "mutants")]
    with subprocess.Popen(
        [*server, str(workers), str(FRESH_TIMEOUT)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(lines)
        process.stdin.close()
        for line in process.stdout:
            result = json.loads(line)
            code = result["code"]
            if code not in (0, 1, "timeout"):
                # 2 to 5: pytest could not run the tests (a missing file, a usage error): that kills nothing.
                print(f"  {result['name']}: pytest exited {code}, counted as a survivor", flush=True)
            yield result["name"], code in (1, "timeout")


def _recheck(
    work: Path, package: Package, names: list[tuple[str, str]], workers: int, *, run: bool
) -> set[str]:
    """The survivors (name, changed line) that a fresh process kills; verdicts kept while still valid.

    With `run` false only the verdicts already kept count: a survivor without one stays a survivor."""
    store = work / "fresh-verdicts.json"
    verdicts: dict[str, dict[str, object]] = json.loads(store.read_text("utf-8")) if store.exists() else {}
    todo: dict[str, tuple[list[str], str]] = {}
    if run:
        # mutmut copied tests/ when its run began; the re-run must see the tests as they are now.
        shutil.copytree(ROOT / "tests", work / "mutants" / "tests", dirs_exist_ok=True)
    import_time = _import_time(work, refresh=run)
    by_function, files = _seen_and_own(work, package)
    new = _new_files(by_function, files)
    for name, changed in names:
        tests = _tests_for(name, package, by_function, new, import_time)
        key = _verdict_key(name, tests, changed)
        if verdicts.get(name, {}).get("key") != key:
            verdicts.pop(name, None)
            if run:
                todo[name] = (tests, key)
    if todo:
        print(f"re-running {len(todo)} survivor(s) in fresh processes ...", flush=True)
    # First the test files written since mutmut's stats alone (a second or two each, and most survivors
    # fall to them), then the whole of each survivor's test files for what is left. A kill by some of a
    # mutant's tests is a kill by all of them: both stages keep the verdict under the full key.
    first = {n: [t for t in tests if t in new] for n, (tests, _) in todo.items()}
    stages = [{n: t for n, t in first.items() if t}, {n: tests for n, (tests, _) in todo.items()}]
    for number, jobs in enumerate(stages):
        jobs = {n: t for n, t in jobs.items() if not verdicts.get(n, {}).get("killed")}
        if not jobs:
            continue
        print(f"  stage {number + 1}: {len(jobs)} mutant(s)", flush=True)
        for name, killed in _run_fresh(work, jobs, workers):
            if killed or number == len(stages) - 1:
                verdicts[name] = {"key": todo[name][1], "killed": killed}
                store.write_text(json.dumps(verdicts, indent=1, sort_keys=True), "utf-8")
    return {name for name, _ in names if verdicts.get(name, {}).get("killed")}


def _tally(
    key: str, files: list[str], workers: int, recheck: bool
) -> tuple[dict[str, Tally], dict[str, str], set[str]]:
    """Per file of one package: its tally, the changed line of every mutant not killed, the entries used."""
    package, work = PACKAGES[key], WORK / key
    mutants = work / "mutants"
    equivalents = _equivalents()
    by_file: dict[str, Tally] = {}
    changed: dict[str, str] = {}
    used: set[str] = set()
    candidates: list[tuple[str, str]] = []
    for meta in sorted((mutants / "backend").rglob("*.py.meta")):
        source = str(meta.relative_to(mutants)).removesuffix(".meta")
        if files and source not in files:
            continue
        exit_codes: dict[str, int | None] = json.loads(meta.read_text("utf-8"))["exit_code_by_key"]
        for name, code in sorted(exit_codes.items()):
            if not _matches(name, package.counted):
                continue
            tally = by_file.setdefault(source, Tally())
            tally.mutants += 1
            if code in KILLED:
                tally.killed += 1
                continue
            if code in TIMED_OUT:
                tally.timed_out += 1
            entry = equivalents.get(name)
            if code is None and entry is None:
                tally.unchecked += 1
                continue
            changed[name] = _changed_line(work, name, source)
            if entry is not None and entry.get("changed") == changed[name]:
                tally.equivalent += 1
                used.add(name)
                continue
            if code is None:
                tally.unchecked += 1
            else:
                tally.survivors.append(name)
                candidates.append((name, changed[name]))
    fresh = _recheck(work, package, candidates, workers, run=recheck) if candidates else set()
    for tally in by_file.values():
        kills = [n for n in tally.survivors if n in fresh]
        tally.killed += len(kills)
        tally.fresh_kills = len(kills)
        tally.survivors = [n for n in tally.survivors if n not in fresh]
    return by_file, changed, used


def report(packages: list[str], files: list[str], workers: int, recheck: bool) -> int:
    line = "{:<38} {:>7} {:>6} {:>7} {:>6} {:>9} {:>9} {:>7}"
    print(line.format("file", "mutants", "equiv", "killed", "fresh", "survived", "unchecked", "score"))
    totals: dict[str, Tally] = {}
    survivors: list[tuple[str, str]] = []
    used: set[str] = set()
    for key in packages:
        by_file, changed, used_here = _tally(key, files, workers, recheck)
        used |= used_here
        total = totals.setdefault(key, Tally())
        for source, tally in sorted(by_file.items()):
            survived = len(tally.survivors)
            print(
                line.format(
                    source,
                    tally.mutants,
                    tally.equivalent,
                    tally.killed,
                    tally.fresh_kills,
                    survived,
                    tally.unchecked,
                    f"{tally.score:.1f}%",
                )
            )
            total.add(tally)
            survivors += [(n, changed.get(n, "")) for n in tally.survivors]
    print()
    failing = []
    for key, tally in totals.items():
        survived = len(tally.survivors)
        goal = f"(target {TARGET:.0f}%)" if key in HELD_TO_TARGET else "(measured)"
        print(
            line.format(
                f"package {key}",
                tally.mutants,
                tally.equivalent,
                tally.killed,
                tally.fresh_kills,
                survived,
                tally.unchecked,
                f"{tally.score:.1f}%",
            )
            + f" {goal}"
        )
        if tally.unchecked:
            print(f"    {tally.unchecked} mutant(s) not checked yet: the score counts them as survivors")
        if key in HELD_TO_TARGET and (tally.score < TARGET or tally.unchecked) and not files:
            failing.append(key)
    if survivors:
        print("\nsurvivors (.mutation/<package>: mutmut show NAME for the diff):")
        for name, text in sorted(survivors):
            print(f"  {name}: {text}")
    stale = sorted(
        n
        for n in _equivalents()
        if n not in used
        and _package_of(n) in packages
        and (not files or any(n.startswith(_module(f)) for f in files))
    )
    if stale:
        print("\nstale equivalent entries (their mutant changed, or it is killed now): review them")
        for name in stale:
            print(f"  {name}")
    if failing:
        print(f"\nbelow {TARGET:.0f}% (or not fully checked): {', '.join(failing)}")
        return 1
    return 0


def _narrowed(patterns: list[str], module: str) -> list[str]:
    """The patterns among `patterns` for the mutants of one module ("backend.walker.loops.").

    >>> _narrowed(["backend.walker.*"], "backend.walker.loops.")
    ['backend.walker.loops.*']
    >>> queue = ["backend.queue.claims.*", "backend.queue.wake_times.x_wake_of__mutmut_*"]
    >>> _narrowed(queue, "backend.queue.wake_times.")
    ['backend.queue.wake_times.x_wake_of__mutmut_*']
    """
    narrow = [p for p in patterns if p.startswith(module)]
    broad = [module + "*" for p in patterns if module.startswith(p.removesuffix("*"))]
    return narrow + broad[:1]


def _unchecked(work: Path, patterns: list[str]) -> list[str]:
    """The mutants matching `patterns` that mutmut has no verdict for yet and that are not listed as
    equivalent, by name: mutmut runs every mutant it is given by name again, so a run given the
    package's pattern would start over, and an equivalent mutant's tests would run for nothing (graph's
    cost a minute each). A file edited since mutmut last generated its mutants goes by its pattern,
    every mutant of it anew (mutmut numbers them anew); all of them when it has generated none yet."""
    mutants = work / "mutants"
    metas = sorted((mutants / "backend").rglob("*.py.meta")) if mutants.is_dir() else []
    if not metas:
        return patterns
    equivalents = _equivalents()
    names = []
    for meta in metas:
        source = str(meta.relative_to(mutants)).removesuffix(".meta")
        if (ROOT / source).stat().st_mtime > meta.stat().st_mtime:
            names += _narrowed(patterns, _module(source))
            continue
        exit_codes: dict[str, int | None] = json.loads(meta.read_text("utf-8"))["exit_code_by_key"]
        for name, code in sorted(exit_codes.items()):
            if code is not None or not _matches(name, patterns):
                continue
            entry = equivalents.get(name)
            if entry is None or entry.get("changed") != _changed_line(work, name, source):
                names.append(name)
    return names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("what", nargs="*", help="packages (walker graph queue i18n) or files under backend/")
    parser.add_argument("--report", action="store_true", help="print the last run's results, run nothing")
    parser.add_argument(
        "--skip-run", action="store_true", help="no mutmut run: re-check the survivors it left, and print"
    )
    parser.add_argument("--max-children", type=int, default=2)
    args = parser.parse_args(argv)
    resource.setrlimit(resource.RLIMIT_AS, (MUTANT_MEMORY, MUTANT_MEMORY))
    files = [w for w in args.what if w.endswith(".py")]
    packages = [w for w in args.what if w in PACKAGES]
    packages += [
        k for k, p in PACKAGES.items() if k not in packages and any(_matches(f, p.files) for f in files)
    ]
    if not args.what:
        packages = list(PACKAGES)
    mutmut = Path(sys.executable).with_name("mutmut")
    for key in packages:
        work = _workdir(key)
        if args.report or args.skip_run:
            continue
        own = [f for f in files if _matches(f, PACKAGES[key].files)]
        patterns = [_module(f) + "*" for f in own] if own else PACKAGES[key].counted
        names = _unchecked(work, patterns)
        print(
            f"== {key}: mutmut run {' '.join(patterns)}: {len(names)} mutant(s) not checked yet", flush=True
        )
        if not names:
            continue
        run = subprocess.run(
            [str(mutmut), "run", "--max-children", str(args.max_children), *names],
            cwd=work,
            env={**os.environ, "FLOWYARD_MUTATION_EXAMPLES": FIRST_PASS_EXAMPLES},
        )
        if run.returncode != 0:
            return run.returncode
    os.chdir(ROOT)
    return report(packages, files, args.max_children, recheck=not args.report)


if __name__ == "__main__":
    sys.exit(main())
