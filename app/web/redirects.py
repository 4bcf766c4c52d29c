from __future__ import annotations

from fastapi import Request
from starlette.responses import RedirectResponse, Response

from .templating import is_htmx


def see_other(request: Request, url: str) -> Response:
    """Post/redirect/get; for htmx a client-side full navigation (HX-Location would swap into the target)."""
    if is_htmx(request):
        return Response(status_code=200, headers={"HX-Redirect": url})
    return RedirectResponse(url, status_code=303)
