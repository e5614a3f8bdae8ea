"""The guided lesson: its chapter data (server/lesson/chapters.json) and its routes.

Every chapter's demo must be a run the server's own /watch start validation accepts, every
step a place its search reaches, and every narration key must exist in both languages.
"""

from __future__ import annotations

import string
from itertools import islice

import pytest
from markupsafe import escape

from server.engine.board import Board
from server.engine.search import search_events, solve
from server.i18n import LANGS, MESSAGES
from server.lesson import chapters
from server.stream import spec

CHAPTERS = chapters.CHAPTERS
IDS = [chapter["id"] for chapter in CHAPTERS]


def test_the_lesson_covers_the_seeds_chapters():
    assert IDS == [
        "moves",
        "dfs",
        "explode6",
        "explode8",
        "warnsdorff",
        "race",
        "closed",
        "huge",
        "bug-java1",
        "fix-java1",
        "bug-python",
        "fix-python",
        "bug-java2",
        "fix-java2",
        "bug-c",
        "loop-c",
    ]
    assert len(set(IDS)) == len(IDS)


@pytest.mark.parametrize("chapter", CHAPTERS, ids=IDS)
def test_each_demo_is_a_run_the_server_accepts(chapter):
    settings = chapter["settings"]
    algorithms = [settings["algorithm"]]
    if settings.get("race"):
        algorithms.append(settings["algorithm_b"])
    else:
        assert "algorithm_b" not in settings
    for algorithm in algorithms:
        run = spec.parse_start(chapters.run_payload(settings, algorithm=algorithm))
        assert (run.rows, run.cols) == (settings["rows"], settings["cols"])
        assert run.algorithm == algorithm


@pytest.mark.parametrize("chapter", CHAPTERS, ids=IDS)
def test_each_step_has_its_words_in_both_languages_and_a_place_the_demo_reaches(chapter):
    steps = chapter["steps"]
    assert 2 <= len(steps) <= 5
    for key in [f"lesson.{chapter['id']}.title"] + [step["key"] for step in steps]:
        assert key in MESSAGES, key
        assert set(MESSAGES[key]) == set(LANGS), key
        names = [
            {name for _, name, _, _ in string.Formatter().parse(MESSAGES[key][lang]) if name}
            for lang in LANGS
        ]
        assert names[0] == names[1], key
    settings = chapter["settings"]
    for step in steps:
        assert set(step) <= {"key", "at", "speed", "show", "huge"}, step
        assert step["key"].startswith(f"lesson.{chapter['id']}.")
        assert step["at"] == "end" or (isinstance(step["at"], int) and step["at"] >= 1)
        speed = step.get("speed", 0)
        assert speed is None or (isinstance(speed, int | float) and 0 <= speed <= 10_000)
        assert step.get("show") in (None, "moves")
        if "huge" in step:
            assert step["huge"] in chapters.HUGE_SIDES
        if isinstance(step["at"], int):
            assert events_reached(settings, step["at"]) == step["at"], step
    numbers = [step["at"] for step in steps if isinstance(step["at"], int)]
    assert numbers == sorted(numbers)  # the story goes forwards


def events_reached(settings: dict, count: int) -> int:
    """How many of the first ``count`` events the chapter's demo has."""
    if settings["algorithm"] == "construct":
        return min(count, settings["rows"] * settings["cols"])
    board = Board(settings["rows"], settings["cols"])
    start = settings["start"][0] * settings["cols"] + settings["start"][1]
    events = search_events(board, start, ordering=settings["algorithm"], closed=settings["closed"])
    return sum(1 for e in islice(events, count) if e.kind in ("move", "backtrack"))


def engine_count(chapter_id: str, algorithm: str | None = None, what: str = "nodes") -> int:
    """The calls (nodes) or returns (backtracks) the engine counts for a chapter's demo."""
    settings = CHAPTERS[IDS.index(chapter_id)]["settings"]
    rows, cols = settings["rows"], settings["cols"]
    start = settings["start"][0] * cols + settings["start"][1]
    result = solve(Board(rows, cols), start, ordering=algorithm or settings["algorithm"])
    return getattr(result, what)


# Each figure an article chapter's narration states, as the engine counts it: (step, figure).
ARTICLE_FIGURES = {
    "bug-java1": [
        ("lesson.bug-java1.3", lambda: engine_count("bug-java1")),  # 720
        ("lesson.bug-java1.3", lambda: engine_count("bug-java1", what="backtracks")),
        ("lesson.bug-java1.1", lambda: engine_count("bug-java1", "a000-java-fixed")),  # 64
    ],
    "fix-java1": [
        ("lesson.fix-java1.2", lambda: engine_count("fix-java1")),
        ("lesson.fix-java1.2", lambda: engine_count("fix-java1", "a000-java")),
    ],
    "bug-python": [("lesson.bug-python.3", lambda: engine_count("bug-python"))],  # declared
    "fix-python": [
        ("lesson.fix-python.2", lambda: engine_count("fix-python")),
        ("lesson.fix-python.2", lambda: engine_count("fix-python", "a001-python")),
    ],
    "bug-java2": [
        ("lesson.bug-java2.1", lambda: engine_count("bug-java2", "seed")),  # its order, no sort
        ("lesson.bug-java2.2", lambda: engine_count("bug-java2")),
        ("lesson.bug-java2.2", lambda: engine_count("bug-java2", "a002-java-fixed")),
    ],
    "fix-java2": [
        ("lesson.fix-java2.2", lambda: engine_count("fix-java2")),
        ("lesson.fix-java2.2", lambda: engine_count("fix-java2", "a002-java")),
    ],
    "bug-c": [("lesson.bug-c.2", lambda: engine_count("bug-c"))],
    "loop-c": [
        ("lesson.loop-c.3", lambda: engine_count("loop-c")),
        ("lesson.loop-c.3", lambda: engine_count("loop-c", "a003-c")),
    ],
}


@pytest.mark.parametrize("chapter_id", list(ARTICLE_FIGURES))
def test_an_article_chapter_states_the_engines_figures_in_both_languages(chapter_id):
    for key, figure in ARTICLE_FIGURES[chapter_id]:
        for lang in LANGS:
            assert f"{figure():,}" in MESSAGES[key][lang], (key, lang, figure())


def test_the_python_article_chapter_ends_on_its_false_tour():
    settings = CHAPTERS[IDS.index("bug-python")]["settings"]
    *_, final = search_events(Board(5, 5), 12, ordering=settings["algorithm"])
    assert settings["start"] == [2, 2] and final.kind == "declared" and final.path[-1] == 12


def test_the_closed_chapter_backtracks_where_its_narration_says():
    chapter = CHAPTERS[IDS.index("closed")]
    settings = chapter["settings"]
    events = list(islice(search_events(Board(6, 6), 0, ordering="warnsdorff", closed=True), 40))
    at = chapter["steps"][1]["at"]
    assert events[at - 1].kind == "backtrack"
    assert all(e.kind == "move" for e in events[: at - 1])
    assert settings["closed"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_lesson_page_lists_every_chapter_in_its_language(client, lang):
    page = client.get(f"/lesson?lang={lang}")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    for chapter in CHAPTERS:
        assert escape(MESSAGES[f"lesson.{chapter['id']}.title"][lang]) in text
    assert 'id="lesson-chapters"' in text
    assert 'data-role="stack"' in text


def test_the_huge_board_is_built_and_checked_on_the_server(client):
    answer = client.get("/lesson/huge?side=1000")
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["squares"] == 1_000_000 and body["closed"] is True
    assert body["rows"] == body["cols"] == 1000


@pytest.mark.parametrize("query", ["?side=7", "?side=abc", "?side=-1", "?side=99999", "?side="])
def test_a_huge_board_of_another_size_is_refused(client, query):
    answer = client.get(f"/lesson/huge{query}&lang=en")
    assert answer.status_code == 400
    assert answer.get_json()["code"] == "bad-request"
    assert "1000" in answer.get_json()["error"]


def test_a_closed_tour_check_refuses_a_broken_tour():
    assert chapters.is_closed_tour([0, 7, 14], 3) is False
    tour = chapters.huge_tour(1000)  # cached: the same figures again
    assert tour is chapters.huge_tour(1000)
