# 文章 001（骑士周游-马踏棋盘问题）的 Python 2 程序，逐行改写为 Python 3
# Article 001's Python 2 program, ported to Python 3 line by line.
# 改动 | changes: xrange -> range, print -> print(), sorted(v, cmp) -> cmp_to_key,
# N = ROWS 和起点由页面给出 | N = ROWS and the start come from the page.
# 这个排序其实什么也没排：找出原因并改正它！
# This sort sorts nothing: find out why, and fix it!
from functools import cmp_to_key

N = ROWS
D = 8
offsetX = [-1,1,-1,1,-2,-2,2,2]
offsetY = [-2,-2,2,2,-1,1,-1,1]
chessBoard= [[0]*N for i in range(N)]


class ChessNode:
    def __init__(self, x, y):
        self.x, self.y = x, y
        self.wayout = 0

    def isCorrect(self, count=0):
        return self.x<N and self.x>=0 and self.y<N and self.y>=0 and (chessBoard[self.x][self.y]==0 or chessBoard[self.x][self.y]==1 and count==N*N+1)

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
            # self.found = True
            self.success()
            return

        v = []
        for direction in range(D):
            newNode = ChessNode(node.x+offsetX[direction], node.y+offsetY[direction])
            if newNode.isCorrect(count=count+1):
                newNode.setWayout(count=count+1)
                v.append(newNode)

        sv = sorted(v, key=cmp_to_key(lambda x,y: x.wayout < y.wayout))
        for it in sv:
            chessBoard[it.x][it.y] = count
            self.greedyDFS(it, count+1)
        chessBoard[node.x][node.y] = 0

    def greedyWalk(self, ox, oy):
        self.ox, self.oy = ox, oy
        node = ChessNode(ox, oy)
        if not node.isCorrect():
            print("illegal init x,y")
            return
        self.success()
        chessBoard[ox][oy]=1
        self.found = False
        self.greedyDFS(node, count=2)


h=HorseJump()
h.greedyWalk(START_ROW, START_COL)
