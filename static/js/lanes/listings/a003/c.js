// a003.js's C listing (see ../a003.js).

export const C = `
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define X 5  @@ | 定义棋盘。为测试方便,用5格棋盘。8格棋盘的时间复杂度,真的伤不起啊……期待更好的算法 | the board. A 5-square board, to make testing easy. On 8 squares the time it takes is truly more than one can bear... hoping for a better algorithm
#define Y 5

void print_chess();
int next(int *x,int *y,int step);
int traverse(int x,int y,int count);
int traverse_chess(int x,int y,int tag);  @@ written
int traverse_stack(int x,int y);  @@ corrected

int chess[X][Y];  @@ | 棋盘 | the board

int main23()
{
    @@ | （省略计时：clock_t start,end; 记录一下程序耗时） | (timing left out: clock_t start,end; to record the time taken)
    int i,j;
    @@ | 初始化棋盘 | initialise the board
    for(i=0;i<X;i++)
    {
        for(j=0;j<Y;j++)
        {
            chess[i][j]=0;
        }
    }

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
    return 0;
}

/*
@@ bare | 判断下一个结点位置是否可用 | is the next node's position available?
@@ bare | 当前结点位置(x,y) | the current node's position (x,y)
@@ bare | step:下一个结点位置编号 | step: the number of the next node's position
*/
int next(int *x,int *y,int step)
{
   // printf("%d\\n",step);
    switch(step)
    {
        case 0:
            if(*y+2<=Y-1 && *x-1>=0 && chess[*x-1][*y+2]==0)
            {
                *y+=2;
                *x-=1;
                return 1;
            }
            break;
        case 1:
            if(*y+2<=Y-1 && *x+1<=X-1 && chess[*x+1][*y+2]==0)
            {
                *y+=2;
                *x+=1;
                return 1;
            }
            break;
        case 2:
            if(*y+1<=Y-1 && *x+2<=X-1 && chess[*x+2][*y+1]==0)
            {
                *y+=1;
                *x+=2;
                return 1;
            }
            break;
        case 3:
            if(*y-1>=0 && *x+2<=X-1 && chess[*x+2][*y-1]==0)
            {
                *y-=1;
                *x+=2;
                return 1;
            }
            break;
        case 4:
            if(*y-2>=0 && *x+1<=X-1 && chess[*x+1][*y-2]==0)
            {
                *y-=2;
                *x+=1;
                return 1;
            }
            break;
        case 5:
            if(*y-2>=0 && *x-1>=0 && chess[*x-1][*y-2]==0)
            {
                *y-=2;
                *x-=1;
                return 1;
            }
            break;
        case 6:
            if(*y-1>=0 && *x-2>=0 && chess[*x-2][*y-1]==0)
            {
                *y-=1;
                *x-=2;
                return 1;
            }
            break;
        case 7:
            if(*y+1<=Y-1 && *x-2>=0 && chess[*x-2][*y+1]==0)
            {
                *y+=1;
                *x-=2;
                return 1;
            }
            break;
        default:
            break;
    }
    return 0;
}

@@@ for=a003-c
/*
@@ bare | 遍历整个棋盘-方法一 | tour the whole board, method 1
@@ bare | (x,y)为坐标位置 | (x,y) is the position
@@ bare | count为遍历次数 | count is the number of squares toured
*/
int traverse(int x,int y,int count)
{
    int x1=x,y1=y;  @@ | 新节点位置 | the new node's position
    if(count>X*Y)  @@ finish | 已全部遍历且可用,则返回。 | all toured and valid: return.
        return 1;  @@ finish
    int flag,result,i;
    for(i=0;i<8;i++)  @@ loop
    {
        flag=next(&x1,&y1,i);  @@ next | 寻找下一个可用位置 | look for the next available position
        if(1==flag)  @@ next
        {
            chess[x1][y1]=count;  @@ mark | 新找到的结点标识可用, | mark the newly found node as used,
            result=traverse(x1,y1,count+1);  @@ recurse | 以新节点为根据,再次递归下一个可用结点 | from the new node, recurse again to the next available node
            if(result)  @@ | 当前棋盘已全部可用 | the whole board is used
            {
                return 1;
            }
            else  @@ check | 新找到的结点无下一个可用位置,进行回溯 | the new node has no next available position: backtrack
            {
                chess[x1][y1]=0;  @@ reset
                x1=x;  @@ | 结点位置也要回溯 | the node's position goes back too
                y1=y;
            }
        }
    }
    return 0;
}
@@@ written for=a003-c-loop

/*
@@ bare | 遍历整个棋盘-方法二 | tour the whole board, method 2
@@ bare | (x,y)为坐标位置 | (x,y) is the position
@@ bare | tag为遍历次数 | tag is the number of squares toured
*/
int traverse_chess(int x,int y,int tag)
{
    int x1=x,y1=y,flag=0,count=0;
    chess[x][y]=tag;  @@ mark start
    if(X*Y==tag)  @@ finish
    {
        return 1;  @@ finish
    }
    flag=next(&x1,&y1,count);  @@ next
    while(0==flag && count<=7)  @@ next
    {
        count++;  @@ next
        flag=next(&x1,&y1,count);  @@ next
    }
    while(flag)  @@ loop
    {
        if(traverse_chess(x1,y1,tag+1))  @@ recurse | 如果全部遍历完毕,则返回。 | if every square is toured, return.
        {
            return 1;
        }
        @@ | 没有找到下一个可用结点,则回溯 | no next available node found: backtrack
        x1=x;
        y1=y;
        count++;
        flag=next(&x1,&y1,count);
        while(0==flag && count<=7)
        {
            count++;
            flag=next(&x1,&y1,count);
        }
    }
    if(flag==0)  @@ check
    {
        chess[x][y]=0;  @@ reset
    }
    return 0;
}
@@@ corrected

/*
@@ bare | 遍历整个棋盘-方法三: 非递归,用数组作栈 | tour the whole board, method 3: no recursion, an array as the stack
@@ bare | (x,y)为起始坐标,已由 main 标为 1 | (x,y) is the start, which main has marked 1
*/
int traverse_stack(int x,int y)
{
    int sx[X*Y],sy[X*Y],si[X*Y];  @@ | 栈: 路径上的结点与下一个要试的编号 | the stack: the path's nodes and the next number to try on each
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
            int x1=sx[top],y1=sy[top];  @@ next
            if(next(&x1,&y1,si[top]++))  @@ next | 寻找下一个可用位置 | look for the next available position
            {
                chess[x1][y1]=top+2;  @@ mark | 新结点入栈 | push the new node
                top++;  @@ recurse
                sx[top]=x1;  @@ recurse
                sy[top]=y1;  @@ recurse
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

@@ | （省略 print_chess()：打印棋盘） | (print_chess() left out: it prints the board)
`;
