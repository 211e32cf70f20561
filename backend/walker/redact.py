"""Credentials out of what the effects table, the journal and a node's output keep.

The first net is the secret store: a flow names `{{secrets.NAME}}` and its value is never rendered into
anything kept (backend/walker/secret_refs.py), and the sender replaces any secret's value it finds in an
output. This module is the second net, for credentials written into a flow or returned by a server:

- headers whose name suggests a credential (`Authorization`, `X-Api-Key`, `X-Upstream-Sig`, ...);
- a URL's user-info (a password, or a user name alone, which is often a token), query parameters named
  like a credential (`token`, `pw`, `sig`, `X-Amz-Signature`, ...), and a URL that cannot be parsed
  (kept whole it could hold anything);
- fields of a JSON body named like a credential (`password`, `client_secret`, `token`, ...), however deep.

The request digest is taken before redaction, so two requests that differ only in a secret still differ.

Examples:
    >>> redact_headers({"Authorization": "Bearer s3cr3t", "X-Upstream-Sig": "k", "Accept": "text/plain"})
    {'Authorization': '[redacted]', 'X-Upstream-Sig': '[redacted]', 'Accept': 'text/plain'}
    >>> redact_url("https://ann:pw@api.example/v1?token=abc&page=2")
    'https://ann:[redacted]@api.example/v1?token=%5Bredacted%5D&page=2'
    >>> redact_url("https://ghp_abc@git.example/x?pw=1&sig=2")
    'https://[redacted]@git.example/x?pw=%5Bredacted%5D&sig=%5Bredacted%5D'
    >>> redact_url("http://[::1/?token=x")
    '[redacted]'
    >>> redact_body({"user": "ann", "auth": {"password": "p", "otp": "1"}, "items": [{"api_key": "k"}]})
    {'user': 'ann', 'auth': '[redacted]', 'items': [{'api_key': '[redacted]'}]}
"""

from __future__ import annotations

import encodings.idna
import json
import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any
from urllib.parse import parse_qsl, quote, quote_plus, urlencode, urlsplit, urlunsplit

REDACTED = "[redacted]"
# The shortest side of a secret split at its `@` that is still redacted on its own.
MIN_SIDE = 6
# What an approver sees in place of a credential-like value (backend/walker/shown.py).
MASK = "••••"
# A name is split into words at `-`, `_`, `.` and case changes; any word below marks a credential.
# `Idempotency-Key` names a key but is ours and harmless.
_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_CREDENTIAL_WORDS = frozenset(
    {
        "auth",
        "authorization",
        "authentication",
        "bearer",
        "token",
        "tokens",
        "secret",
        "secrets",
        "password",
        "passwd",
        "passphrase",
        "pass",
        "pw",
        "pwd",
        "pin",
        "key",
        "keys",
        "apikey",
        "sig",
        "sign",
        "signature",
        "signed",
        "hmac",
        "cookie",
        "session",
        "sid",
        "credential",
        "credentials",
        "cred",
        "creds",
        "jwt",
        "otp",
        "totp",
        "csrf",
        "xsrf",
    }
)
_HARMLESS = frozenset({"idempotency-key"})


@lru_cache(maxsize=4096)
def is_credential_name(name: str, *, field: bool = False) -> bool:
    """Whether a header, a query parameter or (`field`) a JSON field is named like a credential.

    A JSON field named just `key` is most often an identifier (a ticket's `PROJ-12`), so a field needs a
    word before `key` (`api_key`, `private_key`) where a header or a parameter does not.

    Examples:
        >>> [is_credential_name(n) for n in ("X-Api-Key", "apiKey", "client_secret", "pw", "page", "keyword")]
        [True, True, True, True, False, False]
        >>> is_credential_name("key", field=True), is_credential_name("signing_key", field=True)
        (False, True)

    Cached: the records of a response repeat the same few field names thousands of times.
    """
    lowered = name.lower()
    if lowered in _HARMLESS:
        return False
    if any(word in lowered for word in ("passw", "secret", "token", "apikey", "api_key", "api-key")):
        return True
    words = [word.lower() for word in _WORDS.findall(name)]
    if field and words in (["key"], ["keys"]):
        return False
    return any(word in _CREDENTIAL_WORDS for word in words)


def redact_headers(headers: Mapping[str, Any]) -> dict[str, Any]:
    return {name: REDACTED if is_credential_name(str(name)) else value for name, value in headers.items()}


def redact_url(url: Any) -> Any:
    """The URL without user-info secrets or credential-named query values; unparseable: all of it."""
    if not isinstance(url, str):
        return url
    try:
        parts = urlsplit(url)
        password, user = parts.password, parts.username
        parts.port  # noqa: B018 - a bad port raises here; such a URL is not kept
    except ValueError:
        return REDACTED
    netloc = parts.netloc
    if "@" in netloc:
        host = netloc.rpartition("@")[2]
        netloc = f"{user}:{REDACTED}@{host}" if password is not None and user else f"{REDACTED}@{host}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        if any(is_credential_name(name) for name, _ in pairs):
            query = urlencode([(n, REDACTED if is_credential_name(n) else v) for n, v in pairs])
    fragment = REDACTED if "=" in parts.fragment else parts.fragment  # OAuth implicit: #access_token=...
    return urlunsplit((parts.scheme, netloc, parts.path, query, fragment))


def redact_body(body: Any) -> Any:
    """A JSON value with every field named like a credential replaced, at any depth (no recursion)."""
    # dict and list, not the ABCs: bodies are parsed JSON, and an ABC check costs more than the copy.
    if not isinstance(body, dict | list):
        return body
    root: Any = {} if isinstance(body, dict) else []
    stack: list[tuple[Any, Any]] = [(body, root)]
    while stack:
        source, target = stack.pop()
        is_object = isinstance(source, dict)
        entries = source.items() if is_object else enumerate(source)
        for key, value in entries:
            kept: Any
            if is_object and is_credential_name(str(key), field=True):
                kept = REDACTED
            elif isinstance(value, dict | list):
                kept = {} if isinstance(value, dict) else []
                stack.append((value, kept))
            else:
                kept = value
            if isinstance(target, list):
                target.append(kept)
            else:
                target[key] = kept
    return root


def redact_values(value: Any) -> Any:
    """Data shown to people (a run's variables) with every value under a credential-like key redacted.

    Examples:
        >>> redact_values({"invoice": "A-7", "api": {"token": "t", "page": 2}, "rows": [{"password": "p"}]})
        {'invoice': 'A-7', 'api': {'token': '[redacted]', 'page': 2}, 'rows': [{'password': '[redacted]'}]}
    """
    return mask_credentials(value, REDACTED)[0]


def mask_credentials(value: Any, mark: str = MASK) -> tuple[Any, bool]:
    """A copy of `value` with every value under a credential-like key replaced by `mark`, and whether
    any was (an approval's shown values say so to the approver).

    Examples:
        >>> mask_credentials({"amount": 12, "bank": {"api_key": "k"}})
        ({'amount': 12, 'bank': {'api_key': '••••'}}, True)
        >>> mask_credentials(["a", {"key": "PROJ-1"}])
        (['a', {'key': 'PROJ-1'}], False)
    """
    # Iterative, as every traversal here: a deep document must not reach Python's recursion limit.
    masked = False
    root: list[Any] = [value]
    stack: list[tuple[Any, Any, Any]] = [(root, 0, value)]
    while stack:
        parent, slot, item = stack.pop()
        if isinstance(item, Mapping):
            copy: dict[str, Any] = {}
            parent[slot] = copy
            for name, inner in item.items():
                if isinstance(name, str) and is_credential_name(name, field=True):
                    copy[name] = mark
                    masked = True
                else:
                    copy[name] = inner
                    stack.append((copy, name, inner))
        elif isinstance(item, list):
            items = list(item)
            parent[slot] = items
            stack.extend((items, index, inner) for index, inner in enumerate(item))
    return root[0], masked


def redact_request(action_type: str, config: Mapping[str, Any]) -> dict[str, Any]:
    """A rendered action config as the effects table and the journal keep it."""
    kept = dict(config)
    if "headers" in kept and isinstance(kept["headers"], Mapping):
        kept["headers"] = redact_headers(kept["headers"])
    if "body" in kept:
        kept["body"] = redact_body(kept["body"])
    if action_type == "http" or (action_type == "notify" and kept.get("channel") == "webhook"):
        field = "url" if action_type == "http" else "to"
        kept[field] = redact_url(kept.get(field))
    return kept


def redact_output(output: Mapping[str, Any], values: frozenset[str] = frozenset()) -> dict[str, Any]:
    """An action's output (or error output) as kept: credentials out, and any of `values` (the secrets
    the request used) replaced wherever it appears, in any string at any depth.

    Examples:
        >>> output = {"url": "https://u:p@h.example/", "body": {"echo": "key k-1 sent"}}
        >>> redact_output(output, frozenset({"k-1"}))
        {'url': 'https://u:[redacted]@h.example/', 'body': {'echo': 'key [redacted] sent'}}
    """
    kept = dict(output)
    if "url" in kept:
        kept["url"] = redact_url(kept["url"])
    if "headers" in kept and isinstance(kept["headers"], Mapping):
        kept["headers"] = redact_headers(kept["headers"])
    if "body" in kept:
        kept["body"] = redact_body(kept["body"])
    return _replace_values(kept, values) if values else kept


def spellings(secret: str) -> set[str]:
    r"""The forms a secret takes where an action quotes it: as given, as Python's repr quotes it (an HTTP
    library's error about a header), percent-encoded (a URL that was sent), case-folded and IDNA-encoded
    (a host name, as a URL library writes it), and each side of an `@` (a URL parser reads the text before
    it as user-info and the rest as the host). A secret that is a whole URL (a chat webhook's) is also
    its path and query on their own, the part that holds its token, which a server's "no route for ..."
    quotes. Matched regardless of case.

    A side shorter than MIN_SIDE characters is left out: every such word in an output would go with it.

    Examples:
        >>> "line\\nbreak" in spellings("line\nbreak"), "p%C3%A4ss" in spellings("päss")
        (True, True)
        >>> "xn--bcher-kva.example" in spellings("Bücher.Example"), "strasse" in spellings("Straße")
        (True, True)
        >>> sorted(s for s in spellings("ann@S3cr3tTail") if "@" not in s and "%" not in s)
        ['S3cr3tTail', 's3cr3ttail']
        >>> "sixsix" in spellings("sixsix@host.example"), "fivef" in spellings("fivef@host.example")
        (True, False)
    """
    forms = {secret, *_url_tail(secret)}
    for side in secret.split("@"):  # without an `@`, the secret itself
        if len(side) >= MIN_SIDE:
            forms.add(side)
    found: set[str] = set()
    for form in forms:
        found |= {
            form,
            form.casefold(),
            repr(form)[1:-1],
            repr(form.encode())[2:-1],
            quote(form, safe=""),
            quote(form, safe="/:@!$&'()*+,;="),
            quote_plus(form),
        }
        found |= _idna(form)
    return found


def _url_tail(secret: str) -> set[str]:
    """The path (and query) of a secret that is an absolute URL, when long enough to tell apart.

    Examples:
        >>> sorted(_url_tail("https://hooks.example/services/T0/B0/XyZ?v=2"))
        ['/services/T0/B0/XyZ', '/services/T0/B0/XyZ?v=2']
        >>> sorted(_url_tail("https://hooks.example/services/T0/B0/XyZ"))
        ['/services/T0/B0/XyZ']
        >>> _url_tail("https://hooks.example/"), _url_tail("not a url")
        (set(), set())
        >>> _url_tail("https://h.example/abcdef"), _url_tail("https://h.example/abcde/")
        ({'/abcdef'}, set())

    A text with a scheme but no host, or a host but no scheme, is no absolute URL:

        >>> _url_tail("key:abcdefghijkl"), _url_tail("//hooks.example/services/T0")
        (set(), set())
    """
    try:
        parts = urlsplit(secret)
    except ValueError:
        return set()
    if not (parts.scheme and parts.netloc):
        return set()
    tails = {parts.path, f"{parts.path}?{parts.query}" if parts.query else parts.path}
    return {tail for tail in tails if len(tail.strip("/")) >= MIN_SIDE}


def _idna(text: str) -> set[str]:
    """A host name's ASCII form as a URL library writes it: case-folded, each label IDNA-encoded;
    nothing when the text cannot be a host name."""
    try:
        # The codec `str.encode("idna")` looks up; its bytes are ASCII.
        return {encodings.idna.Codec().encode(text.casefold())[0].decode()}
    except UnicodeError:
        return set()


def replace_texts(value: Any, pairs: Sequence[tuple[str, str]]) -> Any:
    """A copy of `value` with each pair's first text replaced by its second, regardless of case, in every
    string (and object key) at any depth; `value` itself when no string holds any of them.

    Examples:
        >>> replace_texts({"host": "Hooks.Example", "n": 1}, [("hooks.example", "{{secrets.hook}}")])
        {'host': '{{secrets.hook}}', 'n': 1}
    """
    wanted = {old.lower(): new for old, new in pairs if old}
    olds = sorted({old for old, _new in pairs if old}, key=len, reverse=True)
    if not olds:
        return value
    # Longest first, so that a text containing another is replaced whole.
    pattern = re.compile("|".join(re.escape(old) for old in olds), re.IGNORECASE)
    if not _mentions(value, pattern, olds):
        return value
    fallback = pairs[0][1]

    def scrub(text: str) -> str:
        return pattern.sub(lambda found: wanted.get(found.group(0).lower(), fallback), text)

    return _scrubbed_copy(value, scrub)


def _mentions(value: Any, pattern: re.Pattern[str], olds: list[str]) -> bool:
    """Whether any string of `value` may hold one of the texts: most outputs hold none of them, and one
    look at the JSON text (where a text with a quote or a backslash appears escaped) spares copying the
    whole output."""
    escaped = {json.dumps(old, ensure_ascii=False)[1:-1] for old in olds} - set(olds)
    text = json.dumps(value, ensure_ascii=False, default=str)
    return pattern.search(text) is not None or any(_holds(text, form) for form in escaped)


def _scrubbed_copy(value: Any, scrub: Callable[[str], str]) -> Any:
    """A copy of `value` with `scrub` applied to every string and object key at any depth; the objects and
    lists are copied with an explicit stack, so a deep value cannot reach the recursion limit."""
    root: Any = {"v": value}
    stack: list[Any] = [root]
    while stack:
        container = stack.pop()
        keys = list(container.keys()) if isinstance(container, dict) else range(len(container))
        for key in keys:
            item = container[key]
            if isinstance(item, str):
                container[key] = scrub(item)
            elif isinstance(item, dict | list):
                item = dict(item) if isinstance(item, dict) else list(item)
                container[key] = item
                stack.append(item)
        if isinstance(container, dict):
            for key in [k for k in container if isinstance(k, str) and scrub(k) != k]:
                container[scrub(key)] = container.pop(key)
    return root["v"]


def _holds(text: str, form: str) -> bool:
    return re.search(re.escape(form), text, re.IGNORECASE) is not None


def _replace_values(value: Any, secrets: frozenset[str]) -> Any:
    return replace_texts(value, [(form, REDACTED) for s in secrets if s for form in spellings(s)])
