"""What a class member shows, held to the engine's own walk (tests/support/follower.py)."""

from __future__ import annotations

from tests.support.follower import SIX_BY_SIX, Following, reference
from tests.support.waiting import wait_until


def shows_truth(
    member: Following, index: int, settings: dict = SIX_BY_SIX, timeout: float = 15
) -> bool:
    """``member`` shows the engine's own position at ``index`` of the demo ``settings`` (its
    path, nodes and backtracks) within ``timeout`` seconds."""
    if not wait_until(lambda: member.shows(index) is not None, timeout):
        return False
    shown, truth = member.shows(index), reference(settings, index)
    return (shown.path, shown.nodes, shown.backtracks) == (
        truth.path,
        truth.nodes,
        truth.backtracks,
    )
