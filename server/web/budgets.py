"""The app's CPU and memory budgets (server/limits/) at the web edge.

:func:`init_app` builds, from the app's settings,

* its :class:`~server.limits.budget.Searches` (``SEARCH_BUDGET``, ``SEARCH_BUDGET_REFILL``,
  ``SEARCH_SLOTS``, ``SEARCH_WAIT``), and sizes the verdict cache (``VERDICT_CACHE``);
  every request's searches are then charged to its client address
  (``request.remote_addr``: behind a proxy set ``PROXY_FIX``).  A socket handler that
  searches names its payer itself (``server.limits.budget.charged_to``);
* its :class:`~server.limits.memory.MemoryBudget` for kept timelines
  (``TIMELINE_MEMORY_PER_ADDRESS``, ``TIMELINE_MEMORY``), shared by whatever keeps
  one (the /watch run registry).

A refused search is answered by :func:`refusal`: 429 ``rate-limited`` when the address
has used its search time, 503 ``busy`` when every search slot stayed taken, both with
``Retry-After`` and the words in the request's language.
"""

from __future__ import annotations

from flask import Flask, current_app, g, jsonify, request

from ..engine.native import engine
from ..game.verdict_cache import verdicts
from ..i18n import request_lang, text
from ..limits.budget import (
    Busy,
    Refused,
    SearchBudget,
    Searches,
    SearchSlots,
    default_slots,
    start_paying,
    stop_paying,
)
from ..limits.memory import MB, MemoryBudget

EXTENSION = "searches"
MEMORY = "timeline_memory"
STATUS = {"rate-limited": 429, "busy": 503}
KEYS = {"rate-limited": "error.rate-limited.searches", "busy": "error.busy"}


def build(config) -> Searches:
    """The search limits the settings describe (a setting of 0 switches its limit off)."""
    budget = None
    if config["SEARCH_BUDGET"] > 0:
        budget = SearchBudget(config["SEARCH_BUDGET"], config["SEARCH_BUDGET_REFILL"])
    count = config["SEARCH_SLOTS"] or default_slots(engine())
    slots = SearchSlots(count, wait=config["SEARCH_WAIT"])
    return Searches(budget, slots)


def init_app(app: Flask) -> Searches:
    config = app.config
    searches = app.extensions[EXTENSION] = build(config)
    verdicts.resize(config["VERDICT_CACHE"])
    app.extensions[MEMORY] = MemoryBudget(
        config["TIMELINE_MEMORY_PER_ADDRESS"] * MB, config["TIMELINE_MEMORY"] * MB
    )

    @app.before_request
    def charge_the_client() -> None:
        g.search_payer = start_paying(searches, request.remote_addr or "")

    @app.teardown_request
    def stop_charging(_error=None) -> None:
        token = g.pop("search_payer", None)
        if token is not None:
            stop_paying(token)

    return searches


def searches(app: Flask | None = None) -> Searches:
    return (app or current_app).extensions[EXTENSION]


def memory(app: Flask | None = None) -> MemoryBudget:
    """The app's budget for kept timelines (every address's and the whole process's)."""
    return (app or current_app).extensions[MEMORY]


def code_of(err: Refused) -> str:
    return "busy" if isinstance(err, Busy) else "rate-limited"


def words(err: Refused, lang: str) -> str:
    return text(KEYS[code_of(err)], lang, {"seconds": err.retry_after})


def retry_after(err: Refused) -> dict:
    """The Retry-After header of a refusal (kept by server/web/ratelimit.py's last hook:
    Flask-Limiter would put its own on a 429 of a view it limits)."""
    g.retry_after = err.retry_after
    return {"Retry-After": str(err.retry_after)}


def refusal(err: Refused):
    """The JSON answer to a refused search: ``{"error", "code"}``, its status, Retry-After."""
    code = code_of(err)
    response = jsonify(error=words(err, request_lang()), code=code)
    response.status_code = STATUS[code]
    response.headers.update(retry_after(err))
    return response
