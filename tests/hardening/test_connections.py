"""Slow and idle clients against a real `tretten serve`: a connection that sends nothing, trickles
its headers or its body, or idles after a response is closed within the configured time, and
headers past MAX_HEADER_BYTES are 431, and past MAX_CONNECTIONS requests get 503 (app/web/protocol.py,
app/web/serve.py)."""

from __future__ import annotations

import socket
import time

import httpx
import pytest

from .servers import Server, migrated

HEADER, BODY, KEEP_ALIVE = 1.0, 1.5, 1
SLACK = 2.5  # a busy 2-core machine may be late to close; it may never be early


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    data_dir = tmp_path_factory.mktemp("connections")
    url = f"sqlite:///{data_dir / 'connections.sqlite3'}"
    migrated(url, data_dir)
    with Server(url, data_dir, cli=True, HEADER_TIMEOUT=str(HEADER), BODY_TIMEOUT=str(BODY),
                KEEP_ALIVE_TIMEOUT=str(KEEP_ALIVE), MAX_CONNECTIONS="4") as running:
        yield running


def connect(server) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    sock.settimeout(0.05)
    return sock


def closed_after(sock: socket.socket, started: float, trickle: bytes = b"", every: float = 0.2,
                 limit: float = 10) -> tuple[float, bytes]:
    """Seconds from `started` until the server closes `sock` (sending `trickle` a byte at a
    time meanwhile), and what it sent before closing."""
    received = b""
    next_byte = time.monotonic()
    while time.monotonic() - started < limit:
        if trickle and time.monotonic() >= next_byte:
            try:
                sock.sendall(trickle[:1])
            except (BrokenPipeError, ConnectionResetError):
                return time.monotonic() - started, received
            trickle = trickle[1:] or b"x"
            next_byte += every
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            continue
        except ConnectionResetError:
            return time.monotonic() - started, received
        if not chunk:
            return time.monotonic() - started, received
        received += chunk
    raise AssertionError(f"still open after {limit} s; received {received[:200]!r}")


def test_a_connection_that_sends_nothing_is_closed_after_the_header_timeout(server):
    started = time.monotonic()
    with connect(server) as sock:
        seconds, received = closed_after(sock, started)
    assert HEADER * 0.9 <= seconds <= HEADER + SLACK and received == b""


def test_trickled_headers_are_cut_off_at_the_header_timeout(server):
    started = time.monotonic()
    with connect(server) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        # one byte of a header every 0.2 s: each byte would once have kept it alive
        seconds, received = closed_after(sock, started, trickle=b"X-Slow: " + b"a" * 100)
    assert HEADER * 0.9 <= seconds <= HEADER + SLACK and received == b""


def test_a_trickled_body_is_cut_off_at_the_body_timeout(server):
    started = time.monotonic()
    with connect(server) as sock:
        sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 200\r\n\r\n")
        seconds, received = closed_after(sock, started, trickle=b"{" + b" " * 150)
    assert BODY * 0.9 <= seconds <= BODY + SLACK and received == b""
    time.sleep(0.5)
    assert "Traceback" not in server.log()  # the route waiting for the body saw a disconnect, no error


def exchange(sock: socket.socket, request: bytes) -> bytes:
    """Send one request and read its whole response (headers and Content-Length body)."""
    sock.settimeout(10)
    sock.sendall(request)
    received = b""
    while b"\r\n\r\n" not in received:
        received += sock.recv(65536) or b""
    head, _, body = received.partition(b"\r\n\r\n")
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")))
    while len(body) < length:
        body += sock.recv(65536)
    sock.settimeout(0.05)
    return head + b"\r\n\r\n" + body


HEALTH = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"


def test_an_idle_kept_alive_connection_is_closed_after_the_keep_alive_timeout(server):
    with connect(server) as sock:
        answer = exchange(sock, HEALTH)
        answered = time.monotonic()
        assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b'"status":"ok","database":"ok"}')
        seconds, _ = closed_after(sock, answered)
    assert KEEP_ALIVE * 0.9 <= seconds <= KEEP_ALIVE + SLACK


def test_prompt_clients_are_served_on_one_kept_alive_connection_longer_than_any_deadline(server):
    started = time.monotonic()
    with connect(server) as sock:
        while time.monotonic() - started < HEADER + BODY + 1:  # the deadlines are per request
            assert exchange(sock, HEALTH).startswith(b"HTTP/1.1 200")
            time.sleep(KEEP_ALIVE / 3)
        created = exchange(sock, b"POST /api/players HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        assert created.startswith(b"HTTP/1.1 201")


def test_headers_past_max_header_bytes_are_431_and_the_connection_closed(server):
    with connect(server) as sock:  # 20 KB of headers is within the default 32 KiB
        assert exchange(sock, b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20_000 + b"\r\n\r\n").startswith(
            b"HTTP/1.1 200")
    for size in (40_000, 10_000_000):
        with connect(server) as sock:
            sock.settimeout(10)
            try:
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * size + b"\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError):
                pass  # closed while the rest was still being sent
            answer = sock.recv(65536)
            assert answer.startswith(b"HTTP/1.1 431 Request Header Fields Too Large"), (size, answer[:100])
            assert b"x-content-type-options: nosniff" in answer and b"connection: close" in answer
            seconds, _ = closed_after(sock, time.monotonic(), limit=5)  # and closed


def test_past_max_connections_requests_get_503_until_the_idle_ones_are_closed(server):
    idle = [connect(server) for _ in range(4)]
    opened = time.monotonic()
    try:
        time.sleep(0.2)
        assert httpx.get(server.url + "/healthz", timeout=5).status_code == 503
        time.sleep(max(0.0, opened + HEADER + SLACK - time.monotonic()))  # the idle ones are gone by now
        assert httpx.get(server.url + "/healthz", timeout=5).status_code == 200
    finally:
        for sock in idle:
            sock.close()
