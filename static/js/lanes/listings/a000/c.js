// a000.js's C listing (see ../a000.js).

export const C = `
@@ | 文章 000 的 Java 程序，逐行写成 C | article 000's Java program, line by line in C
#define X 8  @@ | 列 | columns
#define Y 8  @@ | 行 | rows
int visit[X][Y];
int finshed = 0;
int chess[X][Y];
typedef struct { int x, y; } Point;  @@ | 代替 java.awt.Point：x 列 y 行 | stands for java.awt.Point: x column, y row

void traversalChessboard(int chess[X][Y], int row, int col, int step);
int findWay(Point current, Point res[]);
void sort(Point ps[], int n);
int unvisited(Point p);  @@ corrected

int main()
{
    @@ | （省略计时） | (timing left out)
    traversalChessboard(chess, 2, 0, 1);
    @@ | （省略：打印耗时和棋盘） | (left out: printing the time taken and the board)
    return 0;
}

@@ | 马踏棋盘算法 | knight's tour algorithm
void traversalChessboard(int chess[X][Y], int row, int col, int step)
{
    @@ | 先走一步 | first, make the move
    chess[row][col] = step;  @@ mark start
    visit[row][col] = 1;  @@ mark start
    @@ | 下一步能走的地（最多 8 个） | the places it can go next (at most 8)
    Point way[8];  @@ next
    int n = findWay((Point){col, row}, way);  @@ next
    sort(way, n);  @@ sort
    for (int i = 0; i < n; i++)  @@ loop
    {
        @@ | 取出一个能走的地方 | take out one place it can go
        Point point = way[i];  @@ loop
        @@ | 走下一步 | make the next move
        if (!visit[point.y][point.x])  @@ loop
            traversalChessboard(chess, point.y, point.x, step + 1);  @@ recurse
    }
    if (step < X * Y && !finshed)  @@ check
    {
        chess[row][col] = 0;  @@ reset
        visit[row][col] = 0;  @@ reset
    }
    else
        finshed = 1;  @@ finish
}

@@ | 根据现在的坐标返回可以走的坐标 x列y行，存入 res，返回个数 | from the current coordinates, the coordinates it can go to, x column y row, into res; returns how many
int findWay(Point current, Point res[])
{
    int n = 0;
    //5
    if (current.x - 2 >= 0 && current.y - 1 >= 0) res[n++] = (Point){current.x - 2, current.y - 1};
    //6
    if (current.x - 1 >= 0 && current.y - 2 >= 0) res[n++] = (Point){current.x - 1, current.y - 2};
    //7
    if (current.x + 1 < X && current.y - 2 >= 0) res[n++] = (Point){current.x + 1, current.y - 2};
    //0
    if (current.x + 2 < X && current.y - 1 >= 0) res[n++] = (Point){current.x + 2, current.y - 1};
    //1
    if (current.x + 2 < X && current.y + 1 < Y) res[n++] = (Point){current.x + 2, current.y + 1};
    //2
    if (current.x + 1 < X && current.y + 2 < Y) res[n++] = (Point){current.x + 1, current.y + 2};
    //3
    if (current.x - 1 >= 0 && current.y + 2 < Y) res[n++] = (Point){current.x - 1, current.y + 2};
    //4
    if (current.x - 2 >= 0 && current.y + 1 < Y) res[n++] = (Point){current.x - 2, current.y + 1};
    return n;
}

@@ | 贪心算法优化：插入排序，稳定，同 Java 的 List.sort | greedy optimisation: an insertion sort, stable as Java's List.sort is
void sort(Point ps[], int n)
{
    Point tmp[8];  @@ written | findWay 要一个放结果的数组 | findWay needs an array for its result
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && findWay(ps[j], tmp) < findWay(ps[j - 1], tmp); j--)  @@ written | findWay 的个数：走过的格也算在内 | findWay's count: visited squares counted too
        for (int j = i; j > 0 && unvisited(ps[j]) < unvisited(ps[j - 1]); j--)  @@ corrected | 修正：只数没走过的格 | corrected: count unvisited squares only
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
    Point res[8];
    int n = findWay(p, res), count = 0;
    for (int i = 0; i < n; i++)
        if (!visit[res[i].y][res[i].x]) count++;
    return count;
}
@@@ end
`;
