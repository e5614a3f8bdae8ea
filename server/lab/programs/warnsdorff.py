# Warnsdorff 贪心：后续走法少的先试 | Warnsdorff's rule: fewest onward moves first
# 页面给出 ROWS, COLS, START_ROW, START_COL | the page gives ROWS, COLS, START_ROW, START_COL

board = [[0] * COLS for _ in range(ROWS)]
MOVES = [(-1, -2), (-2, -1), (-2, 1), (-1, 2), (1, 2), (2, 1), (2, -1), (1, -2)]


def next_squares(x, y):  # 下一步能走、还没走过的格 | the next squares not visited yet
    return [(x + dx, y + dy) for dx, dy in MOVES
            if 0 <= x + dx < ROWS and 0 <= y + dy < COLS and board[x + dx][y + dy] == 0]


def dfs(x, y, step):
    board[x][y] = step
    if step == ROWS * COLS:
        return True
    candidates = next_squares(x, y)
    candidates.sort(key=lambda p: len(next_squares(*p)))  # 稳定排序 | a stable sort
    for nx, ny in candidates:
        if dfs(nx, ny, step + 1):
            return True
    board[x][y] = 0
    return False


print(dfs(START_ROW, START_COL, 1))
