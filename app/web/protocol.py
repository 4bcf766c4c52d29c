"""uvicorn's HTTP protocol (httptools) with deadlines for receiving each request.

uvicorn (0.54) closes a kept-alive connection that stays idle after a response
(``timeout_keep_alive``) and answers 503 past ``limit_concurrency`` connections, but it
has no timeout for receiving a request: the keep-alive timer is armed only after a
response and is cancelled by the first byte that arrives, so a connection that sends
nothing, or trickles its headers or its body a byte at a time, is kept for ever. ASGI
middleware cannot help: the app sees a request only once its headers are complete.

So the protocol itself gets two deadlines, as nginx (client_header_timeout,
client_body_timeout) and Go (ReadHeaderTimeout) have them:

- ``header_timeout``: from the connection opening, or from the first byte of the next
  request on a kept-alive one, to the end of that request's headers;
- ``body_timeout``: from the end of the headers to the last byte of the body.

Past either, the connection is closed. Between requests uvicorn's keep-alive timeout
rules, and the app's own time to answer is not limited here.

httptools sets no limit on the size of a request's headers either (a 10 MB header was
read whole and answered 200): past ``max_header_bytes`` the answer is 431 and the
connection is closed. (uvicorn's h11_max_incomplete_event_size does this for h11 only.)
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .security import SECURITY_HEADERS

_TOO_LARGE_BODY = b"request headers too large"
TOO_LARGE = b"".join([
    b"HTTP/1.1 431 Request Header Fields Too Large\r\n",
    b"content-type: text/plain; charset=utf-8\r\n",
    b"content-length: %d\r\n" % len(_TOO_LARGE_BODY),
    b"connection: close\r\n",
    *(f"{name}: {value}\r\n".encode() for name, value in SECURITY_HEADERS.items()),
    b"\r\n",
    _TOO_LARGE_BODY,
])


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    header_timeout: float = 10.0
    body_timeout: float = 20.0
    max_header_bytes: int = 32 * 1024

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._in_headers = True  # the connection's first request is due
        self._received = 0  # bytes read while this request's headers were incomplete
        self._header_size = 0  # its request target and headers as parsed
        self._refused = False

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    def _refuse_too_large(self) -> None:
        self._refused = True  # the parser's callbacks for the rest of this read do nothing
        self._disarm()
        self.transport.write(TOO_LARGE)
        self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(self.header_timeout)

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        if self._deadline is None and (self.cycle is None or self.cycle.response_complete):
            # the next request on a kept-alive connection begins (bare CRLFs included)
            self._arm(self.header_timeout)
        super().data_received(data)
        if self._in_headers and not self._refused and not self.transport.is_closing():
            # headers spread over reads: httptools keeps what it has of them, so count the reads
            self._received += len(data)
            if self._received > self.max_header_bytes:
                self._refuse_too_large()

    def on_message_begin(self) -> None:
        if self._refused:
            return
        super().on_message_begin()
        self._in_headers, self._received, self._header_size = True, 0, 0
        if self._deadline is None:  # a pipelined request, begun while the one before runs
            self._arm(self.header_timeout)

    def on_url(self, url: bytes) -> None:
        if not self._refused:
            super().on_url(url)
            self._header_size += len(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        if not self._refused:
            super().on_header(name, value)
            self._header_size += len(name) + len(value) + 4

    def on_headers_complete(self) -> None:
        if self._refused:
            return
        self._in_headers = False
        if self._header_size > self.max_header_bytes:  # they came in one read
            self._refuse_too_large()
            return
        super().on_headers_complete()
        self._arm(self.body_timeout)

    def on_body(self, body: bytes) -> None:
        if not self._refused:
            super().on_body(body)

    def on_message_complete(self) -> None:
        if self._refused:
            return
        super().on_message_complete()
        self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def guarded_protocol(header_timeout: float, body_timeout: float,
                     max_header_bytes: int) -> type[GuardedHttpToolsProtocol]:
    """The protocol class for uvicorn's ``http=`` with these deadlines (seconds) and limit."""
    return type("GuardedHttpToolsProtocol", (GuardedHttpToolsProtocol,), {
        "header_timeout": header_timeout, "body_timeout": body_timeout, "max_header_bytes": max_header_bytes})
