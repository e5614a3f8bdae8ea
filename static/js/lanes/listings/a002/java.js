// a002.js's Java listing (see ../a002.js).

export const JAVA = `
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
