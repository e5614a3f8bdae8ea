"""The search limits at the HTTP edge (docs/api.md, "Search time").

Each client address has its search-seconds; spent, its hints, verdicts, worksheets and
pictures are refused with 429 and Retry-After while another address is served.  The
server runs at most SEARCH_SLOTS searches; with them taken a search waits at most
SEARCH_WAIT in a bounded queue, then 503 ``busy``.  A move is never refused for it.
Verdicts are searched once per puzzle code.  The tests hold the slots and spend the
budgets through the app's own objects (``budgets.searches(app)``); nothing waits
on a clock.
"""

from __future__ import annotations

import math
import shutil
import threading

import pytest
from markupsafe import escape

from server.app import create_app
from server.engine import verdict as engine_verdict
from server.game import rules, verdict_cache
from server.game.verdict_cache import verdicts
from server.i18n import text
from server.web.budgets import searches
from server.web.watch_socket import registry
from tests.support.waiting import wait_until
from tests.support.watch import WatchClient, served, start_payload

ME, OTHER = "10.1.1.1", "10.2.2.2"
SHAPE = "6x6~AQAAAAA.o"  # a6 cut out, a free start: its verdict searches
HARD = "16x16~EABBAIwAugL0AvQAuALsAVAB3AFhADoALgDLAGwAsQE.o.h2"


@pytest.fixture
def make_app(tmp_path, migrated_database):
    def make(**config):
        instance = tmp_path / f"instance{len(list(tmp_path.iterdir()))}"
        instance.mkdir()
        shutil.copyfile(migrated_database, instance / "knights_tour.sqlite3")
        return create_app({"TESTING": True, "INSTANCE_PATH": str(instance), **config})

    verdicts.clear()
    yield make
    verdicts.clear()


class Client:
    """A test client that comes from one address."""

    def __init__(self, app, address: str) -> None:
        self.client = app.test_client()
        self.environ = {"REMOTE_ADDR": address}

    def get(self, path):
        return self.client.get(path, environ_overrides=self.environ)

    def post(self, path, body=None):
        return self.client.post(path, json=body or {}, environ_overrides=self.environ)


def game_of(client: Client, **body) -> dict:
    response = client.post("/api/games", body or {"rows": 6, "cols": 6})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def refused(response, status: int, code: str, key: str, lang: str = "en"):
    assert response.status_code == status, response.get_data()[:300]
    seconds = int(response.headers["Retry-After"])
    assert seconds >= 1
    if response.is_json:
        assert response.get_json() == {"code": code, "error": text(key, lang, {"seconds": seconds})}
    return seconds


def test_a_spent_budget_refuses_searches_with_retry_after_while_another_address_is_served(
    make_app,
):
    app = make_app(SEARCH_BUDGET=10.0, SEARCH_BUDGET_REFILL=0.5)
    searches(app).budget.clock = lambda: 0.0  # no refill while the test looks
    me, other = Client(app, ME), Client(app, OTHER)
    game = game_of(me)
    assert me.post(f"/api/games/{game['id']}/moves", {"row": 0, "col": 0}).status_code == 200
    budget = searches(app).budget
    budget.charge(ME, 30)  # over 20 s of debt (the move's look-ahead cost a little too)
    key = "error.rate-limited.searches"
    hint = me.post(f"/api/games/{game['id']}/hint?lang=en")
    assert refused(hint, 429, "rate-limited", key) == math.ceil(-budget.level(ME) / 0.5) >= 40
    verdict = me.post("/api/verdict?lang=en", {"puzzle": SHAPE})
    refused(verdict, 429, "rate-limited", key)
    picture = me.get(f"/puzzle.png?puzzle={SHAPE}&lang=en")
    refused(picture, 429, "rate-limited", key)
    sheet = me.get(f"/worksheet?puzzle={SHAPE}&lang=en")
    seconds = refused(sheet, 429, "rate-limited", key)
    assert escape(text(key, "en", {"seconds": seconds})) in sheet.get_data(as_text=True)
    # the refused hint changed nothing; a move is still made (without looking ahead)
    state = me.client.get(f"/api/games/{game['id']}").get_json()
    assert state["hints"] == 0
    assert me.post(f"/api/games/{game['id']}/moves", {"row": 1, "col": 2}).status_code == 200
    # another address is served, on the same game too
    assert other.post(f"/api/games/{game['id']}/hint").status_code == 200
    assert other.post("/api/verdict", {"puzzle": SHAPE}).status_code == 200
    assert other.get(f"/puzzle.png?puzzle={SHAPE}").status_code == 200
    assert other.get(f"/worksheet?puzzle={SHAPE}").status_code == 200


def test_searches_are_charged_with_the_cpu_time_they_use(make_app):
    app = make_app(SEARCH_BUDGET=0.000001)  # the first search spends it all
    budget = searches(app).budget
    budget.clock = lambda: 0.0
    me = Client(app, ME)
    assert me.get(f"/worksheet?puzzle={SHAPE}").status_code == 200
    assert budget.level(ME) < 0 and searches(app).seconds > 0
    assert me.get(f"/worksheet?puzzle={SHAPE}&lang=zh").status_code == 429
    assert Client(app, OTHER).get(f"/worksheet?puzzle={SHAPE}").status_code == 200


def test_a_busy_server_answers_busy_and_makes_moves_without_looking_ahead(make_app, monkeypatch):
    app = make_app(SEARCH_SLOTS=1, SEARCH_WAIT=0)
    me = Client(app, ME)
    game = game_of(me)
    assert me.post(f"/api/games/{game['id']}/moves", {"row": 0, "col": 0}).status_code == 200
    looked = []
    real_hint = rules.hint
    monkeypatch.setattr(rules, "hint", lambda *a, **k: looked.append(1) or real_hint(*a, **k))
    slots = searches(app).slots
    with slots.hold("somebody else"):
        hint = me.post(f"/api/games/{game['id']}/hint?lang=zh")
        refused(hint, 503, "busy", "error.busy", "zh")
        moved = me.post(f"/api/games/{game['id']}/moves", {"row": 1, "col": 2})
        assert moved.status_code == 200 and moved.get_json()["moves"] == 1
        assert looked == []  # made without the early warning's search
        refused(me.get(f"/puzzle.svg?puzzle={SHAPE}&lang=en"), 503, "busy", "error.busy")
        refused(me.get(f"/worksheet?puzzle={SHAPE}"), 503, "busy", "error.busy")
        shape = game_of(me, puzzle=SHAPE)  # a game is still made; its verdict waits
        assert shape["feasible"]["possible"] is None and shape["feasible"]["code"] == "busy"
    assert slots.running() == 0
    assert me.post(f"/api/games/{game['id']}/hint").status_code == 200
    assert looked


def test_the_queue_for_a_slot_is_bounded(make_app):
    app = make_app(SEARCH_SLOTS=1, SEARCH_WAIT=60)
    slots = searches(app).slots
    statuses: list[int] = []
    slots.acquire("somebody else")
    starts = ["b1", "c1", "d1", "e1", "f1", "b2", "c2", "d2", "e2"][: slots.queue_per_address]
    waiting = [  # each its own puzzle: the same one asked twice is searched once
        threading.Thread(
            target=lambda s=start: statuses.append(
                Client(app, ME).post("/api/verdict", {"puzzle": f"{SHAPE}.{s}"}).status_code
            )
        )
        for start in starts
    ]
    for thread in waiting:
        thread.start()
    assert wait_until(lambda: slots.waiting() == slots.queue_per_address, 10)
    # one more from the same address is answered at once, not queued
    refused(
        Client(app, ME).post("/api/verdict?lang=en", {"puzzle": f"{SHAPE}.f2"}),
        503,
        "busy",
        "error.busy",
    )
    assert slots.waiting() == slots.queue_per_address
    slots.release("somebody else")
    for thread in waiting:
        thread.join(30)
    assert statuses == [200] * slots.queue_per_address


def test_a_verdict_is_searched_once_whoever_asks(make_app, monkeypatch):
    calls = []
    real = engine_verdict.decide
    monkeypatch.setattr(
        verdict_cache,
        "decide",
        lambda p, *, time_limit: calls.append(p.code) or real(p, time_limit=time_limit),
    )
    app = make_app()
    me, other = Client(app, ME), Client(app, OTHER)
    first = me.post("/api/verdict", {"puzzle": SHAPE})
    assert first.status_code == 200 and first.get_json()["tour"] is True
    assert other.post("/api/verdict", {"puzzle": SHAPE}).get_json() == first.get_json()
    assert me.get(f"/worksheet?puzzle={SHAPE}").status_code == 200
    assert other.get(f"/puzzle.png?puzzle={SHAPE}&solution=1").status_code == 200
    assert game_of(me, puzzle=SHAPE)["feasible"]["possible"] is True
    assert calls == [SHAPE]


def test_a_hard_worksheet_is_searched_once(make_app, monkeypatch):
    """The issue's example: a worksheet that searched 2 s on every request."""
    calls = []
    monkeypatch.setattr(
        verdict_cache,
        "decide",
        lambda p, *, time_limit: (
            calls.append(p.code)
            or engine_verdict.ShapeVerdict(None, "time", "undecided", {"seconds": time_limit})
        ),
    )
    app = make_app()
    for address in (ME, OTHER, ME):
        assert Client(app, address).get(f"/worksheet?puzzle={HARD}").status_code == 200
        assert Client(app, address).get(f"/puzzle.png?puzzle={HARD}").status_code == 200
    assert len(calls) == 1


def test_a_watch_start_is_refused_while_the_address_has_no_search_time(make_app):
    app = make_app()
    budget = searches(app).budget
    budget.clock = lambda: 0.0
    with served(app) as (url, _):
        client = WatchClient(url, lang="zh")
        try:
            budget.charge("127.0.0.1", budget.burst + 5)  # 5 s of debt: 10 s at 0.5 a second
            answer = client.start(start_payload("a", node_budget=1000))
            assert answer["ok"] is False
            assert answer["error"] == {
                "run": "a",
                "code": "rate-limited",
                "message": text("watch.error.rate-limited.searches", "zh", {"seconds": 10}),
            }
            assert registry(app).live_count() == 0
            budget.charge("127.0.0.1", -20)
            assert client.start(start_payload("a", node_budget=1000))["ok"]
            assert client.wait(lambda: "a" in client.dones, 10)
        finally:
            client.close()


def test_busy_says_its_own_wait_in_a_view_the_limiter_counts_too(make_app):
    """Flask-Limiter puts its window's Retry-After (an hour here) on every response of a
    view it limits; a 503 "busy" keeps the wait it states in its words."""
    app = make_app(SEARCH_SLOTS=1, SEARCH_WAIT=0.2, RATE_LIMIT_VERDICTS="1000 per hour")
    slots = searches(app).slots
    slots.acquire("somebody else")
    try:
        answer = Client(app, ME).post("/api/verdict?lang=en", {"puzzle": f"{SHAPE}.f2"})
        seconds = refused(answer, 503, "busy", "error.busy")  # the header is the words' wait
        assert seconds < 600  # not the limiter's hour
    finally:
        slots.release("somebody else")
