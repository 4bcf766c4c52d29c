"""Persistence: models, engine/session factory and migrations."""
