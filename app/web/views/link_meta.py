"""What a shared link shows in a chat app: the Open Graph and Twitter card tags of a page
(templates/_link_meta.html, in base.html's ``meta`` block).

Share links, game pages, deal pages and replays name a deal; their preview is that deal's:
"Pyramid · Seed 123 · Tretten", the rules in words and how many players won it, and the deal
as it is dealt (app.web.views.previews). Every URL is absolute, from the public base URL.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from fastapi import Request
from sqlalchemy.orm import Session

from app.db.models import Game
from app.services.stats import deals
from app.web.views import previews, sharing
from app.web.views.preset_words import preset_name
from app.web.views.templating import absolute


@dataclass(frozen=True)
class LinkMeta:
    title: str
    description: str
    url: str           # og:url: the page's own address
    image: str         # og:image: the versioned preview
    game_name: str     # the preset's name, for the image's alt text
    locale: str        # og:locale
    width: int = previews.WIDTH
    height: int = previews.HEIGHT


def deal_meta(request: Request, preset: str, path: str, *, seed: int | None = None, deal_text: str | None = None,
              daily_on: date | None = None, players: int, winners: int) -> LinkMeta:
    """The tags of a page at ``path`` that shows the deal (a seed, or an imported deal's text)."""
    language = request.state.language
    image = previews.preview_path(preset, seed=seed, deal_text=None if seed is not None else deal_text,
                                  language=language)
    return LinkMeta(
        title=sharing.link_title(preset, language, seed=seed, daily_on=daily_on),
        description=sharing.link_description(preset, language, players=players, winners=winners),
        url=absolute(request, path),
        image=absolute(request, image),
        game_name=preset_name(preset, language),
        locale=sharing.LOCALES[language],
    )


def game_meta(request: Request, session: Session, game: Game, path: str, *,
              daily_on: date | None = None) -> LinkMeta:
    """A game's page, replay or share link (``game`` may be a deal ready to play, not stored)."""
    players, winners = deals.deal_counts(session, game.preset, seed=game.seed, deal=game.deal)
    return deal_meta(request, game.preset, path, seed=game.seed, deal_text=game.deal,
                     daily_on=daily_on or game.daily_on, players=players, winners=winners)
