"""HTML pages.

Every page is rendered in the request's language (``?lang=`` > ``lang`` cookie >
Accept-Language > zh, see :mod:`server.i18n`); a ``?lang=`` choice is remembered in
the ``lang`` cookie so the next page and the API answer in the same language.
"""

from __future__ import annotations

from flask import Blueprint, render_template, request, url_for

from ..engine import articles
from ..game import rules
from ..i18n import LANGS, catalogue_version, request_lang, text
from ..stream import spec
from .modules import module_preloads

bp = Blueprint("pages", __name__)

LANG_COOKIE_AGE = 365 * 24 * 3600
HTML_LANG = {"zh": "zh-CN", "en": "en"}
# The board sizes the server accepts: games and class puzzles, searches, the construction.
# Pages put them in their forms and in <body data-limits> (static/js/core/limits.js).
BOARD_LIMITS = {
    "play": {"min": rules.MIN_SIDE, "max": rules.MAX_SIDE},
    "search": {"min": spec.MIN_SIDE, "max": spec.MAX_SIDE},
    "construct": {"min": spec.MIN_SIDE, "max": spec.MAX_SIDE_CONSTRUCT},
}
# <body data-limits>: the board sizes, and the most nodes a /watch search may visit (a
# lane asks for that much, so ⏭ reaches the end of the lesson's 8x8 plain search).
# And the articles' programs a search may run (server/engine/articles.py): each one's board,
# start and rule, which the call stack and the setup forms follow.
PAGE_LIMITS = {
    **BOARD_LIMITS,
    "search_nodes": spec.MAX_NODE_BUDGET,
    "orderings": articles.browser_table(),
}


@bp.app_context_processor
def inject_language() -> dict:
    """``lang``, ``html_lang`` and ``t(key, **params)`` for every template."""
    lang = request_lang()

    def t(key: str, **params) -> str:
        return text(key, lang, params)

    return {
        "lang": lang,
        "html_lang": HTML_LANG[lang],
        "other_lang": _other(lang),
        "t": t,
        "board_limits": BOARD_LIMITS,
        "page_limits": PAGE_LIMITS,
        "module_preloads": module_preloads,
        "catalogue_versions": {code: catalogue_version(code) for code in LANGS},
        "catalogue_href": catalogue_href,
    }


def catalogue_href(lang: str) -> str:
    """The address of ``lang``'s words with their version: the one browsers keep."""
    return url_for("api.i18n", lang=lang, v=catalogue_version(lang))


@bp.after_app_request
def remember_language(response):
    """A page opened with ``?lang=zh|en`` keeps that language in the ``lang`` cookie."""
    chosen = request.args.get("lang")
    if chosen in LANGS and request.cookies.get("lang") != chosen and not _is_api():
        response.set_cookie("lang", chosen, max_age=LANG_COOKIE_AGE, samesite="Lax")
    return response


def _is_api() -> bool:
    return request.path.startswith("/api/")


def _other(lang: str) -> str:
    return "en" if lang == "zh" else "zh"


@bp.get("/")
def index():
    return render_template("index.html")


@bp.get("/watch")
def watch():
    """Watch the search: every move and backtrack streamed over Socket.IO (/watch)."""
    return render_template("watch.html")


@bp.get("/editor")
def editor():
    """Draw a puzzle and see at once whether it has a tour (``?puzzle=<code>`` opens one)."""
    return render_template("editor.html")
