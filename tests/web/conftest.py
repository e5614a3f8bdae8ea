"""Fixtures shared by the socket tests: an in-process server with /watch clients, and one
with class members speaking from given addresses (tests/support/classes.py)."""

from __future__ import annotations

import pytest

from server.app import create_app
from tests.support.classes import Clients, serve
from tests.support.watch import WatchClient, WireViewer, client_pool, served


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """(base URL, app) of an in-process server on a free port, one per module."""
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path_factory.mktemp("live"))})
    with served(app) as live:
        yield live


@pytest.fixture
def client_class():
    """The class of the clients ``clients`` opens (a module may ask for another)."""
    return WatchClient


@pytest.fixture
def clients(live, client_class):
    """Open clients on demand; all closed (and every run gone) after the test."""
    with client_pool(*live, client_class) as open_client:
        yield open_client


@pytest.fixture
def wires(live):
    """Viewers that read the server's messages in its order (WireViewer), on demand."""
    with client_pool(*live, WireViewer) as open_viewer:
        yield open_viewer


@pytest.fixture(scope="module")
def class_settings() -> dict:
    """The settings ``class_server`` runs with: a module sets its own caps."""
    return {}


@pytest.fixture(scope="module")
def class_server(tmp_path_factory, class_settings):
    """An in-process server that believes X-Forwarded-For, one per module."""
    live = serve(tmp_path_factory.mktemp("class"), **class_settings)
    yield live
    live.stop()


@pytest.fixture
def players(class_server):
    """Class members from given addresses, on demand; all closed after the test."""
    opened = Clients(class_server)
    yield opened
    opened.close()
