"""The class room's tests run inside an app context on a real SQLite database."""

from __future__ import annotations

import pytest


@pytest.fixture
def ctx(app):
    with app.app_context():
        yield
