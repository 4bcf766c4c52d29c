"""Real uvicorn processes on loopback for the hardening tests (concurrency, kill -9, logs).

Each server is `python -m uvicorn --factory app.web.main:create_app` in a child process,
configured only through environment variables, as in production. Its stderr (the JSON log
lines) goes to a file the test can read.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from app.db.migrate import upgrade_to_head
from app.settings import PROJECT_ROOT, Settings

from ..databases import fresh_postgres, worker  # noqa: F401 (the tests import them from here)
from ..web.helpers import csrf_of


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def migrated(url: str, data_dir: Path) -> Settings:
    settings = Settings(data_dir=data_dir, database_url=url, secret_key="hardening-secret-of-at-least-32-characters")
    upgrade_to_head(settings)
    return settings


class Server:
    """One uvicorn child process serving the app on 127.0.0.1:<port>."""

    def __init__(self, database_url: str, data_dir: Path, *, port: int | None = None, log_name: str = "server",
                 access_log: bool = False, cli: bool = False, **env: str) -> None:
        self.database_url = database_url
        self.data_dir = data_dir
        self.port = port or free_port()
        self.log_path = data_dir / f"{log_name}-{self.port}.log"
        self.env = env
        self.access_log = access_log
        self.cli = cli  # `tretten serve` (its uvicorn settings) rather than plain uvicorn
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "Server":
        """Start the server and wait until it answers /healthz (or has exited: an error)."""
        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "DATA_DIR": str(self.data_dir),
            "SECRET_KEY": "hardening-secret-of-at-least-32-characters",
            "GAMES_PER_MINUTE": "100000",
            "NEW_PLAYERS_PER_ADDRESS": "0", "NEW_PLAYERS_TOTAL": "0", "NEW_GAMES_PER_ADDRESS": "0", "NEW_GAMES_TOTAL": "0",
            # one process unless a test asks for more: its pid is the server's, its limits the instance's
            "WEB_CONCURRENCY": "1",
            "PREPARE_AHEAD": "false",
            **self.env,
        }
        if self.cli:
            command = [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        else:
            command = [sys.executable, "-m", "uvicorn", "--factory", "app.web.main:create_app",
                       "--host", "127.0.0.1", "--port", str(self.port), "--timeout-graceful-shutdown", "10",
                       "--no-proxy-headers"]  # as tretten serve: the app reads them, from TRUSTED_PROXIES only
            if not self.access_log:
                command.append("--no-access-log")
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(command, cwd=PROJECT_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        while self.process.poll() is None:
            try:
                if httpx.get(self.url + "/healthz", timeout=5).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"server exited with {self.process.returncode}:\n{self.log_path.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL: no shutdown handlers, no flushing; what the database kept is all there is."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self, timeout: float = 15) -> int:
        """SIGTERM, as an orchestrator stops an instance; returns the exit status."""
        if not self.process:
            return 0
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
                raise
        return self.process.returncode

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def __enter__(self) -> "Server":
        return self.start()

    def __exit__(self, *exc) -> None:
        try:
            self.stop()
        finally:
            self.kill()


def api_player(base_url: str) -> dict:
    response = httpx.post(base_url + "/api/players", timeout=10)
    assert response.status_code == 201, response.text
    return {"Authorization": "Bearer " + response.json()["token"]}


def first_move(client: httpx.Client, path: str, **fields: str) -> tuple[str, str]:
    """Open a deal's link and make its first move (which stores the game); (game id, board)."""
    page = client.get(path)
    assert page.status_code == 200, page.text
    response = client.post(path, data={"csrf_token": csrf_of(page.text), **fields}, headers={"HX-Request": "true"})
    assert response.status_code == 200 and "HX-Push-Url" in response.headers, response.text
    return response.headers["HX-Push-Url"].rsplit("/", 1)[1], response.text
