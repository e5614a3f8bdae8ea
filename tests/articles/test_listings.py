"""The code panel's article listings light the lines the programs enter and leave by.

For each article ordering, the listing in the article's own language
(``static/js/lanes/code-listings.js``, read through node, the browser's own parser) is
checked against the line map of the instrumented program (:mod:`tests.articles.line_map`):
the lines tagged ``mark`` (a move) and ``start`` (the first move) are exactly the
statements the program enters a square by, the lines tagged ``reset`` (a step back)
exactly those it leaves one by.  The corrected variants are checked against the
corrected programs.  Node missing fails the test with the make target that installs it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from server.engine.articles import ARTICLES
from tests.articles.line_map import normalise, traced_statements

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = Path(__file__).parent / "programs"
LISTINGS = ROOT / "static" / "js" / "lanes" / "code-listings.js"

# ordering id -> (the program's file, the functions its search runs in, the listing's language)
CASES = {
    "a000-java": ("a000/HorseChessboard.java", None, "java"),
    "a000-java-fixed": ("a000_fixed/HorseChessboard.java", None, "java"),
    "a001-python": ("a001_port.py", None, "python"),
    "a001-python-fixed": ("a001_fixed.py", None, "python"),
    "a002-java": ("a002/HorseChessBoard.java", None, "java"),
    "a002-java-fixed": ("a002_fixed/HorseChessBoard.java", None, "java"),
    "a003-c": ("a003_horse.c", ("main23", "traverse"), "c"),
    "a003-c-loop": ("a003_horse.c", ("traverse_chess",), "c"),
    "a003-c-stack": ("a003_stack.c", None, "c"),
}


def listing(ordering: str, language: str) -> list[dict]:
    """The lines the panel shows for ``ordering`` in ``language`` (code-listings.js)."""
    node = shutil.which("node")
    assert node, "node is missing: `make node` installs it"
    script = (
        f"import {{ listingFor }} from {json.dumps(LISTINGS.as_uri())};"
        f"console.log(JSON.stringify(listingFor({json.dumps(ordering)}, {json.dumps(language)})));"
    )
    out = subprocess.run(
        [node, "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(out.stdout)


def tagged(lines: list[dict], *tags: str) -> list[str]:
    return [normalise(line["code"]) for line in lines if set(line["tag"].split()) & set(tags)]


@pytest.mark.parametrize("ordering", sorted(CASES))
def test_the_lit_lines_are_the_programs_enter_and_leave_statements(ordering):
    program, within, language = CASES[ordering]
    statements = traced_statements(PROGRAMS / program, within)
    lines = listing(ordering, language)
    assert sorted(set(tagged(lines, "mark", "start"))) == sorted(statements["enter"])
    assert sorted(set(tagged(lines, "reset"))) == sorted(statements["leave"])
    # every statement is one line of the listing, shown once
    assert len(tagged(lines, "mark", "start")) == len(statements["enter"])
    assert len(tagged(lines, "reset")) == len(statements["leave"])


def test_the_line_map_reads_each_search_apart():
    """The C article's file holds both searches: each gets its own statements."""
    recursive = traced_statements(PROGRAMS / "a003_horse.c", ("main23", "traverse"))
    loop = traced_statements(PROGRAMS / "a003_horse.c", ("traverse_chess",))
    assert recursive == {
        "enter": ["chess[2][0]=1;", "chess[x1][y1]=count;"],
        "leave": ["chess[x1][y1]=0;"],
    }
    assert loop == {"enter": ["chess[x][y]=tag;"], "leave": ["chess[x][y]=0;"]}
    whole = traced_statements(PROGRAMS / "a003_horse.c")
    assert whole["enter"] == recursive["enter"] + loop["enter"]


def test_the_panels_table_of_orderings_is_the_engines():
    """code-listings.js keeps the orderings' article, language and variant for the panel (it
    runs without a page in node); they must be server/engine/articles.py's."""
    node = shutil.which("node")
    assert node, "node is missing: `make node` installs it"
    script = (
        f"import {{ ARTICLE_ORDERINGS }} from {json.dumps(LISTINGS.as_uri())};"
        "console.log(JSON.stringify(ARTICLE_ORDERINGS));"
    )
    out = subprocess.run(
        [node, "--input-type=module", "-e", script], capture_output=True, text=True, check=True
    )
    panel = json.loads(out.stdout)
    assert panel.keys() == ARTICLES.keys()

    def correction(ordering: str) -> str | None:
        return next((k for k, a in ARTICLES.items() if a.fixed_of == ordering), None)

    for ordering, article in ARTICLES.items():
        # traverse_chess has no correction of its own: the same search as traverse, so the
        # panel switches it to traverse's (the explicit stack)
        twin = article.fixed_of or correction(ordering) or correction("a003-c")
        assert panel[ordering] == {
            "article": f"a{article.article}",
            "language": article.language,
            "variant": "corrected" if article.fixed_of else "written",
            "twin": twin,
        }, ordering
