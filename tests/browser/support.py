"""The browser tests' tools: a real `flowyard serve` in a subprocess, users made as the CLI makes them, a
logged-in Playwright page, and screenshots: into .flowyard/screenshots/, or docs/screenshots/ by
`make screenshots`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from playwright.sync_api import Browser, Dialog, Page, expect

from backend.people.accounts import Grant, add_user, hash_password
from backend.people.commands import ACTOR as CLI_ACTOR
from tests.ports import serving_url
from tests.server_logs import known_secret, server_log
from tests.support import AsyncConnection, Connected

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "frontend" / "dist"
# A test run leaves the tree clean; `make screenshots` (FLOWYARD_SCREENSHOTS=docs) renews the docs' images.
SCREENSHOTS = (
    ROOT / ("docs" if os.environ.get("FLOWYARD_SCREENSHOTS") == "docs" else ".flowyard") / "screenshots"
)
FLOWYARD = Path(sys.executable).parent / "flowyard"
PASSWORD = known_secret("correct horse battery staple")


@cache
def _password_hash() -> str:
    """The test password's argon2 hash, made once a process: every test user has the same password, and
    each login still checks it against this hash as it would any other (a hash costs 0.15 s of CPU)."""
    return hash_password(PASSWORD)


# Playwright's expect() gives up after 5 s by default, which a page's answer on this 2-core machine at load
# 20 can take (a login's password hash, a refetch behind a busy worker, a first canvas): the CI run failed
# on it. Every browser test module imports this one. A passing check waits only as long as it must.
expect.set_options(timeout=30_000)


def chromium_path() -> str:
    """Debian's chromium (Playwright cannot download its own browsers here), or a clear failure.

    Never a skip: a browser test that does not run must say so. FLOWYARD_REQUIRE_BROWSER=1 (set by
    .ci/run, which installs chromium) only changes the message."""
    found = os.environ.get("FLOWYARD_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(found).is_file():
        why = "CI installs it first (.ci/run)" if os.environ.get("FLOWYARD_REQUIRE_BROWSER") else ""
        raise RuntimeError(
            f"the browser tests need chromium (apt-get install chromium) at {found}; "
            f"set FLOWYARD_CHROMIUM to another path. {why}".strip()
        )
    return found


@dataclass
class Server:
    """A running `flowyard serve`: its base URL and its database's URL."""

    url: str
    database_url: str

    def user(self, name: str, *grants: str, groups: tuple[str, ...] = (), email: str | None = None) -> str:
        """A user with the test password and these rights and groups, as `flowyard user add` makes one (its
        own function, in this process: a command's start costs a second of CPU, and the pages' tests made
        a hundred users; tests/people/test_commands.py runs the command); their name."""

        async def add(conn: AsyncConnection) -> None:
            await add_user(
                conn,
                name,
                grants=[Grant.parse(grant) for grant in grants],
                groups=list(groups),
                password_hash=_password_hash(),
                actor=CLI_ACTOR,
                email=email,
            )

        Connected(self.database_url).beside_a_loop(add)
        return name


@contextmanager
def serve(database_url: str, extra_env: dict[str, str] | None = None) -> Iterator[Server]:
    """`flowyard serve` with its in-process worker on a port the system picks, until the block ends."""
    if not (DIST / "index.html").is_file():
        raise RuntimeError(f"{DIST} has no build: run `make frontend` first")
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "FLOWYARD_FRONTEND_DIR": str(DIST),
        # Everything it logs, to a file of its own: the session's secrets check reads it afterwards.
        "FLOWYARD_LOG_LEVEL": "DEBUG",
        **(extra_env or {}),
    }
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8") as log:
        process = subprocess.Popen(
            [str(FLOWYARD), "serve", "--port", "0"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=log,
            text=True,
        )
        assert process.stdout is not None
        reader: threading.Thread | None = None
        try:
            # The banner comes once the socket listens (backend/processes.py); reading it is the sync.
            # An empty database first hears how to add its first administrator; then the banner.
            printed = [process.stdout.readline()]
            if serving_url(printed[0]) is None and printed[0]:
                printed.append(process.stdout.readline())
            url = serving_url(printed[-1])
            if url is None:
                log.seek(0)
                raise RuntimeError(f"flowyard serve did not start: {printed} {log.read()[-4000:]}")
            # Keep reading what it prints, or a full pipe would stop the server in the middle of a line.
            reader = threading.Thread(target=process.stdout.read, daemon=True)
            reader.start()
            yield Server(url, database_url)
        finally:
            process.terminate()
            process.wait(timeout=30)
            if reader is not None:
                reader.join(timeout=10)  # the server has exited: its output ends, and so does the reading
            process.stdout.close()
            log.seek(0)
            server_log(f"browser serve on {database_url.rsplit('/', 1)[-1]}", log.read())


def log_in(
    browser: Browser,
    server: Server,
    name: str,
    *,
    locale: str = "en-US",
    width: int = 1400,
    height: int = 900,
    at: str = "/flows",
) -> Page:
    """A new browser context logged in as `name`, on the page `at` (the flows by default). The login is
    the API's (POST /api/session, whose cookie the context keeps), not the login page's: a page load costs
    a third of a second of chromium's CPU, and the browser tests log in a hundred times; tests/browser/
    test_login.py logs in through the page. `width` and `height`: the viewport (390 x 844 is a phone,
    tests/browser/test_phone.py)."""
    context = browser.new_context(
        base_url=server.url, locale=locale, viewport={"width": width, "height": height}
    )
    # Connection: close, or the login's connection would wait in the context's pool for the test's first
    # `page.request` call, which the server may by then have closed (its keep-alive lasts 5 s): a reset.
    answer = context.request.post(
        "/api/session", data={"name": name, "password": PASSWORD}, headers={"Connection": "close"}
    )
    assert answer.status == 201, (name, answer.status, answer.text())
    page = context.new_page()
    page.goto(at)
    return page


def serious_violations(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now, one line each."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def screenshot(page: Page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


class Dialogs:
    """A page's questions (`confirm`, `beforeunload`), each answered by the test in turn; what they asked."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.asked: list[str] = []

    def answer_next(self, *, accept: bool) -> None:
        """Answer the page's next question: yes (`accept`) or no."""

        def handle(dialog: Dialog) -> None:
            self.asked.append(dialog.message)
            if accept:
                dialog.accept()
            else:
                dialog.dismiss()

        self.page.once("dialog", handle)
