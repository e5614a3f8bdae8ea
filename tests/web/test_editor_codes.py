"""The editor writes puzzle codes in the browser (static/js/editor/puzzle.js) for its address
and links: they must be the very codes server/engine/shape.py writes, or one puzzle would
have two codes (two leaderboards, two links).  Node runs the module on a random sample."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.shapes import random_puzzles

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node")
SCRIPT = """
import { createPuzzle, puzzleCode } from "./static/js/editor/puzzle.js";
let input = "";
for await (const chunk of process.stdin) input += chunk;
const codes = JSON.parse(input).map(([rows, cols, holes, closed, start]) =>
  puzzleCode(createPuzzle(rows, cols, { holes, closed, start })));
process.stdout.write(JSON.stringify(codes));
"""


@pytest.mark.skipif(NODE is None, reason="node is not installed (make node)")
def test_the_browser_writes_the_servers_codes():
    puzzles = [*random_puzzles(300, "codes", min_side=1, max_side=20)]
    sent = [
        [
            p.shape.rows,
            p.shape.cols,
            sorted(p.shape.holes),
            p.closed,
            -1 if p.start is None else p.start,
        ]
        for p in puzzles
    ]
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", SCRIPT],
        input=json.dumps(sent),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    assert json.loads(done.stdout) == [p.code for p in puzzles]
