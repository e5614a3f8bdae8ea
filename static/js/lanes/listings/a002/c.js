// a002.js's C listing (see ../a002.js).

export const C = `
@@ | 文章 002 的 Java 程序，逐行写成 C | article 002's Java program, line by line in C

@@ | 棋盘大小 | the board's size
#define X 6
#define Y 6
@@ | 棋盘 | the board
int chessBoard[Y][X];

@@ | 是否访问过，用数组记录 | whether visited, kept in an array
int vistited[X * Y];

@@ | 记录是否遍历完棋盘 | whether the whole board has been toured
int finished = 0;

typedef struct { int x, y; } Point;  @@ | 代替 java.awt.Point：x 列 y 行 | stands for java.awt.Point: x column, y row

void traversalChessBoard(int chessBoard[Y][X], int row, int col, int step);
int next(Point curPoint, Point points[]);
int unvisited(Point p);  @@ corrected

@@ | 主函数：测试 | main: a test
int main()
{
    @@ | 初始位置（坐标）；演示用文章第一版代码的起点 row = 6, col = 1 | the starting position (coordinates); the demo starts where the article's first listing does: row = 6, col = 1
    int row = 2;
    int col = 2;
    @@ | 需要传入数组下标，因为是二维矩阵 | pass array indices: it is a two-dimensional matrix
    traversalChessBoard(chessBoard, row - 1, col - 1, 1);
    @@ | （省略：计时，打印耗时和结果） | (left out: timing, printing the time taken and the result)
    return 0;
}

@@ | 贪心优化，对可走点进行升序排序：插入排序，稳定，同 Java 的 List.sort | greedy optimisation: sort the reachable points in ascending order; an insertion sort, stable as Java's List.sort is
void sort(Point ps[], int n)
{
    Point tmp[8];  @@ written | next 要一个放结果的数组 | next needs an array for its result
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && next(ps[j], tmp) - next(ps[j - 1], tmp) < 0; j--)  @@ written | next 的个数：走过的格也算在内 | next's count: visited squares counted too
        for (int j = i; j > 0 && unvisited(ps[j]) - unvisited(ps[j - 1]) < 0; j--)  @@ corrected | 修正：只数没走过的格 | corrected: count unvisited squares only
        {
            Point t = ps[j];
            ps[j] = ps[j - 1];
            ps[j - 1] = t;
        }
}
@@@ corrected

@@ | 修正：Warnsdorff 的计数，p 能走到的格中还没走过的 | corrected: Warnsdorff's count, the squares p can go to not visited yet
int unvisited(Point p)
{
    Point ps[8];
    int n = next(p, ps), count = 0;
    for (int i = 0; i < n; i++)
        if (!vistited[ps[i].y * X + ps[i].x]) count++;
    return count;
}
@@@ end

@@ | 核心代码，遍历棋盘 | the core: touring the board
void traversalChessBoard(int chessBoard[Y][X], int row, int col, int step)
{
    @@ | 把 step 记录到 chessBoard 中 | record step in chessBoard
    chessBoard[row][col] = step;  @@ mark start
    @@ | 设置该位置已经访问过（位置下标由二维矩阵推算） | mark this position visited (its index worked out from the 2-D matrix)
    vistited[row * X + col] = 1;  @@ mark start
    @@ | 获取从当前位置开始，下一个可以走的位置有哪些（最多 8 个） | get the positions it can go to next from here (at most 8)
    Point points[8];  @@ next
    int n = next((Point){col, row}, points);  @@ next
    @@ | 贪心优化，先排序 | greedy optimisation: sort first
    sort(points, n);  @@ sort
    @@ | 遍历 | go through them
    for (int i = 0; i < n; i++)  @@ loop
    {
        @@ | 取集合中的第一个点 | take the first point of the list
        Point p = points[i];  @@ loop
        @@ | 判断是否走过 | check whether it was visited
        if (!vistited[p.y * X + p.x])  @@ loop
        {
            @@ | 递归遍历（先传行再传列） | recurse (the row first, then the column)
            traversalChessBoard(chessBoard, p.y, p.x, step + 1);  @@ recurse
        }
    }
    @@ | 遍历结束，判断是否走完棋盘，如果没有遍历成功就重置，然后回溯 | done: is the board complete? If not, reset, then backtrack
    if (step < X * Y && !finished)  @@ check
    {
        chessBoard[row][col] = 0;  @@ reset
        vistited[row * X + col] = 0;  @@ reset
    }
    else
    {
        finished = 1;  @@ finish
    }
}

@@ | 把可以走的位置存入 points（加入判断逻辑，该位置是否合理），返回个数 | put the positions it can go to into points (checking each is valid); returns how many
int next(Point curPoint, Point points[])
{
    int n = 0;
    @@ | 判断是否可以走5位置 | can it go to position 5?
    if (curPoint.x - 2 >= 0 && curPoint.y - 1 >= 0) points[n++] = (Point){curPoint.x - 2, curPoint.y - 1};
    @@ | 判断是否可以走6位置 | can it go to position 6?
    if (curPoint.x - 1 >= 0 && curPoint.y - 2 >= 0) points[n++] = (Point){curPoint.x - 1, curPoint.y - 2};
    @@ | 判断是否可以走7位置 | can it go to position 7?
    if (curPoint.x + 1 < X && curPoint.y - 2 >= 0) points[n++] = (Point){curPoint.x + 1, curPoint.y - 2};
    @@ | 判断是否可以走0位置 | can it go to position 0?
    if (curPoint.x + 2 < X && curPoint.y - 1 >= 0) points[n++] = (Point){curPoint.x + 2, curPoint.y - 1};
    @@ | 判断是否可以走1位置 | can it go to position 1?
    if (curPoint.x + 2 < X && curPoint.y + 1 < Y) points[n++] = (Point){curPoint.x + 2, curPoint.y + 1};
    @@ | 判断是否可以走2位置 | can it go to position 2?
    if (curPoint.x + 1 < X && curPoint.y + 2 < Y) points[n++] = (Point){curPoint.x + 1, curPoint.y + 2};
    @@ | 判断是否可以走3位置 | can it go to position 3?
    if (curPoint.x - 1 >= 0 && curPoint.y + 2 < Y) points[n++] = (Point){curPoint.x - 1, curPoint.y + 2};
    @@ | 判断是否可以走4位置 | can it go to position 4?
    if (curPoint.x - 2 >= 0 && curPoint.y + 1 < Y) points[n++] = (Point){curPoint.x - 2, curPoint.y + 1};
    return n;
}
`;
