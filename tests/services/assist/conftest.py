"""A fresh SQLite database for a test of the assist services, its searches in the test's own
process (a module may keep one database for all its tests with a ``sessions`` of its own)."""

from __future__ import annotations

import pytest

from tests.databases import migrated_sessions


@pytest.fixture
def sessions(tmp_path):
    return migrated_sessions(tmp_path)
