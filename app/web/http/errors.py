"""Every failure becomes a clear 4xx: JSON under /api/, a small page elsewhere. Never a traceback.

A database that does not answer (down, restarted, its disk full, its lock held past the busy
timeout, or no answer within app.db.session's bounds) is a 503 with Retry-After: the request
changed nothing and may be sent again. Anything else unexpected is a 500 that says so and
closes its connection (``Connection: close``), as the server does after it.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.services.errors import (
    BusyError,
    ConflictError,
    ForbiddenError,
    InputError,
    NotFoundError,
    RateLimitError,
    ServiceError,
)
from app.web.http.identity import visitor_page
from app.web.http.middleware import SECURITY_HEADERS, BodyTooLarge, request_log
from app.web.views.templating import render

STATUS_OF = {
    NotFoundError: 404,
    ForbiddenError: 403,
    ConflictError: 409,
    InputError: 422,
    RateLimitError: 429,
    BusyError: 429,  # not a failure of the server: a crowd, which Retry-After tells when to try again
}
KEY_OF_STATUS = {400: "bad_request", 403: "csrf", 404: "not_found", 413: "too_large", 422: "bad_request"}
DATABASE_RETRY_SECONDS = 5  # Retry-After of a 503 for a database that did not answer


def status_of(error: ServiceError) -> int:
    return next((code for cls, code in STATUS_OF.items() if isinstance(error, cls)), 400)


def headers_of(error: ServiceError) -> dict[str, str]:
    """A refusal that passes with time (a rate limit, a busy solver) says when to try again."""
    retry_after = error.params.get("retry_after")
    return {"retry-after": str(retry_after)} if retry_after is not None else {}


class RefusedEarly(Exception):
    """A service refusal found before the request did any work (app.web.routes.solver): the
    page's board is left as it is, and the refusal is said in the live region."""

    def __init__(self, error: ServiceError) -> None:
        super().__init__(error.message)
        self.error = error


def _is_api(request: Request) -> bool:
    return request.url.path.startswith("/api/")


def error_response(request: Request, status: int, key: str, english: str, reason=None, **params):
    """``reason``: the engine's (key, parts) of a fault, which a page words in its language;
    ``params`` (the engine's English ``detail``) go to the API only."""
    if _is_api(request):
        return JSONResponse({"error": english, **params}, status_code=status)
    # worded by the template, in the request's language (render sets it)
    visitor_page(request, request.app.state.settings)
    said = {"reason": reason} if reason is not None else {}
    return render(request, "error.html", {"status": status, "key": key, "params": said}, status_code=status)


def service_error_response(request: Request, error: ServiceError) -> Response:
    """A service's refusal: its status, its words, and when to try again if it passes with time."""
    detail = error.params.get("detail")
    params = {"detail": detail} if detail else {}
    response = error_response(request, status_of(error), error.key, error.message, error.params.get("reason"), **params)
    response.headers.update(headers_of(error))
    return response


def refused_early(request: Request, error: ServiceError) -> Response:
    """A refusal found before the request did any work: for htmx, the page's board is left as
    it is (no swap) and the reason said in the live region and a toast; otherwise the error page."""
    if request.headers.get("hx-request") != "true":
        return service_error_response(request, error)
    response = render(request, "_refused.html", {"key": error.key}, status_code=status_of(error))
    response.headers.update({"hx-reswap": "none", **headers_of(error)})  # out-of-band parts only
    return response


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ServiceError)
    async def on_service_error(request: Request, exc: ServiceError):
        return service_error_response(request, exc)

    @app.exception_handler(StarletteHTTPException)
    async def on_http_error(request: Request, exc: StarletteHTTPException):
        english = exc.detail if isinstance(exc.detail, str) else "error"
        if english == "csrf":
            english = "missing or wrong CSRF token: reload the page"
        response = error_response(request, exc.status_code, KEY_OF_STATUS.get(exc.status_code, "bad_request"), english)
        for name, value in (exc.headers or {}).items():
            response.headers[name] = value
        return response

    @app.exception_handler(RequestValidationError)
    async def on_invalid_request(request: Request, exc: RequestValidationError):
        problems = [
            {"loc": [str(part) for part in error.get("loc", ())], "msg": str(error.get("msg", ""))}
            for error in exc.errors()
        ]
        if _is_api(request):
            summary = "; ".join(f"{'.'.join(p['loc'])}: {p['msg']}" for p in problems) or "invalid request"
            return JSONResponse(jsonable_encoder({"error": summary, "problems": problems}), status_code=422)
        return error_response(request, 400, "bad_request", "bad request")

    @app.exception_handler(RefusedEarly)
    async def on_refused_early(request: Request, exc: RefusedEarly):
        return refused_early(request, exc.error)

    async def on_database_down(request: Request, exc: Exception):
        request_log.warning("database unavailable", extra={"fields": {"error": type(exc).__name__}})
        # a failure after the request's commit (drawing its answer) leaves the change stored
        said = ("the database stopped answering after the change was stored: ask again to see it"
                if getattr(request.state, "stored", False)
                else "the database is not answering: nothing was changed; try again shortly")
        response = error_response(request, 503, "db_unavailable", said)
        response.headers["retry-after"] = str(DATABASE_RETRY_SECONDS)
        return response

    for fault in (OperationalError, InterfaceError, PoolTimeoutError):
        app.add_exception_handler(fault, on_database_down)

    @app.exception_handler(Exception)
    async def on_unexpected(request: Request, exc: Exception):
        # Starlette's ServerErrorMiddleware answers with this, outside every middleware of ours
        # (so the security headers are added here), then re-raises: uvicorn logs the traceback,
        # the request log line says 500, and uvicorn closes the connection, which the answer says
        # beforehand (a client would otherwise send its next request into a closed connection)
        try:
            response = error_response(request, 500, "server_error", "internal error: the request was not completed")
        except Exception:  # the page itself failed: plain words, still with the headers
            response = PlainTextResponse("internal error", status_code=500)
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        response.headers["connection"] = "close"
        return response

    @app.exception_handler(BodyTooLarge)
    async def on_too_large(request: Request, exc: BodyTooLarge):
        return error_response(request, 413, "too_large", "request body too large")
