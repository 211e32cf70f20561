"""A decided run read in German and in Japanese (issue 34): the run page names node types and ports in the
reader's words, never the English ones or the flow format's identifiers; the decision, each approval's
outcome, who may decide and the deadline are each one sentence of the catalogs; a countdown leaves out
units that are zero. Screenshots at 1400 and 390 px."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.pages_support import Story, invoice_flow, story_server
from tests.browser.support import log_in, screenshot

LIVE = 60_000  # the worker must ask the approval, and go on after the decision
# What the page shows of its own, with the author's data (<pre>) and the journal's folded data left out.
PAGE_TEXT = """() => {
  const copy = document.body.cloneNode(true);
  copy.querySelectorAll('pre, details, script, style').forEach((e) => e.remove());
  return copy.textContent;
}"""


@pytest.fixture(scope="module")
def story(pg_server_url: str, template_database: str) -> Iterator[Story]:
    with story_server(pg_server_url, template_database, "runwords") as running:
        yield running


def catalog(page: Page, locale: str) -> dict[str, str]:
    answer: dict[str, str] = page.request.get(f"/api/i18n/{locale}").json()
    return answer


def sentence(template: str, tail: str = "", **values: str | None) -> re.Pattern[str]:
    """A catalog sentence as a pattern matching it whole (then `tail`, a pattern): `values` filled in,
    a value None (and `{when}`) any text."""
    pattern = re.escape(template)
    for name, value in {"when": None, **values}.items():
        pattern = pattern.replace(re.escape("{" + name + "}"), ".+" if value is None else re.escape(value))
    return re.compile(f"^{pattern}{tail}$")


def english_words(en: dict[str, str], local: dict[str, str]) -> set[str]:
    """Node types' and ports' English names and identifiers the reader's catalog does not share."""
    words = set()
    for key, english in en.items():
        match = re.fullmatch(r"(node_type|port)_([a-z_]+)", key)
        if match and not key.endswith("_description"):
            words |= {english, match.group(2)} - {local[key]}
    return words


def asking(flow: dict[str, Any], group: str) -> dict[str, Any]:
    """The flow with its approval asked of `group` alone: each test's approver sees only its own."""
    for node in flow["nodes"]:
        if node["type"] == "approval":
            node["config"]["approvers"] = [f"group:{group}"]
    return flow


def start(story: Story, user: str, flow: dict[str, Any], invoice: str) -> tuple[int, int]:
    with story.api(story.token(user)) as api:
        flow_id = api.post("/api/flows", json=flow).json()["id"]
        run = api.post(f"/api/flows/{flow_id}/runs", json={"input": {"invoice": invoice, "amount": 7}})
    return flow_id, run.json()["run"]


def approval_of(story: Story, user: str, title: str) -> dict[str, Any]:
    with story.api(story.token(user)) as api:
        found: dict[str, Any] = next(
            a for a in api.get("/api/approvals").json()["approvals"] if a["title"] == title
        )
    return found


@pytest.mark.parametrize("locale", ["de", "ja"])
def test_a_decided_run_reads_in_the_readers_words(browser: Browser, story: Story, locale: str) -> None:
    reader, decider, group = f"ria_{locale}", f"rex_{locale}", f"finance_{locale}"
    story.server.user(reader, "edit", "run")
    story.server.user(decider, "decide", groups=(group,))
    story.set_locale(reader, locale)
    flow = asking({**invoice_flow(story.receiver.url), "name": "Rechnungsfreigabe"}, group)
    _flow, decided = start(story, reader, flow, f"D-{locale}")
    _flow, waiting = start(story, reader, flow, f"W-{locale}")
    approver = log_in(browser, story.server, decider, at="/inbox")
    expect(approver.locator(".inbox-list li")).to_have_count(2, timeout=LIVE)
    approver.context.close()
    asked = approval_of(story, decider, f"Pay invoice D-{locale}?")
    with story.api(story.token(decider)) as api:
        answer = api.post(f"/api/approvals/{asked['id']}/decision", json={"outcome": "reject"})
        assert answer.status_code == 200, answer.text

    for width, height in ((1400, 900), (390, 844)):
        page = log_in(browser, story.server, reader, width=width, height=height, at="about:blank")
        words, en = catalog(page, locale), catalog(page, "en")
        page.goto(f"/runs/{decided}")
        # The decision: one sentence of the catalog, the outcome in the reader's words.
        expect(page.locator(".run-decision")).to_have_text(
            sentence(
                words["ui_run_decision"],
                outcome=words["outcome_rejected"],
                title=f"Pay invoice D-{locale}?",
                who=decider,
            ),
            timeout=LIVE,
        )
        expect(page.locator(".approval-outcome")).to_have_text(
            sentence(words["ui_inbox_decided_by"], outcome=words["outcome_rejected"], who=decider)
        )
        # The diagram: types under the ids, ports on the wires, in the reader's words.
        canvas = page.locator(".run-canvas")
        expect(canvas.locator("[data-node='ask'] .card-type")).to_have_text(words["node_type_approval"])
        expect(canvas.locator(".react-flow__edge-text")).to_have_count(2)
        labels = sorted(canvas.locator(".react-flow__edge-text").all_text_contents())
        assert labels == sorted([words["port_approve"], words["port_reject"]])
        shown = page.evaluate(PAGE_TEXT)
        leaks = sorted(
            word
            for word in english_words(en, words)
            if re.search(rf"(?<![A-Za-z]){re.escape(word)}(?![A-Za-z])", shown)
        )
        assert leaks == [], f"English node-type or port words on the {locale} run page: {leaks}"
        screenshot(page, f"run-decided-{locale}-{width}")

        # The waiting run: who may decide (a group by name, never group:finance) and the deadline.
        page.goto(f"/runs/{waiting}")
        open_approval = page.locator(".open-approval")
        named = words["ui_approvers_group"].replace("{name}", group)
        expect(open_approval.locator("p").nth(1)).to_have_text(
            words["ui_run_approvers_are"].replace("{approvers}", named), timeout=LIVE
        )
        gap = "" if locale == "ja" else " "  # no space after Japanese 。
        reject = gap + re.escape(words["mail_approval_timeout_reject"])
        expect(open_approval.locator("p").nth(2)).to_have_text(
            sentence(words["ui_run_deadline"], reject, deadline=None)
        )
        assert f"group:{group}" not in page.evaluate(PAGE_TEXT)
        screenshot(page, f"run-waiting-{locale}-{width}")
        page.context.close()


def test_a_countdown_leaves_out_units_that_are_zero(browser: Browser, story: Story) -> None:
    story.server.user("gabi", "edit", "run")
    story.server.user("gero", "decide", groups=("finance_soon",))
    story.set_locale("gabi", "de")
    start(story, "gabi", asking(invoice_flow(story.receiver.url, deadline="PT5H"), "finance_soon"), "K-1")
    approver = log_in(browser, story.server, "gero", at="/inbox")
    expect(approver.locator(".inbox-list li")).to_have_count(1, timeout=LIVE)
    approver.context.close()
    asked = approval_of(story, "gero", "Pay invoice K-1?")

    page = log_in(browser, story.server, "gabi", at="about:blank")
    de = catalog(page, "de")
    page.goto(f"/approvals/{asked['id']}")
    countdown = page.locator(".countdown")
    # Five hours ahead: "noch 4 Stunden, 59 Minuten", never "noch 0 T. 4 Std.".
    left = sentence(de["ui_inbox_deadline_remaining"], deadline=None, left="LEFT").pattern
    hours = left.replace("LEFT", r"(4 Stunden, \d+ Minuten?|5 Stunden)")
    expect(countdown).to_have_text(re.compile(hours), timeout=LIVE)
    expect(countdown).not_to_contain_text("0 Tage")
    screenshot(page, "approval-countdown-de")
    page.context.close()
