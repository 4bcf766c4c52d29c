"""Every failure becomes a clear 4xx: JSON under /api/, a small page elsewhere. Never a traceback."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from app import i18n

from app.services.errors import (
    ConflictError,
    ForbiddenError,
    InputError,
    NotFoundError,
    RateLimitError,
    ServiceError,
)

from .messages import message
from .security import SECURITY_HEADERS, BodyTooLarge
from .templating import render

STATUS_OF = {
    NotFoundError: 404,
    ForbiddenError: 403,
    ConflictError: 409,
    InputError: 422,
    RateLimitError: 429,
}
KEY_OF_STATUS = {400: "bad_request", 403: "csrf", 404: "not_found", 413: "too_large", 422: "bad_request"}


def retry_after_header(error: ServiceError) -> dict[str, str]:
    """Retry-After for a refusal that says when to come back (a rate limit), else nothing."""
    return {"retry-after": str(error.retry_after)} if isinstance(error, RateLimitError) else {}


def status_of(error: ServiceError) -> int:
    return next((code for cls, code in STATUS_OF.items() if isinstance(error, cls)), 400)


def _is_api(request: Request) -> bool:
    return request.url.path.startswith("/api/")


def error_response(request: Request, status: int, key: str, english: str, **params):
    if _is_api(request):
        return JSONResponse({"error": english, **params}, status_code=status)
    # the message is worded before render() sets the request's language: set it first
    i18n.set_language(getattr(request.state, "language", i18n.DEFAULT_LANGUAGE))
    page = render(
        request, "error.html", {"status": status, "message": message(key, **params)}, status_code=status
    )
    return page


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ServiceError)
    async def on_service_error(request: Request, exc: ServiceError):
        detail = exc.params.get("detail")
        params = {"detail": detail} if detail else {}
        response = error_response(request, status_of(exc), exc.key, exc.message, **params)
        response.headers.update(retry_after_header(exc))
        return response

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

    @app.exception_handler(Exception)
    async def on_unexpected(request: Request, exc: Exception):
        # Starlette's ServerErrorMiddleware answers with this, outside every middleware of ours
        # (so the security headers are added here), then re-raises: uvicorn logs the traceback
        # and the request log line says 500
        try:
            response = error_response(request, 500, "server_error", "internal error: the request was not completed")
        except Exception:  # the page itself failed: plain words, still with the headers
            response = PlainTextResponse("internal error", status_code=500)
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    @app.exception_handler(BodyTooLarge)
    async def on_too_large(request: Request, exc: BodyTooLarge):
        return error_response(request, 413, "too_large", "request body too large")
