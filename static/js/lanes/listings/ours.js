// Our clean rewrite of the seeds' search, for the built-in orderings (seed, warnsdorff), in
// Java (as the articles teach it), Python and C (in the style of the C article). The syntax
// of the lines is code-listings.js's. Lines tagged "sort" / "sort-def" show for Warnsdorff
// only.

const JAVA = `
@@ | 马踏棋盘：深度优先搜索 + 回溯 | Knight's tour: depth-first search + backtracking
static void traversalChessBoard(int[][] chessBoard, int row, int col, int step) {
    chessBoard[row][col] = step;  @@ mark start | 记下这是第几步 | record the move number
    visited[row * X + col] = true;  @@ mark start | 标记为已走过 | mark the square visited
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
`;

const PYTHON = `
@@ | 马踏棋盘：深度优先搜索 + 回溯 | Knight's tour: depth-first search + backtracking
MOVES = [(-2, -1), (-1, -2), (1, -2), (2, -1), (2, 1), (1, 2), (-1, 2), (-2, 1)]  @@ | (dx, dy)，顺序 5 6 7 0 1 2 3 4 | (dx, dy), order 5 6 7 0 1 2 3 4

def next_squares(x, y):  @@ | 下一步能走的位置 | where the knight can go next
    return [(x + dx, y + dy) for dx, dy in MOVES
            if 0 <= x + dx < X and 0 <= y + dy < Y and not visited[y + dy][x + dx]]

def tour(x, y, step):  @@ | x = 列, y = 行 | x = column, y = row
    board[y][x] = step  @@ mark start | 记下这是第几步 | record the move number
    visited[y][x] = True  @@ mark start | 标记为已走过 | mark the square visited
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
`;

const C = `
@@ | 马踏棋盘：深度优先搜索 + 回溯 | Knight's tour: depth-first search + backtracking
int chess[Y][X];  @@ | 棋盘：0 为没走过，否则是第几步 | the board: 0 not visited, else the move number
@@ | (dx, dy)，顺序 5 6 7 0 1 2 3 4 | (dx, dy), order 5 6 7 0 1 2 3 4
int dx[8] = {-2, -1, 1, 2, 2, 1, -1, -2};
int dy[8] = {-1, -2, -2, -1, 1, 2, 2, 1};

/*
@@ bare | 遍历棋盘：(x,y) 为坐标，x 列 y 行 | tour the board: (x,y) the square, x column, y row
@@ bare | step 为第几步；走遍了返回 1 | step the move number; returns 1 when every square is visited
*/
int traverse(int x, int y, int step)
{
    int nx[8], ny[8], n, i;
    chess[y][x] = step;  @@ mark start | 记下这是第几步（非 0 即走过） | record the move number (not 0: visited)
    if (step == X * Y)  @@ finish | 走遍全部格子？ | every square visited?
        return 1;  @@ finish
    n = next(x, y, nx, ny);  @@ next | 下一步能走的位置 | where the knight can go next
    sort(nx, ny, n);  @@ sort | 贪心：后续走法少的先试 | greedy: fewest onward moves first
    for (i = 0; i < n; i++)  @@ loop
    {
        if (traverse(nx[i], ny[i], step + 1))  @@ recurse | 走下一步（递归） | go one move deeper (recursion)
            return 1;
    }
    chess[y][x] = 0;  @@ reset | 回溯：撤销这一步 | backtrack: undo this move
    return 0;  @@ reset
}

/*
@@ bare | 下一步能走、还没走过的位置，存入 nx, ny | the next squares on the board not visited yet, into nx, ny
@@ bare | 返回个数 | returns how many
*/
int next(int x, int y, int nx[], int ny[])
{
    int i, n = 0;
    for (i = 0; i < 8; i++)
    {
        int x1 = x + dx[i], y1 = y + dy[i];
        if (x1 >= 0 && x1 <= X - 1 && y1 >= 0 && y1 <= Y - 1 && chess[y1][x1] == 0)
        {
            nx[n] = x1;
            ny[n] = y1;
            n++;
        }
    }
    return n;
}
@@ sort-def
@@ sort-def | Warnsdorff 贪心排序：插入排序，稳定（同分的保持原顺序） | Warnsdorff's greedy ordering: insertion sort, stable (ties keep their order)
void sort(int nx[], int ny[], int n)  @@ sort-def
{  @@ sort-def
    int i, j, ways[8], tx[8], ty[8];  @@ sort-def
    for (i = 0; i < n; i++)  @@ sort-def
        ways[i] = next(nx[i], ny[i], tx, ty);  @@ sort-def | 后续走法：只数没走过的格 | onward moves: unvisited squares only
    for (i = 1; i < n; i++)  @@ sort-def
        for (j = i; j > 0 && ways[j] < ways[j - 1]; j--)  @@ sort-def
        {  @@ sort-def
            swap(ways, j);  @@ sort-def
            swap(nx, j);  @@ sort-def
            swap(ny, j);  @@ sort-def
        }  @@ sort-def
}  @@ sort-def
void swap(int a[], int j)  @@ sort-def | 交换 a[j] 与 a[j-1] | swap a[j] and a[j-1]
{  @@ sort-def
    int t = a[j];  @@ sort-def
    a[j] = a[j - 1];  @@ sort-def
    a[j - 1] = t;  @@ sort-def
}  @@ sort-def
`;

export const OURS = { java: JAVA, python: PYTHON, c: C };
