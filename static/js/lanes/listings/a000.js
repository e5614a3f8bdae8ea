// Article 000 (java马踏棋盘算法, its "最终代码"): the article's Java program as it wrote it,
// and the same program line by line in Python and C, each in the two variants: as written
// (the sort counts findWay(p).size(), every knight move on the board, visited squares
// included: the static degree) and corrected (Warnsdorff's count of unvisited squares;
// nothing else changed). The syntax of the lines is code-listings.js's; the article's
// comments are in the comment fields, its own words in Chinese.

const JAVA = `
package algorithm;
import java.awt.*;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
@@ doc | * 马踏棋盘算法 | * knight's tour algorithm
public class HorseChessboard {
    static int X;  @@ | 列 | columns
    static int Y;  @@ | 行 | rows
    static boolean[][] visit;
    static boolean finshed;
    public static void main(String[] args) {
        X = 8;
        Y = 8;
        visit = new boolean[X][Y];
        finshed = false;
        int[][] chess = new int[X][Y];
        @@ | （省略计时：long s = System.currentTimeMillis();） | (timing left out: long s = System.currentTimeMillis();)
        traversalChessboard(chess, 2, 0, 1);
        @@ | （省略：打印耗时和棋盘） | (left out: printing the time taken and the board)
    }
    @@ doc | * 马踏棋盘算法 * * @param chess 棋盘 * @param row 坐标行 * @param col 坐标列 * @param step 步数 | * knight's tour algorithm * * @param chess the board * @param row the row * @param col the column * @param step the move number
    public static void traversalChessboard(int[][] chess, int row, int col, int step) {
        @@ | 先走一步 | first, make the move
        chess[row][col] = step;  @@ mark start
        visit[row][col] = true;  @@ mark start
        @@ | 下一步能走的地 | the places it can go next
        ArrayList<Point> way = findWay(new Point(col, row));  @@ next
        sort(way);  @@ sort
        while (!way.isEmpty()) {  @@ loop
            @@ | 取出一个能走的地方 | take out one place it can go
            Point point = way.remove(0);  @@ loop
            @@ | 走下一步 | make the next move
            if (!visit[point.y][point.x]) {  @@ loop
                traversalChessboard(chess, point.y, point.x, step + 1);  @@ recurse
            }
        }
        if (step < X * Y && !finshed) {  @@ check
            chess[row][col] = 0;  @@ reset
            visit[row][col] = false;  @@ reset
        }else {
            finshed=true;  @@ finish
        }
    }
    @@ doc | * 根据现在的坐标返回可以走的坐标 x列y行 * * @param current * @return | * from the current coordinates, return the coordinates it can go to; x column, y row * * @param current * @return
    public static ArrayList<Point> findWay(Point current) {
        ArrayList<Point> res = new ArrayList<>();
        @@ | 可以走的坐标 | a coordinate it can go to
        Point p = new Point();
        //5
        if ((p.x = current.x - 2) >= 0 && (p.y = current.y - 1) >= 0) {
            res.add(new Point(p));
        }
        //6
        if ((p.x = current.x - 1) >= 0 && (p.y = current.y - 2) >= 0) {
            res.add(new Point(p));
        }
        //7
        if ((p.x = current.x + 1) < X && (p.y = current.y - 2) >= 0) {
            res.add(new Point(p));
        }
        //0
        if ((p.x = current.x + 2) < X && (p.y = current.y - 1) >= 0) {
            res.add(new Point(p));
        }
        //1
        if ((p.x = current.x + 2) < X && (p.y = current.y + 1) < Y) {
            res.add(new Point(p));
        }
        //2
        if ((p.x = current.x + 1) < X && (p.y = current.y + 2) < Y) {
            res.add(new Point(p));
        }
        //3
        if ((p.x = current.x - 1) >= 0 && (p.y = current.y + 2) < Y) {
            res.add(new Point(p));
        }
        //4
        if ((p.x = current.x - 2) >= 0 && (p.y = current.y + 1) < Y) {
            res.add(new Point(p));
        }
        return res;
    }
    @@ doc | * 贪心算法优化 * @param ps | * greedy optimisation * @param ps
    public static void sort(ArrayList<Point> ps){
        ps.sort(new Comparator<Point>() {
            @Override
            public int compare(Point o1, Point o2) {
                int way1 = findWay(o1).size();  @@ written
                int way2 = findWay(o2).size();  @@ written
                int way1 = unvisited(findWay(o1));  @@ corrected | 修正：只数没走过的格 | corrected: count unvisited squares only
                int way2 = unvisited(findWay(o2));  @@ corrected
                if(way1<way2){
                    return -1;
                }else if(way1==way2){
                    return 0;
                }else {
                    return 1;
                }
            }
        });
    }
@@@ corrected
    @@ | 修正：Warnsdorff 的计数，ps 中还没走过的格 | corrected: Warnsdorff's count, the squares of ps not visited yet
    static int unvisited(ArrayList<Point> ps) {
        int n = 0;
        for (Point p : ps) if (!visit[p.y][p.x]) n++;
        return n;
    }
@@@ end
}
`;

const PYTHON = `
@@ | 文章 000 的 Java 程序，逐行写成 Python | article 000's Java program, line by line in Python
X = 8  @@ | 列 | columns
Y = 8  @@ | 行 | rows
visit = [[False] * Y for _ in range(X)]
finshed = False
chess = [[0] * Y for _ in range(X)]


class Point:  @@ | 代替 java.awt.Point：x 列 y 行 | stands for java.awt.Point: x column, y row
    def __init__(self, x, y):
        self.x, self.y = x, y


@@ | 马踏棋盘算法 | knight's tour algorithm
def traversalChessboard(chess, row, col, step):
    global finshed
    @@ | 先走一步 | first, make the move
    chess[row][col] = step  @@ mark start
    visit[row][col] = True  @@ mark start
    @@ | 下一步能走的地 | the places it can go next
    way = findWay(Point(col, row))  @@ next
    sort(way)  @@ sort
    while way:  @@ loop
        @@ | 取出一个能走的地方 | take out one place it can go
        point = way.pop(0)  @@ loop
        @@ | 走下一步 | make the next move
        if not visit[point.y][point.x]:  @@ loop
            traversalChessboard(chess, point.y, point.x, step + 1)  @@ recurse
    if step < X * Y and not finshed:  @@ check
        chess[row][col] = 0  @@ reset
        visit[row][col] = False  @@ reset
    else:
        finshed = True  @@ finish


@@ | 根据现在的坐标返回可以走的坐标 x列y行 | from the current coordinates, the coordinates it can go to; x column, y row
def findWay(current):
    res = []
    # 5
    if current.x - 2 >= 0 and current.y - 1 >= 0:
        res.append(Point(current.x - 2, current.y - 1))
    # 6
    if current.x - 1 >= 0 and current.y - 2 >= 0:
        res.append(Point(current.x - 1, current.y - 2))
    # 7
    if current.x + 1 < X and current.y - 2 >= 0:
        res.append(Point(current.x + 1, current.y - 2))
    # 0
    if current.x + 2 < X and current.y - 1 >= 0:
        res.append(Point(current.x + 2, current.y - 1))
    # 1
    if current.x + 2 < X and current.y + 1 < Y:
        res.append(Point(current.x + 2, current.y + 1))
    # 2
    if current.x + 1 < X and current.y + 2 < Y:
        res.append(Point(current.x + 1, current.y + 2))
    # 3
    if current.x - 1 >= 0 and current.y + 2 < Y:
        res.append(Point(current.x - 1, current.y + 2))
    # 4
    if current.x - 2 >= 0 and current.y + 1 < Y:
        res.append(Point(current.x - 2, current.y + 1))
    return res


@@ | 贪心算法优化；sort 是稳定排序，同 Java 的 List.sort | greedy optimisation; sort is stable, as Java's List.sort is
def sort(ps):
    ps.sort(key=lambda p: len(findWay(p)))  @@ written | 按 findWay(p) 的个数：走过的格也算在内 | by the size of findWay(p): visited squares counted too
    ps.sort(key=lambda p: unvisited(findWay(p)))  @@ corrected | 修正：只数没走过的格 | corrected: count unvisited squares only
@@@ corrected


@@ | 修正：Warnsdorff 的计数，ps 中还没走过的格 | corrected: Warnsdorff's count, the squares of ps not visited yet
def unvisited(ps):
    return sum(1 for p in ps if not visit[p.y][p.x])
@@@ end


traversalChessboard(chess, 2, 0, 1)
@@ | （省略：计时，打印耗时和棋盘） | (left out: timing, printing the time taken and the board)
`;

const C = `
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

export const A000 = { java: JAVA, python: PYTHON, c: C };
