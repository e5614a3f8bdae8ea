"""A test module's ``server`` fixture: one ``knights-tour serve`` process with its settings."""

from __future__ import annotations

import pytest

from tests.support.servers import start_servers


def module_server(**env: str):
    """A module-scoped fixture (to be named ``server``): one ``knights-tour serve`` process
    with ``env`` set (tests/support/servers.py), stopped after the module's last test."""

    @pytest.fixture(scope="module")
    def server(tmp_path_factory):
        (proc,) = start_servers(tmp_path_factory.mktemp("server"), 1, env=env)
        yield proc
        proc.stop()

    return server
