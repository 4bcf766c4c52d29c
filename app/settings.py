"""All runtime configuration, read once from environment variables (prefix-less).

Every knob a deployment may turn lives here so that there is exactly one place to
look; `get_settings()` is cached so every module sees the same object.
"""

from __future__ import annotations

import secrets
from functools import lru_cache
from pathlib import Path

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=None, extra="ignore", frozen=True)

    data_dir: Path = Field(default=PROJECT_ROOT / "data", description="Where the SQLite file and the dev secret live.")
    database_url: str = Field(default="", description="SQLAlchemy URL; empty means sqlite in DATA_DIR.")
    secret_key: str = Field(default="", description="Signs cookies and CSRF tokens; empty means a generated dev key kept in DATA_DIR.")
    host: str = "127.0.0.1"
    port: int = 8000
    secure_cookies: bool = Field(default=False, description="Set behind HTTPS so cookies carry the Secure flag.")
    public_url: str = Field(default="", description="The site's public base URL (https://tretten.example), for the absolute links of link previews and shared results; empty means the request's own.")
    games_per_minute: int = Field(default=60, description="New games one player may start per minute (429 beyond).")
    max_moves: int = Field(default=5000, description="Longest move list a game may hold.")
    max_body_bytes: int = Field(default=64 * 1024, description="Largest request body accepted.")
    db_pool_size: int = 10
    solver_processes: int = Field(default=1, ge=0, le=16, description="Processes for the solver's searches (app/services/searches.py); 0: in the request's own thread.")
    solver_searches: int = Field(default=4, ge=1, le=256, description="Solver searches running or waiting at once per instance; beyond, 'the solver is busy' (503, Retry-After); one at a time per player (429).")
    log_sql: bool = False
    telemetry: bool = Field(default=False, description="FastAPI's native OpenTelemetry (traces, metrics, logs through the globally configured OpenTelemetry providers); off, a request skips FastAPI's per-request provider check.")

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
    def _fill_dev_defaults(self) -> "Settings":
        # frozen model: write through object.__setattr__ once, at construction
        if not self.database_url:
            object.__setattr__(self, "database_url", f"sqlite:///{self.data_dir / 'tretten.sqlite3'}")
        if not self.secret_key:
            object.__setattr__(self, "secret_key", _dev_secret(self.data_dir))
        return self

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")


def _dev_secret(data_dir: Path) -> str:
    """A random key generated on first run and kept, so dev cookies survive restarts."""
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(48))
        path.chmod(0o600)
    return path.read_text().strip()


@lru_cache
def get_settings() -> Settings:
    settings = Settings()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return settings
