// a002.js's Python listing (see ../a002.js).

export const PYTHON = `
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
