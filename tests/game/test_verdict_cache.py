"""server/game/verdict_cache.py: a puzzle is searched once, whoever asks; the cache is bounded."""

from __future__ import annotations

import threading

import pytest

from server.engine import verdict as engine_verdict
from server.engine.shape import parse_puzzle
from server.game import verdict_cache
from server.game.verdict_cache import VerdictCache
from server.limits.budget import OverBudget, SearchBudget, Searches, SearchSlots, charged_to


@pytest.fixture
def counted(monkeypatch):
    """Every call of the engine's verdict, counted (the cache's only way to search)."""
    calls: list[str] = []
    real = engine_verdict.decide

    def decide(puzzle, *, time_limit):
        calls.append(puzzle.code)
        return real(puzzle, time_limit=time_limit)

    monkeypatch.setattr(verdict_cache, "decide", decide)
    return calls


def test_a_puzzle_is_decided_once_and_served_from_the_cache(counted):
    cache = VerdictCache(8)
    puzzle = parse_puzzle("5x5:c3.o")
    first = cache.decide(puzzle, time_limit=1.0)
    again = cache.decide(parse_puzzle(puzzle.code), time_limit=2.0)  # decided: any limit
    assert counted == [puzzle.code] and (cache.hits, cache.misses) == (1, 1)
    assert again == first and first.tour and len(first.witness) == 24


def test_an_undecided_verdict_answers_only_limits_it_was_given(counted, monkeypatch):
    undecided = engine_verdict.ShapeVerdict(None, "time", "undecided", {"seconds": 1.0})
    monkeypatch.setattr(
        verdict_cache, "decide", lambda p, *, time_limit: counted.append(time_limit) or undecided
    )
    cache = VerdictCache(8)
    puzzle = parse_puzzle("6x6.c")
    cache.decide(puzzle, time_limit=1.0)
    cache.decide(puzzle, time_limit=0.5)  # a shorter search would not decide it either
    cache.decide(puzzle, time_limit=2.0)  # a longer one might
    assert counted == [1.0, 2.0]


def test_the_cache_keeps_the_most_recently_used(counted):
    cache = VerdictCache(2)
    codes = ["4x5.o", "5x5.o", "6x6.o"]
    for code in codes:
        cache.decide(parse_puzzle(code), time_limit=1.0)
    cache.decide(parse_puzzle("4x5.o"), time_limit=1.0)  # the oldest was dropped
    assert len(cache) == 2 and counted == [*codes, "4x5.o"]


def test_the_same_puzzle_asked_at_once_is_searched_once(monkeypatch):
    release = threading.Event()
    calls = []

    def slow(puzzle, *, time_limit):
        calls.append(puzzle.code)
        release.wait(5)
        return engine_verdict.decide(puzzle, time_limit=time_limit)

    monkeypatch.setattr(verdict_cache, "decide", slow)
    cache = VerdictCache(8)
    puzzle = parse_puzzle("5x5:c3.o")
    answers = []
    askers = [
        threading.Thread(target=lambda: answers.append(cache.decide(puzzle, time_limit=1.0)))
        for _ in range(4)
    ]
    for asker in askers:
        asker.start()
    release.set()
    for asker in askers:
        asker.join(10)
    assert calls == [puzzle.code] and len(answers) == 4 and all(a.tour for a in answers)


def test_a_miss_is_a_search_of_whoever_asks_and_a_hit_is_not(counted):
    cache = VerdictCache(8)
    searches = Searches(SearchBudget(5, 1), SearchSlots(1, wait=0))
    puzzle = parse_puzzle("5x5:c3.o")
    with charged_to(searches, "a"):
        cache.decide(puzzle, time_limit=1.0)
        searches.budget.charge("a", 100)  # now "a" may not search
        assert cache.decide(puzzle, time_limit=1.0).tour  # a hit costs nothing
        with pytest.raises(OverBudget):
            cache.decide(parse_puzzle("5x5:b2.o"), time_limit=1.0)
    assert searches.searches == 1 and counted == [puzzle.code]
