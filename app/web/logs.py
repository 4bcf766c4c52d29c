"""Structured logs: one JSON line per request (logger ``tretten.request``) and per move
(``tretten.move``, written by the games service), on stderr.

Each line is a JSON object with ``event``, ``ts`` and the fields of the event; a request
line carries ``method``, ``path``, ``status``, ``ms`` and, for a game's URL, ``game``.

A path that carries a credential (a device link, ``/link/<secret>``) is written as
``/link/…``, here and in uvicorn's access log if that is turned on.
"""

from __future__ import annotations

import json
import logging
import sys

request_log = logging.getLogger("tretten.request")
SECRET_PATHS = ("/link/",)  # what follows is a credential: whoever holds a device link is that player


def loggable_path(path: str) -> str:
    """The path as a log may keep it: a credential in it cut off, and at most 200 characters."""
    if path.startswith(SECRET_PATHS):
        return next(prefix for prefix in SECRET_PATHS if path.startswith(prefix)) + "…"
    return path[:200]


class RedactAccessLog(logging.Filter):
    """uvicorn's access log (off in ``tretten serve``) with credentials cut out of its paths."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        # uvicorn logs '%s - "%s %s HTTP/%s" %d' with (client, method, path and query, version, status)
        if isinstance(args, tuple) and len(args) == 5 and isinstance(args[2], str):
            record.args = (*args[:2], loggable_path(args[2]), *args[3:])
        return True


class JsonFormatter(logging.Formatter):
    """The record's ``fields`` (passed as ``extra={"fields": {...}}``) as one JSON line."""

    def format(self, record: logging.LogRecord) -> str:
        line = {"ts": round(record.created, 3), "level": record.levelname.lower(), "event": record.getMessage()}
        line.update(getattr(record, "fields", {}))
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info).splitlines()[-1]
        return json.dumps(line, separators=(",", ":"), default=str)


def configure_logging(level: int = logging.INFO) -> None:
    """Send the ``tretten`` loggers to stderr as JSON lines (once per process)."""
    root = logging.getLogger("tretten")
    if any(getattr(h, "_tretten", False) for h in root.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    handler._tretten = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level)
    root.propagate = False
    logging.getLogger("uvicorn.access").addFilter(RedactAccessLog())


def log_event(logger: logging.Logger, event: str, **fields: object) -> None:
    if logger.isEnabledFor(logging.INFO):
        logger.info(event, extra={"fields": fields})
