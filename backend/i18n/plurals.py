"""Sentences that count something, in each language's plural forms: gettext's `ngettext`, through Babel.

A counting key is a plural entry in every catalog (`msgid`/`msgid_plural`, both the key, and one
`msgstr[i]` per form of the catalog's `Plural-Forms` header, which is CLDR's rule as Babel gives it):
English and German have two forms, French, Spanish, Italian and Brazilian Portuguese three (0 and 1 are
singular in French and Portuguese; the third form is for millions), Polish three (1 przebieg, 3 przebiegi,
5 przebiegów), Japanese one. `PLURALS` names each counting key and the parameter that holds its count:
the extractor writes those keys as plural entries, `message` picks the form with `ngettext`, and the
frontend reads them as i18next's `<key>_one`, `<key>_few`, ... (`i18next_keys`).

Examples:
    >>> plural_form("loop_finished", 3, "pl")
    'Pętla {node} wykonała {passes} przebiegi i zakończyła się.'
    >>> plural_form("loop_finished", 5, "pl")
    'Pętla {node} wykonała {passes} przebiegów i zakończyła się.'
    >>> plural_form("loop_finished", 0, "fr") == plural_form("loop_finished", 1, "fr")
    True
    >>> i18next_categories("pl")
    ('one', 'few', 'many', 'other')
"""

from __future__ import annotations

from functools import cache
from io import BytesIO

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.support import Translations

from backend.i18n.po_files import po_file

# The counting keys, each with the parameter that holds its count. A key here must be passed that
# parameter as an integer wherever it is used; without one, `message` reads the last form.
PLURALS: dict[str, str] = {
    "action_timeout": "timeout_s",
    "approval_quorum_unreachable": "quorum",
    "approval_vote_approve": "quorum",
    "approval_vote_counted": "quorum",
    "approval_vote_reject": "quorum",
    "audit_chain_broken": "records",
    "audit_chain_intact": "records",
    "audit_chain_intact_since_last": "records",
    "audit_signed_heads": "chains",
    "audit_signed_heads_checked": "lines",
    "claim_abandoned": "attempts",
    "cli_migrations_applied": "count",
    "cli_secrets_rotated": "count",
    "decision_comment_too_long": "limit",
    "delegation_too_long": "days",
    "event_key_refused": "limit",
    "event_key_too_long": "limit",
    "event_payload_too_large": "limit",
    "event_quota_bytes": "limit",
    "event_quota_events": "limit",
    "evidence_proof_records": "records",
    "findings_truncated": "count",
    "flow_name_too_long": "limit",
    "http_redirects_exceeded": "limit",
    "http_response_too_large": "limit",
    "idempotency_key_invalid": "limit",
    "iteration_limit_exceeded": "passes",
    "join_not_reached": "needed",
    "join_wait_invalid": "wait",
    "json_problem_too_deep": "limit",
    "json_problem_too_large": "limit",
    "login_throttled": "minutes",
    "login_throttled_address": "minutes",
    "loop_finished": "passes",
    "loop_nesting_too_deep": "limit",
    "parallel_wait_invalid": "wait",
    "problem_argv_element": "limit",
    "problem_argv_shape": "limit",
    "problem_max_characters": "limit",
    "problem_max_entries": "limit",
    "problem_max_items": "limit",
    "problem_min_characters": "limit",
    "problem_min_entries": "limit",
    "problem_min_items": "limit",
    "problem_moment_too_far": "limit",
    "problem_too_deep": "limit",
    "problem_wait_too_long": "limit",
    "request_body_timeout": "seconds",
    "request_json_too_deep": "limit",
    "request_too_large": "limit",
    "resume_attempts_exhausted": "attempts",
    "run_journal_limit_exceeded": "limit",
    "run_wait_timed_out": "seconds",
    "secret_too_large": "limit",
    "token_expiry_invalid": "limit",
    "ui_audit_chain_broken": "breaks",
    "ui_audit_chain_intact": "records",
    "ui_canvas_findings_count": "count",
    "ui_inbox_arrived": "count",
    "ui_inbox_count": "count",
    "ui_finding_label_long": "limit",
    "ui_name_too_long": "limit",
    "ui_save_refused": "count",
    "ui_show_limit": "limit",
    "ui_votes_count": "quorum",
    "ui_wait_some_items": "wait",
    "ui_walk_paused_several": "count",
    "user_email_invalid": "limit",
    "value_too_large": "limit",
    "visit_limit_exceeded": "limit",
    "walk_journal_too_large": "limit",
}
# CLDR's plural categories in the order gettext numbers a catalog's forms (Babel's `to_gettext`).
_CATEGORIES = ("zero", "one", "two", "few", "many")


def translations(po: Catalog) -> Translations:
    """A catalog as gettext reads it (its `.mo`, written in memory): fuzzy and empty entries left out."""
    buffer = BytesIO()
    write_mo(buffer, po)
    buffer.seek(0)
    return Translations(buffer)


def plural_form(key: str, count: int, locale: str) -> str | None:
    """The form of `key`'s sentence for `count` in `locale` (`ngettext`), or None when it has none."""
    po = po_file(locale)
    if po is None:
        return None
    found = _translations(locale).ngettext(key, key, count)
    return None if found == key else found


@cache
def _translations(locale: str) -> Translations:
    po = po_file(locale)
    return translations(po if po is not None else Catalog(locale=locale))


def i18next_categories(locale: str) -> tuple[str, ...]:
    """The plural suffixes i18next looks up for `locale` (from `Intl.PluralRules`), in gettext's order.

    Form i of a catalog is the i-th category here; `other`, which CLDR keeps for fractions where gettext
    has no form of its own (Polish), reads the last form.
    """
    tags = Locale.parse(locale).plural_form.tags
    return (*(tag for tag in _CATEGORIES if tag in tags), "other")


def i18next_keys(key: str, forms: tuple[str, ...], locale: str) -> dict[str, str]:
    """One plural entry as i18next's flat keys: `<key>_<category>` for each category of `locale`.

    Examples:
        >>> i18next_keys("ui_inbox_count", ("{count} approval", "{count} approvals"), "en")
        {'ui_inbox_count_one': '{count} approval', 'ui_inbox_count_other': '{count} approvals'}
    """
    categories = i18next_categories(locale)
    return {f"{key}_{tag}": forms[min(i, len(forms) - 1)] for i, tag in enumerate(categories)}
