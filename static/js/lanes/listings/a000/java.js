// a000.js's Java listing (see ../a000.js).

export const JAVA = `
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
