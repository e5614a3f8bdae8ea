# 马踏棋盘：深度优先搜索 + 回溯 | Knight's tour: depth-first search + backtracking
# 页面给出 ROWS, COLS（棋盘）和 START_ROW, START_COL（起点）
# The page gives ROWS, COLS (the board) and START_ROW, START_COL (the start)

board = [[0] * COLS for _ in range(ROWS)]  # 0 = 没走过 | not visited yet

# 马的八种走法 (行, 列)，顺序 5 6 7 0 1 2 3 4 | the knight's moves (row, col), order 5 6 7 0 1 2 3 4
MOVES = [(-1, -2), (-2, -1), (-2, 1), (-1, 2), (1, 2), (2, 1), (2, -1), (1, -2)]


def dfs(x, y, step):  # x = 行 row, y = 列 column, step = 第几步 the move number
    board[x][y] = step  # 记下这是第几步 | record the move number
    if step == ROWS * COLS:  # 走遍了全部格子 | every square visited
        return True
    for dx, dy in MOVES:
        nx, ny = x + dx, y + dy
        if 0 <= nx < ROWS and 0 <= ny < COLS and board[nx][ny] == 0:
            if dfs(nx, ny, step + 1):  # 走下一步（递归）| one move deeper (recursion)
                return True
    board[x][y] = 0  # 回溯：撤销这一步 | backtrack: undo this move
    return False


if dfs(START_ROW, START_COL, 1):
    for row in board:
        print(" ".join(f"{n:2d}" for n in row))
else:
    print("没有找到 | no tour")
