"""replace_texts with several texts, each with a replacement of its own: how an action's output gets its
secrets' values written back as `{{secrets.name}}` (actions/sender.py)."""

from __future__ import annotations

from backend.walker.redact import replace_texts


def test_each_text_is_replaced_by_its_own_replacement_whatever_its_case() -> None:
    pairs = [("first-token", "{{secrets.first}}"), ("Second-Token", "{{secrets.second}}")]
    value = {"a": "FIRST-TOKEN and second-token", "b": ["x second-TOKEN"]}
    assert replace_texts(value, pairs) == {
        "a": "{{secrets.first}} and {{secrets.second}}",
        "b": ["x {{secrets.second}}"],
    }


def test_a_text_that_begins_another_in_another_case_does_not_cut_it_short() -> None:
    # Longest first, whatever the case: sorted by the texts themselves, "ab-secret" would come before
    # "AB-SECRET-TAIL" (lower case sorts after upper) and leave "-tail" behind.
    pairs = [("ab-secret", "{{secrets.short}}"), ("AB-SECRET-TAIL", "{{secrets.long}}")]
    assert replace_texts({"t": "ab-secret-tail"}, pairs) == {"t": "{{secrets.long}}"}


def test_a_match_whose_lower_case_is_not_the_texts_gets_the_first_replacement() -> None:
    # Case-insensitive matching lets the long s (U+017F) match an s, but "password-42" is no text's own
    # lower case: the match is still replaced, by the first pair's replacement, never kept or emptied.
    pairs = [("pa\u017f\u017fword-42", "{{secrets.word}}"), ("other-secret", "{{secrets.other}}")]
    assert replace_texts({"t": "said PASSWORD-42"}, pairs) == {"t": "said {{secrets.word}}"}


def test_a_text_with_a_quote_is_found_in_another_case() -> None:
    # In the output's JSON text the quote is escaped, so only the escaped spelling can find it there; that
    # look is case-insensitive too.
    assert replace_texts({"t": 'say PA"SS'}, [('pa"ss', "{{secrets.q}}")]) == {"t": "say {{secrets.q}}"}
