"""Page building: templates, boards, charts, words and pictures of the game (imports nothing
from ``app.web.http`` or the routes)."""
