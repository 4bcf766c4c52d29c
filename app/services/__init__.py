"""Application services: what the web layer and scripts do with games and players.

No FastAPI, no URLs and no translated words here: services take a SQLAlchemy session and
plain values, and raise the errors in app.services.errors, which the web layer maps to status
codes. A package per concern: ``play`` (games, their moves and life, deals, the daily deal,
replays), ``assist`` (the solver's part), ``stats``, ``accounts``.
"""
