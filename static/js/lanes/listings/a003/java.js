// a003.js's Java listing (see ../a003.js).

export const JAVA = `
@@ | 文章 003 的 C 程序，逐行写成 Java；指针 x, y 写成数组 p = {x, y} | article 003's C program, line by line in Java; the pointers x, y become an array p = {x, y}
static final int X = 5;  @@ | 定义棋盘。为测试方便,用5格棋盘 | the board. A 5-square board, to make testing easy
static final int Y = 5;

static int[][] chess = new int[X][Y];  @@ | 棋盘 | the board

public static void main(String[] args) {
    @@ | （省略计时） | (timing left out)
    @@ written | 方法一 | method 1
    @@ corrected | 方法三：非递归，用数组作栈 | method 3: no recursion, an array as the stack
    chess[2][0]=1;  @@ start only=a003-c,a003-c-stack
    //chess[2][0]=1;  @@ only=a003-c-loop
    int result=traverse(2,0,2);  @@ only=a003-c
    //int result=traverse(2,0,2);  @@ only=a003-c-loop
    int result=traverse_stack(2,0);  @@ corrected
@@@ written

    @@ | 方法二 | method 2
    //int result=traverse_chess(2,0,1);  @@ only=a003-c | 也可以使用这个方法 | this method can be used too
    int result=traverse_chess(2,0,1);  @@ only=a003-c-loop | 也可以使用这个方法 | this method can be used too
@@@ end
    @@ | （省略：打印结果、棋盘和耗时） | (left out: printing the result, the board and the time taken)
}

@@ | 判断下一个结点位置是否可用；当前结点位置 (p[0],p[1])；step:下一个结点位置编号 | is the next node's position available? The current node's position (p[0],p[1]); step: the number of the next node's position
static int next(int[] p, int step)
{
    switch(step)
    {
        case 0:
            if(p[1]+2<=Y-1 && p[0]-1>=0 && chess[p[0]-1][p[1]+2]==0)
            {
                p[1]+=2;
                p[0]-=1;
                return 1;
            }
            break;
        case 1:
            if(p[1]+2<=Y-1 && p[0]+1<=X-1 && chess[p[0]+1][p[1]+2]==0)
            {
                p[1]+=2;
                p[0]+=1;
                return 1;
            }
            break;
        case 2:
            if(p[1]+1<=Y-1 && p[0]+2<=X-1 && chess[p[0]+2][p[1]+1]==0)
            {
                p[1]+=1;
                p[0]+=2;
                return 1;
            }
            break;
        case 3:
            if(p[1]-1>=0 && p[0]+2<=X-1 && chess[p[0]+2][p[1]-1]==0)
            {
                p[1]-=1;
                p[0]+=2;
                return 1;
            }
            break;
        case 4:
            if(p[1]-2>=0 && p[0]+1<=X-1 && chess[p[0]+1][p[1]-2]==0)
            {
                p[1]-=2;
                p[0]+=1;
                return 1;
            }
            break;
        case 5:
            if(p[1]-2>=0 && p[0]-1>=0 && chess[p[0]-1][p[1]-2]==0)
            {
                p[1]-=2;
                p[0]-=1;
                return 1;
            }
            break;
        case 6:
            if(p[1]-1>=0 && p[0]-2>=0 && chess[p[0]-2][p[1]-1]==0)
            {
                p[1]-=1;
                p[0]-=2;
                return 1;
            }
            break;
        case 7:
            if(p[1]+1<=Y-1 && p[0]-2>=0 && chess[p[0]-2][p[1]+1]==0)
            {
                p[1]+=1;
                p[0]-=2;
                return 1;
            }
            break;
        default:
            break;
    }
    return 0;
}

@@@ for=a003-c
@@ | 遍历整个棋盘-方法一；(x,y)为坐标位置；count为遍历次数 | tour the whole board, method 1; (x,y) is the position; count is the number of squares toured
static int traverse(int x,int y,int count)
{
    int[] p1={x,y};  @@ | 新节点位置 (x1,y1) | the new node's position (x1,y1)
    if(count>X*Y)  @@ finish | 已全部遍历且可用,则返回。 | all toured and valid: return.
        return 1;  @@ finish
    int flag,result,i;
    for(i=0;i<8;i++)  @@ loop
    {
        flag=next(p1,i);  @@ next | 寻找下一个可用位置 | look for the next available position
        if(1==flag)  @@ next
        {
            chess[p1[0]][p1[1]]=count;  @@ mark | 新找到的结点标识可用, | mark the newly found node as used,
            result=traverse(p1[0],p1[1],count+1);  @@ recurse | 以新节点为根据,再次递归下一个可用结点 | from the new node, recurse again to the next available node
            if(result!=0)  @@ | 当前棋盘已全部可用 | the whole board is used
            {
                return 1;
            }
            else  @@ check | 新找到的结点无下一个可用位置,进行回溯 | the new node has no next available position: backtrack
            {
                chess[p1[0]][p1[1]]=0;  @@ reset
                p1[0]=x;  @@ | 结点位置也要回溯 | the node's position goes back too
                p1[1]=y;
            }
        }
    }
    return 0;
}
@@@ written for=a003-c-loop

@@ | 遍历整个棋盘-方法二；(x,y)为坐标位置；tag为遍历次数 | tour the whole board, method 2; (x,y) is the position; tag is the number of squares toured
static int traverse_chess(int x,int y,int tag)
{
    int[] p1={x,y};
    int flag=0,count=0;
    chess[x][y]=tag;  @@ mark start
    if(X*Y==tag)  @@ finish
    {
        return 1;  @@ finish
    }
    flag=next(p1,count);  @@ next
    while(0==flag && count<=7)  @@ next
    {
        count++;  @@ next
        flag=next(p1,count);  @@ next
    }
    while(flag!=0)  @@ loop
    {
        if(traverse_chess(p1[0],p1[1],tag+1)!=0)  @@ recurse | 如果全部遍历完毕,则返回。 | if every square is toured, return.
        {
            return 1;
        }
        @@ | 没有找到下一个可用结点,则回溯 | no next available node found: backtrack
        p1[0]=x;
        p1[1]=y;
        count++;
        flag=next(p1,count);
        while(0==flag && count<=7)
        {
            count++;
            flag=next(p1,count);
        }
    }
    if(flag==0)  @@ check
    {
        chess[x][y]=0;  @@ reset
    }
    return 0;
}
@@@ corrected

@@ | 遍历整个棋盘-方法三: 非递归,用数组作栈；(x,y)为起始坐标,已由 main 标为 1 | tour the whole board, method 3: no recursion, an array as the stack; (x,y) is the start, which main has marked 1
static int traverse_stack(int x,int y)
{
    int[] sx=new int[X*Y],sy=new int[X*Y],si=new int[X*Y];  @@ | 栈: 路径上的结点与下一个要试的编号 | the stack: the path's nodes and the next number to try on each
    int top=0;
    sx[0]=x;
    sy[0]=y;
    si[0]=0;
    while(top>=0)  @@ loop
    {
        if(top+1==X*Y)  @@ finish | 已全部遍历,则返回 | all toured: return
            return 1;  @@ finish
        if(si[top]<8)  @@ loop
        {
            int[] p1={sx[top],sy[top]};  @@ next
            if(next(p1,si[top]++)!=0)  @@ next | 寻找下一个可用位置 | look for the next available position
            {
                chess[p1[0]][p1[1]]=top+2;  @@ mark | 新结点入栈 | push the new node
                top++;  @@ recurse
                sx[top]=p1[0];  @@ recurse
                sy[top]=p1[1];  @@ recurse
                si[top]=0;  @@ recurse
            }
        }
        else  @@ check | 八个位置都不可用,出栈回溯 | none of the eight positions is available: pop and backtrack
        {
            top--;  @@ check
            if(top>=0)
            {
                chess[sx[top+1]][sy[top+1]]=0;  @@ reset
            }
        }
    }
    return 0;
}
@@@ end
`;
