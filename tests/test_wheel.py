"""The built wheel works outside the checkout: it carries the catalogs, the SQL and the schemas.

The wheel is built by the uv the Makefile pins (`make setup` installs it), installed into a fresh venv under
tmp_path, and run from a folder that holds nothing of the repository. The venv's dependencies come from uv's
cache, as the project's own `.venv` got them (PyPI for anything the cache lacks).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.support import flow

REPO = Path(__file__).resolve().parents[1]
UV = REPO / ".flowyard" / "tools" / "bin" / "uv"


def run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(
        [str(arg) for arg in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin/ folder of a fresh venv with the project's wheel installed, and nothing of the checkout."""
    root = tmp_path_factory.mktemp("wheel")
    built = run(UV, "build", "--wheel", "--out-dir", root / "dist", REPO, cwd=root)
    assert built.returncode == 0, built.stderr
    [wheel] = (root / "dist").glob("flowyard-*.whl")
    made = run(UV, "venv", "--quiet", "--python", REPO / ".venv" / "bin" / "python", root / "venv", cwd=root)
    assert made.returncode == 0, made.stderr
    bin_dir = root / "venv" / "bin"
    added = run(UV, "pip", "install", "--quiet", "--python", bin_dir / "python", wheel, cwd=root)
    assert added.returncode == 0, added.stderr
    return bin_dir


def test_the_installed_package_reads_its_catalogs_sql_and_migrations_from_itself(
    installed: Path, tmp_path: Path
) -> None:
    probe = (
        "import json, backend, backend.i18n.catalogs as c\n"
        "from backend.store.migrations import known\n"
        "from backend.store.queries import load\n"
        "print(json.dumps([backend.__file__, str(c.LOCALES_DIR), len(known()),\n"
        "    'claim' in load('backend.queue', 'queries.sql'), c.message('flow_valid', 'de')]))\n"
        "from backend.flows.examples import templates\n"
        "print(json.dumps([t.name for t in templates('de')]))\n"
    )
    seen = run(installed / "python", "-c", probe, cwd=tmp_path)
    assert seen.returncode == 0, seen.stderr
    first, second = seen.stdout.splitlines()
    package, locales, migrations, claim, german = json.loads(first)
    # The examples come along too: the API offers them as templates (backend/flows/examples.py).
    assert json.loads(second)[0] == "Rechnungsfreigabe"
    venv = str(installed.parent)
    assert package.startswith(venv) and locales.startswith(venv) and locales.endswith("backend/locales")
    assert migrations == len(list((REPO / "backend" / "store" / "migrations_sql").glob("*.sql")))
    assert claim is True
    assert german != "flow_valid" and "gültig" in german


def test_flowyard_check_works_on_an_example_flow_outside_the_checkout(
    installed: Path, tmp_path: Path
) -> None:
    example = tmp_path / "invoice-approval.json"
    example.write_bytes((REPO / "examples" / "invoice-approval.json").read_bytes())
    valid = run(installed / "flowyard", "check", example, cwd=tmp_path)
    assert (valid.returncode, valid.stdout) == (0, f"{example}: The flow is valid.\n"), valid.stderr

    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(flow("t:trigger a:log lost:log", wires="t>a")))
    found = run(installed / "flowyard", "check", "--json", broken, cwd=tmp_path)
    assert found.returncode == 1, found.stderr
    [finding] = json.loads(found.stdout)["findings"]
    assert finding["code"] == "node_unreachable" and finding["node"] == "lost"
    assert finding["message"] not in ("", "node_unreachable")  # the sentence, from the wheel's catalog
