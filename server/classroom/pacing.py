"""How far ahead of the class the room's search computes, and how far ahead members are
sent: the pacing of the class's demo, as pure functions of the room's public state.

Two promises pull apart here.  A playing class must see its demo at once on every
phone, so the feed sends about a second of play ahead of where the class is; a paused
class must leave something nobody holds, so a quiz question can be asked where it
stands, so nothing is sent ahead of it (the search still computes ahead, unsent, so a
question is ready).  Played faster than :data:`STREAM_MAX_SPEED`, nobody can follow
every move and a phone on school Wi-Fi should not receive them: members get keyframes
instead.  The owner's feed (server/classroom/feed.py) and every process's reads (a
join's snapshot, a ``sync``) follow the same rules, so neither reaches further than
the other.
"""

from __future__ import annotations

import math

STREAM_MAX_SPEED = 500.0  # events per second; faster is shown by keyframes
PAUSED_AHEAD = 200  # events computed ahead of a paused class (none is sent ahead)
AHEAD_SECONDS = 1.0  # ... and sent ahead of a playing one, in seconds of play: four ticks
MAX_AHEAD = 2_000
MIN_LEAD = 2  # events sent ahead of a slowly playing class at least


def streaming(state: dict) -> bool:
    """Whether members get every event (False: keyframes while it plays fast)."""
    speed = state["speed"]
    return not state["playing"] or (speed is not None and speed <= STREAM_MAX_SPEED)


def lookahead(state: dict) -> int:
    """How many events the search computes ahead of the class's index."""
    if not streaming(state):
        return 0
    if not state["playing"]:
        return PAUSED_AHEAD
    return min(MAX_AHEAD, max(PAUSED_AHEAD, int(state["speed"] * AHEAD_SECONDS)))


def lead(state: dict, end: int | None = None) -> int:
    """How many events members are sent ahead of the class's index: about a second of
    play while it plays, none while it is paused (a question is asked there).

    Once the search's ``end`` (its total of events) is known, never more than half of
    what remains: whenever the teacher pauses, some event the class was not sent is
    left, so a question can be asked ahead of the class (a 64-event Warnsdorff tour
    would otherwise be sent whole at its first tick).
    """
    if not streaming(state) or not state["playing"]:
        return 0
    ahead = min(MAX_AHEAD, max(MIN_LEAD, math.ceil(state["speed"] * AHEAD_SECONDS)))
    if end is not None:
        ahead = min(ahead, max(0, (end - state["index"]) // 2))
    return ahead


def end_total(state: dict) -> int | None:
    """The search's total of events once the room knows it."""
    return state["end"]["total"] if state["end"] is not None else None
