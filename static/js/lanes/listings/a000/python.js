// a000.js's Python listing (see ../a000.js).

export const PYTHON = `
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
