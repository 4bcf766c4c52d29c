"""Post/redirect/get, for htmx and plain form posts alike."""

from __future__ import annotations

from fastapi import Request
from starlette.responses import RedirectResponse, Response

from .templating import is_htmx


def see_other(request: Request, url: str) -> Response:
    """Post/redirect/get; for htmx a client-side full navigation (HX-Location would swap into the target)."""
    if is_htmx(request):
        return Response(status_code=200, headers={"HX-Redirect": url})
    return RedirectResponse(url, status_code=303)


def safe_next(target: str) -> str:
    """Where a form asks to go back to: same-site paths only, never another host."""
    return target if target.startswith("/") and not target.startswith("//") and "\\" not in target else "/"
