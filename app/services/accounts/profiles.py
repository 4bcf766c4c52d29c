"""A player's profile: display name, the link that opens it on another device, deletion.

The device link carries ``<player id>.<HMAC(secret key, player id, nonce)>``; only the nonce
is stored, so a copy of the database alone opens no profile. A new nonce (a new link)
revokes the old one, and no nonce means no link works.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata

from sqlalchemy import delete
from sqlalchemy.orm import Session

from app.db.models import Game, Player

NAME_MAX = 40


def clean_name(text: str) -> str | None:
    """Any text, but one line: control characters go, spaces collapse, 40 characters at most."""
    kept = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in text)
    name = " ".join(kept.split())[:NAME_MAX].strip()
    return name or None


def set_display_name(session: Session, player: Player, text: str) -> Player:
    player.display_name = clean_name(text)
    return player


def _signature(secret: str, player_id: str, nonce: str) -> str:
    return hmac.new(secret.encode(), f"device:{player_id}:{nonce}".encode(), hashlib.sha256).hexdigest()[:40]


def device_token(secret: str, player: Player) -> str | None:
    if not player.device_nonce:
        return None
    return f"{player.id}.{_signature(secret, player.id, player.device_nonce)}"


def new_device_link(session: Session, player: Player) -> None:
    """A fresh link; any earlier one stops working."""
    player.device_nonce = secrets.token_hex(16)


def revoke_device_link(session: Session, player: Player) -> None:
    player.device_nonce = None


def player_for_device_token(session: Session, secret: str, token: str) -> Player | None:
    player_id, _, signature = token.partition(".")
    if not player_id or not signature or len(token) > 120:
        return None
    player = session.get(Player, player_id)
    if player is None or not player.device_nonce:
        return None
    expected = _signature(secret, player.id, player.device_nonce)
    return player if hmac.compare_digest(expected.encode(), signature.encode()) else None


def delete_player(session: Session, player: Player) -> None:
    """The profile and every game of it, for good."""
    session.execute(delete(Game).where(Game.player_id == player.id).execution_options(synchronize_session=False))
    session.delete(player)
    session.flush()
