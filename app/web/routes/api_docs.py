"""/api/docs: Swagger UI on the app's OpenAPI schema, under the app's own CSP.

FastAPI's own docs page loads Swagger UI from a CDN and starts it with an inline script,
both of which the CSP blocks (script-src 'self'); this page takes swagger-ui-dist from
node_modules (app/web/views/assets.py) and starts it from static/js/api-docs.js.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from starlette.responses import Response

from app.web.views.templating import render

router = APIRouter(include_in_schema=False)


@router.get("/api/docs")
def api_docs(request: Request) -> Response:
    return render(request, "api_docs.html", {"openapi_url": request.app.openapi_url})
