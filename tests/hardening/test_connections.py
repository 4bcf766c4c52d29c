"""Idle clients against a real `tretten serve` (uvicorn's own limits, app/web/http/serve.py): a
kept-alive connection idle after a response is closed within KEEP_ALIVE_TIMEOUT, and past
MAX_CONNECTIONS requests get 503. Slow clients (trickled headers or bodies) are the reverse
proxy's to cut off (README, "Operating it")."""

from __future__ import annotations

import socket
import time

import httpx
import pytest

from .servers import Server, migrated

KEEP_ALIVE = 1
SLACK = 2.5  # a busy 2-core machine may be late to close; it may never be early


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    data_dir = tmp_path_factory.mktemp("connections")
    url = f"sqlite:///{data_dir / 'connections.sqlite3'}"
    migrated(url, data_dir)
    with Server(url, data_dir, cli=True, KEEP_ALIVE_TIMEOUT=str(KEEP_ALIVE), MAX_CONNECTIONS="4") as running:
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
        while time.monotonic() - started < 3 * KEEP_ALIVE:  # the keep-alive timeout runs between requests
            assert exchange(sock, HEALTH).startswith(b"HTTP/1.1 200")
            time.sleep(KEEP_ALIVE / 3)
        created = exchange(sock, b"POST /api/players HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        assert created.startswith(b"HTTP/1.1 201")


def test_past_max_connections_requests_get_503_until_the_idle_ones_are_closed(server):
    idle = [connect(server) for _ in range(4)]
    try:
        answers = [httpx.get(server.url + "/healthz", timeout=5).status_code for _ in range(3)]
        assert 503 in answers
    finally:
        for sock in idle:
            sock.close()
    for _ in range(50):  # the server notices the closed connections as it reads them
        if httpx.get(server.url + "/healthz", timeout=5).status_code == 200:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("still 503 after the idle connections closed")
