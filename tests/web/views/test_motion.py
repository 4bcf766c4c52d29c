"""Auto-finish tells the page which card each of its moves took (static/js/motion.js plays
them one after another); a single move carries nothing extra."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import delete

from app.db.models import PositionVerdict

from ..helpers import board_state
from ..routes.test_solver_features import _near_end, _page, _post

pytestmark = pytest.mark.sqlite_only  # what is drawn, not how it is stored


def test_auto_finish_marks_the_step_of_each_card_it_took(client):
    game_id, keep = _near_end(client)
    html = _page(client, game_id)
    assert "data-motion-steps" not in html
    with client.app.state.sessionmaker() as session:  # another test's verdict here (a stubbed solver's): gone
        session.execute(delete(PositionVerdict))
        session.commit()
    client.get(f"/games/{game_id}/solver", headers={"HX-Request": "true"})  # proves the win
    response = _post(client, f"/games/{game_id}/autofinish", html)
    assert response.status_code == 200 and board_state(response.text)["status"] == "won"
    steps = re.search(r'data-motion-steps="([^"]+)"', response.text).group(1).split()
    codes = [pair.split(":")[0] for pair in steps]
    numbers = sorted({int(pair.split(":")[1]) for pair in steps})
    assert numbers == list(range(1, board_state(response.text)["ply"] - keep + 1))
    assert len(codes) == len(set(codes)) and all(re.fullmatch(r"[2-9TJQKA][CDHS]", c) for c in codes)
    undone = _post(client, f"/games/{game_id}/act", response.text, action="undo")
    assert "data-motion-steps" not in undone.text
