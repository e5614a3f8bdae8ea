"""Pages fetch their whole module graph and their words at once (server/web/modules.py).

Every module a page runs must come from its <head>'s modulepreload list, so every fetch
starts before any module has arrived: a module the browser found only by reading another
would start after that one's response, a level of the waterfall the list exists to
remove. The catalogue is fetched once, by its preload, in the same first wave.
"""

from __future__ import annotations

import pytest

from tests.support.servers import open_class_room

pytestmark = pytest.mark.browser

RESOURCES = """() => performance.getEntriesByType('resource').map((r) => ({
  path: new URL(r.name).pathname + new URL(r.name).search,
  start: r.startTime, end: r.responseEnd }))"""


@pytest.mark.parametrize("path", ["/", "/watch", "/lesson", "/class/{code}"])
def test_every_module_and_the_catalogue_come_from_the_heads_preloads(new_page, live_server, path):
    if "{code}" in path:
        code, _token = open_class_room(live_server)
        path = path.format(code=code)
    page = new_page()
    page.goto(f"{path}?lang=zh")
    page.wait_for_load_state("load")
    page.wait_for_function("() => document.documentElement.lang === 'zh-CN'")
    preloaded = set(
        page.eval_on_selector_all(
            "link[rel=modulepreload]", "(links) => links.map((l) => new URL(l.href).pathname)"
        )
    )
    loaded = page.evaluate(RESOURCES)
    modules = [r for r in loaded if r["path"].startswith("/static/js/")]
    assert modules
    assert {r["path"] for r in modules} <= preloaded
    catalogue = [r for r in loaded if r["path"].startswith("/api/i18n")]
    assert [r["path"] for r in catalogue] == ["/api/i18n?lang=zh"]  # the preload, used
    first_arrival = min(r["end"] for r in modules)
    late = [r["path"] for r in modules + catalogue if r["start"] >= first_arrival]
    assert late == [], f"fetched only after another module arrived: {late}"
