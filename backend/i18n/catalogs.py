"""Sentences by reason code, read from the gettext catalogs under locales/ (through importlib.resources,
so an installed wheel, which carries them inside the package, reads them as the checkout does).

A catalog's msgid is the reason code itself (`cycle`, `decide_right_missing`) and its msgstr the sentence,
with named placeholders in braces (`{node}`). Keys never contain dots, so the frontend's flat JSON view of
a catalog never splits one into an object. The runtime reads the `.po` files, which are what translators
edit and what git holds; the compiled `.mo` files are for gettext tools, and nothing here needs them.

A fuzzy entry (one a tool guessed, or a translator has not confirmed) counts as missing, as it does for
gettext itself.

Examples:
    >>> message("database_unreachable", "en", host="db.example")
    'The database at db.example cannot be reached.'
    >>> message("database_unreachable", "de", host="db.example")
    'Die Datenbank unter db.example ist nicht erreichbar.'
    >>> message("database_unreachable", "xx")
    'The database at {host} cannot be reached.'
    >>> message("no_such_code_anywhere", "en")
    'no_such_code_anywhere'
    >>> catalog_json("ja")["node_type_approval"]
    '承認'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date, datetime, timedelta
from decimal import Decimal
from functools import cache, lru_cache
from typing import Any

from babel.dates import format_date
from babel.lists import format_list
from babel.messages.catalog import Catalog

from backend.i18n.formats import format_duration, format_number
from backend.i18n.listed import AllOf
from backend.i18n.locales import DEFAULT_LOCALE, LOCALES
from backend.i18n.placeholders import fill, placeholders
from backend.i18n.plurals import PLURALS, i18next_keys, plural_form
from backend.i18n.po_files import LOCALES_DIR, po_file
from backend.i18n.pseudo import PSEUDO_LOCALE, pseudo
from backend.i18n.zones import format_moment

__all__ = [
    "DEFAULT_LOCALE",
    "LOCALES",
    "LOCALES_DIR",
    "Sentences",
    "catalog",
    "catalog_json",
    "cited_name",
    "explain",
    "message",
    "plural_forms",
    "po_file",
    "sentences",
]


@cache
def catalog(locale: str) -> Mapping[str, str]:
    """Every translated sentence of one locale, by reason code; empty for a locale we do not ship.

    A counting key (a plural entry) reads its last form, the one for most counts. The pseudo-locale
    is the English catalog, each sentence made pseudo.
    """
    if locale == PSEUDO_LOCALE:
        return {key: pseudo(sentence) for key, sentence in catalog(DEFAULT_LOCALE).items()}
    po = po_file(locale)
    return {} if po is None else sentences(po)


def sentences(po: Catalog) -> dict[str, str]:
    """The confirmed sentences of a parsed catalog, by key: neither empty nor fuzzy.

    A plural entry counts when every one of its forms is filled, and reads as its last form.
    """
    found: dict[str, str] = {}
    for m in po:
        if not m.id or m.fuzzy:
            continue
        if isinstance(m.id, str) and isinstance(m.string, str) and m.string:
            found[m.id] = m.string
        elif isinstance(m.id, tuple | list) and isinstance(m.string, tuple | list) and all(m.string):
            found[str(m.id[0])] = str(m.string[-1])
    return found


def plural_forms(po: Catalog) -> dict[str, tuple[str, ...]]:
    """Every plural entry of a parsed catalog, by key, with its forms as written (empty ones too)."""
    return {
        str(m.id[0]): tuple(str(form) for form in m.string)
        for m in po
        if isinstance(m.id, tuple | list) and m.id and isinstance(m.string, tuple | list) and not m.fuzzy
    }


def message(code: str, locale: str = DEFAULT_LOCALE, /, **params: Any) -> str:
    """The sentence for `code` in `locale`, falling back to English, then to the code itself.

    The last fallback exists so that a gap never hides an error from a user; the catalog guard test is
    what keeps gaps from landing. A placeholder that `params` lacks stays visible as `{name}`; dates,
    durations and fractional numbers among `params` are written as the locale writes them. Integers
    are left alone: most are identifiers (run 12345), which no reader groups into thousands. A date is
    written in the reader's zone (`zones.reader_zone`), the zone named. An identifier cited by a
    parameter of a known name (`type`, `port`, `error`, ...) is written as its own name or sentence
    (`cited_name`); a counting key (`plurals.PLURALS`) takes the plural form of its count.
    """
    return _sentence(code, locale, params, cited_name)


NameOf = Callable[[str, object, str, Mapping[str, Any]], "str | None"]


def _sentence(code: str, locale: str, params: Mapping[str, Any], name_of: NameOf) -> str:
    template = (
        _counted(code, locale, params) or catalog(locale).get(code) or catalog(DEFAULT_LOCALE).get(code)
    )
    if template is None:
        return code
    fields = _fields(template)
    shown = {
        name: value if (named := name_of(name, value, locale, params)) is None else named
        for name, value in params.items()
        if name in fields
    }
    count = shown.get(PLURALS.get(code, ""))
    if isinstance(count, int) and not isinstance(count, bool):
        # A count (never an identifier) is grouped as the reader groups numbers: 1.204 Einträge.
        shown[PLURALS[code]] = format_number(count, _formats_locale(locale))
    return fill(template, shown, lambda value: _render(value, locale))


@lru_cache(maxsize=4096)
def _fields(template: str) -> frozenset[str]:
    """A sentence's placeholders, by its text: a page of a journal fills the same few hundreds of times."""
    return placeholders(template)


class Sentences:
    """`message` for many lines in one language (a page of a run's journal): each identifier a line cites
    by a name (`type`, `port`, ...) is looked up once, not once per line.

    One per answer, never kept: it remembers what the catalogs said while it lives.

    Examples:
        >>> say, line = Sentences("de"), {"node": "a", "type": "approval", "visit": 1}
        >>> say("node_visited", **line) == message("node_visited", "de", **line)
        True
    """

    def __init__(self, locale: str) -> None:
        self.locale = locale
        self._names: dict[tuple[str, str], str | None] = {}

    def __call__(self, code: str, /, **params: Any) -> str:
        return _sentence(code, self.locale, params, self._name_of)

    def _name_of(self, param: str, value: object, locale: str, params: Mapping[str, Any]) -> str | None:
        if param in _SENTENCES or not isinstance(value, str):
            return cited_name(param, value, locale, params)  # a cited sentence is filled from the others
        key = (param, value)
        if key not in self._names:
            self._names[key] = cited_name(param, value, locale, params)
        return self._names[key]


def _counted(code: str, locale: str, params: Mapping[str, Any]) -> str | None:
    """The plural form of a counting key for the count among `params`; None for any other key."""
    count = params.get(PLURALS.get(code, ""))
    if not isinstance(count, int) or isinstance(count, bool):
        return None
    if locale == PSEUDO_LOCALE:
        english = plural_form(code, count, DEFAULT_LOCALE)
        return None if english is None else pseudo(english)
    return plural_form(code, count, locale) or plural_form(code, count, DEFAULT_LOCALE)


def catalog_json(locale: str) -> dict[str, str]:
    """The catalog the frontend loads: every English key, with `locale`'s sentence or else the English one.

    Flat and sorted by key; the keys are reason codes and `node_type_*`/`port_*` names, never dotted. A
    counting key is there as itself (its last form) and as i18next's plural keys (`ui_inbox_count_one`,
    `ui_inbox_count_few`, ...), which i18next picks from with `t(key, {count})`.
    """
    english, ours = catalog(DEFAULT_LOCALE), catalog(locale)
    found = {key: ours.get(key) or english[key] for key in english}
    source = po_file(DEFAULT_LOCALE if locale == PSEUDO_LOCALE else locale)
    english_po = po_file(DEFAULT_LOCALE)
    english_forms = {} if english_po is None else plural_forms(english_po)
    forms = {} if source is None else plural_forms(source)
    for key, english_ones in english_forms.items():
        ones = forms.get(key, ())
        if not ones or not all(ones):
            ones, plural_locale = english_ones, DEFAULT_LOCALE
        else:
            plural_locale = DEFAULT_LOCALE if locale == PSEUDO_LOCALE else locale
        if locale == PSEUDO_LOCALE:
            ones = tuple(pseudo(one) for one in ones)
        found.update(i18next_keys(key, ones, plural_locale))
    return dict(sorted(found.items()))


# A parameter of one of these names that holds an identifier is written as the identifier's own name or
# sentence in the reader's language (the first of these keys the catalog has); any other value (a user's
# node id, a number, free text) is written as it is. The identifier itself stays in the machine-readable
# field beside the sentence (`code`, `data`, `detail`).
_CITED: dict[str, tuple[str, ...]] = {
    "type": ("node_type_{}",),
    "kind": ("node_type_{}", "wait_kind_{}", "chain_record_kind_{}"),
    "types": ("value_type_{}",),
    "port": ("port_{}",),
    "on_timeout": ("timeout_rule_{}",),
    "outcome": ("outcome_{}", "port_{}"),
    "state": ("run_status_{}",),
    "status": ("run_status_{}",),
    "right": ("right_name_{}",),
    "error": ("{}",),
    "reason": ("{}",),
    "problem": ("{}",),
    "expected": ("{}",),
    "field": ("ui_field_{}",),
    "keys": ("ui_field_{}",),
}
# The parameters cited as a sentence of their own, filled from the other parameters.
_SENTENCES = frozenset(param for param, patterns in _CITED.items() if "{}" in patterns)
# A node's setting is written as the title its field has in the editor: `ui_field_<key>`, or, for the
# settings whose fields have a title of another name (the editor's hand-made panels, frontend/src/flows/
# findingText.ts MORE_TITLES; a test keeps the two alike), that one. A setting with neither (a key the
# author misspelt) is written as the flow writes it.
SETTING_TITLES: dict[str, str] = {
    "timeout": "ui_event_timeout",
    "keep_early": "ui_event_keep_early",
    "remind_after": "ui_field_reminders",
    "escalate_after": "ui_field_escalate_after",
    "escalate_to": "ui_field_escalate_to_whom",
    "quorum": "ui_field_quorum",
    "record_input": "ui_field_record_input",
    "key": "ui_event_key",
    "events": "ui_event_names",
    "show": "ui_show_legend",
    "reject": "ui_field_reject_rule",
    "wait": "ui_wait_title",
    "undo": "ui_event_undo",
    "token": "ui_people_token_id",
}
_SETTINGS = ("field", "keys")


def cited_name(param: str, value: object, locale: str, params: Mapping[str, Any] | None = None) -> str | None:
    """What a reader sees for an identifier `value` passed as `param`, or None when it is no identifier.

    A code cited as `error` or `reason` is written as its own sentence (filled from the same `params`,
    an ellipsis for any they lack, without its last full stop, since it stands inside another sentence).

    Examples:
        >>> cited_name("type", "approval", "de")
        'Genehmigung'
        >>> cited_name("node", "approval", "de") is None, cited_name("type", "unknown", "de") is None
        (True, True)
    """
    if isinstance(value, tuple) and param in _CITED and param not in _SENTENCES:
        return _listed(tuple(cited_name(param, one, locale) or one for one in value), locale)
    if not isinstance(value, str) or param not in _CITED:
        return None
    if param in _SETTINGS and value in SETTING_TITLES:
        return message(SETTING_TITLES[value], locale)
    english = catalog(DEFAULT_LOCALE)
    for pattern in _CITED[param]:
        key = pattern.format(value)
        if key in english:
            if pattern != "{}":
                # A name has no placeholders: `node_type_unknown` is a sentence, not the type "unknown".
                if placeholders(english[key]):
                    continue
                return message(key, locale)
            inner = {name: v for name, v in (params or {}).items() if name != param}
            return explain(key, locale, **inner).rstrip(".。")
    return None


def explain(code: str, locale: str = DEFAULT_LOCALE, /, **params: Any) -> str:
    """`message`, for a code shown where its details are not at hand (a run's `error`, a wait's last
    error): a detail `params` lacks reads as an ellipsis, never as `{host}`; a `problem` it lacks (the
    walker names the setting it could not use, not why) as the value not having the setting's form.

    Examples:
        >>> explain("database_unreachable", "de")
        'Die Datenbank unter … ist nicht erreichbar.'
    """
    template = catalog(DEFAULT_LOCALE).get(code, "")
    filled = {name: "…" for name in placeholders(template)} | _UNSAID | params
    return message(code, locale, **filled)


# What a cited sentence says for a part its line did not record.
_UNSAID = {"problem": "problem_form"}


def _listed(values: tuple[object, ...], locale: str) -> str:
    """Alternatives as the locale lists them: "a, b, or c", "a, b oder c", "a、b、またはc"."""
    shown = [value if isinstance(value, str) else _render(value, locale) for value in values]
    return format_list(shown, style="or", locale=_formats_locale(locale))


def _formats_locale(locale: str) -> str:
    return DEFAULT_LOCALE if locale == PSEUDO_LOCALE or locale not in LOCALES else locale


def _render(value: object, locale: str) -> str:
    if isinstance(value, str):  # most values are: node ids, codes, names
        return value
    if isinstance(value, AllOf):
        return format_list(list(value), style="standard", locale=_formats_locale(locale))
    if isinstance(value, tuple):
        return _listed(value, locale)
    locale = DEFAULT_LOCALE if locale == PSEUDO_LOCALE else locale
    if isinstance(value, datetime):
        return format_moment(value, locale)
    if isinstance(value, date):
        return format_date(value, format="medium", locale=locale if locale in LOCALES else DEFAULT_LOCALE)
    if isinstance(value, timedelta):
        return format_duration(value, locale)
    if isinstance(value, float | Decimal):
        return format_number(value, locale)
    return str(value)
