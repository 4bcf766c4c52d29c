"""Link-preview images: ``/preview/{language}/{preset}/{ref}.png`` (app.web.views.previews draws them).

Chat apps' preview bots fetch these, so the route asks for no player and sets no cookie (the
security middleware only sends cookies a dependency queued), and answers its errors in plain
text rather than with a page that would give the bot a visitor's cookie.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from starlette.responses import PlainTextResponse, Response

from app.services.errors import InputError, ServiceError
from app.web.http.errors import headers_of, status_of
from app.web.http.middleware import check_new_preview
from app.web.views import previews

router = APIRouter(include_in_schema=False)

MAX_REF = 120  # a Double Pyramid token is 104 letters; a seed at most 20 digits
FOR_GOOD = "public, max-age=31536000, immutable"  # the versioned URL: its content never changes
A_WHILE = "public, max-age=3600"  # without the current ?v= (an old page, or none): may change


@router.api_route("/preview/{language}/{preset}/{ref}.png", methods=["GET", "HEAD"])
def preview_image(language: str, preset: str, ref: str, request: Request) -> Response:
    try:
        if len(ref) > MAX_REF:
            raise InputError("that deal is far too long", "bad_deal")
        found = previews.preview_for_ref(preset, ref, language, admit=lambda: check_new_preview(request))
    except ServiceError as exc:  # the app's statuses (app.web.http.errors), in plain words
        return PlainTextResponse(exc.message, status_code=status_of(exc), headers=headers_of(exc))
    etag = f'"{found.key}"'
    headers = {"etag": etag,
               "cache-control": FOR_GOOD if request.query_params.get("v") == found.key else A_WHILE}
    seen = [tag.strip().removeprefix("W/") for tag in request.headers.get("if-none-match", "").split(",")]
    if etag in seen or "*" in seen:
        return Response(status_code=304, headers=headers)
    return Response(found.png, media_type="image/png", headers=headers)
