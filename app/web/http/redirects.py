"""Post/redirect/get, for htmx and plain form posts alike, and the flash that carries what a
plain form post's answer showed to the page it redirects to."""

from __future__ import annotations

from typing import Annotated

from fastapi import Form, Request
from pydantic import AfterValidator
from starlette.responses import RedirectResponse, Response

from app.db.models import Game, Player
from app.services.assist.assist import Hint
from app.web.views.game_view import hinted, render_hinted
from app.web.views.templating import is_htmx


def see_other(request: Request, url: str) -> Response:
    """Post/redirect/get; for htmx a client-side full navigation (HX-Location would swap into the target)."""
    if is_htmx(request):
        return Response(status_code=200, headers={"HX-Redirect": url})
    return RedirectResponse(url, status_code=303)


def answer_hint(request: Request, game: Game, player: Player, found: Hint,
                headers: dict[str, str] | None = None) -> Response:
    """A hint's answer: for htmx the board with it marked; a plain form post goes on to the
    game's page with the hint in the flash, opened at its words (``#hint``: on a phone they were
    below the screen's edge)."""
    if not is_htmx(request):
        flash(request, **hinted(found))
        return see_other(request, f"/games/{game.id}#hint")
    return render_hinted(request, game, player, found, headers=headers)


FLASH = "flash"  # the one key of the signed session cookie (SessionMiddleware, app/web/main.py)


def flash(request: Request, **said: object) -> None:
    """Leave ``said`` (its non-empty parts) for the next page this browser gets."""
    said = {k: v for k, v in said.items() if v}
    if said:
        request.session[FLASH] = said


def flashed(request: Request) -> dict:
    """What the post before this page left for it, once: it goes with this page."""
    said = request.session.pop(FLASH, None)
    return said if isinstance(said, dict) else {}


def same_site_path(target: str) -> str:
    """Where a form asks to go back to: a same-site path of printable ASCII only, never another
    host. Anything else is refused (400) before the form changes anything: a browser drops tabs
    and newlines from a URL (a tab between two slashes makes ``//evil.example``), a newline or a
    character outside Latin-1 cannot go into a header (htmx's HX-Redirect), and the pages write
    their own paths in ASCII."""
    if (not target.startswith("/") or target.startswith("//") or "\\" in target
            or any(not 0x20 < ord(ch) < 0x7F for ch in target)):
        raise ValueError("next is a path on this site (printable ASCII, starting with one /)")
    return target


# a form's ``next`` field: where to go back to after it (post/redirect/get)
NextPath = Annotated[str, Form(max_length=300), AfterValidator(same_site_path)]
