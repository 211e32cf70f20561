"""What the browser's console says: every browser test fails on a console error or an uncaught exception.

A page's errors are the editor's bugs the eye does not see: the form library compiling code our CSP
forbids, a React warning about keys, an exception in a handler. The module's chromium is handed to the
tests wrapped (`WatchedBrowser`), so every context a test opens reports to one list, and the autouse
fixture in conftest.py fails a test whose run added to it. A test that provokes errors on purpose says so
with `@pytest.mark.console_errors("why", allow=REGEX)`: the reason and the pattern of the errors it
provokes are required, and any other error still fails it. Chromium logs a response of 400 or more
("Failed to load resource: ... 409") and a request that never left (`net::ERR_INTERNET_DISCONNECTED`)
as console errors: those are what the tests of refusals and of a lost network provoke.
"""

from __future__ import annotations

from typing import Any, cast

from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, WebError

# The editor has no favicon yet (issue 33 asks for one, in another part of the work): chromium asks for
# /favicon.ico on every page and logs the 404. Remove this once index.html names an icon.
NOT_OURS = ("/favicon.ico",)


class ConsoleErrors:
    """The console errors and uncaught exceptions of every page opened through a `WatchedBrowser`."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def watch(self, context: BrowserContext) -> BrowserContext:
        context.on("console", self._console)
        context.on("weberror", self._weberror)
        return context

    def _console(self, message: ConsoleMessage) -> None:
        where = message.location
        if message.type == "error" and not str(where.get("url", "")).endswith(NOT_OURS):
            self.lines.append(f"{message.text} ({where.get('url', '')}:{where.get('lineNumber', '')})")

    def _weberror(self, error: WebError) -> None:
        # The stack's first frames say where: a minified name and a place in the chunk beat nothing.
        stack = " | ".join((error.error.stack or "").splitlines()[1:4])
        self.lines.append(f"uncaught: {error.error.message} {stack}".strip())


class WatchedBrowser:
    """A Browser whose new contexts and pages report their console errors to `errors`."""

    def __init__(self, browser: Browser, errors: ConsoleErrors) -> None:
        self._browser = browser
        self._errors = errors

    def new_context(self, **options: Any) -> BrowserContext:
        return self._errors.watch(self._browser.new_context(**options))

    def new_page(self, **options: Any) -> Page:
        return self.new_context(**options).new_page()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


def watched(browser: Browser, errors: ConsoleErrors) -> Browser:
    """`browser` as the tests' type says it, reporting to `errors`."""
    return cast(Browser, WatchedBrowser(browser, errors))
