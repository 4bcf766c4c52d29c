"""The load benchmark's floor: the least a move request could cost in this app.

`POST /bench/floor/{game_id}` reads the game row, commits one UPDATE of it and answers with
an HTML fragment of the requested size (bench/load.py asks for the size of a real move
fragment). It goes through the same middleware as a move. Mounted only when the
BENCH_FLOOR setting is true; never in production.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse
from sqlalchemy import bindparam, update

from app.db.models import Game, utcnow
from app.services import games

from ..threads import run_board_work

router = APIRouter(include_in_schema=False)

# built once, as the move path's statements are: the floor is the least a move could cost
_TOUCH = (
    update(Game).where(Game.id == bindparam("game_id")).values(updated_at=bindparam("now"))
    .execution_options(synchronize_session=False)
)

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
async def floor(game_id: str, request: Request, size: Annotated[int, Query(ge=0, le=65536)] = 11000) -> HTMLResponse:
    # built as the board action is (app/web/routes/games.py): one hop to the threadpool, with
    # its own session, so the floor pays for the same plumbing a move does and no more
    return await run_board_work(request, _floor, game_id, request, size)


def _floor(game_id: str, request: Request, size: int) -> HTMLResponse:
    with request.app.state.sessionmaker() as session:
        game = games.get_game_row(session, game_id)
        session.execute(_TOUCH, {"game_id": game.id, "now": utcnow()})
        session.commit()
    return HTMLResponse(filler(size), headers={"cache-control": "no-store"})
