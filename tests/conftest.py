import shutil

import pytest

from server.app import create_app
from tests.support.database import make_template


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
