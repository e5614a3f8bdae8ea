"""Browser tests: the real app on a free port, driven through Playwright's sync API.

Debian's chromium, as its headless shell (installed by ``make browser``), is used when
present, else Playwright's own build (``python -m playwright install chromium``): see
tests/support/chromium.py.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from playwright import sync_api as playwright_sync

from tests.support.chromium import launch_options

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
DESKTOP = {"width": 1280, "height": 800}

# CI machines are small and busy: give the page room before an expectation fails.
playwright_sync.expect.set_options(timeout=10_000)

# The code lab's Pyodide is some 10 MB of WebAssembly, compiled again by every new context;
# V8's optimising tier then compiles it a second time in the background. That second
# compile cost the lab's tests 11 % of their CPU (67 against 76 core-seconds) and changes
# nothing they check; the benchmarks keep it (they launch with launch_options() alone).
TEST_ONLY_ARGS = ["--js-flags=--no-wasm-tier-up"]

# The longest tests (a minute each on 2 cores) are handed out first: `make test` spreads
# the browser tests one by one over its workers (pytest-xdist's --dist load), in this
# order, so none of them is left to run alone at the end.
LONGEST = (
    "test_class_lesson_walk.py::test_a_whole_lesson_with_the_quiz_on_three_phones",
    "test_a11y.py::",
    "test_share.py::test_win_the_daily_by_clicks_share_it_and_watch_the_replay",
    "test_play.py::test_closed_tour_6x6_by_following_hints",
    "test_levels.py::test_a_phone_player_clears_three_levels_and_the_map_remembers",
    "test_class.py::test_students_follow_the_teacher",
    "test_class_quiz.py::",
    "test_class_presenter.py::",
    "test_class_articles.py::",
)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    def rank(item) -> int:
        name = item.nodeid.rpartition("/")[2]
        return next((i for i, slow in enumerate(LONGEST) if name.startswith(slow)), len(LONGEST))

    items.sort(key=rank)


@pytest.fixture(scope="session")
def live_app(tmp_path_factory):
    """(app, url): the real application, served from a background thread on a free port.

    One app for the whole browser session: Flask-SocketIO binds its server to the app it
    was initialised with last, so tests that need the app's internals (the run registry)
    use this one rather than building a second app.
    """
    from server.app import create_app
    from server.http_server import make_server

    instance = tmp_path_factory.mktemp("browser-instance")
    # Every browser test plays from one address, and the suite opens more classes (and
    # searches more) than a teacher would in an hour: no rate limits and no search budget
    # here (tests/web checks them).
    app = create_app(
        {
            "INSTANCE_PATH": str(instance),
            "RATE_LIMIT_GAMES": None,
            "RATE_LIMIT_VERDICTS": None,
            "RATE_LIMIT_CLASS_ROOMS": None,
            "RATE_LIMIT_CLASS_NAMES": None,
            "RATE_LIMIT_CLASS_MISSES": None,
            "SEARCH_BUDGET": 0,
        }
    )
    server = make_server("127.0.0.1", 0, app)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield app, f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="session")
def live_server(live_app) -> str:
    """The live app's base URL."""
    return live_app[1]


@pytest.fixture(scope="session")
def browser():
    with playwright_sync.sync_playwright() as pw:
        options = launch_options()
        options["args"] = [*options["args"], *TEST_ONLY_ARGS]
        instance = pw.chromium.launch(**options)
        try:
            yield instance
        finally:
            instance.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def new_page(browser, live_server):
    """``new_page(**context_options)``: a fresh browser context (own storage and cookies).

    Uncaught JavaScript errors fail the test.
    """
    contexts = []
    errors: list[str] = []

    def make(**options):
        options.setdefault("viewport", DESKTOP)
        options.setdefault("locale", "en-US")
        options.setdefault("reduced_motion", "reduce")
        context = browser.new_context(base_url=live_server, **options)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def page(new_page):
    return new_page()
