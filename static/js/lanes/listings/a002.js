// Article 002 (马踏棋盘算法, its "最终代码"): the article's Java program as it wrote it, and
// the same program line by line in Python and C, each in the two variants: as written (the
// sort compares next(o).size(), every knight move on the board, visited squares included:
// the static degree) and corrected (Warnsdorff's count of unvisited squares; nothing else
// changed). The syntax of the lines is code-listings.js's.

const JAVA = `
import java.awt.*;
import java.util.ArrayList;
import java.util.Comparator;

public class HorseChessBoard {

    @@ | 初始化属性 | the fields

    @@ | 棋盘大小 | the board's size
    private static int X = 6;
    private static int Y = 6;
    @@ | 棋盘 | the board
    private static int[][] chessBoard = new int[Y][X];

    @@ | 是否访问过，用数组记录 | whether visited, kept in an array
    private static boolean vistited[] = new boolean[X * Y];

    @@ | 记录是否遍历完棋盘 | whether the whole board has been toured
    private static boolean finished = false;

    @@ | 主函数：测试 | main: a test
    public static void main(String[] args) {
        @@ | 初始位置（坐标） | the starting position (coordinates)
        int row = 2;  @@ | 演示用文章第一版代码的起点 row = 6, col = 1 | the demo starts where the article's first listing does: row = 6, col = 1
        int col = 2;
        @@ | （省略计时） | (timing left out)
        @@ | 需要传入数组下标，因为是二维矩阵 | pass array indices: it is a two-dimensional matrix
        traversalChessBoard(chessBoard, row - 1, col - 1, 1);
        @@ | （省略：打印耗时和结果） | (left out: printing the time taken and the result)
    }
    @@ | 贪心优化，对可走点进行升序排序 | greedy optimisation: sort the reachable points in ascending order
    public static void sort(ArrayList<Point> ps) {
        ps.sort(new Comparator<Point>() {
            @Override
            public int compare(Point o1, Point o2) {
                return next(o1).size() - next(o2).size();  @@ written
                return unvisited(next(o1)) - unvisited(next(o2));  @@ corrected | 修正：只数没走过的格 | corrected: count unvisited squares only
            }
        });
    }
@@@ corrected
    @@ | 修正：Warnsdorff 的计数，ps 中还没走过的格 | corrected: Warnsdorff's count, the squares of ps not visited yet
    static int unvisited(ArrayList<Point> ps) {
        int n = 0;
        for (Point p : ps) if (!vistited[p.y * X + p.x]) n++;
        return n;
    }
@@@ end
    @@ | 核心代码，遍历棋盘 | the core: touring the board
    public static void traversalChessBoard(int[][] chessBoard, int row, int col, int step) {
        @@ | 把 step 记录到 chessBoard 中 | record step in chessBoard
        chessBoard[row][col] = step;  @@ mark start
        @@ | 设置该位置已经访问过（位置下标由二维矩阵推算） | mark this position visited (its index worked out from the 2-D matrix)
        vistited[row * X + col] = true;  @@ mark start
        @@ | 获取从当前位置开始，下一个可以走的位置有哪些 | get the positions it can go to next from here
        ArrayList<Point> points = next(new Point(col, row));  @@ next | 主函数传入的起始坐标 | the start coordinates main passed in
        @@ | 贪心优化，先排序 | greedy optimisation: sort first
        sort(points);  @@ sort
        @@ | 遍历 | go through them
        while (!points.isEmpty()) {  @@ loop
            @@ | 取集合中的第一个点 | take the first point of the list
            Point p = points.remove(0);  @@ loop
            @@ | 判断是否走过 | check whether it was visited
            if (!vistited[p.y * X + p.x]) {  @@ loop
                @@ | 递归遍历（先传行再传列） | recurse (the row first, then the column)
                traversalChessBoard(chessBoard, p.y, p.x, step + 1);  @@ recurse
            }
        }
        @@ | 遍历结束，判断是否走完棋盘，如果没有遍历成功就重置，然后回溯 | done: is the board complete? If not, reset, then backtrack
        if (step < X * Y && !finished) {  @@ check
            chessBoard[row][col] = 0;  @@ reset
            vistited[row * X + col] = false;  @@ reset
        } else {
            finished = true;  @@ finish
        }
    }


    @@ | 创建ArrayList，用来存储可以走的位置（加入判断逻辑，该位置是否合理） | make an ArrayList of the positions it can go to (checking each is valid)
    public static ArrayList<Point> next(Point curPoint) {
        @@ | 创建ArrayList | make the ArrayList
        ArrayList<Point> points = new ArrayList<>();

        @@ | 创建 Point 对象 | make a Point object
        Point point = new Point();

        @@ | 判断在 curPoint 是否可以走如下位置，如果可以走，就将该点(Point) 放入到points | from curPoint, can it go to each position below? If so, put that Point into points

        @@ | 判断是否可以走5位置 | can it go to position 5?
        if ((point.x = curPoint.x - 2) >= 0 && (point.y = curPoint.y - 1) >= 0) {
            points.add(new Point(point));  @@ | 这里一定要new Point | a new Point is a must here
        }
        @@ | 判断是否可以走6位置 | can it go to position 6?
        if ((point.x = curPoint.x - 1) >= 0 && (point.y = curPoint.y - 2) >= 0) {
            points.add(new Point(point));  @@ | 这里一定要new Point | a new Point is a must here
        }
        @@ | 判断是否可以走7位置 | can it go to position 7?
        if ((point.x = curPoint.x + 1) < X && (point.y = curPoint.y - 2) >= 0) {
            points.add(new Point(point));  @@ | 这里一定要new Point | a new Point is a must here
        }
        @@ | 判断是否可以走0位置 | can it go to position 0?
        if ((point.x = curPoint.x + 2) < X && (point.y = curPoint.y - 1) >= 0) {
            points.add(new Point(point));  @@ | 这里一定要new Point | a new Point is a must here
        }
        @@ | 判断是否可以走1位置 | can it go to position 1?
        if ((point.x = curPoint.x + 2) < X && (point.y = curPoint.y + 1) < Y) {
            points.add(new Point(point));  @@ | 这里一定要new Point | a new Point is a must here
        }
        @@ | 判断是否可以走2位置 | can it go to position 2?
        if ((point.x = curPoint.x + 1) < X && (point.y = curPoint.y + 2) < Y) {
            points.add(new Point(point));  @@ | 这里一定要new Point | a new Point is a must here
        }
        @@ | 判断是否可以走3位置 | can it go to position 3?
        if ((point.x = curPoint.x - 1) >= 0 && (point.y = curPoint.y + 2) < Y) {
            points.add(new Point(point));  @@ | 这里一定要new Point | a new Point is a must here
        }
        @@ | 判断是否可以走4位置 | can it go to position 4?
        if ((point.x = curPoint.x - 2) >= 0 && (point.y = curPoint.y + 1) < Y) {
            points.add(new Point(point));  @@ | 这里一定要new Point | a new Point is a must here
        }
        return points;
    }
}
`;

const PYTHON = `
@@ | 文章 002 的 Java 程序，逐行写成 Python | article 002's Java program, line by line in Python

@@ | 棋盘大小 | the board's size
X = 6
Y = 6
@@ | 棋盘 | the board
chessBoard = [[0] * X for _ in range(Y)]

@@ | 是否访问过，用数组记录 | whether visited, kept in an array
vistited = [False] * (X * Y)

@@ | 记录是否遍历完棋盘 | whether the whole board has been toured
finished = False


class Point:  @@ | 代替 java.awt.Point：x 列 y 行 | stands for java.awt.Point: x column, y row
    def __init__(self, x, y):
        self.x, self.y = x, y


@@ | 贪心优化，对可走点进行升序排序；sort 是稳定排序，同 Java 的 List.sort | greedy optimisation: sort the reachable points in ascending order; sort is stable, as Java's List.sort is
def sort(ps):
    ps.sort(key=lambda o: len(next(o)))  @@ written | 按 next(o) 的个数：走过的格也算在内 | by the size of next(o): visited squares counted too
    ps.sort(key=lambda o: unvisited(next(o)))  @@ corrected | 修正：只数没走过的格 | corrected: count unvisited squares only
@@@ corrected


@@ | 修正：Warnsdorff 的计数，ps 中还没走过的格 | corrected: Warnsdorff's count, the squares of ps not visited yet
def unvisited(ps):
    return sum(1 for p in ps if not vistited[p.y * X + p.x])
@@@ end


@@ | 核心代码，遍历棋盘 | the core: touring the board
def traversalChessBoard(chessBoard, row, col, step):
    global finished
    @@ | 把 step 记录到 chessBoard 中 | record step in chessBoard
    chessBoard[row][col] = step  @@ mark start
    @@ | 设置该位置已经访问过（位置下标由二维矩阵推算） | mark this position visited (its index worked out from the 2-D matrix)
    vistited[row * X + col] = True  @@ mark start
    @@ | 获取从当前位置开始，下一个可以走的位置有哪些 | get the positions it can go to next from here
    points = next(Point(col, row))  @@ next
    @@ | 贪心优化，先排序 | greedy optimisation: sort first
    sort(points)  @@ sort
    @@ | 遍历 | go through them
    while points:  @@ loop
        @@ | 取集合中的第一个点 | take the first point of the list
        p = points.pop(0)  @@ loop
        @@ | 判断是否走过 | check whether it was visited
        if not vistited[p.y * X + p.x]:  @@ loop
            @@ | 递归遍历（先传行再传列） | recurse (the row first, then the column)
            traversalChessBoard(chessBoard, p.y, p.x, step + 1)  @@ recurse
    @@ | 遍历结束，判断是否走完棋盘，如果没有遍历成功就重置，然后回溯 | done: is the board complete? If not, reset, then backtrack
    if step < X * Y and not finished:  @@ check
        chessBoard[row][col] = 0  @@ reset
        vistited[row * X + col] = False  @@ reset
    else:
        finished = True  @@ finish


@@ | 用列表存储可以走的位置（加入判断逻辑，该位置是否合理） | a list of the positions it can go to (checking each is valid)
def next(curPoint):
    points = []
    @@ | 判断是否可以走5位置 | can it go to position 5?
    if curPoint.x - 2 >= 0 and curPoint.y - 1 >= 0:
        points.append(Point(curPoint.x - 2, curPoint.y - 1))
    @@ | 判断是否可以走6位置 | can it go to position 6?
    if curPoint.x - 1 >= 0 and curPoint.y - 2 >= 0:
        points.append(Point(curPoint.x - 1, curPoint.y - 2))
    @@ | 判断是否可以走7位置 | can it go to position 7?
    if curPoint.x + 1 < X and curPoint.y - 2 >= 0:
        points.append(Point(curPoint.x + 1, curPoint.y - 2))
    @@ | 判断是否可以走0位置 | can it go to position 0?
    if curPoint.x + 2 < X and curPoint.y - 1 >= 0:
        points.append(Point(curPoint.x + 2, curPoint.y - 1))
    @@ | 判断是否可以走1位置 | can it go to position 1?
    if curPoint.x + 2 < X and curPoint.y + 1 < Y:
        points.append(Point(curPoint.x + 2, curPoint.y + 1))
    @@ | 判断是否可以走2位置 | can it go to position 2?
    if curPoint.x + 1 < X and curPoint.y + 2 < Y:
        points.append(Point(curPoint.x + 1, curPoint.y + 2))
    @@ | 判断是否可以走3位置 | can it go to position 3?
    if curPoint.x - 1 >= 0 and curPoint.y + 2 < Y:
        points.append(Point(curPoint.x - 1, curPoint.y + 2))
    @@ | 判断是否可以走4位置 | can it go to position 4?
    if curPoint.x - 2 >= 0 and curPoint.y + 1 < Y:
        points.append(Point(curPoint.x - 2, curPoint.y + 1))
    return points


@@ | 主函数：初始位置（坐标）；演示用文章第一版代码的起点 row = 6, col = 1 | main: the starting position (coordinates); the demo starts where the article's first listing does: row = 6, col = 1
row = 2
col = 2
@@ | 需要传入数组下标，因为是二维矩阵 | pass array indices: it is a two-dimensional matrix
traversalChessBoard(chessBoard, row - 1, col - 1, 1)
@@ | （省略：计时，打印耗时和结果） | (left out: timing, printing the time taken and the result)
`;

const C = `
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

export const A002 = { java: JAVA, python: PYTHON, c: C };
