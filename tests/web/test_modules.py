"""The module graph a page preloads (server/web/modules.py), read from the files."""

from __future__ import annotations

from server.i18n import catalogue_version
from server.web.assets import static_version
from server.web.modules import module_graph


def test_the_graph_follows_static_imports_only(tmp_path):
    (tmp_path / "core").mkdir()
    (tmp_path / "page").mkdir()
    (tmp_path / "page" / "main.js").write_text(
        'import { a } from "../core/a.js";\n'
        "import {\n  b,\n  c,\n} from './b.js';\n"
        'export { d } from "./d.js";\n'
        'import "./side.js";\n'
        'const lazy = () => import("./lazy.js");\n'
        "const text = \"import x from './not-code.js'\";\n"
    )
    (tmp_path / "core" / "a.js").write_text('import { b } from "../page/b.js";\n')
    for name in ("b", "d", "side", "lazy"):
        (tmp_path / "page" / f"{name}.js").write_text("export const b = 1;\n")
    graph = module_graph(tmp_path, "page/main.js")
    assert graph[0] == "page/main.js"
    assert sorted(graph) == sorted(
        ["page/main.js", "core/a.js", "page/b.js", "page/d.js", "page/side.js"]
    )


def test_every_page_lists_its_modules_and_its_words_in_its_head(app, client):
    version = static_version(app)
    for path, entry in (
        ("/", "js/main.js"),
        ("/watch", "js/watch/main.js"),
        ("/lesson", "js/lesson/main.js"),
    ):
        page = client.get(f"{path}?lang=en").get_data(as_text=True)
        head = page.split("</head>")[0]
        assert f'<link rel="modulepreload" href="/static/v/{version}/{entry}">' in head
        words = f"/api/i18n?lang=en&amp;v={catalogue_version('en')}"
        assert f'<link rel="preload" href="{words}" as="fetch" crossorigin>' in head
        assert head.count('rel="modulepreload"') > 10
