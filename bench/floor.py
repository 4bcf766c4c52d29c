"""The load benchmark's floor: the least a move request could cost in this app.

`POST /bench/floor/{game_id}` reads the game row, commits one UPDATE of it and answers with an
HTML fragment of the requested size (bench/load.py asks for the size of a real move fragment),
through the same middleware as a move. It is not part of the app: the benchmarks serve
`floor:create_app` (uvicorn --app-dir bench --factory floor:create_app), the app with this
router added.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated

from fastapi import APIRouter, FastAPI, Query
from fastapi.responses import HTMLResponse
from sqlalchemy import update

from app.db.models import Game, utcnow
from app.services.play import games
from app.web.http.deps import GameIdDep, SessionDep
from app.web.main import create_app as create_tretten

router = APIRouter(include_in_schema=False)

_SNIPPET = '<button class="card" data-loc="P{i}" data-card="{r}{s}" aria-label="{r} of {s}">{r}</button>\n'


@lru_cache(maxsize=16)
def filler(size: int) -> str:
    parts, total, i = ['<div id="board">\n'], 0, 0
    while total < size:
        part = _SNIPPET.format(i=i % 28, r=(i * 7) % 13 + 1, s="CDHS"[i % 4])
        parts.append(part)
        total += len(part)
        i += 1
    return "".join(parts) + "</div>\n"


@router.post("/bench/floor/{game_id}")
def floor(game_id: GameIdDep, session: SessionDep,
          size: Annotated[int, Query(ge=0, le=65536)] = 11000) -> HTMLResponse:
    game = games.get_game_row(session, game_id)
    session.execute(update(Game).where(Game.id == game.id).values(updated_at=utcnow())
                    .execution_options(synchronize_session=False))
    session.commit()
    return HTMLResponse(filler(size), headers={"cache-control": "no-store"})


def create_app() -> FastAPI:
    app = create_tretten()
    app.include_router(router)
    return app
