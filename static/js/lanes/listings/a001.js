// Article 001 (骑士周游-马踏棋盘问题): the article's Python 2 program as it wrote it, and
// the same program line by line in Java and C, each in the two variants: as written (a
// comparator returning a bool, which sorts nothing; isCorrect letting the last move land on
// the start; self.found never set) and corrected (a sort that sorts, no landing on the
// start, stopping at the first tour; nothing else changed). The syntax of the lines is
// code-listings.js's.

const PYTHON = `
@@ | 原文是 Python 2（xrange、print 语句、sorted 的 cmp 参数） | the article is Python 2 (xrange, the print statement, sorted's cmp argument)
N = 6
D = 8
offsetX = [-1,1,-1,1,-2,-2,2,2]
offsetY = [-2,-2,2,2,-1,1,-1,1]
chessBoard= [[0]*N for i in xrange(N)]


class ChessNode:
    def __init__(self, x, y):
        self.x, self.y = x, y
        self.wayout = 0

    def isCorrect(self, count=0):
        return self.x<N and self.x>=0 and self.y<N and self.y>=0 and (chessBoard[self.x][self.y]==0 or chessBoard[self.x][self.y]==1 and count==N*N+1)  @@ written
        return self.x<N and self.x>=0 and self.y<N and self.y>=0 and (chessBoard[self.x][self.y]==0)  @@ corrected | 修正：最后一步不能再落在起点 | corrected: the last move may no longer land on the start

    def setWayout(self, count=0):
        for direction in xrange(D):
            nx, ny = self.x + offsetX[direction], self.y + offsetY[direction]
            aNode = ChessNode(nx, ny)
            self.wayout += 1 if aNode.isCorrect(count=count) else 0
    @@ | （省略 show()：打印结点） | (show() left out: it prints the node)


class HorseJump:
    @@ | （省略 success()：打印棋盘） | (success() left out: it prints the board)



    def greedyDFS(self, node, count):
        # node.show()
        # self.success()
        # print count
        if self.found: return
        if count > N*N:  @@ finish
            # self.found = True  @@ written
            self.found = True  @@ corrected finish | 修正：找到第一个解就停 | corrected: stop at the first tour
            self.success()  @@ finish
            return

        v = []  @@ next
        for direction in xrange(D):  @@ next
            newNode = ChessNode(node.x+offsetX[direction], node.y+offsetY[direction])  @@ next
            if newNode.isCorrect(count=count+1):  @@ next
                newNode.setWayout(count=count+1)  @@ next
                v.append(newNode)  @@ next

        sv = sorted(v, lambda x,y: x.wayout < y.wayout)  @@ sort written
        sv = sorted(v, lambda x,y: x.wayout - y.wayout)  @@ sort corrected | 修正：返回负数、0 或正数，才真正排序 | corrected: a negative, zero or positive result, so it sorts
        for it in sv:  @@ loop
            chessBoard[it.x][it.y] = count  @@ mark
            self.greedyDFS(it, count+1)  @@ recurse
        chessBoard[node.x][node.y] = 0  @@ reset

    def greedyWalk(self, ox, oy):
        self.ox, self.oy = ox, oy
        node = ChessNode(ox, oy)
        if not node.isCorrect():
            print "illegal init x,y"
            return
        self.success()
        chessBoard[ox][oy]=1  @@ start
        self.found = False
        self.greedyDFS(node, count=2)


h=HorseJump()
h.greedyWalk(4,3)
`;

const JAVA = `
@@ | 文章 001 的 Python 2 程序，逐行写成 Java | article 001's Python 2 program, line by line in Java
static final int N = 6;
static final int D = 8;
static int[] offsetX = {-1,1,-1,1,-2,-2,2,2};
static int[] offsetY = {-2,-2,2,2,-1,1,-1,1};
static int[][] chessBoard = new int[N][N];


static class ChessNode {
    int x, y;
    int wayout = 0;
    ChessNode(int x, int y) {
        this.x = x; this.y = y;
    }

    boolean isCorrect(int count) {
        return x<N && x>=0 && y<N && y>=0 && (chessBoard[x][y]==0 || chessBoard[x][y]==1 && count==N*N+1);  @@ written
        return x<N && x>=0 && y<N && y>=0 && (chessBoard[x][y]==0);  @@ corrected | 修正：最后一步不能再落在起点 | corrected: the last move may no longer land on the start
    }

    void setWayout(int count) {
        for (int direction = 0; direction < D; direction++) {
            int nx = x + offsetX[direction], ny = y + offsetY[direction];
            ChessNode aNode = new ChessNode(nx, ny);
            wayout += aNode.isCorrect(count) ? 1 : 0;
        }
    }
    @@ | （省略 show()：打印结点） | (show() left out: it prints the node)
}


static class HorseJump {
    int ox, oy;
    boolean found;
    @@ | （省略 success()：打印棋盘） | (success() left out: it prints the board)

    void greedyDFS(ChessNode node, int count) {
        if (found) return;
        if (count > N*N) {  @@ finish
            // found = true;  @@ written
            found = true;  @@ corrected finish | 修正：找到第一个解就停 | corrected: stop at the first tour
            success();  @@ finish
            return;
        }

        ArrayList<ChessNode> v = new ArrayList<>();  @@ next
        for (int direction = 0; direction < D; direction++) {  @@ next
            ChessNode newNode = new ChessNode(node.x+offsetX[direction], node.y+offsetY[direction]);  @@ next
            if (newNode.isCorrect(count+1)) {  @@ next
                newNode.setWayout(count+1);  @@ next
                v.add(newNode);  @@ next
            }
        }

        ArrayList<ChessNode> sv = new ArrayList<>(v);  @@ sort
        sv.sort((x, y) -> x.wayout < y.wayout ? 1 : 0);  @@ sort written | 同原文的 lambda：只返回 0 或 1，从不为负，没有谁“更小”，列表原样不动 | the article's lambda: only 0 or 1, never negative, so nothing is "less" and the list stays as it was
        sv.sort((x, y) -> x.wayout - y.wayout);  @@ sort corrected | 修正：返回负数、0 或正数，才真正排序 | corrected: a negative, zero or positive result, so it sorts
        for (ChessNode it : sv) {  @@ loop
            chessBoard[it.x][it.y] = count;  @@ mark
            greedyDFS(it, count+1);  @@ recurse
        }
        chessBoard[node.x][node.y] = 0;  @@ reset
    }

    void greedyWalk(int ox, int oy) {
        this.ox = ox; this.oy = oy;
        ChessNode node = new ChessNode(ox, oy);
        if (!node.isCorrect(0)) {
            System.out.println("illegal init x,y");
            return;
        }
        success();
        chessBoard[ox][oy]=1;  @@ start
        found = false;
        greedyDFS(node, 2);
    }
}


public static void main(String[] args) {
    HorseJump h = new HorseJump();
    h.greedyWalk(4,3);
}
`;

const C = `
@@ | 文章 001 的 Python 2 程序，逐行写成 C | article 001's Python 2 program, line by line in C
#define N 6
#define D 8
int offsetX[D] = {-1,1,-1,1,-2,-2,2,2};
int offsetY[D] = {-2,-2,2,2,-1,1,-1,1};
int chessBoard[N][N];
int found;

typedef struct { int x, y, wayout; } ChessNode;

int isCorrect(ChessNode *self, int count)
{
    return self->x<N && self->x>=0 && self->y<N && self->y>=0 && (chessBoard[self->x][self->y]==0 || chessBoard[self->x][self->y]==1 && count==N*N+1);  @@ written
    return self->x<N && self->x>=0 && self->y<N && self->y>=0 && (chessBoard[self->x][self->y]==0);  @@ corrected | 修正：最后一步不能再落在起点 | corrected: the last move may no longer land on the start
}

void setWayout(ChessNode *self, int count)
{
    for (int direction = 0; direction < D; direction++)
    {
        ChessNode aNode = {self->x + offsetX[direction], self->y + offsetY[direction], 0};
        self->wayout += isCorrect(&aNode, count) ? 1 : 0;
    }
}
@@ | （省略 show() 和 success()：打印结点和棋盘） | (show() and success() left out: they print the node and the board)

@@ written | 同原文的 lambda：只返回 0 或 1，从不为负 | the article's lambda: only 0 or 1, never negative
@@ corrected | 修正：返回负数、0 或正数 | corrected: a negative, zero or positive result
int cmp(ChessNode *x, ChessNode *y)
{
    return x->wayout < y->wayout;  @@ written
    return x->wayout - y->wayout;  @@ corrected
}

@@ | 像 Python 2 的 sorted(v, cmp)：稳定，只问 cmp(a, b) < 0；从不为负就一个也不动 | like Python 2's sorted(v, cmp): stable, asks only cmp(a, b) < 0; never negative, nothing moves
void sorted(ChessNode v[], int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && cmp(&v[j], &v[j - 1]) < 0; j--)
        {
            ChessNode t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
}

void greedyDFS(ChessNode node, int count)
{
    if (found) return;
    if (count > N*N)  @@ finish
    {
        // found = 1;  @@ written
        found = 1;  @@ corrected finish | 修正：找到第一个解就停 | corrected: stop at the first tour
        success();  @@ finish
        return;
    }

    ChessNode v[D];  @@ next
    int n = 0;  @@ next
    for (int direction = 0; direction < D; direction++)  @@ next
    {
        ChessNode newNode = {node.x+offsetX[direction], node.y+offsetY[direction], 0};  @@ next
        if (isCorrect(&newNode, count+1))  @@ next
        {
            setWayout(&newNode, count+1);  @@ next
            v[n++] = newNode;  @@ next
        }
    }

    sorted(v, n);  @@ sort | 原文 sv = sorted(v, ...)：这里就地排序 | the article's sv = sorted(v, ...): sorted in place here
    for (int i = 0; i < n; i++)  @@ loop
    {
        ChessNode it = v[i];  @@ loop
        chessBoard[it.x][it.y] = count;  @@ mark
        greedyDFS(it, count+1);  @@ recurse
    }
    chessBoard[node.x][node.y] = 0;  @@ reset
}

void greedyWalk(int ox, int oy)
{
    ChessNode node = {ox, oy, 0};
    if (!isCorrect(&node, 0))
    {
        printf("illegal init x,y\\n");
        return;
    }
    success();
    chessBoard[ox][oy]=1;  @@ start
    found = 0;
    greedyDFS(node, 2);
}

int main()
{
    greedyWalk(4,3);
    return 0;
}
`;

export const A001 = { python: PYTHON, java: JAVA, c: C };
