"""A request that never reaches the server is said from the catalog, in the reader's language, on every
page: the inbox, the audit trail, the people, the signed-in shell and the editor's versions (each page in
English, the audit trail and the versions in German and Japanese too). The browser's own words ("Failed to
fetch", English whatever the reader reads) never show."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

import psycopg
import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tests.api.support import approval_and_delay_flow
from tests.browser.support import Server, log_in, screenshot

# (browser locale, ui_error_network, ui_versions_open for version 1) from the catalogs.
READERS = [
    pytest.param(
        "en-US",
        "The server cannot be reached. Please check your connection and try again.",
        "Open version 1",
        id="en",
    ),
    pytest.param(
        "de-DE",
        "Der Server ist nicht erreichbar. Bitte prüfen Sie Ihre Verbindung und versuchen Sie es erneut.",
        "Version 1 öffnen",
        id="de",
    ),
    pytest.param(
        "ja-JP",
        "サーバーに接続できません。接続を確認して、もう一度お試しください。",
        "バージョン 1 を開く",
        id="ja",
    ),
]


def cut_off(page: Page, path: str) -> None:
    """Requests for exactly `path` (any query) fail as a lost connection would; every other one is served."""

    def abort(route: Route) -> None:
        route.abort("internetdisconnected")

    page.route(lambda url: urlsplit(url).path == path, abort)


def said(page: Page, sentence: str) -> None:
    """The page's one alert is the catalog's sentence, and the browser's words are nowhere."""
    expect(page.get_by_role("alert")).to_have_text([sentence])
    expect(page.locator("body")).not_to_contain_text("Failed to fetch")


def two_versions(page: Page) -> int:
    """A flow saved twice, made through the API as the logged-in user; its id."""
    csrf = page.request.get("/api/me").json()["csrf_token"]
    headers = {"X-CSRF-Token": csrf, "Content-Type": "application/json"}
    document = approval_and_delay_flow()
    flow_id = int(page.request.post("/api/flows", data=json.dumps(document), headers=headers).json()["id"])
    document["name"] = "Renamed later"
    page.request.put(f"/api/flows/{flow_id}", data=json.dumps(document), headers=headers)
    return flow_id


@pytest.mark.console_errors("each page is cut off from the API", allow=r"net::ERR_INTERNET_DISCONNECTED")
@pytest.mark.parametrize(("locale", "unreached", "open_first"), READERS)
def test_an_unreached_server_is_said_in_the_readers_language(
    browser: Browser, server: Server, locale: str, unreached: str, open_first: str
) -> None:
    name = server.user(f"offline_{locale[:2]}", "edit", "run", "decide", "audit", "admin")
    page = log_in(browser, server, name, locale=locale)

    # Each failed page costs the query's retries (seconds): every page in English, one in the others.
    pages = [("/api/audit", "/audit"), ("/api/approvals", "/inbox"), ("/api/people", "/people")]
    for path, address in pages if locale == "en-US" else pages[:1]:
        cut_off(page, path)
        page.goto(address)
        said(page, unreached)
        if address == "/audit":
            screenshot(page, f"network-failure-{locale[:2]}")
        page.unroute_all()

    if locale == "en-US":
        # Who is signed in cannot be asked: the shell says so rather than sending the reader to the login.
        cut_off(page, "/api/me")
        page.goto("/flows")
        said(page, unreached)
        page.unroute_all()

    # Opening an old version that cannot be fetched is said beside the versions, not dropped.
    flow_id = two_versions(page)
    page.goto(f"/flows/{flow_id}")
    expect(page.get_by_role("heading", name="Renamed later")).to_be_visible()
    cut_off(page, f"/api/flows/{flow_id}/versions/1")
    page.get_by_role("button", name=open_first).click()
    expect(page.locator(".versions [role=alert]")).to_have_text(unreached)
    expect(page.get_by_role("heading", name="Renamed later")).to_be_visible()  # the newest is still open
    expect(page.locator("body")).not_to_contain_text("Failed to fetch")
    page.context.close()


def cut_off_only(page: Page, method: str, path: str) -> None:
    """`method` requests for exactly `path` fail as a lost connection would; every other one is served."""

    def abort_or_serve(route: Route) -> None:
        if route.request.method == method:
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route(lambda url: urlsplit(url).path == path, abort_or_serve)


@pytest.mark.console_errors(
    "the language choice and the logout are cut off", allow=r"net::ERR_INTERNET_DISCONNECTED"
)
@pytest.mark.parametrize(
    ("chosen", "unreached", "logout"),
    [
        pytest.param("de", READERS[1].values[1], "Abmelden", id="de"),
        pytest.param("ja", READERS[2].values[1], "ログアウト", id="ja"),
    ],
)
def test_a_language_choice_or_a_logout_that_cannot_be_sent_is_said_and_nothing_is_lost(
    browser: Browser, server: Server, chosen: str, unreached: str, logout: str
) -> None:
    name = server.user(f"offline_header_{chosen}", "edit")
    # A user without a time zone has the page store the browser's at the first login (PUT /api/me): one
    # that came after the cut-off below would fail too, and the page read the user again in English.
    with psycopg.connect(server.database_url, autocommit=True) as conn:
        conn.execute("UPDATE users SET time_zone = 'UTC' WHERE name = %s", (name,))
    page = log_in(browser, server, name)
    header = page.get_by_role("banner")

    # The page reads the language chosen at once; that it could not be stored is said in that language.
    cut_off_only(page, "PUT", "/api/me")
    header.get_by_label("Language").select_option(chosen)
    expect(header.get_by_role("alert")).to_have_text(unreached)
    page.unroute_all()
    assert page.request.get("/api/me").json()["locale"] != chosen  # not stored, as said

    # A logout that does not reach the server leaves the reader signed in, and says so.
    cut_off_only(page, "DELETE", "/api/session")
    header.get_by_role("button", name=logout).click()
    expect(header.get_by_role("alert")).to_have_text(unreached)
    screenshot(page, f"header-unreached-{chosen}")
    assert page.url.endswith("/flows")
    page.unroute_all()
    header.get_by_role("button", name=logout).click()
    page.wait_for_url("**/login")
    expect(page.get_by_role("alert")).to_have_count(0)
    page.context.close()
