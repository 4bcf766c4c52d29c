"""Faults that must answer cleanly (issue 40): a database down, black-holed or on a full disk
answers 503 with Retry-After within a bounded time, /healthz fails when a write cannot be made,
and `kill -9` of `tretten serve` takes its workers with it."""

from __future__ import annotations

import os
import re
import resource
import select
import signal
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
from fastapi.testclient import TestClient
from sqlalchemy.engine import make_url

from app.db import session as db_session
from app.settings import Settings
from app.web.main import create_app

from ..processes import alive
from ..web.helpers import csrf_of
from .servers import Server, fresh_postgres, migrated, worker

# the longest a request may wait on a database that does not answer: a pooled connection's
# ping, then a new connection, each within its bound (app.db.session), and the pool's wait
BOUND = db_session.ANSWER_SECONDS + db_session.CONNECT_SECONDS + db_session.POOL_SECONDS + 5
PATHS = ("/play/pyramid/8", "/api/deals/pyramid/8", "/healthz")


class Proxy:
    """A TCP proxy to PostgreSQL that can go on forwarding, black-hole (take every byte both
    ways and forward none, as a broken network path or a hung proxy does), or refuse
    connections (the database down)."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.mode = "forward"
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.mode == "refuse":
                client.close()
                continue
            server = socket.create_connection(self.upstream)
            self.sockets += [client, server]
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        peers = {a: b, b: a}
        while True:
            try:
                ready, _, _ = select.select(list(peers), [], [], 0.2)
                for source in ready:
                    data = source.recv(65536)
                    if not data:
                        raise OSError("closed")
                    if self.mode == "forward":
                        peers[source].sendall(data)
            except (OSError, ValueError):  # ValueError: closed by ``close`` meanwhile (its fd is -1)
                a.close()
                b.close()
                return

    def close(self) -> None:
        self.listener.close()
        for sock in self.sockets:
            sock.close()


def _timed(client: TestClient, path: str) -> tuple[httpx.Response, float]:
    started = time.monotonic()
    response = client.get(path)
    return response, time.monotonic() - started


def test_postgresql_black_holed_or_down_answers_503_with_retry_after_in_bounded_time(tmp_path):
    url = make_url(fresh_postgres(f"tretten_outage_{worker()}"))
    migrated(url.render_as_string(hide_password=False), tmp_path)
    proxy = Proxy((url.host or "127.0.0.1", url.port or 5432))
    proxied = url.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
    settings = Settings(data_dir=tmp_path, database_url=proxied, secret_key="outage-secret-of-at-least-32-characters")
    try:
        with TestClient(create_app(settings), follow_redirects=False) as client:
            page = client.get("/play/pyramid/7")
            assert page.status_code == 200  # the pool holds connections now
            for mode in ("blackhole", "refuse"):
                proxy.mode = mode
                # the page, the API, the health check and a move all at once, as players ask: each
                # waits on the database in its own thread (a black hole costs each its bound, not
                # the sum of them), and each answers within its own bound
                with ThreadPoolExecutor(len(PATHS) + 1) as pool:
                    asked = [pool.submit(_timed, client, path) for path in PATHS]
                    move = pool.submit(client.post, "/play/pyramid/7",
                                       data={"csrf_token": csrf_of(page.text), "action": "draw"})
                    timed = [future.result() for future in asked]
                    moved = move.result()
                for path, (response, seconds) in zip(PATHS, timed, strict=True):
                    assert response.status_code == 503, (mode, path, response.text[:300])
                    assert response.headers["retry-after"].isdigit(), (mode, path)
                    assert seconds < BOUND, (mode, path, seconds)
                assert moved.status_code == 503 and "try again" in moved.text.lower()
                proxy.mode = "forward"
                assert client.get("/healthz").status_code == 200  # back as soon as the database answers
    finally:
        proxy.close()
        db_session.get_engine(settings).dispose()


def test_sqlite_on_a_full_disk_fails_healthz_and_answers_503_not_500(tmp_path):
    url = f"sqlite:///{tmp_path / 'full.sqlite3'}"
    migrated(url, tmp_path)
    with Server(url, tmp_path) as server, httpx.Client(base_url=server.url, timeout=60) as client:
        page = client.get("/play/pyramid/7")
        assert client.get("/healthz").status_code == 200
        # no file of the server may grow by a byte: what a full disk does to every write
        resource.prlimit(server.process.pid, resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY))
        health = client.get("/healthz")
        assert health.status_code == 503 and health.headers["retry-after"].isdigit(), health.text
        moved = client.post("/play/pyramid/7", data={"csrf_token": csrf_of(page.text), "action": "draw"})
        assert moved.status_code == 503 and moved.headers["retry-after"].isdigit(), moved.text[:300]
        resource.prlimit(server.process.pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        assert client.get("/healthz").status_code == 200


def _workers(server: Server) -> list[int]:
    """The two workers' pids once both have started the app (its startup is where a worker
    takes its lifeline to the supervisor: a worker killed with it before that is another case)."""
    for _ in range(1200):  # the second worker may still be starting (a loaded machine: a minute at most)
        log = server.log()
        found = [int(pid) for pid in re.findall(r"Started server process \[(\d+)\]", log)]
        if (len(found) == 2 and log.count("Application startup complete.") == 2) or server.process.poll() is not None:
            return found
        time.sleep(0.05)
    return []


def test_kill_9_of_tretten_serve_takes_its_workers_with_it(tmp_path):
    url = f"sqlite:///{tmp_path / 'orphans.sqlite3'}"
    migrated(url, tmp_path)
    first = Server(url, tmp_path, cli=True, WEB_CONCURRENCY="2").start()
    workers = _workers(first)
    try:
        assert len(workers) == 2, first.log()[-2000:]
        first.kill()  # SIGKILL: uvicorn's supervisor cannot stop them
        for _ in range(600):  # they notice within a second and stop as on SIGTERM (a minute: a failure)
            if not any(map(alive, workers)):
                break
            time.sleep(0.1)
        assert not any(map(alive, workers)), "the workers outlived tretten serve"
        again = Server(url, tmp_path, port=first.port, cli=True, WEB_CONCURRENCY="2", log_name="again").start()
        try:
            assert httpx.get(again.url + "/healthz").status_code == 200
            assert "address already in use" not in again.log()
        finally:
            again.stop()
    finally:
        for pid in workers:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
