"""GET /lab: a lesson's chapter opens it with its program and board; nothing else does."""

from __future__ import annotations

import html
import re

import pytest

from server.lab import program


def fields(page: str) -> dict:
    selected = re.search(r'<option value="([\w-]+)" selected', page)
    source = re.search(r'<textarea id="lab-source"[^>]*>(.*?)</textarea>', page, re.S)
    rows = re.search(r'id="lab-rows"[^>]*value="(\d+)"', page)
    cols = re.search(r'id="lab-cols"[^>]*value="(\d+)"', page)
    return {
        "example": selected.group(1) if selected else None,
        "source": html.unescape(source.group(1)),
        "rows": int(rows.group(1)),
        "cols": int(cols.group(1)),
    }


def test_a_chapter_s_link_opens_its_program_on_its_board(client):
    response = client.get("/lab?example=warnsdorff&rows=8&cols=7&start=a8")
    assert response.status_code == 200
    shown = fields(response.get_data(as_text=True))
    assert shown == {"example": "warnsdorff", "source": program("warnsdorff"), "rows": 8, "cols": 7}


@pytest.mark.parametrize(
    ("query", "rows", "cols"),
    [
        ("", 5, 5),
        ("?example=../../etc/passwd&rows=-3&cols=1e9", 5, 5),
        ("?example=__init__&rows=999&cols=2", 30, 3),  # clamped to a search's sides
        ("?rows=%EF%BC%99&cols=<b>", 5, 5),  # a full-width digit is no number here
    ],
)
def test_anything_else_opens_the_lab_as_it_always_does(client, query, rows, cols):
    response = client.get(f"/lab{query}")
    assert response.status_code == 200
    shown = fields(response.get_data(as_text=True))
    assert shown == {"example": "start", "source": program("start"), "rows": rows, "cols": cols}
