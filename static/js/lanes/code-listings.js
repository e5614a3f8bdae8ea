// The lesson's code, as the articles teach it (Java) and in Python, for the code panel.
// A line may end in "@@ tag | 中文 | English": the tag names what the line does (mark, next,
// sort, loop, recurse, check, reset, finish) so an event lights the lines it corresponds to;
// the comment shows in the page's language. A comment line of its own is "@@ | 中文 | English"
// (no code, no tag): every word in a comment is in both languages. Lines tagged "sort" / "sort-def" belong to the
// Warnsdorff variant only, whose onward counts are Warnsdorff's (unvisited squares), as the
// engine's are.

/** A listing -> its lines as [code, tag, comment {zh, en} | null]. */
function listing(text) {
  return text
    .slice(1, -1)
    .split("\n")
    .map((line) => {
      const at = line.search(/(^|\s+)@@ /);
      if (at < 0) return [line, "", null];
      const [tag, zh, en] = line.slice(line.indexOf("@@ ", at) + 3).split(/\s*\|\s*/);
      return [line.slice(0, at), tag.trim(), zh ? { zh, en } : null];
    });
}

export const JAVA = listing(`
@@ | 马踏棋盘：深度优先搜索 + 回溯 | Knight's tour: depth-first search + backtracking
static void traversalChessBoard(int[][] chessBoard, int row, int col, int step) {
    chessBoard[row][col] = step;  @@ mark | 记下这是第几步 | record the move number
    visited[row * X + col] = true;  @@ mark | 标记为已走过 | mark the square visited
    ArrayList<Point> points = next(new Point(col, row));  @@ next | 下一步能走的位置 | where the knight can go next
    sort(points);  @@ sort | 贪心：后续走法少的先试 | greedy: fewest onward moves first
    while (!points.isEmpty()) {  @@ loop
        Point p = points.remove(0);  @@ loop | 取出第一个候选 | take the first candidate
        if (!visited[p.y * X + p.x]) {  @@ loop | 没走过才走 | only unvisited squares
            traversalChessBoard(chessBoard, p.y, p.x, step + 1);  @@ recurse | 走下一步（递归） | go one move deeper (recursion)
        }
    }
    if (step < X * Y && !finished) {  @@ check | 没走完：这条路走不通 | not complete: a dead end
        chessBoard[row][col] = 0;  @@ reset | 回溯：撤销这一步 | backtrack: undo this move
        visited[row * X + col] = false;  @@ reset | 重新设为未走过 | unmark the square
    } else {
        finished = true;  @@ finish | 走遍全部格子！ | every square visited!
    }
}

@@ | x = 列，y = 行；顺序 5 6 7 0 1 2 3 4 | x = column, y = row; in the order 5 6 7 0 1 2 3 4
static ArrayList<Point> next(Point cur) {
    ArrayList<Point> points = new ArrayList<>();
    Point p = new Point();
    if ((p.x = cur.x - 2) >= 0 && (p.y = cur.y - 1) >= 0) points.add(new Point(p)); // 5
    if ((p.x = cur.x - 1) >= 0 && (p.y = cur.y - 2) >= 0) points.add(new Point(p)); // 6
    if ((p.x = cur.x + 1) < X && (p.y = cur.y - 2) >= 0) points.add(new Point(p)); // 7
    if ((p.x = cur.x + 2) < X && (p.y = cur.y - 1) >= 0) points.add(new Point(p)); // 0
    if ((p.x = cur.x + 2) < X && (p.y = cur.y + 1) < Y) points.add(new Point(p)); // 1
    if ((p.x = cur.x + 1) < X && (p.y = cur.y + 2) < Y) points.add(new Point(p)); // 2
    if ((p.x = cur.x - 1) >= 0 && (p.y = cur.y + 2) < Y) points.add(new Point(p)); // 3
    if ((p.x = cur.x - 2) >= 0 && (p.y = cur.y + 1) < Y) points.add(new Point(p)); // 4
    return points;
}
@@ sort-def
static void sort(ArrayList<Point> ps) {  @@ sort-def | Warnsdorff 贪心排序 | Warnsdorff's greedy ordering
    ps.sort((a, b) -> onward(a) - onward(b));  @@ sort-def | 按后续走法数升序（只数没走过的格） | ascending onward-move count (unvisited squares only)
}  @@ sort-def
static int onward(Point p) {  @@ sort-def | 后续走法：没走过的下一步 | onward moves: unvisited next squares
    int n = 0;  @@ sort-def
    for (Point q : next(p)) if (!visited[q.y * X + q.x]) n++;  @@ sort-def
    return n;  @@ sort-def
}  @@ sort-def
`);

export const PYTHON = listing(`
@@ | 马踏棋盘：深度优先搜索 + 回溯 | Knight's tour: depth-first search + backtracking
MOVES = [(-2, -1), (-1, -2), (1, -2), (2, -1), (2, 1), (1, 2), (-1, 2), (-2, 1)]  @@ | (dx, dy)，顺序 5 6 7 0 1 2 3 4 | (dx, dy), order 5 6 7 0 1 2 3 4

def next_squares(x, y):  @@ | 下一步能走的位置 | where the knight can go next
    return [(x + dx, y + dy) for dx, dy in MOVES
            if 0 <= x + dx < X and 0 <= y + dy < Y and not visited[y + dy][x + dx]]

def tour(x, y, step):  @@ | x = 列, y = 行 | x = column, y = row
    board[y][x] = step  @@ mark | 记下这是第几步 | record the move number
    visited[y][x] = True  @@ mark | 标记为已走过 | mark the square visited
    if step == X * Y:  @@ finish | 走遍全部格子？ | every square visited?
        return not CLOSED or START in knight_moves(x, y)  @@ finish | 闭合巡游还要能跳回起点 | a closed tour must end a move from the start
    candidates = next_squares(x, y)  @@ next
    candidates.sort(key=lambda p: len(next_squares(*p)))  @@ sort | 贪心：后续走法少的先试 | greedy: fewest onward moves first
    for nx, ny in candidates:  @@ loop
        if tour(nx, ny, step + 1):  @@ recurse | 走下一步（递归） | go one move deeper (recursion)
            return True
    board[y][x] = 0  @@ reset | 回溯：撤销这一步 | backtrack: undo this move
    visited[y][x] = False  @@ reset | 重新设为未走过 | unmark the square
    return False  @@ reset
`);
