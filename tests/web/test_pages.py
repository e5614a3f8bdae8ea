import html
import json
import re

from server.game import rules
from server.stream import spec


def test_index_is_bilingual(client):
    response = client.get("/")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "马踏棋盘" in page and "Knight's Tour" in page


def test_every_page_carries_the_servers_limits(client):
    """<body data-limits> holds the server's own figures (static/js/core/limits.js reads them)."""
    for address in ("/", "/watch", "/lesson", "/editor"):
        page = client.get(address).get_data(as_text=True)
        found = re.search(r"data-limits='([^']*)'", page)
        assert found, address
        limits = json.loads(html.unescape(found.group(1)))
        assert limits["play"] == {"min": rules.MIN_SIDE, "max": rules.MAX_SIDE}
        assert limits["search"] == {"min": spec.MIN_SIDE, "max": spec.MAX_SIDE}
        assert limits["construct"] == {"min": spec.MIN_SIDE, "max": spec.MAX_SIDE_CONSTRUCT}
        assert limits["search_nodes"] == spec.MAX_NODE_BUDGET


def test_unknown_api_route_is_json_404(client):
    response = client.get("/api/nothing-here")
    assert response.status_code == 404
    assert response.get_json()["error"]


def test_debug_is_off_by_default(app):
    assert app.debug is False


def test_secret_key_is_generated_once_and_kept(tmp_path):
    from server.app import create_app

    config = {"INSTANCE_PATH": str(tmp_path / "inst")}
    first = create_app(config).config["SECRET_KEY"]
    second = create_app(config).config["SECRET_KEY"]
    assert first == second and len(first) >= 32
    assert (tmp_path / "inst" / "secret_key").stat().st_mode & 0o077 == 0
