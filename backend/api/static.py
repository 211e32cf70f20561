"""The editor's built files (frontend/dist): content-hashed assets cached for a year, index.html never
cached, the page routes answered with index.html (the browser router takes over), and security headers.

The API and webhooks never fall back to index.html: an unknown /api path stays a JSON 404, so a client
with a typo sees an error, not a page. A person who types or follows a wrong address gets the page with a
404 status: the editor's router says "page not found" in the reader's language, with the menu to go on
(a browser asks for HTML; a program asking for JSON or anything still gets the JSON 404).
"""

from __future__ import annotations

import html
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from backend.i18n import message, negotiate

DIST = Path(__file__).resolve().parents[2] / "frontend" / "dist"
IMMUTABLE = "public, max-age=31536000, immutable"
# No inline script anywhere. Inline styles are allowed because React Flow positions nodes and edges with
# style attributes; a style cannot run code (docs/editor.md).
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
    "form-action 'self'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
]
NO_STORE = (b"cache-control", b"no-store")
# The favicon keeps its name from build to build (index.html names it), so it is not immutable: a day.
FAVICON_CACHE = "public, max-age=86400"
# The browser router's pages: each prefix and everything under it answers with index.html.
PAGE_PREFIXES = ("flows", "runs", "inbox", "approvals", "audit", "people", "login")


class _Assets(StaticFiles):
    """Vite names every asset by its content's hash, so a name never changes meaning: cache it forever."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        if response.status_code == 200:
            response.headers["cache-control"] = IMMUTABLE
        return response


def routes(dist: Path) -> list[BaseRoute]:
    """The routes of the editor's pages and assets, to go after the API's."""

    async def page(request: Request) -> Response:
        index = dist / "index.html"
        if not index.is_file():
            return _not_built(request)
        return FileResponse(index, headers={"cache-control": "no-cache"}, media_type="text/html")

    async def favicon(request: Request) -> Response:
        icon = dist / "favicon.svg"
        if not icon.is_file():
            return Response(status_code=404)
        return FileResponse(icon, headers={"cache-control": FAVICON_CACHE}, media_type="image/svg+xml")

    found: list[BaseRoute] = [
        Route("/", page, methods=["GET", "HEAD"]),
        Route("/favicon.svg", favicon, methods=["GET", "HEAD"]),
    ]
    for prefix in PAGE_PREFIXES:
        found.append(Route(f"/{prefix}", page, methods=["GET", "HEAD"]))
        found.append(Route(f"/{prefix}/{{rest:path}}", page, methods=["GET", "HEAD"]))
    found.append(Mount("/assets", app=_Assets(directory=dist / "assets", check_dir=False)))
    return found


def lost(dist: Path, request: Request) -> Response | None:
    """The page for a 404 a person reached by navigating (the router then says the page does not exist),
    None for a program: the app's 404 handler asks, so that a wrong method stays a 405 and a trailing
    slash still redirects, as Starlette's router decides before any handler runs."""
    if not _a_person_asks(request) or not (dist / "index.html").is_file():
        return None
    return FileResponse(
        dist / "index.html", status_code=404, headers={"cache-control": "no-cache"}, media_type="text/html"
    )


# Paths that belong to programs: a wrong one there is the JSON 404, even in a browser's address bar.
PROGRAM_PREFIXES = ("/api/", "/hooks/", "/assets/", "/metrics", "/healthz", "/readyz", "/livez")


def _a_person_asks(request: Request) -> bool:
    """A browser navigating (it asks for HTML first) to a path that is not a program's."""
    path = request.url.path
    wants = request.headers.get("accept", "")
    navigating = request.method in ("GET", "HEAD") and "text/html" in wants
    return navigating and not path.startswith(PROGRAM_PREFIXES) and path != "/favicon.ico"


def _not_built(request: Request) -> Response:
    """A plain page naming the reason code: the server runs, but nobody built the editor (`make`)."""
    locale = negotiate(request.headers.get("accept-language"), None)
    text = html.escape(message("frontend_not_built", locale))
    body = (
        f'<!doctype html><html lang="{html.escape(locale)}"><meta charset="utf-8"><title>Flowyard</title>'
        f"<p>{text}</p><p><code>frontend_not_built</code></p></html>"
    )
    return HTMLResponse(body, status_code=503, headers={"cache-control": "no-store"})


class SecurityHeaders:
    """Adds the Content-Security-Policy and friends to every response, API answers included; and
    `Cache-Control: no-store` to every JSON answer and every answer under /api/ that says nothing of its
    own about caching, so that no browser cache or proxy keeps a run's variables, an approval or a token.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        under_api = str(scope.get("path", "")).startswith("/api/")

        async def with_headers(msg: Message) -> None:
            if msg["type"] == "http.response.start":
                headers = [*msg.get("headers", []), *SECURITY_HEADERS]
                if _not_to_store(headers, under_api):
                    headers.append(NO_STORE)
                msg["headers"] = headers
            await send(msg)

        await self.app(scope, receive, with_headers)


def _not_to_store(headers: list[tuple[bytes, bytes]], under_api: bool) -> bool:
    """Whether an answer gets `no-store`: JSON, or under /api/, and no caching rule of its own.

    Examples:
        >>> _not_to_store([(b"content-type", b"application/json")], False)
        True
        >>> _not_to_store([(b"content-type", b"text/csv"), (b"cache-control", b"no-cache")], True)
        False
        >>> _not_to_store([(b"content-type", b"text/html")], False)
        False
    """
    kind = b""
    for name, value in headers:
        lowered = name.lower()
        if lowered == b"cache-control":
            return False
        if lowered == b"content-type":
            kind = value.split(b";")[0].strip().lower()
    return under_api or kind == b"application/json" or kind.endswith(b"+json")
