"""Both engines: the compiled core and the pure-Python reference.

Test modules that ask for ``engine`` (``pytestmark = pytest.mark.usefixtures("engine")``)
run once on each.  The compiled one fails, not skips, when the core is missing, so a
broken build cannot pass CI unnoticed; ``KNIGHTS_TOUR_ENGINE=python`` (a machine
without a compiler) skips it instead.
"""

from __future__ import annotations

import os

import pytest

from server.engine import hints, native

ENGINES = ("compiled", "python")


def require_core() -> None:
    """Fail (or skip, when the Python engine was asked for) without the compiled core."""
    if native.available():
        return
    if os.environ.get(native.ENV, "").strip().lower() == "python":
        pytest.skip(f"{native.ENV}=python")
    pytest.fail(f"the compiled core did not load: {native.describe()}")


@pytest.fixture(params=ENGINES)
def engine(request):
    """Runs the test on one engine; yields its name."""
    if request.param == "compiled":
        require_core()
    with native.use(request.param):
        yield request.param


@pytest.fixture
def strong_checks(monkeypatch):
    """The hints' costly in-search tests and tiny restarts on from the first node, so that
    small boards run them too."""
    monkeypatch.setattr(hints, "FLOW_AFTER", 0)
    monkeypatch.setattr(hints, "FORCED_AFTER", 0)
    monkeypatch.setattr(hints, "RESTART_NODES", 3)
