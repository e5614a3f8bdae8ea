"""Pages fetch their whole module graph and their words at once (server/web/modules.py).

Every module a page runs must be requested by the HTML parser, from its <head>'s
modulepreload list: a module requested by a script (initiator "script") was found only by
reading another module, a level of the waterfall the list exists to remove. The catalogue
is requested once, by its preload. The initiators come from the DevTools protocol, so the
check does not depend on timing. The students' class page is the exception, on purpose: it
shows the server's drawing first, and its modules come after it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from server.i18n import catalogue_version
from server.web.modules import module_graph
from tests.support.servers import open_class_room

pytestmark = pytest.mark.browser
STATIC = Path(__file__).resolve().parents[2] / "static"


def requested(page, live_server, path: str) -> tuple[list, list]:
    """Open ``path``: the (path, initiator type) of every module and catalogue it asked for."""
    requests = []
    cdp = page.context.new_cdp_session(page)
    cdp.on(
        "Network.requestWillBeSent",
        lambda event: requests.append((event["request"]["url"], event["initiator"]["type"])),
    )
    cdp.send("Network.enable")
    page.goto(f"{path}?lang=zh")
    page.wait_for_load_state("load")
    page.wait_for_function("() => document.documentElement.lang === 'zh-CN'")
    origin = live_server.rstrip("/")
    modules = [(url[len(origin) :], kind) for url, kind in requests if "/js/" in url]
    catalogue = [(url[len(origin) :], kind) for url, kind in requests if "/api/i18n" in url]
    assert modules
    assert all(re.match(r"/static/v/\w+/js/", path) for path, _ in modules)  # kept by browsers
    words = f"/api/i18n?lang=zh&v={catalogue_version('zh')}"
    assert catalogue == [(words, "parser")]  # the preload, used by the page
    return modules, catalogue


@pytest.mark.parametrize("path", ["/", "/watch", "/lesson"])
def test_every_module_and_the_catalogue_come_from_the_heads_preloads(new_page, live_server, path):
    page = new_page()
    modules, _catalogue = requested(page, live_server, path)
    preloaded = set(
        page.eval_on_selector_all(
            "link[rel=modulepreload]", "(links) => links.map((l) => new URL(l.href).pathname)"
        )
    )
    late = [path for path, kind in modules if kind != "parser"]
    assert late == [], f"found only by reading other modules: {late}"
    assert {path for path, _ in modules} <= preloaded


def test_the_students_page_asks_for_its_modules_through_its_entry(new_page, live_server):
    """The students' page shows the server's first frame: its first paint waits for its one
    stylesheet only, so its modules are not preloaded (forty fetches at once slowed that
    paint); the entry's imports bring them, the whole graph, after it. Its words are."""
    code, _token = open_class_room(live_server)
    page = new_page()
    modules, _catalogue = requested(page, live_server, f"/class/{code}")
    assert page.eval_on_selector_all("link[rel=modulepreload]", "links => links.length") == 0
    entry = "js/class/student.js"
    by_parser = [path for path, kind in modules if kind == "parser"]
    assert len(by_parser) == 1 and by_parser[0].endswith(entry)  # the entry's script tag
    graph = module_graph(STATIC, entry)
    assert sorted(path.split("/", 4)[4] for path, _ in modules) == sorted(graph)


def static_transfers(page) -> list[tuple[str, int]]:
    """(path, bytes over the network) of every static file and catalogue the page loaded."""
    return page.evaluate(
        """() => performance.getEntriesByType("resource")
             .map((r) => new URL(r.name))
             .filter((url) => url.pathname.startsWith("/static/") || url.pathname === "/api/i18n")
             .map((url) => [url.pathname + url.search,
                            performance.getEntriesByName(url.href)[0].transferSize])"""
    )


@pytest.mark.parametrize("again", ["reload", "open the link again"])
def test_a_phone_back_on_the_class_page_asks_for_the_page_alone(new_page, live_server, again):
    """A phone that reloads the students' page, or opens its link again (it slept, the tab
    was closed), takes every module, stylesheet, the socket.io client and its words from its
    cache (server/web/assets.py, the catalogue's version)."""
    code, _token = open_class_room(live_server)
    page = new_page()
    page.goto(f"/class/{code}?lang=en")
    expect(page.locator("#class")).to_have_attribute("data-connection", "joined")
    first = static_transfers(page)
    assert len(first) > 40 and all(size > 0 for _path, size in first)  # a cold cache
    if again == "reload":
        page.reload()
    else:
        page.goto("about:blank")
        page.goto(f"/class/{code}?lang=en")
    expect(page.locator("#class")).to_have_attribute("data-connection", "joined")
    files = static_transfers(page)
    assert sorted(path for path, _size in files) == sorted(path for path, _size in first)
    assert [path for path, size in files if size != 0] == []  # none came over the network


def test_a_student_typing_the_code_opens_the_class_page_from_the_cache(new_page, live_server):
    """The join page fetches the students' page's files ahead (rel=prefetch) while the code
    is typed: the class page then takes every one of them from the cache."""
    code, _token = open_class_room(live_server)
    page = new_page()
    page.goto("/class")
    ahead = page.eval_on_selector_all("link[rel=prefetch]", "(links) => links.map((l) => l.href)")
    assert len(ahead) > 40
    page.wait_for_function(
        "(urls) => urls.every((url) => performance.getEntriesByName(url).length)", arg=ahead
    )
    page.locator("#c-code").fill(code.lower())  # typed as a phone types it
    page.locator(".c-join-form button[type=submit]").click()
    expect(page.locator("#class")).to_have_attribute("data-connection", "joined")
    files = static_transfers(page)
    assert len(files) > 40
    fetched_ahead = {url[len(live_server.rstrip("/")) :] for url in ahead}
    assert {path for path, _size in files if "/js/" in path} <= fetched_ahead
    assert [path for path, size in files if size != 0] == []  # none came over the network
