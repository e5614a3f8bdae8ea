"""Static files at versioned addresses (server/web/assets.py): kept by browsers until the
static tree changes, so a phone that reloads a page asks for the page alone."""

from __future__ import annotations

import json
import re

import pytest

from server.app import create_app
from server.web.assets import KEEP, PACKS, static_version, tree_digest

PAGES = ["/", "/watch", "/lesson", "/levels", "/editor", "/daily", "/class", "/class/new"]
STATIC = re.compile(r'(?:href|src)="(/static/[^"]+)"')


def static_addresses(client, path: str) -> list[str]:
    response = client.get(f"{path}?lang=en")
    assert response.status_code == 200, path
    return STATIC.findall(response.get_data(as_text=True))


@pytest.mark.parametrize("path", PAGES)
def test_every_static_address_of_a_page_is_versioned_and_kept(app, client, path):
    version = static_version(app)
    addresses = static_addresses(client, path)
    assert addresses
    for address in addresses:
        assert address.startswith(f"/static/v/{version}/"), address
        response = client.get(address)
        assert response.status_code == 200, address
        assert response.headers["Cache-Control"] == KEEP
        again = client.get(address, headers={"If-None-Match": response.headers["ETag"]})
        assert again.status_code == 304 and again.headers["Cache-Control"] == KEEP


def test_another_version_or_none_gets_todays_file_revalidated(app, client):
    today = client.get(f"/static/v/{static_version(app)}/js/main.js").get_data()
    for address in ("/static/v/0123456789ab/js/main.js", "/static/js/main.js"):
        response = client.get(address)
        assert response.status_code == 200
        assert response.get_data() == today
        assert response.headers["Cache-Control"] == "no-cache"  # asked again on every use


@pytest.mark.parametrize(
    "address",
    [
        "/static/v/x/../../server/app.py",
        "/static/v/x/%2e%2e/%2e%2e/server/app.py",
        "/static/v/x/js/no-such-module.js",
        "/static/v/x/",
    ],
)
def test_nothing_outside_the_static_tree_and_no_missing_file_is_served(client, address):
    response = client.get(address)
    assert response.status_code == 404
    assert "immutable" not in response.headers.get("Cache-Control", "")


def test_the_version_follows_every_byte_and_name_of_the_tree(tmp_path):
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "a.js").write_text("export const a = 1;\n")
    first = tree_digest(tmp_path)
    assert tree_digest(tmp_path) == first  # the same tree, the same version
    (tmp_path / "js" / "a.js").write_text("export const a = 2;\n")
    changed = tree_digest(tmp_path)
    assert changed != first
    (tmp_path / "js" / "a.js").rename(tmp_path / "js" / "b.js")
    assert tree_digest(tmp_path) not in (first, changed)


def test_a_pinned_folder_is_versioned_by_its_pin_not_by_its_fetched_bytes(tmp_path):
    # static/vendor/pyodide/: 13 MB fetched by `make pyodide`, named by pin.json's sha512
    folder = tmp_path / "vendor" / "big"
    folder.mkdir(parents=True)
    (folder / "pin.json").write_text(json.dumps({"integrity": "sha512-A", "files": ["a.wasm"]}))
    (folder / "a.wasm").write_bytes(b"first")
    first = tree_digest(tmp_path)
    (folder / "a.wasm").write_bytes(b"second")  # not read: the pin names it
    assert tree_digest(tmp_path) == first
    (folder / "pin.json").write_text(json.dumps({"integrity": "sha512-B", "files": ["a.wasm"]}))
    repinned = tree_digest(tmp_path)
    assert repinned != first  # a new pin is a new version
    (folder / "notes.txt").write_text("not pinned")
    assert tree_digest(tmp_path) not in (first, repinned)  # the folder's other files count


def test_in_debug_mode_addresses_are_plain_so_an_edit_shows_at_once(tmp_path):
    app = create_app({"INSTANCE_PATH": str(tmp_path), "DEBUG": True})
    app.debug = True
    with app.test_request_context():
        assert app.url_for("static", filename="js/main.js") == "/static/js/main.js"


def test_the_students_page_asks_for_one_stylesheet_the_pack_of_its_own(app, client):
    response = client.post("/class/new")
    code = response.headers["Location"].split("/")[2]
    page = client.get(f"/class/{code}?lang=en").get_data(as_text=True)
    head = page.split("</head>")[0]
    sheets = re.findall(r'<link rel="stylesheet" href="([^"]+)"', head)
    assert sheets == [f"/static/v/{static_version(app)}/packs/class-student.css"]
    assert 'rel="modulepreload"' not in head  # the page paints first (server/web/assets.py)
    assert f'src="/static/v/{static_version(app)}/js/class/student.js"' in page
    pack = client.get(sheets[0])
    assert pack.status_code == 200 and pack.mimetype == "text/css"
    assert pack.headers["Cache-Control"] == KEEP
    body = pack.get_data(as_text=True)
    offset = 0
    for name in PACKS["class-student"]:  # each file whole, in order
        text = client.get(f"/static/{name}").get_data(as_text=True)
        found = body.find(text, offset)
        assert found >= offset, name
        offset = found + len(text)
        assert not re.search(r"url\(\s*['\"]?(?!data:)", text), f"{name}: a relative url()"
    again = client.get(sheets[0], headers={"If-None-Match": pack.headers["ETag"]})
    assert again.status_code == 304 and again.headers["Cache-Control"] == KEEP


def test_a_pack_of_another_version_is_todays_revalidated_and_no_other_pack_is_served(app, client):
    today = client.get(f"/static/v/{static_version(app)}/packs/class-student.css").get_data()
    old = client.get("/static/v/0123456789ab/packs/class-student.css")
    assert old.status_code == 200 and old.get_data() == today
    assert old.headers["Cache-Control"] == "no-cache"
    for name in ("nothing", "..%2fapp", "app"):
        missing = client.get(f"/static/v/{static_version(app)}/packs/{name}.css")
        assert missing.status_code == 404
        assert "immutable" not in missing.headers.get("Cache-Control", "")
