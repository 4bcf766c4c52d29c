"""Rule options of each game, parsed from and printed to the command line's spelling."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .errors import InvalidRulesError

GOALS = ("pyramid", "all")
ACES = ("removed", "starters")


def _count_or_unlimited(name: str, value: object, allowed: tuple[int, ...]) -> int | None:
    text = str(value).strip().lower()
    if text == "unlimited":
        return None
    if text.isdigit() and int(text) in allowed:
        return int(text)
    choices = "|".join(str(n) for n in allowed)
    raise InvalidRulesError(f"--{name} takes {choices}|unlimited, not {value!r}")


def _choice(name: str, value: object, allowed: tuple[str, ...]) -> str:
    text = str(value).strip().lower()
    if text not in allowed:
        raise InvalidRulesError(f"--{name} takes {'|'.join(allowed)}, not {value!r}")
    return text


def _flag(name: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("", "1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise InvalidRulesError(f"--{name} is a flag, not {value!r}")


def _check_known(options: Mapping[str, object], known: tuple[str, ...], game: str) -> None:
    for key in options:
        if key not in known:
            raise InvalidRulesError(f"{game} has no rule option --{key}")


@dataclass(frozen=True, slots=True)
class PyramidRules:
    """Pyramid family options.

    ``passes``: how many times the stock may be gone through (``None`` = unlimited).
    ``goal``: ``pyramid`` (won when the pyramid is empty) or ``all`` (every card gone).
    ``overlap``: a card may also pair with the one card that still covers it.
    """

    passes: int | None = 1
    goal: str = "pyramid"
    overlap: bool = False

    @classmethod
    def from_options(cls, options: Mapping[str, object], game: str = "pyramid") -> PyramidRules:
        # Giza has no stock, so --passes is accepted there but changes nothing.
        _check_known(options, ("passes", "goal", "overlap"), game)
        return cls(
            passes=_count_or_unlimited("passes", options.get("passes", 1), (1, 2, 3)),
            goal=_choice("goal", options.get("goal", "pyramid"), GOALS),
            overlap=_flag("overlap", options.get("overlap", False)),
        )

    def to_options(self) -> dict[str, str]:
        """The options as the command line spells them, defaults included."""
        options = {
            "passes": "unlimited" if self.passes is None else str(self.passes),
            "goal": self.goal,
        }
        if self.overlap:
            options["overlap"] = "true"
        return options


@dataclass(frozen=True, slots=True)
class GapsRules:
    """Gaps options.

    ``rounds``: how many deals in all, the first included (``None`` = unlimited redeals).
    ``aces``: ``removed`` (international: any 2 opens a row) or ``starters`` (Danish house
    rule: the aces become row starters and each row is built in its starter's suit).
    """

    rounds: int | None = 3
    aces: str = "removed"

    @classmethod
    def from_options(cls, options: Mapping[str, object], game: str = "gaps") -> GapsRules:
        _check_known(options, ("rounds", "aces"), game)
        return cls(
            rounds=_count_or_unlimited("rounds", options.get("rounds", 3), (1, 2, 3, 4)),
            aces=_choice("aces", options.get("aces", "removed"), ACES),
        )

    def to_options(self) -> dict[str, str]:
        return {
            "rounds": "unlimited" if self.rounds is None else str(self.rounds),
            "aces": self.aces,
        }
