# Article 001 corrected (ordering a001-python-fixed): a001_port.py with its three bugs
# fixed and nothing else; the lines ending in "# [fixed]" are the fixes:
# * the sort sorts: the comparator returns wayout(x) - wayout(y), negative when x
#   has fewer ways out (what `x.wayout < y.wayout` meant);
# * isCorrect no longer lets the last move land on the start (`==1 and count==N*N+1`);
# * `self.found = True` is no longer a comment: the search stops at its first tour.
#   (The loops above it still write their remaining candidates on the board as they
#   return; tests/articles/run.py stops reading at the first success, as for the rest.)
#
# The port, as for the article's own program:
#
# The page lost the indentation (71 numbered lines, all flush left); it is put back as
# the code reads, with one choice that matters: `chessBoard[node.x][node.y] = 0` is the
# last statement of greedyDFS, after the `for it in sv` loop (a node clears itself once
# every way out of it was tried).  Inside the loop it would clear a square still on the
# path after its first child, and the program would walk over its own path.
#
# What changed, and why the search stays the same:
# * `xrange(n)` -> `range(n)`: both give 0..n-1 in order; the loops only iterate.
# * `print x` statements -> `print(x)` calls.  `print "%2d " % v,` (trailing comma)
#   -> `print("%2d " % v, end=" ")`: Python 2 writes the space before the next item,
#   so its rows end without the trailing space this port leaves.  Output only.
# * `sorted(v, lambda x,y: x.wayout < y.wayout)` -> `sorted(v, key=cmp_to_key(<the same
#   lambda>))`.  Python 2's sorted(v, cmp) asks only "is a before b?" as
#   `cmp(a, b) < 0`; Python 3's sorted asks only `__lt__`, which cmp_to_key defines as
#   `mycmp(a, b) < 0`.  The lambda returns a bool, False (0) or True (1), never
#   negative: no element is ever "less" than another, both timsorts see one ascending
#   run and return the list as it was.  tests/articles/test_fidelity.py checks this on
#   lists whose wayouts are in descending order.
# * `class ChessNode:` is an old-style class in Python 2, a new-style one here: the
#   program only reads and writes plain attributes, which both kinds do alike.
# * The board size and start are the program's own constants (N = 6, greedyWalk(4,3));
#   tests/articles/run.py writes a copy with other constants for other boards.
#
# Instrumentation: the lines ending in "# [trace]" print each square the search enters
# (E x y: it writes a step number on chessBoard[x][y]; x is the row, success() prints
# chessBoard[i] per line) and leaves (L x y: it writes 0).  Nothing else is added.
from functools import cmp_to_key  # [port]

N = 6
D = 8
offsetX = [-1,1,-1,1,-2,-2,2,2]
offsetY = [-2,-2,2,2,-1,1,-1,1]
chessBoard= [[0]*N for i in range(N)]


class ChessNode:
    def __init__(self, x, y):
        self.x, self.y = x, y
        self.wayout = 0

    def isCorrect(self, count=0):
        return self.x<N and self.x>=0 and self.y<N and self.y>=0 and (chessBoard[self.x][self.y]==0)  # [fixed]

    def setWayout(self, count=0):
        for direction in range(D):
            nx, ny = self.x + offsetX[direction], self.y + offsetY[direction]
            aNode = ChessNode(nx, ny)
            self.wayout += 1 if aNode.isCorrect(count=count) else 0
    def show(self):
        print('(%s,%s)=> %s wayouts' % (self.x, self.y, self.wayout))


class HorseJump:
    def success(self):
        for i in range(N):
            for j in range(N):
                print("%2d " % chessBoard[i][j], end=" ")
            print()
        print('=====================')



    def greedyDFS(self, node, count):
        # node.show()
        # self.success()
        # print count
        if self.found: return
        if count > N*N:
            self.found = True  # [fixed]
            self.success()
            return

        v = []
        for direction in range(D):
            newNode = ChessNode(node.x+offsetX[direction], node.y+offsetY[direction])
            if newNode.isCorrect(count=count+1):
                newNode.setWayout(count=count+1)
                v.append(newNode)

        sv = sorted(v, key=cmp_to_key(lambda x,y: x.wayout - y.wayout))  # [fixed]
        for it in sv:
            chessBoard[it.x][it.y] = count
            print("E %d %d" % (it.x, it.y))  # [trace]
            self.greedyDFS(it, count+1)
        chessBoard[node.x][node.y] = 0
        print("L %d %d" % (node.x, node.y))  # [trace]

    def greedyWalk(self, ox, oy):
        self.ox, self.oy = ox, oy
        node = ChessNode(ox, oy)
        if not node.isCorrect():
            print("illegal init x,y")
            return
        self.success()
        chessBoard[ox][oy]=1
        print("E %d %d" % (ox, oy))  # [trace]
        self.found = False
        self.greedyDFS(node, count=2)


h=HorseJump()
h.greedyWalk(4,3)
