"""One outbound HTTP exchange, guarded: every hop's addresses checked, the connection pinned to them.

httpx is asked for one hop at a time. Redirects are followed here, not by httpx, so that each `Location`
is resolved and checked like the first URL. A hop's request goes to a checked IP address with the URL's
host kept in the `Host` header and, for https, in SNI (and so in certificate verification); no
connection is reused across hops, since a pooled connection is keyed by the IP alone and would carry the
first host's TLS session to a second host on the same address. `trust_env=False`: a proxy from the
environment would make its own DNS lookups, past the check.

Examples:
    >>> parse_body(b'{"ok": true}', "application/json; charset=utf-8"), parse_body(b"hi", "text/plain")
    ({'ok': True}, 'hi')
    >>> parse_body(b"{broken", "application/problem+json")
    '{broken'
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import ssl
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import httpx

from backend.actions.destinations import Destinations
from backend.actions.failures import ActionFailure
from backend.actions.shown import pairs_of, shown_after, told, told_answer
from backend.walker.redact import is_credential_name

log = logging.getLogger(__name__)

REDIRECTS = frozenset({301, 302, 303, 307, 308})
# Headers that never follow a redirect to another origin, besides those a secret went into and those
# named like a credential (backend/walker/redact.py).
_CREDENTIALS = frozenset({"authorization", "proxy-authorization", "cookie"})
USER_AGENT = "flowyard/0.1"


@dataclass(frozen=True, slots=True)
class Exchange:
    """What to send; `follow` is how many redirects to follow, None to hand a 3xx back as it is.

    `shown_url` is the URL as the flow wrote it when a secret went into `url`: what the answer and every
    failure report in its place (backend/actions/shown.py). `secret_headers` are the (lower-case) names
    of the headers a secret went into: like `Authorization`, they stay behind at a redirect to another
    origin.
    """

    method: str
    url: str
    headers: Mapping[str, str]
    content: bytes | None
    timeout_s: float
    follow: int | None
    shown_url: str | None = None
    secret_headers: frozenset[str] = frozenset()
    # How long past `timeout_s` an answer is still listened for, to be kept as late (0: not at all).
    late_s: float = 0.0


# Told of an answer that came after the exchange was given up at its timeout.
LateAnswer = Callable[["Answer"], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    headers: dict[str, str]
    body: Any
    url: str

    def output(self) -> dict[str, Any]:
        return {"status": self.status, "headers": self.headers, "body": self.body, "url": self.url}


@functools.cache
def shared_tls() -> ssl.SSLContext:
    """The process's one verifying TLS context. Loading the CA bundle costs tens of milliseconds (more on
    a loaded machine): once per process, not per sender (`serve` has the API's and the worker's, a test
    makes hundreds), and a process forked after the first call inherits it loaded."""
    return httpx.create_ssl_context()


class HttpSender:
    def __init__(self, destinations: Destinations, max_response_bytes: int) -> None:
        self.destinations = destinations
        self.max_response_bytes = max_response_bytes
        self.tls = shared_tls()

    async def send(self, exchange: Exchange, late: LateAnswer | None = None) -> Answer:
        """The final answer, whatever its status; ActionFailure when there is none to give.

        At its timeout the exchange is given up (`action_timeout`). With `late` and `exchange.late_s`, the
        request is not dropped then: it is listened to for `late_s` more in a task of its own, and an
        answer that comes meanwhile is handed to `late` (which must not raise); the caller goes on at once.
        """
        if late is None or exchange.late_s <= 0:
            try:
                async with asyncio.timeout(exchange.timeout_s):
                    return await self._send(exchange)
            except (TimeoutError, httpx.TimeoutException):
                raise ActionFailure(code="action_timeout", timeout_s=exchange.timeout_s) from None
        task = asyncio.ensure_future(self._send(exchange))
        try:
            return await asyncio.wait_for(asyncio.shield(task), exchange.timeout_s)
        except (TimeoutError, httpx.TimeoutException):
            if not task.done():  # still in flight: listened to a while longer, in a task of its own
                listener = asyncio.ensure_future(_listen(task, exchange.late_s, late))
                _listening.add(listener)
                listener.add_done_callback(_listening.discard)
            raise ActionFailure(code="action_timeout", timeout_s=exchange.timeout_s) from None
        except BaseException:
            task.cancel()
            raise

    async def _send(self, exchange: Exchange) -> Answer:
        method, content, shown = exchange.method, exchange.content, exchange.shown_url
        pairs = () if shown is None else pairs_of(exchange.url, None, shown)
        try:
            url = _url(exchange.url)
        except ActionFailure as failure:
            raise told(failure, pairs) from None
        headers = {"User-Agent": USER_AGENT, **exchange.headers}
        limits = httpx.Limits(max_keepalive_connections=0)
        # httpx's own default (5 s per phase) would cut in before the action's timeout and say
        # "connection failed"; the action's timeout bounds each phase here and the whole exchange above.
        client = httpx.AsyncClient(
            trust_env=False,
            follow_redirects=False,
            limits=limits,
            verify=self.tls,
            timeout=httpx.Timeout(exchange.timeout_s + exchange.late_s),
        )
        async with client:
            redirects = 0
            while True:
                # A hop whose URL a secret went into is reported by the URL as written, its words too.
                pairs = () if shown is None else pairs_of(exchange.url, url, shown)
                try:
                    status, answer_headers, body = await self._hop(client, method, url, headers, content)
                    location = answer_headers.get("location")
                    if status not in REDIRECTS or location is None or exchange.follow is None:
                        if shown is not None:
                            answer_headers = told_answer(answer_headers, pairs)
                        return Answer(status, answer_headers, body, str(url) if shown is None else shown)
                    if redirects == exchange.follow:
                        raise ActionFailure(code="http_redirects_exceeded", limit=exchange.follow)
                    redirects += 1
                    target = _url(str(url.join(location)))
                except ActionFailure as failure:
                    raise told(failure, pairs) from None
                shown = shown_after(shown, location)
                if (status == 303 and method != "HEAD") or (status in (301, 302) and method == "POST"):
                    method, content = "GET", None  # what browsers do, and what servers expect of them
                    headers = {k: v for k, v in headers.items() if k.lower() != "content-type"}
                if (target.scheme, target.host, target.port) != (url.scheme, url.host, url.port):
                    # Credentials meant for one origin are not handed to another.
                    secret = exchange.secret_headers
                    headers = {k: v for k, v in headers.items() if not _credential(k, secret)}
                url = target

    async def _hop(
        self,
        client: httpx.AsyncClient,
        method: str,
        url: httpx.URL,
        headers: Mapping[str, str],
        content: bytes | None,
    ) -> tuple[int, dict[str, str], Any]:
        host = url.raw_host.decode("ascii")
        addresses = await self.destinations.addresses(
            host, url.port or (443 if url.scheme == "https" else 80)
        )
        failures = []
        for address in addresses:
            request = client.build_request(
                method,
                url.copy_with(host=str(address)),
                headers={**headers, "Host": url.netloc.decode("ascii")},
                content=content,
                extensions={"sni_hostname": host} if url.scheme == "https" else {},
            )
            try:
                response = await client.send(request, stream=True)
            except httpx.TimeoutException:
                raise  # the action's timeout: send() says so
            except httpx.ConnectError as exc:
                failures.append(f"{address}: {exc}")  # nothing left: the next address may answer
                continue
            except httpx.TransportError as exc:
                raise ActionFailure(code="action_connection_failed", host=host, detail=str(exc)) from None
            try:
                raw = await self._read(response)
            except httpx.TimeoutException:
                raise
            except httpx.TransportError as exc:
                raise ActionFailure(code="action_connection_failed", host=host, detail=str(exc)) from None
            finally:
                await response.aclose()
            answer_headers = {
                name.lower(): ", ".join(response.headers.get_list(name)) for name in response.headers
            }
            return (
                response.status_code,
                answer_headers,
                parse_body(raw, response.headers.get("content-type", "")),
            )
        raise ActionFailure(code="action_connection_failed", host=host, detail="; ".join(failures))

    async def _read(self, response: httpx.Response) -> bytes:
        """The body, decoded from its transfer encoding; refused past the cap, before it is all read."""
        limit = self.max_response_bytes
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            raise ActionFailure(code="http_response_too_large", limit=limit, status=response.status_code)
        chunks, size = [], 0
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if size > limit:
                raise ActionFailure(code="http_response_too_large", limit=limit, status=response.status_code)
            chunks.append(chunk)
        return b"".join(chunks)


# Exchanges given up at their timeout and still listened to (a reference keeps each task alive).
_listening: set[asyncio.Future[None]] = set()


async def _listen(task: asyncio.Future[Answer], late_s: float, late: LateAnswer) -> None:
    """Wait `late_s` more for a given-up exchange; hand its answer, if one comes, to `late`."""
    try:
        answer = await asyncio.wait_for(task, late_s)
    except (TimeoutError, httpx.TimeoutException, ActionFailure, httpx.TransportError):
        return  # no answer within the listening time, or none to keep: dropped, as before
    except Exception:
        log.exception("a late answer could not be read")
        return
    try:
        await late(answer)
    except Exception:
        log.exception("a late answer could not be kept")


async def listening_done() -> None:
    """Wait for every exchange still listened to (a worker's shutdown, tests)."""
    while _listening:
        await asyncio.gather(*list(_listening), return_exceptions=True)


def _credential(name: str, secret_headers: frozenset[str]) -> bool:
    """Whether a header stays behind at a redirect to another origin.

    Examples:
        >>> names = ("Cookie", "X-Upstream", "X-Api-Key", "Accept")
        >>> [_credential(name, frozenset({"x-upstream"})) for name in names]
        [True, True, True, False]
    """
    lowered = name.lower()
    return lowered in _CREDENTIALS or lowered in secret_headers or is_credential_name(name)


def parse_body(raw: bytes, content_type: str) -> Any:
    """JSON when the response says it is JSON and it parses; text otherwise."""
    text = raw.decode(_charset(content_type), errors="replace")
    media = content_type.split(";")[0].strip().lower()
    if media == "application/json" or media.endswith("+json"):
        try:
            return json.loads(text)
        except ValueError:
            pass
    return text


def _charset(content_type: str) -> str:
    for parameter in content_type.split(";")[1:]:
        name, _, value = parameter.strip().partition("=")
        if name.lower() == "charset" and value:
            try:
                "".encode(value.strip('"'))
            except LookupError:
                break
            return value.strip('"')
    return "utf-8"


def _url(text: str) -> httpx.URL:
    try:
        url = httpx.URL(text)
    except (httpx.InvalidURL, TypeError):
        raise ActionFailure(code="action_url_invalid", url=text) from None
    if url.scheme not in ("http", "https") or not url.host:
        raise ActionFailure(code="action_url_invalid", url=text)
    return url
