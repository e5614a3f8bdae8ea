"""One bilingual catalogue (zh / en) for server messages and the browser's UI strings.

The browser fetches its strings from ``GET /api/i18n``, so the page and the API
never disagree on a word.  Engine reasons arrive as a ``code`` plus ``params``
and an English ``reason``; :func:`reason_text` renders them in the chosen
language and falls back to the English reason for a code the catalogue lacks.

Placeholders use ``str.format`` names, e.g. ``{square}``.
"""

from __future__ import annotations

from collections.abc import Mapping

LANGS = ("zh", "en")
DEFAULT_LANG = "zh"

MESSAGES: dict[str, dict[str, str]] = {
    # --- API errors (key "error.<code>") ---
    "error.bad-request": {
        "en": "The request is malformed: “{field}” is missing or has the wrong type.",
        "zh": "请求格式有误：“{field}”缺失或类型不对。",
    },
    "error.bad-request.json": {
        "en": "The body is not a JSON object.",
        "zh": "请求内容不是 JSON 对象。",
    },
    "error.bad-board": {
        "en": "The board must have 3 to 20 rows and 3 to 20 columns.",
        "zh": "棋盘的行数和列数都必须在 3 到 20 之间。",
    },
    "error.unknown-game": {
        "en": "There is no such game; start a new one.",
        "zh": "没有这局棋，请开始新的一局。",
    },
    "error.illegal-move": {
        "en": "That move is not allowed.",
        "zh": "这一步不合规则。",
    },
    "error.illegal-move.off-board": {
        "en": "That square is off the board.",
        "zh": "这个格子不在棋盘上。",
    },
    "error.illegal-move.visited": {
        "en": "The knight has already visited {square}.",
        "zh": "马已经走过 {square} 了。",
    },
    "error.illegal-move.not-knight": {
        "en": "{square} is not a knight's move away.",
        "zh": "{square} 不是马能一步跳到的格子。",
    },
    "error.illegal-move.random-later": {
        "en": "A random square can only be chosen for the first move.",
        "zh": "只有第一步才能随机选格子。",
    },
    "error.game-over": {
        "en": "This game is finished.",
        "zh": "这局棋已经结束了。",
    },
    "error.bad-undo": {
        "en": "You can undo 1 to {moves} moves here.",
        "zh": "这里可以撤销 1 到 {moves} 步。",
    },
    "error.bad-undo.none": {
        "en": "There is no move to undo.",
        "zh": "没有可以撤销的步子。",
    },
    "error.not-won": {
        "en": "Only a game the server saw won can go on the leaderboard.",
        "zh": "只有服务器确认获胜的棋局才能上排行榜。",
    },
    "error.already-submitted": {
        "en": "This game is already on the leaderboard.",
        "zh": "这局棋已经在排行榜上了。",
    },
    "error.bad-name": {
        "en": "The name must be 1 to 24 characters, without control characters.",
        "zh": "名字须为 1 到 24 个字符，且不能含控制字符。",
    },
    "error.too-large": {
        "en": "The request body is too large.",
        "zh": "请求内容太大。",
    },
    "error.not-found": {
        "en": "There is nothing here.",
        "zh": "这里什么也没有。",
    },
    "error.method-not-allowed": {
        "en": "This method is not allowed here.",
        "zh": "这里不允许这种请求方法。",
    },
    "error.internal": {
        "en": "Something went wrong on the server.",
        "zh": "服务器出了点问题。",
    },
    # --- theory verdicts (key "theory.<code>") ---
    "theory.possible": {
        "en": "A tour is possible on this board.",
        "zh": "这个棋盘上可以走完。",
    },
    "theory.one-square": {
        "en": "A closed tour needs a move back to the start, and a 1x1 board has no move.",
        "zh": "闭合巡游需要跳回起点，而 1x1 的棋盘上马无法移动。",
    },
    "theory.one-row": {
        "en": "The knight cannot move at all on a {rows}x{cols} board, one square wide.",
        "zh": "在只有一格宽的 {rows}x{cols} 棋盘上，马根本无法移动。",
    },
    "theory.two-rows": {
        "en": "On a {rows}x{cols} board, two squares wide, the knight's moves split the "
        "squares into separate pieces, so no tour can reach them all.",
        "zh": "在两格宽的 {rows}x{cols} 棋盘上，马的走法把格子分成互不相连的几块，无法走遍。",
    },
    "theory.isolated-centre": {
        "en": "The centre of a 3x3 board has no knight moves, so no tour can reach it.",
        "zh": "3x3 棋盘的中心格没有任何马步可达，所以无法走遍。",
    },
    "theory.no-open-tour": {
        "en": "A {rows}x{cols} board has no knight's tour: every route gets stuck "
        "(proved by exhaustive search).",
        "zh": "{rows}x{cols} 棋盘上没有马的巡游：每条路线都会走不下去（穷举搜索证明）。",
    },
    "theory.both-odd": {
        "en": "A closed tour alternates colours, so it needs an even number of squares; "
        "{rows}x{cols} has {squares}.",
        "zh": "闭合巡游黑白交替，格子数必须是偶数；{rows}x{cols} 有 {squares} 格。",
    },
    "theory.schwenk-4xn": {
        "en": "A board 4 squares wide has no closed tour (Schwenk): the edge lines only "
        "touch the middle lines, so a closed tour must alternate between them, "
        "which the colours forbid.",
        "zh": "四格宽的棋盘没有闭合巡游（Schwenk 定理）：边线上的格子只连到中间两线，"
        "闭合巡游必须在它们之间交替，而颜色不允许这样。",
    },
    "theory.schwenk-3xn": {
        "en": "A {rows}x{cols} board has no closed tour (Schwenk: 3x4, 3x6 and 3x8 are the "
        "exceptions among boards 3 squares wide with an even number of squares).",
        "zh": "{rows}x{cols} 棋盘没有闭合巡游（Schwenk 定理：三格宽、格数为偶数的棋盘中，"
        "3x4、3x6、3x8 是例外）。",
    },
    "theory.colour": {
        "en": "{rows}x{cols} has one more square of the corners' colour, so an open tour must "
        "start and end on that colour; {square} is the other colour.",
        "zh": "{rows}x{cols} 棋盘上与角格同色的格子多一个，开放巡游必须从这种颜色出发并结束；"
        "{square} 是另一种颜色。",
    },
    "theory.inner-4xn": {
        "en": "On a board 4 squares wide an open tour must start and end on the two long "
        "edges; {square} is on a middle line.",
        "zh": "在四格宽的棋盘上，开放巡游必须从两条长边出发并结束；{square} 在中间线上。",
    },
    "theory.start-square": {
        "en": "No open tour of {rows}x{cols} starts on {square} (proved by exhaustive search).",
        "zh": "{rows}x{cols} 棋盘上没有从 {square} 出发的开放巡游（穷举搜索证明）。",
    },
    # --- hint verdicts and dead-end reasons (key "hint.<code>") ---
    "hint.completable": {
        "en": "A tour can still be completed from here.",
        "zh": "从这里还能走完。",
    },
    "hint.unknown": {
        "en": "No answer in time; this position may or may not be completable.",
        "zh": "时间内没有算出结果，这个局面不确定能否走完。",
    },
    "hint.time": {
        "en": "No answer within {seconds} s; this position may or may not be completable.",
        "zh": "{seconds} 秒内没有算出结果，这个局面不确定能否走完。",
    },
    "hint.dead": {
        "en": "No tour can be completed from here.",
        "zh": "从这里已无法走完。",
    },
    "hint.parity": {
        "en": "The unvisited squares ({light} light, {dark} dark) cannot be covered by "
        "knight moves, which alternate colours.",
        "zh": "未走过的格子（浅色 {light} 个，深色 {dark} 个）无法用黑白交替的马步走遍。",
    },
    "hint.stuck": {
        "en": "Stuck: no legal move from {square}.",
        "zh": "走不动了：从 {square} 没有可走的格子。",
    },
    "hint.no-return": {
        "en": "No move back to the start ({start}) is left.",
        "zh": "已经没有能跳回起点（{start}）的格子了。",
    },
    "hint.unreachable": {
        "en": "{square} can no longer be reached.",
        "zh": "{square} 已经无法到达了。",
    },
    "hint.dead-end": {
        "en": "{square} has only one way in, but a closed tour must enter and leave it.",
        "zh": "{square} 只剩一个入口，但闭合巡游必须进去再出来。",
    },
    "hint.trap": {
        "en": "{square} can only be entered from here and has no way on, "
        "but other squares are still unvisited.",
        "zh": "{square} 只能从这里进入且进去后无路可走，但还有别的格子没走。",
    },
    "hint.two-ends": {
        "en": "{a} and {b} both have only one way in: a tour can end at only one of them.",
        "zh": "{a} 和 {b} 都只剩一个入口：巡游只能在其中一个结束。",
    },
    "hint.split": {
        "en": "The unvisited squares split into {parts} parts.",
        "zh": "未走过的格子被分成了 {parts} 块。",
    },
    "hint.degrees": {
        "en": "The unvisited squares cannot all be given a way in and a way out at once.",
        "zh": "未走过的格子无法同时都有一个入口和一个出口。",
    },
    "hint.loop": {
        "en": "The forced moves through {squares} close a loop that leaves other squares out.",
        "zh": "经过 {squares} 的必经走法会绕成一个圈，把其余格子留在圈外。",
    },
    "hint.forced": {
        "en": "The forced moves around {square} contradict each other.",
        "zh": "{square} 周围的必经走法互相矛盾。",
    },
    "hint.exhausted": {
        "en": "Every way on runs into a dead end ({nodes} positions searched).",
        "zh": "每一种走法都会走进死路（搜索了 {nodes} 个局面）。",
    },
    "hint.no-tour": {
        "en": "This board has no tour in this mode.",
        "zh": "这个棋盘在此模式下没有巡游。",
    },
    # --- game status texts (key "status.<status>") ---
    "status.new": {
        "en": "Click any square to place the knight.",
        "zh": "点击任意格子放下马。",
    },
    "status.playing": {
        "en": "{left} squares to go.",
        "zh": "还剩 {left} 格。",
    },
    "status.playing.return": {
        "en": "Every square visited — now jump back onto the start.",
        "zh": "所有格子都走过了 — 现在跳回起点。",
    },
    "status.stuck": {
        "en": "Stuck: no move left after {moves} moves, {left} squares unvisited.",
        "zh": "走不动了：走了 {moves} 步，还有 {left} 格没走到。",
    },
    "status.stuck.return": {
        "en": "Stuck: every square visited, but the start is not a knight's move away.",
        "zh": "走不动了：格子都走完了，但起点不在一步之内。",
    },
    "status.won": {
        "en": "Tour complete in {moves} moves and {seconds} s!",
        "zh": "完成巡游！共 {moves} 步，用时 {seconds} 秒！",
    },
    "status.dead": {
        "en": "No tour can be completed from here — undo {undo} moves to the last good position.",
        "zh": "从这里已无法走完 — 撤销 {undo} 步回到最后的好局面。",
    },
    "status.dead.start": {
        "en": "No tour can be completed from this start square — start a new game.",
        "zh": "从这个起点无法走完 — 请开始新的一局。",
    },
    "status.dead.one": {
        "en": "No tour can be completed from here — undo 1 move to the last good position.",
        "zh": "从这里已无法走完 — 撤销 1 步回到最后的好局面。",
    },
    # --- UI strings ---
    # Owned by the frontend (templates/ and static/); keys "ui.<name>".
    "ui.title": {"en": "Knight's Tour Studio", "zh": "马踏棋盘"},
    "ui.nav": {"en": "Pages", "zh": "页面"},
    "ui.nav.play": {"en": "Play", "zh": "下棋"},
    "ui.nav.watch": {"en": "Watch", "zh": "观看"},
    "ui.nav.class": {"en": "Class", "zh": "课堂"},
    "ui.watch-link": {
        "en": "Watch the algorithms solve it →",
        "zh": "看算法如何走完棋盘 →",
    },
    "ui.loading": {"en": "Loading…", "zh": "加载中…"},
    "ui.noscript": {
        "en": "The game needs JavaScript.",
        "zh": "这个游戏需要启用 JavaScript。",
    },
    "ui.board": {"en": "Board", "zh": "棋盘"},
    "ui.controls": {"en": "Game controls", "zh": "游戏操作"},
    "ui.moves": {"en": "Moves", "zh": "步数"},
    "ui.left": {"en": "Left", "zh": "剩余"},
    "ui.time": {"en": "Time", "zh": "用时"},
    "ui.undo": {"en": "Undo", "zh": "撤销"},
    "ui.undo-one": {"en": "Undo 1 move", "zh": "撤销 1 步"},
    "ui.undo-n": {"en": "Undo {n} moves", "zh": "撤销 {n} 步"},
    "ui.hint": {"en": "Hint", "zh": "提示"},
    "ui.random-start": {"en": "Random start", "zh": "随机起点"},
    "ui.restart": {"en": "Restart", "zh": "重新开始"},
    "ui.new-game": {"en": "New game", "zh": "新游戏"},
    "ui.setup": {"en": "New game", "zh": "新的一局"},
    "ui.board-size": {"en": "Board", "zh": "棋盘"},
    "ui.custom": {"en": "Custom", "zh": "自定义"},
    "ui.custom.range": {
        "en": "Rows and columns must each be 3 to 20.",
        "zh": "行数和列数都必须在 3 到 20 之间。",
    },
    "ui.rows": {"en": "Rows", "zh": "行数"},
    "ui.cols": {"en": "Columns", "zh": "列数"},
    "ui.mode": {"en": "Mode", "zh": "模式"},
    "ui.mode.open": {"en": "Open tour", "zh": "开放巡游"},
    "ui.mode.open.help": {
        "en": "Visit every square exactly once.",
        "zh": "每个格子恰好走一次。",
    },
    "ui.mode.closed": {"en": "Closed tour challenge", "zh": "闭合巡游挑战"},
    "ui.mode.closed.help": {
        "en": "…and finish with a jump back onto the start square.",
        "zh": "……最后还要跳回起点。",
    },
    "ui.start-game": {"en": "Start game", "zh": "开始游戏"},
    "ui.theory.open-ok": {
        "en": "An open tour exists on {board}.",
        "zh": "{board} 棋盘上可以走完开放巡游。",
    },
    "ui.theory.closed-ok": {
        "en": "A closed tour exists on {board}.",
        "zh": "{board} 棋盘上可以走完闭合巡游。",
    },
    "ui.theory.impossible": {
        "en": "Impossible on {board}: {reason}",
        "zh": "{board} 棋盘上不可能：{reason}",
    },
    "ui.start.impossible": {
        "en": "No tour starts from {square}: {reason} Click it again to start there anyway,"
        " or pick another square.",
        "zh": "从 {square} 出发走不完：{reason} 再点一次仍从这里开始，或者换一个格子。",
    },
    "ui.sq.visited": {"en": "{square}, visited as move {n}", "zh": "{square}，第 {n} 步"},
    "ui.sq.current": {
        "en": "{square}, knight here, move {n}",
        "zh": "{square}，马在这里，第 {n} 步",
    },
    "ui.sq.legal": {"en": "{square}, legal move", "zh": "{square}，可以跳到这里"},
    "ui.sq.return": {
        "en": "{square}, the start: jump back here to close the tour",
        "zh": "{square}，起点：跳回这里完成闭合巡游",
    },
    "ui.sq.start-suffix": {"en": ", the start", "zh": "，起点"},
    "ui.sq.hint-suffix": {"en": ", suggested by the hint", "zh": "，提示建议走这里"},
    "ui.hint.next": {
        "en": "Try {square}: a complete tour still exists from there.",
        "zh": "试试 {square}：从那里还能走完。",
    },
    "ui.hint.start": {
        "en": "Try starting on {square}.",
        "zh": "试试从 {square} 出发。",
    },
    "ui.hint.dead": {
        "en": "No tour can be completed from here.",
        "zh": "从这里已经无法走完。",
    },
    "ui.error.network": {
        "en": "Cannot reach the server; try again.",
        "zh": "连不上服务器，请再试一次。",
    },
    "ui.leaderboard": {"en": "Leaderboard", "zh": "排行榜"},
    "ui.unassisted": {"en": "Without hints", "zh": "未用提示"},
    "ui.assisted": {"en": "With hints", "zh": "用过提示"},
    "ui.lb.empty": {"en": "No runs yet — be the first!", "zh": "还没有记录，快来抢第一！"},
    "ui.lb.hints": {"en": "{n} hints", "zh": "{n} 次提示"},
    "ui.lb.moves": {"en": "{n} moves", "zh": "{n} 步"},
    "ui.win.title": {"en": "Tour complete!", "zh": "巡游完成！"},
    "ui.hints-used": {"en": "Hints", "zh": "提示"},
    "ui.undos-used": {"en": "Undos", "zh": "撤销"},
    "ui.replay": {"en": "Replay of the tour", "zh": "巡游回放"},
    "ui.replay-again": {"en": "Replay", "zh": "再放一遍"},
    "ui.name": {"en": "Your name for the leaderboard", "zh": "留下名字上排行榜"},
    "ui.submit-score": {"en": "Submit", "zh": "提交"},
    "ui.score.saved": {
        "en": "Saved: you are #{rank} on this board.",
        "zh": "已保存：你在这个棋盘排第 {rank} 名。",
    },
    "ui.score.saved-assisted": {
        "en": "Saved: #{rank} among runs with hints.",
        "zh": "已保存：在用过提示的记录中排第 {rank} 名。",
    },
    "ui.close": {"en": "Close", "zh": "关闭"},
}


def pick_lang(query: str | None, cookie: str | None, accept_languages=None) -> str:
    """``?lang=`` wins, then the ``lang`` cookie, then Accept-Language, then zh."""
    for choice in (query, cookie):
        if choice in LANGS:
            return choice
    if accept_languages is not None:
        best = accept_languages.best_match(LANGS)
        if best:
            return best
    return DEFAULT_LANG


def request_lang() -> str:
    """The language of the current Flask request."""
    from flask import request

    return pick_lang(
        request.args.get("lang"), request.cookies.get("lang"), request.accept_languages
    )


def text(key: str, lang: str, params: Mapping | None = None) -> str:
    """The message ``key`` in ``lang`` with ``params`` filled in; the key itself if unknown."""
    entry = MESSAGES.get(key)
    if entry is None:
        return key
    return _fill(entry.get(lang) or entry["en"], params) or entry.get(lang) or entry["en"]


def reason_text(
    prefix: str, code: str | None, params: Mapping | None, fallback: str | None, lang: str
) -> str | None:
    """An engine reason in ``lang``: the catalogue's ``prefix.code``, else the English reason."""
    entry = MESSAGES.get(f"{prefix}.{code}") if code else None
    if entry is None:
        return fallback
    return _fill(entry.get(lang) or entry["en"], params) or fallback


def _fill(template: str, params: Mapping | None) -> str | None:
    """``template`` with ``params``; None when a placeholder has no value."""
    try:
        return template.format_map(_flat(params))
    except (KeyError, IndexError, ValueError, AttributeError):
        return None


def _flat(params: Mapping | None) -> dict:
    """Lists of squares become one comma-separated string for the message."""
    out = {}
    for key, value in (params or {}).items():
        out[key] = ", ".join(map(str, value)) if isinstance(value, list | tuple) else value
    return out


def catalogue(lang: str) -> dict[str, str]:
    """Every message in one language (the browser's copy)."""
    return {key: entry.get(lang) or entry["en"] for key, entry in MESSAGES.items()}


# --- watch protocol ---
# Errors of the /watch Socket.IO namespace (docs/protocol.md):
# keys "watch.error.<code>[.<detail>]".
# Owned by server/web/watch_socket.py and server/stream/.
MESSAGES.update(
    {
        "watch.error.bad-request": {
            "en": "The message is malformed.",
            "zh": "消息格式有误。",
        },
        "watch.error.bad-request.payload": {
            "en": "The message must be a JSON object.",
            "zh": "消息必须是一个 JSON 对象。",
        },
        "watch.error.bad-request.missing": {
            "en": "The message lacks the field “{field}”.",
            "zh": "消息缺少字段“{field}”。",
        },
        "watch.error.bad-request.type": {
            "en": "The field “{field}” has the wrong type.",
            "zh": "字段“{field}”的类型不对。",
        },
        "watch.error.bad-request.run-id": {
            "en": "A run id is 1 to 16 letters, digits, “_” or “-”.",
            "zh": "运行编号须为 1 到 16 个字母、数字、“_”或“-”。",
        },
        "watch.error.bad-request.window": {
            "en": "The window must be 1 to {max} events.",
            "zh": "窗口须为 1 到 {max} 个事件。",
        },
        "watch.error.bad-request.credit": {
            "en": "Credit must be 1 to {max} events.",
            "zh": "额度须为 1 到 {max} 个事件。",
        },
        "watch.error.bad-request.duplicate-run": {
            "en": "A run with this id is already going on this connection.",
            "zh": "这个连接上已有同一编号的运行。",
        },
        "watch.error.bad-request.construct-game": {
            "en": "The construction cannot continue a game; choose seed or Warnsdorff.",
            "zh": "构造法不能接着一局棋继续走，请选择基础回溯或 Warnsdorff。",
        },
        "watch.error.internal": {
            "en": "Something went wrong on the server; the message was ignored.",
            "zh": "服务器出错了，这条消息已被忽略。",
        },
        "watch.error.unknown-algorithm": {
            "en": "Unknown algorithm “{algorithm}”: choose seed, warnsdorff or construct.",
            "zh": "未知算法“{algorithm}”：请选择 seed、warnsdorff 或 construct。",
        },
        "watch.error.bad-board": {
            "en": "The board must have {min} to {max} rows and {min} to {max} columns.",
            "zh": "棋盘的行数和列数都必须在 {min} 到 {max} 之间。",
        },
        "watch.error.bad-board.start": {
            "en": "The start square {row},{col} is off the {rows}x{cols} board.",
            "zh": "起点 {row},{col} 不在 {rows}x{cols} 棋盘上。",
        },
        "watch.error.bad-board.no-tour": {
            "en": "There is no tour to construct: {reason}",
            "zh": "没有可以构造的巡游：{reason}",
        },
        "watch.error.bad-budget": {
            "en": "The budget is out of range.",
            "zh": "预算超出范围。",
        },
        "watch.error.bad-budget.nodes": {
            "en": "The node budget must be a whole number from 1 to 50,000,000.",
            "zh": "节点预算须为 1 到 50,000,000 之间的整数。",
        },
        "watch.error.bad-budget.time": {
            "en": "The time limit must be more than 0 and at most 600 seconds.",
            "zh": "时间限制须大于 0 秒且不超过 600 秒。",
        },
        "watch.error.too-many-runs": {
            "en": "At most {max} runs at once per connection; stop one first.",
            "zh": "每个连接最多同时进行 {max} 个运行，请先停止一个。",
        },
        "watch.error.too-many-runs.address": {
            "en": "At most {max} runs at once from one address; stop one first.",
            "zh": "同一地址最多同时进行 {max} 个运行，请先停止一个。",
        },
        "watch.error.too-many-runs.server": {
            "en": "The server is busy with other runs; try again in a moment.",
            "zh": "服务器正忙于其他运行，请稍后再试。",
        },
        "watch.error.unknown-run": {
            "en": "There is no such run on this connection.",
            "zh": "这个连接上没有这个运行。",
        },
        "watch.error.unknown-game": {
            "en": "There is no such game to continue.",
            "zh": "没有可以接着走的这局棋。",
        },
        "watch.error.rate-limited": {
            "en": "Too many messages; slow down.",
            "zh": "消息太多了，请放慢一些。",
        },
    }
)


# --- watch page ---
# The /watch page (templates/watch.html, static/js/watch/): keys "watch.ui.<name>".
MESSAGES.update(
    {
        "watch.ui.title": {"en": "Watch the search", "zh": "观看搜索"},
        "watch.ui.setup": {"en": "What to watch", "zh": "观看设置"},
        "watch.ui.board-size": {"en": "Board", "zh": "棋盘"},
        "watch.ui.start": {"en": "Start square", "zh": "起点"},
        "watch.ui.start-help": {
            "en": "Click a square on the board to change it.",
            "zh": "点击棋盘上的格子可以更换起点。",
        },
        "watch.ui.algorithm": {"en": "Algorithm", "zh": "算法"},
        "watch.ui.algo.seed": {"en": "Plain backtracking", "zh": "朴素回溯"},
        "watch.ui.algo.seed.help": {
            "en": "DFS in the lesson's fixed move order 5 6 7 0 1 2 3 4",
            "zh": "深度优先，按课上固定的 5 6 7 0 1 2 3 4 顺序试",
        },
        "watch.ui.algo.warnsdorff": {
            "en": "Warnsdorff backtracking",
            "zh": "贪心回溯（Warnsdorff）",
        },
        "watch.ui.algo.warnsdorff.help": {
            "en": "Tries the square with the fewest onward moves first",
            "zh": "先走后续走法最少的格子",
        },
        "watch.ui.algo.construct": {"en": "Construction", "zh": "构造法"},
        "watch.ui.algo.construct.help": {
            "en": "Large boards: joins known pieces, no search (up to 100×100)",
            "zh": "大棋盘：拼接已知的小块巡游，无需搜索（最大 100×100）",
        },
        "watch.ui.options": {"en": "Options", "zh": "选项"},
        "watch.ui.open": {"en": "Open tour", "zh": "开放巡游"},
        "watch.ui.closed": {"en": "Closed tour", "zh": "闭合巡游"},
        "watch.ui.pruning": {"en": "Pruning", "zh": "剪枝"},
        "watch.ui.pruning.help": {
            "en": "Cut branches that provably cannot finish",
            "zh": "剪掉可以证明走不完的分支",
        },
        "watch.ui.race": {"en": "Race mode", "zh": "比赛模式"},
        "watch.ui.race.help": {
            "en": "Two algorithms side by side, same board and start",
            "zh": "两种算法并排比赛，同一棋盘同一起点",
        },
        "watch.ui.race.against": {"en": "Against", "zh": "对手"},
        "watch.ui.go": {"en": "Start watching", "zh": "开始观看"},
        "watch.ui.stage": {"en": "The search", "zh": "搜索过程"},
        "watch.ui.controls": {"en": "Playback", "zh": "播放控制"},
        "watch.ui.restart": {"en": "Restart", "zh": "重新开始"},
        "watch.ui.back": {"en": "Step back one event", "zh": "后退一步"},
        "watch.ui.play": {"en": "Play", "zh": "播放"},
        "watch.ui.pause": {"en": "Pause", "zh": "暂停"},
        "watch.ui.step": {"en": "Step forward one event", "zh": "前进一步"},
        "watch.ui.end": {"en": "Jump to the result", "zh": "直接看结果"},
        "watch.ui.speed": {"en": "Speed", "zh": "速度"},
        "watch.ui.speed.rate": {"en": "{n}/s", "zh": "{n} 步/秒"},
        "watch.ui.speed.max": {"en": "max", "zh": "最快"},
        "watch.ui.seek": {"en": "Position in the search", "zh": "搜索进度"},
        "watch.ui.heat": {"en": "Heat map", "zh": "热力图"},
        "watch.ui.board": {"en": "The board", "zh": "棋盘"},
        "watch.ui.chart": {"en": "Depth over time", "zh": "深度随时间变化"},
        "watch.ui.code": {"en": "The code", "zh": "代码"},
        "watch.ui.construct-note": {
            "en": "The construction splits a large board into small pieces with known tours "
            "and joins them: no search, no backtracking. Its moves are shown in tour order.",
            "zh": "构造法把大棋盘拆成有已知巡游的小块再拼接起来：不搜索，也不回溯。"
            "这里按巡游顺序展示每一步。",
        },
        "watch.ui.legend.current": {"en": "the knight", "zh": "马的位置"},
        "watch.ui.legend.path": {"en": "the path, numbered", "zh": "已走的路（步数）"},
        "watch.ui.legend.candidate": {
            "en": "candidates, with their onward moves",
            "zh": "候选格及其后续走法数",
        },
        "watch.ui.legend.dead": {"en": "dead end, abandoned", "zh": "走不通，已放弃"},
        "watch.ui.stat.nodes": {"en": "Nodes", "zh": "节点"},
        "watch.ui.stat.backtracks": {"en": "Backtracks", "zh": "回溯"},
        "watch.ui.stat.depth": {"en": "Depth", "zh": "深度"},
        "watch.ui.stat.max-depth": {"en": "Max depth", "zh": "最大深度"},
        "watch.ui.stat.rate": {"en": "Events/s", "zh": "步/秒"},
        "watch.ui.stat.elapsed": {"en": "Elapsed", "zh": "用时"},
        "watch.ui.stat.shown": {"en": "events shown", "zh": "已显示"},
        "watch.ui.stat.received": {"en": "received", "zh": "已接收"},
        "watch.ui.history-capped": {
            "en": "(step back reaches the most recent events only)",
            "zh": "（只能后退到最近的一段）",
        },
        "watch.ui.status.idle": {"en": "ready", "zh": "就绪"},
        "watch.ui.status.connecting": {"en": "connecting", "zh": "连接中"},
        "watch.ui.status.running": {"en": "running", "zh": "进行中"},
        "watch.ui.status.paused": {"en": "paused", "zh": "已暂停"},
        "watch.ui.status.found": {"en": "tour found", "zh": "找到巡游"},
        "watch.ui.status.exhausted": {"en": "no tour", "zh": "无解"},
        "watch.ui.status.budget": {"en": "budget spent", "zh": "超出预算"},
        "watch.ui.status.stopped": {"en": "stopped", "zh": "已停止"},
        "watch.ui.status.error": {"en": "error", "zh": "出错"},
        "watch.ui.narr.pick": {
            "en": "Pick a start square, then press “Start watching”.",
            "zh": "选好起点，然后点“开始观看”。",
        },
        "watch.ui.narr.connecting": {"en": "Connecting…", "zh": "正在连接……"},
        "watch.ui.narr.ready": {
            "en": "Ready: the knight stands on {square}.",
            "zh": "准备好了：马在 {square}。",
        },
        "watch.ui.narr.start": {"en": "Start at {square}.", "zh": "从 {square} 出发。"},
        "watch.ui.narr.place": {"en": "Move {n}: {square}.", "zh": "第 {n} 步：{square}。"},
        "watch.ui.narr.try": {
            "en": "Try {square} ({n} onward moves).",
            "zh": "试 {square}（{n} 个后续走法）。",
        },
        "watch.ui.narr.try.one": {
            "en": "Try {square} (1 onward move).",
            "zh": "试 {square}（1 个后续走法）。",
        },
        "watch.ui.narr.back": {
            "en": "Dead end at {square}, back to {to}.",
            "zh": "{square} 走不通，退回 {to}。",
        },
        "watch.ui.narr.back.root": {
            "en": "Every path from {square} is tried.",
            "zh": "从 {square} 出发的路都试过了。",
        },
        "watch.ui.narr.found": {
            "en": "Tour found: all {squares} squares, after {nodes} nodes and {backtracks} "
            "backtracks.",
            "zh": "找到巡游：走遍 {squares} 格，共 {nodes} 个节点、回溯 {backtracks} 次。",
        },
        "watch.ui.narr.exhausted": {
            "en": "No tour from {square}: every path was tried ({nodes} nodes).",
            "zh": "从 {square} 出发没有巡游：所有路都试过了（{nodes} 个节点）。",
        },
        "watch.ui.narr.budget": {
            "en": "Stopped after {nodes} nodes: the node budget is spent.",
            "zh": "走了 {nodes} 个节点后停止：节点预算用完了。",
        },
        "watch.ui.narr.budget.time": {
            "en": "Stopped after {nodes} nodes: the time limit is reached.",
            "zh": "走了 {nodes} 个节点后停止：到时间上限了。",
        },
        "watch.ui.narr.stopped": {"en": "Stopped.", "zh": "已停止。"},
        "watch.ui.race.won": {
            "en": "{winner} wins: {nodes} nodes against {other} for {loser}.",
            "zh": "{winner} 获胜：{nodes} 个节点，{loser} 用了 {other} 个。",
        },
        "watch.ui.race.won.alone": {
            "en": "{winner} wins: it found a tour in {nodes} nodes; {loser} did not.",
            "zh": "{winner} 获胜：{nodes} 个节点找到巡游，{loser} 没有找到。",
        },
        "watch.ui.race.tie": {
            "en": "A tie: {nodes} nodes each.",
            "zh": "平局：各用 {nodes} 个节点。",
        },
    }
)


# --- hardening ---
# Refusals of the HTTP hardening layer (server/game/service.py, server/web/ratelimit.py).
MESSAGES.update(
    {
        "error.conflict": {
            "en": "Another request changed this game at the same moment, so nothing was "
            "changed. Reload the game and try again.",
            "zh": "另一个请求同时修改了这局棋，所以这次什么也没改。请重新载入后再试。",
        },
        "error.conflict.busy": {
            "en": "This game is still busy with another request; try again in a moment.",
            "zh": "这局棋还在处理另一个请求，请稍后再试。",
        },
        "error.rate-limited": {
            "en": "Too many requests from your address; try again in {seconds} s.",
            "zh": "你的请求太频繁了，请 {seconds} 秒后再试。",
        },
        "error.rate-limited.games": {
            "en": "Too many new games from your address; try again in {seconds} s.",
            "zh": "你开新局太频繁了，请 {seconds} 秒后再试。",
        },
    }
)


# --- show me ---
# The Play page's "show me" (static/js/showme.js): the search streamed over the board.
# Its running narration reuses "watch.ui.narr.*".
MESSAGES.update(
    {
        "ui.showme": {"en": "Show me", "zh": "演示"},
        "ui.showme.label": {
            "en": "Show me: watch the search find the next move",
            "zh": "演示：看搜索算法找出下一步",
        },
        "ui.showme.panel": {"en": "The search, from your position", "zh": "从当前局面搜索"},
        "ui.showme.skip": {"en": "Skip to the end", "zh": "跳到结尾"},
        "ui.showme.cancel": {"en": "Cancel", "zh": "取消"},
        "ui.showme.connecting": {
            "en": "Starting the search from {square}…",
            "zh": "从 {square} 开始搜索……",
        },
        "ui.showme.skipping": {"en": "Skipping to the end…", "zh": "正在跳到结尾……"},
        "ui.showme.nodes": {"en": "{nodes} nodes", "zh": "{nodes} 个节点"},
        "ui.showme.found": {
            "en": "The search found a way to finish the tour ({nodes} nodes): play {square} next.",
            "zh": "搜索找到了走完全程的路线（{nodes} 个节点）：下一步走 {square}。",
        },
        "ui.showme.exhausted": {
            "en": "The search tried every path from here ({nodes} nodes): this position cannot "
            "be finished.",
            "zh": "搜索试遍了从这里出发的所有路（{nodes} 个节点）：这个局面走不完了。",
        },
        "ui.showme.budget": {
            "en": "The search gave up after {nodes} nodes: no tour found yet, and no proof "
            "that there is none.",
            "zh": "搜索走了 {nodes} 个节点后放弃了：还没找到巡游，也没能证明走不通。",
        },
        "ui.showme.budget.time": {
            "en": "The search gave up at its time limit ({nodes} nodes): no tour found yet, and "
            "no proof that there is none.",
            "zh": "搜索到了时间上限（{nodes} 个节点）后放弃了：还没找到巡游，也没能证明走不通。",
        },
        "ui.showme.stopped": {
            "en": "Show me cancelled; your game is unchanged.",
            "zh": "演示已取消，棋局没有改变。",
        },
        "ui.showme.error": {
            "en": "The search could not run: {message}",
            "zh": "搜索无法进行：{message}",
        },
        "ui.showme.offline": {
            "en": "no connection to the server",
            "zh": "连不上服务器",
        },
    }
)


# --- class rooms ---
# The class rooms (server/classroom/, server/web/class_pages.py, server/web/class_socket.py,
# templates/class_*.html, static/js/class/): errors of the /class namespace
# ("class.error.<code>[.<detail>]") and the pages' words ("class.ui.*").
MESSAGES.update(
    {
        "class.error.unknown-room": {
            "en": "There is no class with this code. Check the code on the teacher's screen.",
            "zh": "没有这个代码的课堂。请核对老师屏幕上的代码。",
        },
        "class.error.expired": {
            "en": "This class has ended (it was idle for too long).",
            "zh": "这个课堂已结束（闲置太久了）。",
        },
        "class.error.bad-token": {
            "en": "This teacher link is not valid for this class.",
            "zh": "这个教师链接对本课堂无效。",
        },
        "class.error.not-teacher": {
            "en": "Only the teacher can control the class.",
            "zh": "只有老师可以控制课堂。",
        },
        "class.error.not-joined": {
            "en": "Join a class first.",
            "zh": "请先加入课堂。",
        },
        "class.error.stale": {
            "en": "The demo was changed in the meantime; this control was ignored.",
            "zh": "演示已经换了，这次操作被忽略。",
        },
        "class.error.bad-request": {
            "en": "The message is malformed.",
            "zh": "消息格式有误。",
        },
        "class.error.bad-request.payload": {
            "en": "The message must be a JSON object.",
            "zh": "消息必须是 JSON 对象。",
        },
        "class.error.bad-request.field": {
            "en": "The message is malformed: “{field}” is missing or has the wrong type.",
            "zh": "消息格式有误：“{field}”缺失或类型不对。",
        },
        "class.error.bad-request.settings": {
            "en": "The demo settings are malformed.",
            "zh": "演示设置格式有误。",
        },
        "class.error.bad-request.joined": {
            "en": "This connection has already joined a class.",
            "zh": "这个连接已经加入了课堂。",
        },
        "class.error.bad-settings": {
            "en": "These demo settings are not possible.",
            "zh": "这些演示设置不可行。",
        },
        "class.error.bad-puzzle.size": {
            "en": "A class puzzle needs {min} to {max} rows and columns.",
            "zh": "课堂题目的行数和列数须在 {min} 到 {max} 之间。",
        },
        "class.error.no-puzzle": {
            "en": "The teacher has not handed out a puzzle.",
            "zh": "老师还没有出题。",
        },
        "class.error.bad-name": {
            "en": "Your name must be 1 to {max} characters.",
            "zh": "名字须为 1 到 {max} 个字符。",
        },
        "class.error.full": {
            "en": "No more attempts at this puzzle are possible.",
            "zh": "这道题不能再开始新的尝试了。",
        },
        "class.error.unknown-entry": {
            "en": "This game is not an attempt at the current class puzzle.",
            "zh": "这局棋不是当前课堂题目的作答。",
        },
        "class.error.not-solved": {
            "en": "The server has not seen this puzzle solved.",
            "zh": "服务器没有看到这道题被解出。",
        },
        "class.error.rate-limited": {
            "en": "Too many classes opened from your address; try again in {seconds} s.",
            "zh": "你开课堂太频繁了，请 {seconds} 秒后再试。",
        },
        "class.error.internal": {
            "en": "Something went wrong on the server.",
            "zh": "服务器出错了。",
        },
        "class.error.busy": {
            "en": "The server is busy; try again.",
            "zh": "服务器繁忙，请重试。",
        },
    }
)
MESSAGES.update(
    {
        "class.ui.new.title": {"en": "Open a class", "zh": "开一个课堂"},
        "class.ui.new.intro": {
            "en": "Show the whole class a knight's tour search: every student's phone "
            "follows your screen — play, pause, step and seek included.",
            "zh": "给全班演示马踏棋盘的搜索：每个学生的手机都跟着你的屏幕走——播放、暂停、"
            "单步和拖动进度都同步。",
        },
        "class.ui.new.step1": {
            "en": "Open the class: you get a join code and a QR code.",
            "zh": "开课堂：你会得到一个加入代码和二维码。",
        },
        "class.ui.new.step2": {
            "en": "Students scan the QR code or type the code at /class.",
            "zh": "学生扫二维码，或在 /class 输入代码。",
        },
        "class.ui.new.step3": {
            "en": "Drive the demo, then hand out a puzzle and watch the class leaderboard.",
            "zh": "操作演示，然后出一道题，看全班排行榜。",
        },
        "class.ui.new.open": {"en": "Open a class", "zh": "开课堂"},
        "class.ui.new.note": {
            "en": "Only this browser can control the class (it keeps the teacher key). "
            "A class ends after two hours without activity.",
            "zh": "只有这个浏览器能控制课堂（它保存教师密钥）。课堂闲置两小时后自动结束。",
        },
        "class.ui.join.title": {"en": "Join a class", "zh": "加入课堂"},
        "class.ui.join.link": {"en": "Join a class as a student", "zh": "以学生身份加入课堂"},
        "class.ui.join.code": {"en": "Class code", "zh": "课堂代码"},
        "class.ui.join.go": {"en": "Join", "zh": "加入"},
        "class.ui.join.teacher": {"en": "Teachers: open a class", "zh": "老师：开一个课堂"},
        "class.ui.teacher.title": {"en": "Class", "zh": "课堂"},
        "class.ui.student.title": {"en": "Class", "zh": "课堂"},
        "class.ui.room": {"en": "Class room", "zh": "课堂"},
        "class.ui.qr-alt": {
            "en": "QR code of the link students open",
            "zh": "学生打开的链接的二维码",
        },
        "class.ui.code": {"en": "Join code", "zh": "加入代码"},
        "class.ui.copy": {"en": "Copy link", "zh": "复制链接"},
        "class.ui.copied": {"en": "Copied", "zh": "已复制"},
        "class.ui.students": {"en": "in class", "zh": "名学生在线"},
        "class.ui.connecting": {"en": "Connecting…", "zh": "正在连接…"},
        "class.ui.connected": {"en": "Connected", "zh": "已连接"},
        "class.ui.reconnecting": {
            "en": "Connection lost — reconnecting…",
            "zh": "连接断开，正在重连…",
        },
        "class.ui.end": {"en": "End class", "zh": "结束课堂"},
        "class.ui.end.confirm": {
            "en": "End the class for everyone?",
            "zh": "要为所有人结束这个课堂吗？",
        },
        "class.ui.ended": {"en": "The class has ended.", "zh": "课堂已结束。"},
        "class.ui.no-token": {
            "en": "This browser does not hold the teacher key of this class, so it cannot "
            "control it. Open the class from the browser that created it.",
            "zh": "这个浏览器没有本课堂的教师密钥，无法控制。请在开课堂的浏览器中打开。",
        },
        "class.ui.demo": {"en": "The demo", "zh": "演示"},
        "class.ui.show": {"en": "Show the class", "zh": "给全班演示"},
        "class.ui.pick": {
            "en": "Pick a start square, then press “Show the class”.",
            "zh": "选一个起点，然后点“给全班演示”。",
        },
        "class.ui.waiting": {
            "en": "Waiting for the teacher to start the demo…",
            "zh": "等待老师开始演示…",
        },
        "class.ui.views": {"en": "Views", "zh": "视图"},
        "class.ui.tab.demo": {"en": "Demo", "zh": "演示"},
        "class.ui.tab.puzzle": {"en": "Puzzle", "zh": "题目"},
        "class.ui.catching-up": {"en": "Catching up with the class…", "zh": "正在追上全班进度…"},
        "class.ui.follow.catching-up": {"en": "catching up…", "zh": "正在追赶…"},
        "class.ui.follow.playing": {"en": "playing at {speed}/s", "zh": "以每秒 {speed} 步播放"},
        "class.ui.follow.playing-max": {"en": "playing at full speed", "zh": "全速播放"},
        "class.ui.follow.paused": {"en": "paused by the teacher", "zh": "老师已暂停"},
        "class.ui.puzzle": {"en": "Class puzzle", "zh": "课堂题目"},
        "class.ui.puzzle.help": {
            "en": "Everyone tries it on their own phone; only wins the server saw are ranked.",
            "zh": "每人在自己的手机上做；只有服务器确认的完成才会上榜。",
        },
        "class.ui.puzzle.from": {"en": "from", "zh": "起点"},
        "class.ui.puzzle.give": {"en": "Hand out", "zh": "出题"},
        "class.ui.puzzle.clear": {"en": "Take back", "zh": "收回"},
        "class.ui.puzzle.bad-start": {
            "en": "The start square must be on the board, e.g. b1.",
            "zh": "起点必须在棋盘上，例如 b1。",
        },
        "class.ui.puzzle.open": {
            "en": "{rows}×{cols} open tour from {square}",
            "zh": "{rows}×{cols} 开放巡游，从 {square} 出发",
        },
        "class.ui.puzzle.closed": {
            "en": "{rows}×{cols} closed tour from {square}",
            "zh": "{rows}×{cols} 闭合巡游，从 {square} 出发",
        },
        "class.ui.puzzle.now": {"en": "Handed out: {puzzle}", "zh": "当前题目：{puzzle}"},
        "class.ui.leaderboard": {"en": "Class leaderboard", "zh": "全班排行榜"},
        "class.ui.lb.name": {"en": "Name", "zh": "名字"},
        "class.ui.lb.time": {"en": "Time", "zh": "用时"},
        "class.ui.lb.moves": {"en": "Moves", "zh": "步数"},
        "class.ui.lb.hints": {"en": "Hints", "zh": "提示"},
        "class.ui.lb.empty": {"en": "Nobody has solved it yet.", "zh": "还没有人解出。"},
        "class.ui.lb.counts": {
            "en": "{solved} solved · {trying} trying",
            "zh": "{solved} 人解出 · {trying} 人在做",
        },
        "class.ui.name": {"en": "Your name", "zh": "你的名字"},
        "class.ui.try": {"en": "Start", "zh": "开始"},
        "class.ui.undo": {"en": "Undo", "zh": "撤销"},
        "class.ui.restart": {"en": "Restart", "zh": "重来"},
        "class.ui.solved": {
            "en": "Solved in {time}! You are #{rank} in the class.",
            "zh": "用时 {time} 完成！你在全班排第 {rank} 名。",
        },
    }
)
