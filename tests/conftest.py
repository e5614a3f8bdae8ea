import shutil
from collections import Counter

import pytest

from server.app import create_app
from tests.support.database import make_template

# The files that take longest (20 to 70 s each in a loaded 2-core run, most of it in the
# servers and clients they start), handed out first by `make test`'s file-by-file run
# (--dist loadfile --no-loadscope-reorder): none of them is then left to run alone at the
# end. The other files follow, the most tests first (as xdist orders them by itself).
HEAVIEST = (
    "tests/web/test_watch_protocol.py",
    "tests/web/test_class_flood.py",
    "tests/web/test_fuzz_socket.py",
    "tests/scale/test_message_queue.py",
    "tests/articles/test_fidelity.py",
    "tests/scale/test_postgres.py",
    "tests/test_cli.py",
    "tests/web/test_fuzz_http.py",
    "tests/engine/test_theory.py",
    "tests/engine/test_native_articles.py",
    "tests/test_serving.py",
)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """The heaviest files first; the browser tests keep their own order (their conftest)."""
    tests_in = Counter(item.nodeid.partition("::")[0] for item in items)

    def rank(item) -> tuple[int, int]:
        path = item.nodeid.partition("::")[0]
        if path.startswith("tests/browser/"):
            return len(HEAVIEST), 0
        heavy = HEAVIEST.index(path) if path in HEAVIEST else len(HEAVIEST)
        return heavy, -tests_in[path]

    items.sort(key=rank)


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory):
    """An SQLite file at this release's schema, made once: apps start on copies of it
    (tests/support/database.py says why it is checkpointed)."""
    return make_template(tmp_path_factory.mktemp("template") / "instance")


@pytest.fixture
def app(tmp_path, migrated_database):
    instance = tmp_path / "instance"
    instance.mkdir()
    shutil.copyfile(migrated_database, instance / "knights_tour.sqlite3")
    return create_app({"TESTING": True, "INSTANCE_PATH": str(instance)})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def postgres_cluster():
    """A throwaway PostgreSQL cluster for the session (tests/support/postgres.py)."""
    from tests.support.postgres import Cluster, Unavailable

    try:
        cluster = Cluster()
    except Unavailable as err:
        pytest.skip(str(err))
    yield cluster
    cluster.stop()


@pytest.fixture
def postgres_url(postgres_cluster) -> str:
    """The SQLAlchemy URL of a fresh database on that cluster."""
    return postgres_cluster.new_database()
