"""A decision in the inbox is bound to the one approval on the screen (issue 31): the armed confirmation
and a typed comment belong to one approval id and never carry to the next request, a live arrival joins
the list without moving or replacing the open card, the confirmation names the title and the values the
author chose to show, the page says what was decided, and a decided approval says who decided it, not
what would happen if nobody did. Each test has its own approver group, so the inboxes do not meet."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import APIResponse, Browser, Page, Route, expect

from tests.browser.pages_support import Story, invoice_flow, story_server
from tests.browser.support import log_in, screenshot

LIVE = 60_000  # the worker must ask the approval, and the event stream bring it to the page


@pytest.fixture(scope="module")
def story(pg_server_url: str, template_database: str) -> Iterator[Story]:
    with story_server(pg_server_url, template_database, "bound") as running:
        yield running


def flow(story: Story, group: str, deadline: str, show: list[dict[str, str]] | None = None) -> dict[str, Any]:
    made = copy.deepcopy(invoice_flow(story.receiver.url, deadline=deadline))
    config = made["nodes"][1]["config"]
    config["approvers"] = [f"group:{group}"]
    if show is not None:
        config["show"] = show
    return made


def start(story: Story, starter: str, group: str, invoice: str, **how: Any) -> None:
    """A run of the invoice flow asking `group`, started through the API by `starter` (four eyes)."""
    run_input = {"invoice": invoice, "amount": how.pop("amount", 1), **how.pop("extra", {})}
    with story.api(story.token(starter)) as api:
        made = api.post("/api/flows", json=flow(story, group, **how))
        assert made.status_code == 201, made.text
        started = api.post(f"/api/flows/{made.json()['id']}/runs", json={"input": run_input})
        assert started.status_code in (200, 201, 202), started.text


def open_ids(story: Story, approver: str) -> dict[str, int]:
    """The approvals waiting for the approver now, id by title."""
    with story.api(story.token(approver)) as api:
        return {a["title"]: a["id"] for a in api.get("/api/approvals").json()["approvals"]}


def stored(story: Story, approver: str, ids: dict[str, int]) -> dict[str, tuple[Any, Any]]:
    """Each approval's outcome and comment as the API has them now, by title."""
    with story.api(story.token(approver)) as api:
        answers = {title: api.get(f"/api/approvals/{i}").json() for title, i in ids.items()}
    return {title: (a["outcome"], a["comment"]) for title, a in answers.items()}


def card(page: Page) -> Any:
    return page.locator("article.approval")


def confirmation(page: Page, name: str = "Confirm your decision") -> Any:
    return page.get_by_role("group", name=name)


def test_the_armed_confirmation_is_not_carried_to_the_next_request(browser: Browser, story: Story) -> None:
    story.server.user("lou", "edit", "run")
    story.server.user("ann", "decide", groups=("ga",))
    for invoice, deadline in (("A-1", "PT1H"), ("A-2", "PT2H"), ("A-3", "PT3H"), ("A-4", "PT4H")):
        start(story, "lou", "ga", invoice, deadline=deadline)
    page = log_in(browser, story.server, "ann", at="/inbox")
    expect(page.locator(".inbox-list li")).to_have_count(4, timeout=LIVE)
    ids = open_ids(story, "ann")
    heading = card(page).get_by_role("heading")
    expect(heading).to_have_text("Pay invoice A-1?")

    # By mouse: approve A-1; A-2 comes next with nothing armed.
    card(page).get_by_role("button", name="Approve").click()
    confirmation(page).get_by_role("button", name="Confirm").click()
    expect(heading).to_have_text("Pay invoice A-2?")
    expect(confirmation(page)).to_have_count(0)
    expect(card(page).get_by_role("button", name="Approve")).to_be_visible()
    expect(page.get_by_test_id("inbox-result")).to_have_text("Approved: Pay invoice A-1?")

    # By keyboard: a arms the card shown, Enter on the focused Confirm decides; A-3 comes un-armed.
    page.keyboard.press("a")
    expect(confirmation(page).get_by_role("button", name="Confirm")).to_be_focused()
    page.keyboard.press("Enter")
    expect(heading).to_have_text("Pay invoice A-3?")
    expect(confirmation(page)).to_have_count(0)
    expect(page.get_by_test_id("inbox-result")).to_have_text("Approved: Pay invoice A-2?")

    # A double click on Confirm decides A-3 once; A-4 comes un-armed, and a double click on its Approve
    # only arms it.
    card(page).get_by_role("button", name="Approve").click()
    confirmation(page).get_by_role("button", name="Confirm").dblclick()
    expect(heading).to_have_text("Pay invoice A-4?")
    expect(confirmation(page)).to_have_count(0)
    expect(page.get_by_test_id("inbox-result")).to_have_text("Approved: Pay invoice A-3?")
    card(page).get_by_role("button", name="Approve").dblclick()
    expect(confirmation(page)).to_contain_text("Approve “Pay invoice A-4?”?")
    page.keyboard.press("Escape")
    expect(confirmation(page)).to_have_count(0)
    expect(heading).to_have_text("Pay invoice A-4?")
    expect(page.locator(".inbox-list li")).to_have_count(1)

    assert stored(story, "ann", ids) == {
        "Pay invoice A-1?": ("approved", None),
        "Pay invoice A-2?": ("approved", None),
        "Pay invoice A-3?": ("approved", None),
        "Pay invoice A-4?": (None, None),
    }
    page.context.close()


def test_a_live_arrival_never_takes_the_place_of_the_open_card(browser: Browser, story: Story) -> None:
    story.server.user("lou2", "edit", "run")
    story.server.user("ben", "decide", groups=("gb",))
    start(story, "lou2", "gb", "L-1", deadline="P1D")
    start(story, "lou2", "gb", "L-2", deadline="P2D")
    page = log_in(browser, story.server, "ben", at="/inbox")
    expect(page.locator(".inbox-list li")).to_have_count(2, timeout=LIVE)
    ids = open_ids(story, "ben")
    heading = card(page).get_by_role("heading")
    expect(heading).to_have_text("Pay invoice L-1?")
    page.get_by_label("Comment").fill("Checked against order 4711")
    card(page).get_by_role("button", name="Approve").click()
    confirm = confirmation(page).get_by_role("button", name="Confirm")
    expect(confirm).to_be_focused()

    # A request with a nearer deadline arrives: first in the list, announced, and nothing else moves.
    start(story, "lou2", "gb", "L-0", deadline="PT1H")
    expect(page.get_by_test_id("inbox-arrivals")).to_have_text("1 new request arrived.", timeout=LIVE)
    ids |= open_ids(story, "ben")
    expect(page.locator(".inbox-list li").first).to_have_text("Pay invoice L-0?")
    expect(heading).to_have_text("Pay invoice L-1?")
    expect(page.get_by_label("Comment")).to_have_value("Checked against order 4711")
    expect(confirmation(page)).to_contain_text("Approve “Pay invoice L-1?”?")
    expect(confirm).to_be_focused()
    screenshot(page, "inbox-arrival-en")
    confirm.click()
    expect(page.get_by_test_id("inbox-result")).to_have_text("Approved: Pay invoice L-1?")
    # The next card is the one that followed L-1, un-armed; L-0 is still waiting.
    expect(heading).to_have_text("Pay invoice L-2?")
    expect(confirmation(page)).to_have_count(0)

    # By keyboard: r arms L-2, another arrival comes, Enter rejects L-2, not the newcomer.
    page.get_by_label("Comment").fill("Duplicate of L-1")
    page.get_by_label("Comment").blur()
    page.keyboard.press("r")
    expect(confirmation(page)).to_contain_text("Reject “Pay invoice L-2?”?")
    start(story, "lou2", "gb", "L-00", deadline="PT30M")
    expect(page.get_by_test_id("inbox-arrivals")).to_have_text("2 new requests arrived.", timeout=LIVE)
    ids |= open_ids(story, "ben")
    expect(heading).to_have_text("Pay invoice L-2?")
    expect(confirmation(page).get_by_role("button", name="Confirm")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("inbox-result")).to_have_text("Rejected: Pay invoice L-2?")

    assert stored(story, "ben", ids) == {
        "Pay invoice L-1?": ("approved", "Checked against order 4711"),
        "Pay invoice L-2?": ("rejected", "Duplicate of L-1"),
        "Pay invoice L-0?": (None, None),
        "Pay invoice L-00?": (None, None),
    }
    page.context.close()


def test_a_comment_is_recorded_only_on_the_request_it_was_written_for(browser: Browser, story: Story) -> None:
    story.server.user("lou3", "edit", "run")
    story.server.user("cem", "decide", groups=("gc",))
    for invoice, deadline in (("C-1", "P1D"), ("C-2", "P2D"), ("C-3", "P3D")):
        start(story, "lou3", "gc", invoice, deadline=deadline)
    page = log_in(browser, story.server, "cem", at="/inbox")
    expect(page.locator(".inbox-list li")).to_have_count(3, timeout=LIVE)
    ids = open_ids(story, "cem")
    heading = card(page).get_by_role("heading")
    comment = page.get_by_label("Comment")

    # Written for C-1, then another card by click: its comment field is its own, empty.
    comment.fill("Only for C-1")
    page.get_by_role("button", name="Pay invoice C-2?").click()
    expect(heading).to_have_text("Pay invoice C-2?")
    expect(comment).to_have_value("")
    # By keys: j and k move by card, and nothing typed or armed comes along.
    comment.fill("Only for C-2")
    comment.blur()
    page.keyboard.press("r")
    page.keyboard.press("j")
    expect(heading).to_have_text("Pay invoice C-3?")
    expect(comment).to_have_value("")
    expect(confirmation(page)).to_have_count(0)
    page.keyboard.press("k")
    page.keyboard.press("k")
    expect(heading).to_have_text("Pay invoice C-1?")
    expect(comment).to_have_value("")

    # Written for C-1 again, armed, and a live arrival sorts first: the rejection lands on C-1 with it.
    comment.fill("Amount does not match the order")
    card(page).get_by_role("button", name="Reject").click()
    start(story, "lou3", "gc", "C-0", deadline="PT1H")
    expect(page.get_by_test_id("inbox-arrivals")).to_have_text("1 new request arrived.", timeout=LIVE)
    ids |= open_ids(story, "cem")
    expect(heading).to_have_text("Pay invoice C-1?")
    confirmation(page).get_by_role("button", name="Confirm").click()
    expect(page.get_by_test_id("inbox-result")).to_have_text("Rejected: Pay invoice C-1?")
    expect(heading).to_have_text("Pay invoice C-2?")
    expect(comment).to_have_value("")
    card(page).get_by_role("button", name="Approve").click()
    confirmation(page).get_by_role("button", name="Confirm").click()
    expect(page.get_by_test_id("inbox-result")).to_have_text("Approved: Pay invoice C-2?")

    assert stored(story, "cem", ids) == {
        "Pay invoice C-0?": (None, None),
        "Pay invoice C-1?": ("rejected", "Amount does not match the order"),
        "Pay invoice C-2?": ("approved", None),
        "Pay invoice C-3?": (None, None),
    }
    page.context.close()


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        (
            "en-US",
            {
                "approve": "Approve",
                "confirm": "Confirm",
                "group": "Confirm your decision",
                "question": "Approve “Pay invoice B-12?”?",
                "amount": "98,000",
                "result": "Approved: Pay invoice B-12?",
            },
        ),
        (
            "de-DE",
            {
                "approve": "Genehmigen",
                "confirm": "Bestätigen",
                "group": "Entscheidung bestätigen",
                "question": "„Pay invoice B-12?“ genehmigen?",
                "amount": "98.000",
                "result": "Genehmigt: Pay invoice B-12?",
            },
        ),
    ],
)
def test_the_confirmation_names_what_is_decided(
    browser: Browser, story: Story, locale: str, words: dict[str, str]
) -> None:
    starter, approver, group = f"lou4{locale[:2]}", f"dora{locale[:2]}", f"gd{locale[:2]}"
    story.server.user(starter, "edit", "run")
    story.server.user(approver, "decide", groups=(group,))
    shown = [{"label": "Amount (EUR)", "value": "trigger.amount"}, {"value": "trigger.invoice"}]
    start(story, starter, group, "B-12", deadline="P2D", amount=98000, show=shown)
    start(story, starter, group, "B-13", deadline="P3D", amount=120, show=shown)
    page = log_in(browser, story.server, approver, locale=locale, at="/inbox")
    expect(page.locator(".inbox-list li")).to_have_count(2, timeout=LIVE)
    values = card(page).locator("dl.shown").first
    expect(values).to_contain_text("Amount (EUR)")
    expect(values).to_contain_text(words["amount"])
    card(page).get_by_role("button", name=words["approve"]).click()
    confirm = confirmation(page, words["group"])
    expect(confirm).to_contain_text(words["question"])
    expect(confirm).to_contain_text(words["amount"])
    screenshot(page, f"inbox-armed-{locale[:2]}")
    confirm.get_by_role("button", name=words["confirm"]).click()
    expect(page.get_by_test_id("inbox-result")).to_have_text(words["result"])
    expect(card(page).get_by_role("heading")).to_have_text("Pay invoice B-13?")
    expect(confirmation(page, words["group"])).to_have_count(0)
    screenshot(page, f"inbox-decided-{locale[:2]}")
    page.context.close()


@pytest.mark.parametrize(
    ("locale", "decided", "automatic", "amount", "hidden", "show_all"),
    [
        (
            "en-US",
            "Approved: decided by emil at",
            "rejected automatically",
            "4,200",
            "Hidden: this value is secret and is not shown.",
            "Show all",
        ),
        (
            "de-DE",
            "Genehmigt: entschieden von emilde am",
            "automatisch abgelehnt",
            "4.200",
            "Verborgen: Dieser Wert ist geheim und wird nicht angezeigt.",
            "Alles zeigen",
        ),
    ],
)
def test_a_decided_approval_says_who_decided_and_no_deadline(
    browser: Browser,
    story: Story,
    locale: str,
    decided: str,
    automatic: str,
    amount: str,
    hidden: str,
    show_all: str,
) -> None:
    starter, approver, group = (
        f"lou5{locale[:2]}",
        "emil" if locale == "en-US" else "emilde",
        f"ge{locale[:2]}",
    )
    story.server.user(starter, "edit", "run")
    story.server.user(approver, "decide", groups=(group,))
    note = "Delivered in three parts. " * 12 + "The last part arrived late."
    extra = {"api_token": "s3cr3t-t0ken", "note": note}
    start(story, starter, group, "E-1", deadline="P2D", amount=4200, extra=extra)
    page = log_in(browser, story.server, approver, locale=locale, at="/inbox")
    expect(page.locator(".inbox-list li")).to_have_count(1, timeout=LIVE)
    approval_id = open_ids(story, approver)["Pay invoice E-1?"]
    # While it is open, the card says what happens if nobody decides.
    expect(card(page)).to_contain_text(automatic)
    with story.api(story.token(approver)) as api:
        answer = api.post(f"/api/approvals/{approval_id}/decision", json={"outcome": "approve"})
        assert answer.status_code == 200, answer.text
    page.goto(f"/approvals/{approval_id}")
    expect(page.locator(".decided")).to_contain_text(decided)
    expect(card(page)).not_to_contain_text(automatic)
    expect(card(page).locator(".countdown")).to_have_count(0)
    # What the approver saw: the amount in the reader's locale, the token as a mask with a sentence for
    # screen readers (never the token), the long note folded until asked for.
    values = card(page).locator("dl.shown")
    expect(values).to_contain_text(amount)
    expect(values).to_contain_text(hidden)
    expect(values).not_to_contain_text("s3cr3t")
    expect(values).not_to_contain_text("The last part arrived late.")
    unfold = values.get_by_role("button", name=show_all)
    unfold.click()
    expect(values).to_contain_text("The last part arrived late.")
    screenshot(page, f"approval-decided-{locale[:2]}")
    page.context.close()


@pytest.mark.console_errors(
    "the decision is answered 409 on purpose", allow=r"status of 409 .*/api/approvals/\d+/decision"
)
def test_a_decision_on_what_the_page_did_not_show_is_refused_and_the_card_read_again(
    browser: Browser, story: Story
) -> None:
    """The page sends the approval's id and digest; when the server finds them stale (here the request is
    changed on its way, as a page that kept an old copy would send it), its sentence is shown, nothing is
    decided, and the card is read again, un-armed, keeping the comment written for it."""
    story.server.user("lou6", "edit", "run")
    story.server.user("fay", "decide", groups=("gf",))
    start(story, "lou6", "gf", "F-1", deadline="P1D")
    page = log_in(browser, story.server, "fay", at="/inbox")
    expect(page.locator(".inbox-list li")).to_have_count(1, timeout=LIVE)
    ids = open_ids(story, "fay")
    sent: list[dict[str, Any]] = []

    def stale(route: Any) -> None:
        body = json.loads(route.request.post_data or "{}")
        sent.append(dict(body))
        route.continue_(post_data=json.dumps({**body, "seen": "0" * 64}))

    page.route("**/api/approvals/*/decision", stale)
    page.get_by_label("Comment").fill("Checked")
    card(page).get_by_role("button", name="Approve").click()
    confirmation(page).get_by_role("button", name="Confirm").click()
    expect(card(page).get_by_role("alert")).to_contain_text("nothing was recorded")
    expect(confirmation(page)).to_have_count(0)
    expect(card(page).get_by_role("heading")).to_have_text("Pay invoice F-1?")
    expect(page.get_by_label("Comment")).to_have_value("Checked")
    expect(page.get_by_test_id("inbox-result")).to_have_text("")
    # What the page sent: the approval on the screen and its digest, as the API gave them.
    with story.api(story.token("fay")) as api:
        shown = api.get(f"/api/approvals/{ids['Pay invoice F-1?']}").json()
    assert sent == [
        {"outcome": "approve", "comment": "Checked", "approval": shown["id"], "seen": shown["digest"]}
    ]
    assert stored(story, "fay", ids) == {"Pay invoice F-1?": (None, None)}
    page.context.close()


def test_a_card_decided_elsewhere_is_not_silently_replaced(browser: Browser, story: Story) -> None:
    story.server.user("lou7", "edit", "run")
    story.server.user("gus", "decide", groups=("gg",))
    story.server.user("hal", "decide", groups=("gg",))
    start(story, "lou7", "gg", "G-1", deadline="P1D")
    start(story, "lou7", "gg", "G-2", deadline="P2D")
    page = log_in(browser, story.server, "gus", at="/inbox")
    expect(page.locator(".inbox-list li")).to_have_count(2, timeout=LIVE)
    ids = open_ids(story, "gus")
    expect(card(page).get_by_role("heading")).to_have_text("Pay invoice G-1?")
    page.get_by_label("Comment").fill("Looks fine")
    card(page).get_by_role("button", name="Approve").click()

    # Hal rejects G-1 from elsewhere; the event stream brings it to gus's page.
    with story.api(story.token("hal")) as api:
        refused = api.post(f"/api/approvals/{ids['Pay invoice G-1?']}/decision", json={"outcome": "reject"})
        assert refused.status_code == 200, refused.text
    expect(page.get_by_test_id("inbox-gone")).to_have_text(
        "“Pay invoice G-1?” no longer waits for your decision: it was decided elsewhere or withdrawn. "
        "Choose a request from the list.",
        timeout=LIVE,
    )
    expect(card(page)).to_have_count(0)
    expect(confirmation(page)).to_have_count(0)
    expect(page.locator(".inbox-list li")).to_have_text(["Pay invoice G-2?"])
    page.keyboard.press("a")  # nothing shown, nothing to arm
    expect(confirmation(page)).to_have_count(0)
    screenshot(page, "inbox-gone-en")
    page.get_by_role("button", name="Pay invoice G-2?").click()
    expect(card(page).get_by_role("heading")).to_have_text("Pay invoice G-2?")
    expect(page.get_by_label("Comment")).to_have_value("")
    expect(confirmation(page)).to_have_count(0)
    expect(page.get_by_test_id("inbox-gone")).to_have_count(0)
    assert stored(story, "gus", ids) == {
        "Pay invoice G-1?": ("rejected", None),
        "Pay invoice G-2?": (None, None),
    }
    page.context.close()


def test_a_list_refreshed_before_the_decisions_answer_still_moves_on_to_the_next(
    browser: Browser, story: Story
) -> None:
    """The decision commits, the event stream refreshes the list without the card, and only then does
    the decision's answer reach the page (held here until the refresh is seen): the card the person took
    out is theirs, so the next request follows, never "decided elsewhere"."""
    story.server.user("lia", "edit", "run")
    story.server.user("uma", "decide", groups=("gu",))
    for invoice, deadline in (("U-1", "PT1H"), ("U-2", "PT2H")):
        start(story, "lia", "gu", invoice, deadline=deadline)
    page = log_in(browser, story.server, "uma", at="/inbox")
    expect(page.locator(".inbox-list li")).to_have_count(2, timeout=LIVE)
    held: list[tuple[Route, APIResponse]] = []

    def hold(route: Route) -> None:
        held.append((route, route.fetch()))  # decided on the server; its answer waits here

    page.route("**/api/approvals/*/decision", hold)
    heading = card(page).get_by_role("heading")
    expect(heading).to_have_text("Pay invoice U-1?")
    card(page).get_by_role("button", name="Approve").click()
    confirmation(page).get_by_role("button", name="Confirm").click()
    expect(page.locator(".inbox-list li")).to_have_count(1, timeout=LIVE)  # the refresh came first
    assert len(held) == 1
    route, answer = held[0]
    route.fulfill(response=answer)
    expect(heading).to_have_text("Pay invoice U-2?")
    expect(page.get_by_test_id("inbox-gone")).to_have_count(0)
    expect(page.get_by_test_id("inbox-result")).to_have_text("Approved: Pay invoice U-1?")
    page.context.close()
