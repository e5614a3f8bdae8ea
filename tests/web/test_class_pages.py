"""The teacher's page and the QR code: the join link phones are given.

The link is on ``PUBLIC_URL`` when set (``knights-tour serve --lan`` sets it to the
machine's LAN address), else on the host the teacher's browser used.  When that link
only works on the teacher's own machine, the page says so in the page's language,
decided on the server (no script needed).
"""

from __future__ import annotations

import re

import pytest
from markupsafe import escape

from server.app import create_app
from server.i18n import text
from server.web.class_pages import qr_svg

WARNING = 'id="c-local-only"'


def make_app(tmp_path, **config):
    return create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "instance"), **config})


def open_room(client) -> str:
    response = client.post("/class/new")
    assert response.status_code == 303
    return response.headers["Location"].split("/")[2]


def teacher_page(client, code: str, lang: str, **kwargs) -> str:
    response = client.get(f"/class/{code}/teach?lang={lang}", **kwargs)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def join_link(html: str) -> str:
    return re.search(r'id="c-join-url" href="([^"]+)"', html).group(1)


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize(
    "base", ["http://localhost", "http://127.0.0.1:5000", "http://[::1]:5000", "http://0.0.0.0"]
)
def test_a_loopback_join_link_is_flagged_in_the_pages_language(tmp_path, lang, base):
    client = make_app(tmp_path).test_client()
    code = open_room(client)
    html = teacher_page(client, code, lang, base_url=base)
    assert join_link(html) == f"{base}/class/{code}"
    assert WARNING in html
    for key in ("class.ui.local-only", "class.ui.local-only.hint"):
        assert text(key, lang).replace("'", "&#39;") in html, key


@pytest.mark.parametrize("base", ["http://192.168.1.23:5000", "https://tour.example.org"])
def test_a_link_other_devices_can_open_is_not_flagged(tmp_path, base):
    client = make_app(tmp_path).test_client()
    code = open_room(client)
    html = teacher_page(client, code, "en", base_url=base)
    assert join_link(html) == f"{base}/class/{code}"
    assert WARNING not in html


def test_public_url_makes_the_join_link_and_the_qr_code(tmp_path):
    client = make_app(tmp_path, PUBLIC_URL="https://school.example/tour/").test_client()
    code = open_room(client)
    expected = f"https://school.example/tour/class/{code}"
    html = teacher_page(client, code, "zh")  # the teacher reached it as localhost
    assert join_link(html) == expected and WARNING not in html
    qr = client.get(f"/class/{code}/qr.svg")
    assert qr.status_code == 200 and qr.data == qr_svg(expected, title=code)


def test_public_url_on_loopback_is_flagged_too(tmp_path):
    client = make_app(tmp_path, PUBLIC_URL="http://127.0.0.1:5000").test_client()
    code = open_room(client)
    html = teacher_page(client, code, "en", base_url="http://192.168.1.23:5000")
    assert join_link(html) == f"http://127.0.0.1:5000/class/{code}" and WARNING in html


@pytest.mark.parametrize("value", ["192.168.1.23:5000", "ftp://files.example", "http://x/?a=b"])
def test_a_bad_public_url_refuses_to_start(tmp_path, value):
    with pytest.raises(ValueError, match="PUBLIC_URL"):
        make_app(tmp_path, PUBLIC_URL=value)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_opening_too_many_rooms_is_refused_in_the_pages_language(tmp_path, lang):
    client = make_app(tmp_path, RATE_LIMIT_CLASS_ROOMS_DEVICE="2 per hour").test_client()
    client.get("/class/new")  # the page with the form: the browser's device id
    open_room(client)
    last = open_room(client)
    refused = client.post(f"/class/new?lang={lang}")
    assert refused.status_code == 429
    seconds = int(refused.headers["Retry-After"])
    assert 3500 <= seconds <= 3600 and refused.headers["X-RateLimit-Remaining"] == "0"
    page = refused.get_data(as_text=True)
    minutes = -(-seconds // 60)
    assert text("class.error.rate-limited", lang, {"minutes": minutes}) in page
    assert '<form method="post"' in page  # the "open a class" page, to try again later
    # the room this browser opened last is offered, to carry on with it
    offer = re.search(r'id="c-last-room">\s*<a class="btn btn-primary" href="([^"]+)"', page)
    assert offer and offer.group(1) == f"/class/{last}/teach"
    assert text("class.ui.new.last-room", lang, {"code": last}) in page


def test_rooms_are_counted_per_teacher_device_and_loosely_per_address(tmp_path):
    app = make_app(
        tmp_path, RATE_LIMIT_CLASS_ROOMS_DEVICE="2 per hour", RATE_LIMIT_CLASS_ROOMS="5 per hour"
    )
    rehearsing = app.test_client()
    assert rehearsing.get("/class/new").status_code == 200  # the page gives the device its id
    open_room(rehearsing)
    open_room(rehearsing)
    assert rehearsing.post("/class/new").status_code == 429
    # a colleague's browser behind the same address is not locked out with them ...
    colleagues = [app.test_client() for _ in range(3)]
    for colleague in colleagues:
        colleague.get("/class/new")
    open_room(colleagues[0])
    open_room(colleagues[0])
    open_room(colleagues[1])
    # ... until the address's far looser allowance is used up
    refused = colleagues[2].post("/class/new")
    assert refused.status_code == 429
    assert "c-last-room" not in refused.get_data(as_text=True)  # it opened none


def test_a_script_without_cookies_shares_one_device_allowance_per_address(tmp_path):
    client = make_app(tmp_path, RATE_LIMIT_CLASS_ROOMS_DEVICE="2 per hour").test_client()
    for _ in range(2):
        assert client.post("/class/new").status_code == 303
        client.delete_cookie("kt_teacher")
        client.delete_cookie("kt_last_room")
    client.set_cookie("kt_teacher", "not-a-device-id")  # forged: counts as no cookie
    assert client.post("/class/new").status_code == 429


def test_a_school_behind_one_address_opens_sixty_rooms_an_hour_by_default(tmp_path):
    app = make_app(tmp_path)
    for _ in range(60):
        teacher = app.test_client()
        teacher.get("/class/new")
        open_room(teacher)
    rehearsing = app.test_client()
    rehearsing.get("/class/new")
    for _ in range(20):  # one teacher rehearsing a lesson, twenty times over
        open_room(rehearsing)


def test_a_cross_origin_post_is_refused_without_using_up_the_allowance(tmp_path):
    client = make_app(tmp_path, RATE_LIMIT_CLASS_ROOMS="1 per hour").test_client()
    for _ in range(3):
        foreign = client.post("/class/new", headers={"Origin": "https://evil.example"})
        assert foreign.status_code == 403
    open_room(client)  # the one room this address may open
    assert client.post("/class/new").status_code == 429


def test_a_puzzle_code_goes_through_opening_a_class_to_the_teacher_page(tmp_path):
    """The editor's link ``/class/new?puzzle=<code>``: the code survives the POST that opens
    the room and reaches the teacher page's address (its puzzle field reads it there)."""
    client = make_app(tmp_path).test_client()
    code = "6x6~IAAAAAA.c.a1"
    page = client.get(f"/class/new?lang=en&puzzle={code}").get_data(as_text=True)
    assert f'name="puzzle" value="{code}"' in page and "will be ready" in page
    assert 'name="puzzle"' not in client.get("/class/new").get_data(as_text=True)
    response = client.post("/class/new", data={"puzzle": code})
    assert response.status_code == 303
    location = response.headers["Location"]
    assert re.fullmatch(
        r"/class/[A-Z2-9]{6}/teach\?puzzle=6x6~IAAAAAA\.c\.a1#token=[\w-]+", location
    )
    hostile = client.post("/class/new", data={"puzzle": '"><script>' + "x" * 900})
    assert "<script>" not in hostile.headers["Location"]  # quoted, and cut to 500 characters
    assert len(hostile.headers["Location"]) < 700


@pytest.mark.parametrize(
    "origin",
    [
        "null",  # a sandboxed frame, a file: page, a cross-site redirect
        "https://localhost",  # this host under another scheme
        "http://localhost:8080",  # another port
        "http://localhost.evil.example",
    ],
)
def test_only_this_very_origin_opens_a_room_and_others_use_up_nothing(tmp_path, origin):
    """``Origin: null`` counted as this site's: seven forged requests used up a teacher's
    allowance for an hour; another scheme on the same host was accepted."""
    client = make_app(tmp_path, RATE_LIMIT_CLASS_ROOMS="1 per hour").test_client()
    for _ in range(7):
        assert client.post("/class/new", headers={"Origin": origin}).status_code == 403
    answer = client.post("/class/new", headers={"Origin": "http://localhost"})
    assert answer.status_code == 303  # the one room this address may open
    assert client.post("/class/new").status_code == 429


def test_behind_a_tls_proxy_the_forwarded_scheme_is_this_origins(tmp_path):
    client = make_app(tmp_path, PROXY_FIX=1).test_client()
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "class.example"}
    ours = client.post("/class/new", headers={"Origin": "https://class.example", **forwarded})
    assert ours.status_code == 303
    plain = client.post("/class/new", headers={"Origin": "http://class.example", **forwarded})
    assert plain.status_code == 403


def test_the_students_page_gives_a_browser_its_player_cookie_once(tmp_path):
    client = make_app(tmp_path).test_client()
    code = open_room(client)
    page = client.get(f"/class/{code}")
    cookie = page.headers.get("Set-Cookie", "")
    assert page.status_code == 200 and cookie.startswith("kt_player=") and "HttpOnly" in cookie
    again = client.get(f"/class/{code}")
    assert "kt_player=" not in again.headers.get("Set-Cookie", "")  # kept, not replaced


@pytest.mark.parametrize(("page", "suffix"), [("teacher", "/teach"), ("student", "")])
def test_a_room_page_at_a_typed_code(tmp_path, page, suffix):
    """A code typed loosely (lower case, a dash) is sent to the room's own spelling; a code
    of no room gets the join page's error, 404, not the room's page."""
    client = make_app(tmp_path).test_client()
    code = open_room(client)
    loose = f"{code[:3].lower()}-{code[3:].lower()}"
    response = client.get(f"/class/{loose}{suffix}")
    assert response.status_code == 302
    assert response.headers["Location"] == f"/class/{code}{suffix}"
    assert client.get(f"/class/{code}{suffix}").status_code == 200
    unknown = "ZZZZZZ" if code != "ZZZZZZ" else "YYYYYY"
    response = client.get(f"/class/{unknown}{suffix}?lang=en")
    assert response.status_code == 404
    assert str(escape(text("class.error.unknown-room", "en"))) in response.get_data(as_text=True)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_one_address_keeps_only_so_many_live_rooms(tmp_path, lang):
    app = make_app(tmp_path, CLASS_ADDRESS_ROOMS=2, CLASS_ROOM_TTL=600)
    prankster = app.test_client()
    for _ in range(2):
        open_room(prankster)
    refused = prankster.post(f"/class/new?lang={lang}")
    assert refused.status_code == 429
    seconds = int(refused.headers["Retry-After"])
    assert 590 <= seconds <= 601
    page = refused.get_data(as_text=True)
    words = text("class.error.too-many-rooms.address", lang, {"max": 2, "minutes": 10})
    assert str(escape(words)) in page and '<form method="post"' in page
    # a teacher elsewhere opens rooms as before
    elsewhere = app.test_client()
    elsewhere.environ_base["REMOTE_ADDR"] = "10.0.0.5"
    open_room(elsewhere)


def test_the_server_keeps_only_so_many_live_rooms(tmp_path):
    app = make_app(tmp_path, CLASS_ROOMS=2)
    for address in ("10.0.0.1", "10.0.0.2"):
        client = app.test_client()
        client.environ_base["REMOTE_ADDR"] = address
        open_room(client)
    late = app.test_client()
    late.environ_base["REMOTE_ADDR"] = "10.0.0.3"
    refused = late.post("/class/new?lang=en")
    assert refused.status_code == 503 and int(refused.headers["Retry-After"]) > 0
    assert text("class.error.too-many-rooms.server", "en", {"max": 2, "minutes": 120}) in (
        refused.get_data(as_text=True)
    )
