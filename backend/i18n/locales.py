"""The nine locales we ship, and which of them a reader gets.

The reader's own setting wins when it names one of ours; then the languages of `Accept-Language`, best
q-value first, matched with Babel's `negotiate_locale`; then English. A regional tag matches its
language (`de-CH` reads `de`, `ja-JP` reads `ja`), and a language we ship only one region of matches
that region (`pt` and `pt-PT` read `pt_BR`): a reader of European Portuguese would rather read Brazilian
Portuguese than English.

Examples:
    >>> negotiate("de-CH,de;q=0.9,en;q=0.8")
    'de'
    >>> negotiate("pt-BR"), negotiate("pt"), negotiate("ja-JP")
    ('pt_BR', 'pt_BR', 'ja')
    >>> negotiate("fr;q=0.5, nl", user_locale=None)
    'nl'
    >>> negotiate("fr", user_locale="pl")
    'pl'
    >>> negotiate("zh-TW, *;q=0.1")
    'en'
    >>> negotiate("en-XA"), negotiate("de, en-XA")
    ('en_XA', 'de')
"""

from __future__ import annotations

from collections.abc import Iterable

from babel.core import negotiate_locale

from backend.i18n.pseudo import PSEUDO_LOCALE

LOCALES: tuple[str, ...] = ("en", "de", "fr", "es", "it", "nl", "pl", "pt_BR", "ja")
DEFAULT_LOCALE = "en"

# Babel's default aliases send `pt` to pt_PT; we ship Brazilian Portuguese. Every other language of ours
# is matched by its own name.
_ALIASES = {"pt": "pt_BR"}
_CANONICAL = {locale.lower(): locale for locale in LOCALES}


def negotiate(accept_language: str | None, user_locale: str | None = None) -> str:
    """The locale to answer in: the user's setting if it is ours, else the best of the header, else en."""
    for preferred in ([user_locale] if user_locale else [], accept_language_tags(accept_language)):
        if preferred and preferred[0].replace("-", "_").lower() == PSEUDO_LOCALE.lower():
            return PSEUDO_LOCALE  # asked for by name, first: never matched as a kind of English
        found = _match(preferred)
        if found is not None:
            return found
    return DEFAULT_LOCALE


def accept_language_tags(header: str | None) -> list[str]:
    """The language tags of an `Accept-Language` header, best first; a tag with q=0 is refused, so left out.

    Tags of equal quality keep the order of the header. A q-value that is not a number counts as 0: the
    client said something we cannot read, and English is a safer answer than a guess.

    Examples:
        >>> accept_language_tags("en;q=0.5, de-DE, fr;q=0.8, ja;q=0, it;q=x")
        ['de-DE', 'fr', 'en']
        >>> accept_language_tags(None)
        []
    """
    ranked: list[tuple[float, int, str]] = []
    for position, item in enumerate((header or "").split(",")):
        tag, _, parameters = item.partition(";")
        tag = tag.strip()
        quality = 1.0
        for parameter in parameters.split(";"):
            name, _, value = parameter.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if tag and 0 < quality <= 1:  # NaN fails both comparisons
            ranked.append((-quality, position, tag))
    return [tag for _, _, tag in sorted(ranked)]


def _match(tags: Iterable[str]) -> str | None:
    candidates: list[str] = []
    for tag in tags:
        tag = tag.strip().replace("-", "_")
        # The bare language after the full tag, so that `pt_PT` reaches the alias of `pt`.
        candidates += [tag, tag.split("_")[0]]
    found = negotiate_locale(candidates, LOCALES, sep="_", aliases=_ALIASES)
    return None if found is None else _CANONICAL.get(found.lower())
