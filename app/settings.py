"""All runtime configuration, read once from environment variables (prefix-less).

Every knob a deployment may turn lives here so that there is exactly one place to
look; `get_settings()` is cached so every module sees the same object.
"""

from __future__ import annotations

import fcntl
import ipaddress
import logging
import os
import secrets
from functools import lru_cache
from pathlib import Path
from typing import Annotated

from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parent.parent
MIN_SECRET_LENGTH = 32  # characters; the generated key has 64 (48 random bytes, base64)
# workers unless told: each holds its own solver process and memory, and on SQLite all of them
# share one write lock, so a large machine is better served by more instances on PostgreSQL
DEFAULT_MAX_WORKERS = 8


class SettingsError(ValueError):
    """A setting that cannot be used, said in one line that names the variable (no value)."""


class Settings(BaseSettings):
    # hide_input_in_errors: a refused setting's value (a short key, a URL with a password) is
    # never repeated in the error
    model_config = SettingsConfigDict(env_file=None, extra="ignore", frozen=True, hide_input_in_errors=True)

    data_dir: Path = Field(default=PROJECT_ROOT / "data", description="Where the SQLite file and the dev secret live.")
    database_url: str = Field(default="", description="SQLAlchemy URL; empty means sqlite in DATA_DIR.")
    secret_key: str = Field(
        default="", repr=False,
        description=f"Signs cookies and CSRF tokens, at least {MIN_SECRET_LENGTH} characters; empty means a generated "
        "dev key kept in DATA_DIR.",
    )
    host: str = "127.0.0.1"
    port: int = 8000
    secure_cookies: bool = Field(default=False, description="Set behind HTTPS so cookies carry the Secure flag.")
    public_url: str = Field(
        default="",
        description="The site's public base URL (https://tretten.example), for the absolute links of link previews "
        "and shared results; empty means the request's own.",
    )
    games_per_minute: int = Field(default=60, description="New games one player may start per minute (429 beyond).")
    # Cookie-less visitors become players, so these count per client address and in total, in
    # each instance's memory (app/services/ratelimit.py); bursts up to the figure, refilled at
    # it a minute; 0: no limit.
    new_players_per_address: int = Field(
        default=30, ge=0,
        description="New players (a visitor's first POST, POST /api/players) per client address per minute.",
    )
    new_players_total: int = Field(default=600, ge=0, description="New players per minute in all, per instance.")
    new_games_per_address: int = Field(default=300, ge=0, description="New games per client address per minute.")
    new_games_total: int = Field(default=3000, ge=0, description="New games per minute in all, per instance.")
    previews_per_address: int = Field(default=20, ge=0, description="Preview images drawn anew per client address "
                                      "per minute (a drawn one is served from the cache without limit).")
    previews_total: int = Field(default=60, ge=0, description="Preview images drawn anew per minute in all, "
                                "per instance.")
    trusted_proxies: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="Addresses or networks (CIDR) of reverse proxies, comma-separated: from these peers "
        "X-Forwarded-For and X-Forwarded-Proto are believed. Empty: from none.",
    )
    max_moves: int = Field(default=5000, description="Longest move list a game may hold.")
    max_body_bytes: int = Field(default=64 * 1024, description="Largest request body accepted.")
    keep_alive_timeout: int = Field(
        default=15, ge=1,
        description="Seconds an idle kept-alive connection stays open after a response (uvicorn's "
        "timeout_keep_alive).",
    )
    max_connections: int = Field(
        default=1000, ge=1,
        description="Open connections (or requests in progress) beyond which requests get 503 (uvicorn's "
        "limit_concurrency).",
    )
    web_concurrency: int = Field(
        default_factory=lambda: min(len(os.sched_getaffinity(0)), DEFAULT_MAX_WORKERS), ge=1, le=64,
        description="Worker processes `tretten serve` runs (uvicorn's --workers); by default one per core this "
        f"process may run on, at most {DEFAULT_MAX_WORKERS} (a container's CPU quota is not read: set it there). "
        "Python runs one thread at a time per process, so one worker per core lets an instance use the machine; "
        "in-process limits (searches, rate limits, the preview cache, THREADS) are per worker.",
    )
    db_pool_size: int = 10
    solver_processes: int = Field(
        default=1, ge=0, le=16,
        description="Processes for the solver's searches (app/services/assist/searches.py); "
                    "0: in the request's own thread.",
    )
    prepare_ahead: bool = Field(
        default=True,
        description="`tretten serve` keeps today's and tomorrow's daily deals chosen with their par, in a "
        "process of its own, checked every hour (app/services/assist/ahead.py)",
    )
    solver_searches: int = Field(
        default=3, ge=1, le=256,
        description="Solver searches running or waiting at once per instance; beyond, 'the solver is busy' (429, "
        "Retry-After); one at a time per player (429).",
    )
    # Blocking work (the database, the templates, a search's wait) runs in AnyIO's threadpool
    # (40 threads unless told). Python runs one thread at a time, so beyond a few, more threads
    # only take turns and stretch every request (docs/performance.md); a search waits in one.
    threads: int = Field(
        default=4, ge=2, le=256,
        description="Threads per worker process for requests' blocking work (the database, pages, a solver "
        "search's wait); more than SOLVER_SEARCHES.",
    )
    log_sql: bool = False
    telemetry: bool = Field(
        default=False,
        description="FastAPI's native OpenTelemetry (traces, metrics, logs through the globally configured "
        "OpenTelemetry providers); off, a request skips FastAPI's per-request provider check.",
    )

    @field_validator("trusted_proxies", mode="before")
    @classmethod
    def _networks(cls, value: object) -> object:
        items = value.replace(",", " ").split() if isinstance(value, str) else value
        if isinstance(items, list):
            for item in items:
                try:
                    ipaddress.ip_network(str(item), strict=False)
                except ValueError:
                    raise ValueError(f"{str(item)[:60]!r} is not an IP address or network") from None
        return items

    @field_validator("secret_key")
    @classmethod
    def _long_enough(cls, value: str) -> str:
        # anyone who can guess the key can sign any player's cookie and CSRF token
        if value and len(value) < MIN_SECRET_LENGTH:
            raise ValueError(f"must be at least {MIN_SECRET_LENGTH} characters long (it has {len(value)}); "
                             "e.g. python3 -c 'import secrets; print(secrets.token_urlsafe(48))'")
        return value

    @field_validator("public_url")
    @classmethod
    def _public_url(cls, value: str) -> str:
        value = value.strip().rstrip("/")
        if not value:
            return ""
        scheme, sep, rest = value.partition("://")
        if scheme not in ("http", "https") or not sep or not rest or any(c in rest for c in "?#@ "):
            raise ValueError("PUBLIC_URL is a base URL such as https://tretten.example (no query, no fragment)")
        return value

    @model_validator(mode="after")
    def _room_beside_searches(self) -> Settings:
        if self.threads <= self.solver_searches:
            raise ValueError("THREADS must be more than SOLVER_SEARCHES: a search waits in a thread, and the "
                             "board's requests need one too")
        return self

    @model_validator(mode="after")
    def _fill_dev_defaults(self) -> Settings:
        # frozen model: write through object.__setattr__ once, at construction
        if not self.database_url:
            object.__setattr__(self, "database_url", f"sqlite:///{self.data_dir / 'tretten.sqlite3'}")
        if not self.secret_key:
            object.__setattr__(self, "secret_key", _dev_secret(self.data_dir))
        return self

def _dev_secret(data_dir: Path) -> str:
    """A random key generated on first run and kept in DATA_DIR/secret_key, so dev cookies
    survive restarts.

    Instances starting at once on a fresh DATA_DIR take turns under an exclusive lock on
    ``secret_key.lock``: the first writes the key to a new 0600 file, fsyncs it and renames it
    into place; everyone (the first included) then uses what the file says. A key file that is
    empty, blank or shorter than MIN_SECRET_LENGTH (a crash of an older version mid-write, or
    a hand edit) is replaced the same way, with a warning: no cookie signed with such a key is
    worth keeping."""
    path = data_dir / "secret_key"
    key = _read_key(path)
    if key is not None and len(key) >= MIN_SECRET_LENGTH:
        return key  # a usable key is never rewritten: no lock needed to read it
    data_dir.mkdir(parents=True, exist_ok=True)
    lock_fd = os.open(data_dir / "secret_key.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(lock_fd, fcntl.LOCK_EX)
        key = _read_key(path)
        if key is not None and len(key) >= MIN_SECRET_LENGTH:
            return key
        if key is not None:
            logging.getLogger("tretten.settings").warning(
                "%s held no usable key (%d characters): replaced by a new one", path, len(key))
        _write_new_key(path)
        key = _read_key(path)
        if key is None or len(key) < MIN_SECRET_LENGTH:
            raise SettingsError(f"could not keep a generated key in {path}: set SECRET_KEY")
        return key
    finally:
        os.close(lock_fd)  # releases the lock


def _read_key(path: Path) -> str | None:
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        return None


def _write_new_key(path: Path) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.unlink(missing_ok=True)  # left by a crash; we hold the lock
    # 0600 from the start; O_EXCL and O_NOFOLLOW: never write through a file or link put there
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        os.write(fd, secrets.token_urlsafe(48).encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(temporary, path)  # readers see the old file or the whole new one, never a part
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)  # the rename itself survives a crash
    finally:
        os.close(directory)


def load_settings() -> Settings:
    """The settings from the environment; a bad one is a SettingsError in one line."""
    try:
        return Settings()
    except ValidationError as exc:
        problems = []
        for error in exc.errors(include_url=False, include_input=False):
            name = "_".join(str(part) for part in error["loc"]).upper() or "settings"
            cause = error.get("ctx", {}).get("error")
            problems.append(f"{name}: {cause if cause is not None else error['msg']}")
        raise SettingsError("bad setting " + "; ".join(problems)) from None


@lru_cache
def get_settings() -> Settings:
    settings = load_settings()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return settings
