"""A page's static module graph, listed up front as ``<link rel="modulepreload">``.

Without the list the browser discovers a page's modules level by level: the entry, then
its imports, then theirs, one round trip per level (six levels on the class page). A
phone joining a class spent most of its time to the first frame in that waterfall.
Listing the whole graph in ``<head>`` lets it fetch every module at once, with no build
step.  Dynamic ``import()`` is left out on purpose: what a page loads lazily stays lazy.
The students' class page lists none: its first frame is drawn by the server, and forty
fetches at once slowed that frame's paint (templates/class_student.html).

The graph is read from the files (static ``import``/``export ... from`` of relative
paths) once per entry and process; with ``app.debug`` it is read on every page.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from flask import current_app, url_for

STATIC_IMPORT = re.compile(
    r"""^\s*(?:import|export)\b[^;"'`]*?["'](\.{1,2}/[^"']+\.js)["']""", re.MULTILINE
)
_graphs: dict[str, tuple[str, ...]] = {}


def module_graph(static: Path, entry: str) -> tuple[str, ...]:
    """Every module ``entry`` imports statically, directly or not (paths under static/)."""
    seen: list[str] = []
    todo = [entry]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.append(name)
        source = (static / name).read_text(encoding="utf-8")
        for target in STATIC_IMPORT.findall(source):
            todo.append(posixpath.normpath(posixpath.join(posixpath.dirname(name), target)))
    return tuple(seen)


def module_preloads(entry: str) -> list[str]:
    """URLs of ``entry``'s graph (itself included) for the page's <head>."""
    graph = _graphs.get(entry)
    if graph is None or current_app.debug:
        graph = module_graph(Path(current_app.static_folder), entry)
        _graphs[entry] = graph
    return [url_for("static", filename=name) for name in graph]
