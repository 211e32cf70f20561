"""What the catalogs lack: the guard test's findings, and a command that prints them for whoever fills them.

`python -m backend.i18n.gaps` prints one line per gap, `locale: key: problem`, and exits 1 when there
is any (0 when every catalog is full). The keys come from the source (`codes.py`, and `ui_keys.py` for
the editor's `ui_` keys in frontend/src) and from the node types
in `backend.node_types.PORTS`, never from a list kept by hand.

A gap is one of:
- a key that is not lower snake case (a dot would split it in the frontend's JSON; a node type or port
  name with a dot is named as such);
- a key with no sentence in a catalog (missing, empty, or fuzzy; a fuzzy entry whose English changed
  says so);
- a translated entry that does not record the English it translates (`stale.py`: `make catalogs` records
  it), or records another English than the current one (the English changed since `make catalogs` ran);
- a sentence identical to the English one, unless the English one is only placeholders (`{message}`) or
  a translator comment on the entry says `same as English` (French "Condition" is French);
- placeholders that differ from the English sentence's, or that are not plain `{name}`;
- for a counting key (`plurals.PLURALS`): an entry that is not a plural entry, a number of forms other
  than the catalog's `Plural-Forms` header says, an empty form, or a form whose placeholders differ.

Examples:
    >>> from babel.messages.catalog import Catalog
    >>> en, de = Catalog(locale="en"), Catalog(locale="de")
    >>> _ = en.add("cycle", "A cycle ({path})."), de.add("cycle", "Ein Zyklus ({pfad}).")
    >>> for gap in find_gaps(["cycle", "trigger_missing"], {"en": en, "de": de}, {"app.wait": ()}):
    ...     print(gap)
    : node_type_app.wait: node type 'app.wait' contains a dot
    de: cycle: placeholders {pfad} differ from the English {path}
    de: trigger_missing: no sentence
    en: trigger_missing: no sentence
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from babel.messages.catalog import Catalog, Message

from backend.i18n.catalogs import plural_forms, po_file, sentences
from backend.i18n.codes import BACKEND_DIR, CODE_PATTERN, Use, node_type_keys, reason_codes
from backend.i18n.locales import DEFAULT_LOCALE, LOCALES
from backend.i18n.placeholders import placeholder_problems, placeholders
from backend.i18n.plurals import PLURALS
from backend.i18n.stale import PREVIOUS, english_digest, english_forms, is_translated, key_of, recorded_digest
from backend.i18n.ui_keys import built_keys, ui_keys
from backend.node_types import PORTS

_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
# A translator comment (`# same as English`) that says an identical sentence is the translation.
SAME_AS_ENGLISH = "same as english"
_RUN = "run make catalogs"


@dataclass(frozen=True, slots=True, order=True)
class Gap:
    """One thing a catalog lacks; `locale` is empty for a fault of the key itself."""

    locale: str
    key: str
    problem: str

    def __str__(self) -> str:
        return f"{self.locale}: {self.key}: {self.problem}"


def required_keys() -> dict[str, list[Use]]:
    """Every key a catalog must have, with where the source uses it (none for node types and ports)."""
    keys: dict[str, list[Use]] = {key: [] for key in node_type_keys(PORTS)}
    keys.update(reason_codes(BACKEND_DIR))
    keys.update(ui_keys())
    return dict(sorted(keys.items()))


def gaps() -> list[Gap]:
    """The gaps of the catalogs under locales/ against the source under backend/ and frontend/src."""
    catalogs = {locale: po_file(locale) for locale in LOCALES}
    found = find_gaps(required_keys(), catalogs, PORTS) + stale_gaps(catalogs)
    found += [Gap("", where, "a ui_ key built at run time: write the key out") for where in built_keys()]
    return sorted(found)


def find_gaps(
    keys: Iterable[str], catalogs: Mapping[str, Catalog | None], node_types: Mapping[str, Iterable[str]]
) -> list[Gap]:
    """The gaps of `catalogs` (by locale; English among them) for `keys`, sorted by locale and key."""
    found = [
        Gap("", f"node_type_{name}", f"node type {name!r} contains a dot")
        for name in node_types
        if "." in name
    ]
    found += [
        Gap("", f"port_{port}", f"port {port!r} contains a dot")
        for ports in node_types.values()
        for port in ports
        if "." in port
    ]
    keys = sorted(set(keys))
    found += [
        Gap("", key, "is not a reason code: lower snake case, no dots")
        for key in keys
        if not CODE_PATTERN.match(key)
    ]
    english_po = catalogs.get(DEFAULT_LOCALE)
    english = {} if english_po is None else sentences(english_po)
    for locale, po in catalogs.items():
        if po is None:
            found.append(Gap(locale, "", "no catalog file"))
            continue
        translated, fuzzy = sentences(po), {key_of(m): _fuzzy_problem(m) for m in po if m.id and m.fuzzy}
        same = {str(m.id) for m in po if m.id and any(SAME_AS_ENGLISH in c.lower() for c in m.user_comments)}
        for key in keys:
            english_here = None if key in same else english.get(key)
            sentence, problem = translated.get(key), fuzzy.get(key)
            found += _gaps_of(locale, key, sentence, english_here, english.get(key), problem)
        found += _plural_gaps(locale, po, [key for key in keys if key in PLURALS], english)
    return sorted(found)


def _plural_gaps(locale: str, po: Catalog, keys: Iterable[str], english: Mapping[str, str]) -> list[Gap]:
    """The gaps of the counting keys' plural entries in one catalog (a missing sentence is found above)."""
    forms, found = plural_forms(po), []
    for key in keys:
        if key not in forms:
            if po.get(key) is not None:
                found.append(Gap(locale, key, "counts things, but is not a plural entry (msgid_plural)"))
            continue
        ones = forms[key]
        if len(ones) != po.num_plurals:
            found.append(
                Gap(locale, key, f"has {len(ones)} plural forms; Plural-Forms says {po.num_plurals}")
            )
        theirs = placeholders(english.get(key, ""))
        for index, form in enumerate(ones):
            if not form:
                found.append(Gap(locale, key, f"plural form {index} is empty"))
            elif key in english and placeholders(form) != theirs:
                shown = f"placeholders {_shown(placeholders(form))} differ from the English {_shown(theirs)}"
                found.append(Gap(locale, key, f"plural form {index}: {shown}"))
    return found


def _gaps_of(
    locale: str, key: str, sentence: str | None, copy_of: str | None, english: str | None, fuzzy: str | None
) -> list[Gap]:
    """The gaps of one entry; `copy_of` is the English sentence it must differ from, or None; `fuzzy`
    the problem of a fuzzy entry."""
    if not sentence:
        return [Gap(locale, key, fuzzy or "no sentence")]
    problems = [
        Gap(locale, key, f"placeholder {bad} is not a plain {{name}}")
        for bad in placeholder_problems(sentence)
    ]
    if locale == DEFAULT_LOCALE or english is None:
        return problems
    if sentence == copy_of and re.search(r"\w", _PLACEHOLDER.sub("", copy_of)):
        problems.append(Gap(locale, key, "is the English sentence, not a translation"))
    ours, theirs = placeholders(sentence), placeholders(english)
    if ours != theirs:
        problems.append(
            Gap(locale, key, f"placeholders {_shown(ours)} differ from the English {_shown(theirs)}")
        )
    return problems


def _fuzzy_problem(message: Message) -> str:
    if any(comment.startswith(PREVIOUS) for comment in message.user_comments):
        return "only a fuzzy sentence: its English changed; review it, then clear fuzzy"
    return "only a fuzzy sentence"


def stale_gaps(catalogs: Mapping[str, Catalog | None]) -> list[Gap]:
    """The translated entries of the catalogs other than English that do not record the digest of the
    current English sentence (`stale.py`); an entry without an English sentence is found above."""
    english_po = catalogs.get(DEFAULT_LOCALE)
    english = {} if english_po is None else english_forms(english_po)
    found = []
    for locale, po in catalogs.items():
        if locale == DEFAULT_LOCALE or po is None:
            continue
        for message in po:
            key = key_of(message)
            if not is_translated(message) or key not in english:
                continue
            recorded = recorded_digest(message.user_comments)
            if recorded is None:
                found.append(Gap(locale, key, f"does not record the English it translates: {_RUN}"))
            elif recorded != english_digest(english[key]):
                found.append(Gap(locale, key, f"translates an English sentence that changed: {_RUN}"))
    return found


def _shown(names: Iterable[str]) -> str:
    return " ".join(f"{{{name}}}" for name in sorted(names)) or "(none)"


def main() -> int:
    """Print every gap, with where the source uses a code that English lacks; 1 when there is any."""
    keys = required_keys()
    found = gaps()
    for gap in found:
        uses = keys.get(gap.key, []) if gap.locale == DEFAULT_LOCALE else []
        where = f" (used at {', '.join(f'{u.path}:{u.line}' for u in uses[:3])})" if uses else ""
        print(f"{gap}{where}")
    print(f"{len(found)} gaps in {len(keys)} keys x {len(LOCALES)} locales", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
