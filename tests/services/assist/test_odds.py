"""The odds page's measured figures (app.services.assist.odds): read at run time from files the
repository keeps, so the image must carry them (without them the page still answered, with its
own measurements gone)."""

from __future__ import annotations

import re

from app.services.assist import odds
from app.settings import PROJECT_ROOT


def _copied_into_the_image() -> set[str]:
    """The sources of the Dockerfile's COPY lines in its last stage (the image that runs)."""
    stages = (PROJECT_ROOT / "Dockerfile").read_text().split("\nFROM ")
    sources = set()
    for line in stages[-1].splitlines():
        if line.startswith("COPY ") and "--from=" not in line:
            sources.update(line.split()[1:-1])
    return sources


def test_the_survey_files_are_kept_and_shipped():
    copied = _copied_into_the_image()
    for path in (odds.RESULTS, odds.PLAYER_RESULTS):
        assert odds.survey_rows(path), path  # the figures are there, and read
        relative = path.relative_to(PROJECT_ROOT).as_posix()
        assert any(relative == source or relative.startswith(source.rstrip("/") + "/") for source in copied), relative
    assert any(re.fullmatch(r"templates/?", source) for source in copied)  # the check reads the right stage
