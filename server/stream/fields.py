"""The fields the watch messages are made of: each value's type, its range and the
refusal a value out of it earns (server/validation.py), and the bounds they are built on.

server/stream/spec.py puts them together into the messages; the class room's demo
settings (server/classroom/messages.py) use the board's fields too, so a demo is
bounded alike on /watch and in a class.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, Field, Strict

from ..engine.articles import ARTICLES
from ..validation import flag, refuse, refused, whole

# The lesson's two searches, the construction, and the articles' programs as written and
# corrected (server/engine/articles.py: open tours on a whole board, without pruning).
ALGORITHMS = ("seed", "warnsdorff", "construct", *ARTICLES)
MIN_SIDE = 3
MAX_SIDE = 30  # searches: every event is streamed, so bigger boards only mean budget runs
MAX_SIDE_CONSTRUCT = 100  # the construction streams exactly one move per square
MAX_WINDOW = 20_000  # credit outstanding, in events
# The node budget of a watched search, and of a class room's demo: the lesson's 8x8 plain
# search from a corner ends at 251,825,408 nodes.  The one copy: the class room and the
# pages (for the browser's lanes) take it from here.
MAX_NODE_BUDGET = 300_000_000
DEFAULT_NODE_BUDGET = 5_000_000
MAX_TIME_LIMIT = 600.0
DEFAULT_TIME_LIMIT = 120.0
MAX_GAME_ID = 64
RUN_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")


def _known_algorithm(value: str) -> str:
    if value not in ALGORITHMS:
        raise refuse("unknown-algorithm", "watch.error.unknown-algorithm", algorithm=value[:32])
    return value


RunId = Annotated[
    str,
    Strict(),
    Field(pattern=f"^{RUN_ID.pattern}$", description="client-chosen, unique per connection"),
    refused("bad-request", "watch.error.bad-request.run-id", always=True),
]
Algorithm = Annotated[
    str,
    Strict(),
    AfterValidator(_known_algorithm),
    Field(json_schema_extra={"enum": list(ALGORITHMS), "x-error": "unknown-algorithm"}),
]
Side = Annotated[
    int,
    Strict(),
    Field(
        description=f"searches: up to {MAX_SIDE}",
        json_schema_extra={
            "minimum": MIN_SIDE,
            "maximum": MAX_SIDE_CONSTRUCT,
            "x-error": "bad-board",
        },
    ),
]
Closed = flag("closed tour: the knight ends a knight's move from its start")
Pruning = flag("every provably safe pruning the engine offers")
Events = whole(
    1,
    MAX_WINDOW,
    refused("bad-request", "watch.error.bad-request.credit", max=MAX_WINDOW),
    doc="more events the viewer allows",
)
Window = whole(
    1,
    MAX_WINDOW,
    refused("bad-request", "watch.error.bad-request.window", max=MAX_WINDOW),
    doc="initial credit, in events",
)
NodeBudget = whole(
    1,
    MAX_NODE_BUDGET,
    refused("bad-budget", "watch.error.bad-budget.nodes", max=MAX_NODE_BUDGET),
    doc=f"null: {DEFAULT_NODE_BUDGET:,}",
)
TimeLimit = Annotated[
    float,
    Strict(),
    Field(gt=0, le=MAX_TIME_LIMIT, description=f"seconds; null: {DEFAULT_TIME_LIMIT:g}"),
    refused("bad-budget", "watch.error.bad-budget.time", max=MAX_TIME_LIMIT),
]
Holes = Annotated[
    list[Annotated[int, Strict()]],
    Field(
        max_length=MAX_SIDE_CONSTRUCT**2,
        description="squares (row × cols + col) the board does not have; null or []: none",
        json_schema_extra={"x-error": "bad-holes"},
    ),
    refused("bad-holes", "watch.error.bad-holes", always=True),
]
GameId = Annotated[
    str,
    Strict(),
    Field(
        min_length=1,
        max_length=MAX_GAME_ID,
        description="go on from that game's path (the Play page's “show me”)",
    ),
]
