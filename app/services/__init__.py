"""Application services: what the web layer and scripts do with games and players.

No FastAPI here: services take a SQLAlchemy session and plain values, and raise the
errors in app.services.errors, which the web layer maps to status codes.
"""
