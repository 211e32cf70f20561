"""The editor's files as `flowyard serve` answers them: hashed assets cached for a year, index.html never,
page routes falling back to index.html (never the API or webhooks), a CSP without inline script, and a
503 naming the reason code when the editor is not built."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from backend.api.app import create_app
from backend.api.static import IMMUTABLE

INDEX = '<!doctype html><div id="root"></div><script type="module" src="/assets/index-AbC123.js"></script>'


@pytest.fixture
def dist(tmp_path: Path) -> Path:
    (tmp_path / "assets").mkdir()
    (tmp_path / "index.html").write_text(INDEX)
    (tmp_path / "assets" / "index-AbC123.js").write_text("console.log('editor')")
    return tmp_path


def test_hashed_assets_are_cached_for_a_year_and_index_html_never(database_url: str, dist: Path) -> None:
    with TestClient(create_app(database_url, frontend=dist)) as client:
        asset = client.get("/assets/index-AbC123.js")
        assert asset.status_code == 200 and asset.text == "console.log('editor')"
        assert asset.headers["cache-control"] == IMMUTABLE == "public, max-age=31536000, immutable"
        page = client.get("/")
        assert page.status_code == 200 and page.text == INDEX
        assert page.headers["cache-control"] == "no-cache"
        assert page.headers["content-type"].startswith("text/html")
        missing = client.get("/assets/index-Gone99.js")
        assert missing.status_code == 404 and "immutable" not in missing.headers.get("cache-control", "")


@pytest.mark.parametrize(
    "path", ["/login", "/flows", "/flows/12", "/runs/7", "/inbox", "/approvals/3", "/audit", "/people"]
)
def test_page_routes_answer_with_index_html(database_url: str, dist: Path, path: str) -> None:
    with TestClient(create_app(database_url, frontend=dist)) as client:
        page = client.get(path)
        assert (page.status_code, page.text, page.headers["cache-control"]) == (200, INDEX, "no-cache")


@pytest.mark.parametrize("path", ["/api/nothing-here", "/hooks/1/secret", "/flowsx", "/favicon.ico"])
def test_the_api_webhooks_and_unknown_paths_never_fall_back_to_the_page(
    database_url: str, dist: Path, path: str
) -> None:
    with TestClient(create_app(database_url, frontend=dist)) as client:
        answer = client.get(path)
        assert answer.status_code in (404, 405)
        assert answer.headers["content-type"] == "application/json"
        assert answer.json()["error"]["code"] in ("not_found", "method_not_allowed")


@pytest.mark.parametrize("path", ["/nowhere", "/flowsx", "/a/b/c"])
def test_a_browser_lost_on_a_wrong_address_gets_the_page_with_a_404(
    database_url: str, dist: Path, path: str
) -> None:
    """The editor's router then says "page not found" in the reader's language, with the menu to go on."""
    browser = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
    with TestClient(create_app(database_url, frontend=dist)) as client:
        page = client.get(path, headers=browser)
        assert (page.status_code, page.text, page.headers["content-type"]) == (
            404,
            INDEX,
            "text/html; charset=utf-8",
        )
        for program in ("/api/nothing-here", "/hooks/1/secret", "/assets/gone.js", "/favicon.ico"):
            answer = client.get(program, headers=browser)
            assert answer.status_code in (404, 405) and answer.headers["content-type"] == "application/json"


def test_wrong_addresses_keep_their_404_405_and_trailing_slash_redirects(
    database_url: str, dist: Path
) -> None:
    """The page for a lost person is chosen when the answer is already a 404: a wrong method on a known
    path is still a 405, an unknown path any other method a 404, and a trailing slash still redirects."""
    with TestClient(create_app(database_url, frontend=dist), follow_redirects=False) as client:
        for method, path in (("POST", "/api/nonexistent"), ("POST", "/hooks/nope/x"), ("PUT", "/whatever")):
            answer = client.request(method, path)
            assert (answer.status_code, answer.json()["error"]["code"]) == (404, "not_found"), (method, path)
        assert client.delete("/api/me").status_code == 405
        moved = client.get("/healthz/")
        assert (moved.status_code, moved.headers["location"].endswith("/healthz")) == (307, True)


def test_every_answer_carries_a_csp_without_inline_script(database_url: str, dist: Path) -> None:
    with TestClient(create_app(database_url, frontend=dist)) as client:
        for path in ("/", "/assets/index-AbC123.js", "/healthz", "/api/me"):
            policy = client.get(path).headers["content-security-policy"]
            directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
            assert directives["default-src"] == "'self'"
            assert directives["script-src"] == "'self'", "no inline script, no eval"
            assert directives["style-src"] == "'self' 'unsafe-inline'", "React Flow's style attributes"
            assert directives["object-src"] == "'none'"


def test_without_a_build_the_page_is_a_503_naming_make(database_url: str, tmp_path: Path) -> None:
    with TestClient(create_app(database_url, frontend=tmp_path / "nothing")) as client:
        page = client.get("/flows", headers={"Accept-Language": "de"})
        assert page.status_code == 503
        assert "frontend_not_built" in page.text and "make" in page.text
        assert "Der Editor wurde noch nicht gebaut" in page.text
        assert client.get("/healthz").status_code == 200, "the API works without the editor"


def test_the_favicon_is_served_from_the_build_and_cached_for_a_day(database_url: str, dist: Path) -> None:
    (dist / "favicon.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>')
    with TestClient(create_app(database_url, frontend=dist)) as client:
        icon = client.get("/favicon.svg")
        assert icon.status_code == 200 and icon.text.startswith("<svg")
        assert icon.headers["content-type"] == "image/svg+xml"
        assert icon.headers["cache-control"] == "public, max-age=86400"
        (dist / "favicon.svg").unlink()
        assert client.get("/favicon.svg").status_code == 404


def test_the_built_editor_links_its_favicon() -> None:
    """The page names the icon and the build carries it (Vite copies frontend/public/ as it is)."""
    root = Path(__file__).resolve().parents[2] / "frontend"
    assert '<link rel="icon" type="image/svg+xml" href="/favicon.svg" />' in (root / "index.html").read_text()
    assert (root / "public" / "favicon.svg").read_text().startswith("<svg")
