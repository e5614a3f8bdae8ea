"""The share pages: /daily, /replay/<id> with its SVG and PNG, /worksheet; both languages."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

from server.daily import generator
from server.share import drawing
from tests.web.test_api import clock, move, new_game  # noqa: F401 (fixture)
from tests.web.test_share_api import OPEN_DAY, win_daily

SVG = "{http://www.w3.org/2000/svg}"
pytestmark = pytest.mark.usefixtures("clock")


@pytest.fixture
def shared(client, monkeypatch):
    """A won daily game shared as a replay: (replay id, game state)."""
    monkeypatch.setattr(generator, "today", lambda: OPEN_DAY)
    state = win_daily(client, generator.daily(OPEN_DAY))
    replay_id = client.post(f"/api/games/{state['id']}/replay").get_json()["id"]
    return replay_id, state


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_daily_page_shows_todays_puzzle(client, monkeypatch, lang):
    monkeypatch.setattr(generator, "today", lambda: OPEN_DAY)
    response = client.get(f"/daily?lang={lang}")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert f'data-puzzle="{generator.daily(OPEN_DAY).code}"' in page
    assert ("Daily puzzle" in page) == (lang == "en") and ("每日一题" in page) == (lang == "zh")
    assert "witness" not in page


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_replay_page_holds_the_tour_and_not_the_game_id(client, shared, lang):
    replay_id, state = shared
    response = client.get(f"/replay/{replay_id}?lang={lang}")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert state["id"] not in page and f"/replay/{replay_id}.svg" in page
    assert ("Replay" in page) == (lang == "en")


def test_an_unknown_replay_page_is_a_404_page(client):
    response = client.get("/replay/nope?lang=en")
    assert response.status_code == 404 and "no such replay" in response.get_data(as_text=True)
    assert client.get("/replay/nope.svg").status_code == 404
    assert client.get("/replay/nope.png").status_code == 404


def test_the_replay_svg_is_the_tour(client, shared):
    replay_id, state = shared
    response = client.get(f"/replay/{replay_id}.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    root = ET.fromstring(response.data)
    numbers = root.findall(f".//{SVG}text[@class='number']")
    assert len(numbers) == len(state["path"])
    assert len(root.findall(f".//{SVG}line[@class='move']")) == state["moves"]
    assert state["id"].encode() not in response.data


def test_the_replay_png_decodes_at_its_size(client, shared):
    replay_id, state = shared
    response = client.get(f"/replay/{replay_id}.png")
    assert response.status_code == 200 and response.mimetype == "image/png"
    image = Image.open(io.BytesIO(response.data))
    width = 2 * drawing.MARGIN + state["cols"] * drawing.CELL
    height = 2 * drawing.MARGIN + state["rows"] * drawing.CELL
    assert image.size == (2 * width, 2 * height)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_worksheet_has_the_task_and_the_solution(client, lang):
    code = generator.daily(OPEN_DAY).code
    response = client.get(f"/worksheet?puzzle={code}&lang={lang}")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    task = page[page.index('id="sheet-task"') : page.index('id="sheet-solution"')]
    solution = page[page.index('id="sheet-solution"') :]
    task_svg = ET.fromstring(task[task.index("<svg") : task.index("</svg>") + 6])
    assert task_svg.findall(f".//{SVG}text[@class='number']") == []
    assert task_svg.find(f".//{SVG}circle[@class='start']") is not None
    solution_svg = ET.fromstring(solution[solution.index("<svg") : solution.index("</svg>") + 6])
    squares = generator.daily(OPEN_DAY).puzzle.shape.size
    assert len(solution_svg.findall(f".//{SVG}text[@class='number']")) == squares
    assert ("Solution" in page) == (lang == "en") and ("答案" in page) == (lang == "zh")


def test_a_worksheet_without_a_tour_says_so(client):
    response = client.get("/worksheet?puzzle=3x3.o&lang=en")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    main = page[page.index("<main") :]  # the page's own drawings, not the menu's icon
    assert 'id="worksheet-no-tour"' in page and main.count("<svg") == 1
    assert "No knight move reaches b2" in page  # the editor's reason, in words


@pytest.mark.parametrize(
    ("code", "why"),
    [
        ("99x99.o", "A shape is at most 20 squares a side."),
        ("6x6:a1.o.a1", "The start a1 is a hole."),
        ("6x6.o.z9", "The start z9 is not a square of this board."),
    ],
)
def test_a_bad_puzzle_code_says_which_fault(client, code, why):
    response = client.get("/worksheet", query_string={"puzzle": code, "lang": "en"})
    assert response.status_code == 400
    assert why in response.get_data(as_text=True)


@pytest.mark.parametrize("code", ["", "nonsense", "6x6", "99x99.o", "5x5.o.z9", "<b>x</b>"])
def test_a_bad_puzzle_code_is_a_clear_400_page(client, code):
    response = client.get("/worksheet", query_string={"puzzle": code, "lang": "en"})
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "is not a puzzle code" in page and "<b>x</b>" not in page


def test_any_puzzle_exports_its_board_and_its_solution(client):
    found = generator.daily(OPEN_DAY)
    shape = found.puzzle.shape
    blank = client.get(f"/puzzle.svg?puzzle={found.code}")
    assert blank.status_code == 200 and blank.mimetype == "image/svg+xml"
    assert ET.fromstring(blank.data).findall(f".//{SVG}text[@class='number']") == []
    solved = ET.fromstring(client.get(f"/puzzle.svg?puzzle={found.code}&solution=1").data)
    assert len(solved.findall(f".//{SVG}text[@class='number']")) == shape.size
    assert len(solved.findall(f".//{SVG}line[@class='move']")) == shape.size - 1
    image = client.get(f"/puzzle.png?puzzle={found.code}&solution=1&palette=print")
    assert image.mimetype == "image/png"
    assert Image.open(io.BytesIO(image.data)).size == (
        2 * (2 * drawing.MARGIN + shape.cols * drawing.CELL),
        2 * (2 * drawing.MARGIN + shape.rows * drawing.CELL),
    )
    assert client.get("/puzzle.svg?puzzle=3x3.o&solution=1").status_code == 404
    assert client.get("/puzzle.svg?puzzle=nonsense").status_code == 400
