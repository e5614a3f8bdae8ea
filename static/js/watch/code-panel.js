// The algorithm's code as the lesson teaches it (Java as in the articles, and Python),
// with the line the current event executes highlighted and the comments in zh / en.
//
// Each line is [code, tag, comment]: `tag` names what the line does (mark, next, sort,
// loop, recurse, check, reset, finish) so an event can light the lines it corresponds to;
// `comment` is {zh, en}. Lines tagged "sort" / "sort-def" only exist in the Warnsdorff
// variant, whose onward counts are Warnsdorff's (unvisited squares), as the engine's are.

const C = (zh, en) => ({ zh, en });

const JAVA = [
  ["// 马踏棋盘：深度优先搜索 + 回溯", "", null],
  ["static void traversalChessBoard(int[][] chessBoard, int row, int col, int step) {", "", null],
  ["    chessBoard[row][col] = step;", "mark", C("记下这是第几步", "record the move number")],
  ["    visited[row * X + col] = true;", "mark", C("标记为已走过", "mark the square visited")],
  [
    "    ArrayList<Point> points = next(new Point(col, row));",
    "next",
    C("下一步能走的位置", "where the knight can go next"),
  ],
  ["    sort(points);", "sort", C("贪心：后续走法少的先试", "greedy: fewest onward moves first")],
  ["    while (!points.isEmpty()) {", "loop", null],
  ["        Point p = points.remove(0);", "loop", C("取出第一个候选", "take the first candidate")],
  ["        if (!visited[p.y * X + p.x]) {", "loop", C("没走过才走", "only unvisited squares")],
  [
    "            traversalChessBoard(chessBoard, p.y, p.x, step + 1);",
    "recurse",
    C("走下一步（递归）", "go one move deeper (recursion)"),
  ],
  ["        }", "", null],
  ["    }", "", null],
  [
    "    if (step < X * Y && !finished) {",
    "check",
    C("没走完：这条路走不通", "not complete: a dead end"),
  ],
  [
    "        chessBoard[row][col] = 0;",
    "reset",
    C("回溯：撤销这一步", "backtrack: undo this move"),
  ],
  ["        visited[row * X + col] = false;", "reset", C("重新设为未走过", "unmark the square")],
  ["    } else {", "", null],
  ["        finished = true;", "finish", C("走遍全部格子！", "every square visited!")],
  ["    }", "", null],
  ["}", "", null],
  ["", "", null],
  ["// x = 列, y = 行；顺序 5 6 7 0 1 2 3 4", "", null],
  ["static ArrayList<Point> next(Point cur) {", "", null],
  ["    ArrayList<Point> points = new ArrayList<>();", "", null],
  ["    Point p = new Point();", "", null],
  [
    "    if ((p.x = cur.x - 2) >= 0 && (p.y = cur.y - 1) >= 0) points.add(new Point(p)); // 5",
    "",
    null,
  ],
  [
    "    if ((p.x = cur.x - 1) >= 0 && (p.y = cur.y - 2) >= 0) points.add(new Point(p)); // 6",
    "",
    null,
  ],
  [
    "    if ((p.x = cur.x + 1) < X && (p.y = cur.y - 2) >= 0) points.add(new Point(p)); // 7",
    "",
    null,
  ],
  [
    "    if ((p.x = cur.x + 2) < X && (p.y = cur.y - 1) >= 0) points.add(new Point(p)); // 0",
    "",
    null,
  ],
  [
    "    if ((p.x = cur.x + 2) < X && (p.y = cur.y + 1) < Y) points.add(new Point(p)); // 1",
    "",
    null,
  ],
  [
    "    if ((p.x = cur.x + 1) < X && (p.y = cur.y + 2) < Y) points.add(new Point(p)); // 2",
    "",
    null,
  ],
  [
    "    if ((p.x = cur.x - 1) >= 0 && (p.y = cur.y + 2) < Y) points.add(new Point(p)); // 3",
    "",
    null,
  ],
  [
    "    if ((p.x = cur.x - 2) >= 0 && (p.y = cur.y + 1) < Y) points.add(new Point(p)); // 4",
    "",
    null,
  ],
  ["    return points;", "", null],
  ["}", "", null],
  ["", "sort-def", null],
  [
    "static void sort(ArrayList<Point> ps) {",
    "sort-def",
    C("Warnsdorff 贪心排序", "Warnsdorff's greedy ordering"),
  ],
  [
    "    ps.sort((a, b) -> onward(a) - onward(b));",
    "sort-def",
    C("按后续走法数升序（只数没走过的格）", "ascending onward-move count (unvisited squares only)"),
  ],
  ["}", "sort-def", null],
  [
    "static int onward(Point p) {",
    "sort-def",
    C("后续走法：没走过的下一步", "onward moves: unvisited next squares"),
  ],
  ["    int n = 0;", "sort-def", null],
  ["    for (Point q : next(p)) if (!visited[q.y * X + q.x]) n++;", "sort-def", null],
  ["    return n;", "sort-def", null],
  ["}", "sort-def", null],
];

const PYTHON = [
  ["# 马踏棋盘：深度优先搜索 + 回溯", "", null],
  [
    "MOVES = [(-2, -1), (-1, -2), (1, -2), (2, -1), (2, 1), (1, 2), (-1, 2), (-2, 1)]",
    "",
    C("(dx, dy)，顺序 5 6 7 0 1 2 3 4", "(dx, dy), order 5 6 7 0 1 2 3 4"),
  ],
  ["", "", null],
  ["def next_squares(x, y):", "", C("下一步能走的位置", "where the knight can go next")],
  ["    return [(x + dx, y + dy) for dx, dy in MOVES", "", null],
  ["            if 0 <= x + dx < X and 0 <= y + dy < Y and not visited[y + dy][x + dx]]", "", null],
  ["", "", null],
  ["def tour(x, y, step):", "", C("x = 列, y = 行", "x = column, y = row")],
  ["    board[y][x] = step", "mark", C("记下这是第几步", "record the move number")],
  ["    visited[y][x] = True", "mark", C("标记为已走过", "mark the square visited")],
  ["    if step == X * Y:", "finish", C("走遍全部格子？", "every square visited?")],
  [
    "        return not CLOSED or START in knight_moves(x, y)",
    "finish",
    C("闭合巡游还要能跳回起点", "a closed tour must end a move from the start"),
  ],
  ["    candidates = next_squares(x, y)", "next", null],
  [
    "    candidates.sort(key=lambda p: len(next_squares(*p)))",
    "sort",
    C("贪心：后续走法少的先试", "greedy: fewest onward moves first"),
  ],
  ["    for nx, ny in candidates:", "loop", null],
  [
    "        if tour(nx, ny, step + 1):",
    "recurse",
    C("走下一步（递归）", "go one move deeper (recursion)"),
  ],
  ["            return True", "", null],
  ["    board[y][x] = 0", "reset", C("回溯：撤销这一步", "backtrack: undo this move")],
  ["    visited[y][x] = False", "reset", C("重新设为未走过", "unmark the square")],
  ["    return False", "reset", null],
];

const KEYWORDS = new Set(
  (
    "static void int boolean if else while return new for in def not and or True False " + "lambda"
  ).split(" "),
);
const TYPES = new Set(["ArrayList", "Point"]);

export class CodePanel {
  constructor(root) {
    this.root = root;
    this.pre = root.querySelector(".w-code");
    this.language = "java";
    this.algorithm = "seed";
    this.lang = "zh";
    this.tags = "";
    this.lines = [];
    for (const tab of root.querySelectorAll("[data-code]")) {
      tab.addEventListener("click", () => {
        this.language = tab.dataset.code;
        this.render();
      });
    }
  }

  configure({ algorithm = this.algorithm, lang = this.lang } = {}) {
    this.algorithm = algorithm;
    this.lang = lang;
    this.render();
  }

  render() {
    for (const tab of this.root.querySelectorAll("[data-code]")) {
      tab.setAttribute("aria-selected", String(tab.dataset.code === this.language));
    }
    const construct = this.algorithm === "construct";
    this.root.classList.toggle("w-construct", construct);
    const source = this.language === "python" ? PYTHON : JAVA;
    const marker = this.language === "python" ? "#" : "//";
    const fragment = document.createDocumentFragment();
    this.lines = [];
    for (const [code, tag, comment] of source) {
      if (tag.startsWith("sort") && this.algorithm !== "warnsdorff") continue;
      const line = document.createElement("span");
      line.className = "w-code-line";
      if (tag) line.dataset.tag = tag;
      line.append(...highlight(code, marker));
      if (comment) {
        const note = document.createElement("span");
        note.className = "w-tok-comment";
        note.textContent = `${code ? "  " : ""}${marker} ${comment[this.lang] ?? comment.en}`;
        line.append(note);
      }
      line.append("\n");
      fragment.append(line);
      this.lines.push(line);
    }
    this.pre.replaceChildren(fragment);
    const tags = this.tags;
    this.tags = "";
    this.highlight(tags);
  }

  /** Light the lines of `tags` ("mark next sort", "reset", "finish" or ""). */
  highlight(tags) {
    if (tags === this.tags) return;
    this.tags = tags;
    const on = new Set(tags.split(" ").filter(Boolean));
    const primary = tags.split(" ")[0];
    let first = null;
    for (const line of this.lines) {
      const lit = on.has(line.dataset.tag);
      line.classList.toggle("w-lit", lit);
      line.classList.toggle("w-lit-main", lit && line.dataset.tag === primary);
      if (lit && !first) first = line;
    }
    if (first) {
      const box = this.pre.parentElement;
      const top = first.offsetTop - box.clientHeight / 3;
      if (Math.abs(box.scrollTop - top) > box.clientHeight / 3) box.scrollTop = Math.max(0, top);
    }
  }
}

/** Minimal syntax colouring: comments, keywords, types and numbers. */
function highlight(code, marker) {
  const parts = [];
  let text = code;
  let comment = "";
  const at = text.indexOf(marker);
  if (at >= 0) {
    comment = text.slice(at);
    text = text.slice(0, at);
  }
  for (const token of text.split(/(\b\w+\b)/)) {
    if (!token) continue;
    let cls = "";
    if (KEYWORDS.has(token)) cls = "w-tok-kw";
    else if (TYPES.has(token)) cls = "w-tok-type";
    else if (/^\d+$/.test(token)) cls = "w-tok-num";
    if (cls) {
      const span = document.createElement("span");
      span.className = cls;
      span.textContent = token;
      parts.push(span);
    } else {
      parts.push(token);
    }
  }
  if (comment) {
    const span = document.createElement("span");
    span.className = "w-tok-comment";
    span.textContent = comment;
    parts.push(span);
  }
  return parts;
}
