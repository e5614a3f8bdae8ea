/*
Article 003 corrected (ordering a003-c-stack): the item 5, 编制非递归程序.
traverse (方法一 of horse.c) with its recursion unrolled onto an explicit stack:
sx/sy hold the squares of the path, si the next case of next() to try on each, top
the index of the last square.  next() and print_chess() are the article's, copied
from a003_horse.c.  It enters and leaves squares in exactly traverse's order: a square
is left (set back to 0) when every case of next() failed from it, and the start is
never left, as in traverse, where main marks it and nothing clears it.

The lines ending in "// [trace]" print each square entered (E x y) and left (L x y);
x is the row, as print_chess prints chess[i] per line.
*/
#include <stdio.h>

#define X 5
#define Y 5

void print_chess();
int next(int *x,int *y,int step);
int traverse_stack(int x,int y);

int chess[X][Y]; //棋盘

int main()
{
    int i,j;
    for(i=0;i<X;i++)
        for(j=0;j<Y;j++)
            chess[i][j]=0;

    chess[2][0]=1;
    printf("E %d %d\n",2,0); // [trace]
    int result=traverse_stack(2,0);

    if(1==result)
    {
        printf("ok\n");
        print_chess();
    }
    else
    {
        printf("此路不通,马儿无法踏遍所有棋格!\n");
    }
    return 0;
}

/*
判断下一个结点位置是否可用
当前结点位置(x,y)
step:下一个结点位置编号
*/
int next(int *x,int *y,int step)
{
   // printf("%d\n",step);
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

/*
遍历整个棋盘-方法三: 非递归,用数组作栈
(x,y)为起始坐标,已由 main 标为 1
*/
int traverse_stack(int x,int y)
{
    int sx[X*Y],sy[X*Y],si[X*Y]; //栈: 路径上的结点与下一个要试的编号
    int top=0;
    sx[0]=x;
    sy[0]=y;
    si[0]=0;
    while(top>=0)
    {
        if(top+1==X*Y) //已全部遍历,则返回
            return 1;
        if(si[top]<8)
        {
            int x1=sx[top],y1=sy[top];
            if(next(&x1,&y1,si[top]++)) //寻找下一个可用位置
            {
                chess[x1][y1]=top+2; //新结点入栈
                printf("E %d %d\n",x1,y1); // [trace]
                top++;
                sx[top]=x1;
                sy[top]=y1;
                si[top]=0;
            }
        }
        else //八个位置都不可用,出栈回溯
        {
            top--;
            if(top>=0)
            {
                chess[sx[top+1]][sy[top+1]]=0;
                printf("L %d %d\n",sx[top+1],sy[top+1]); // [trace]
            }
        }
    }
    return 0;
}

/*
打印棋盘
*/
void print_chess()
{
    int i,j;
    for(i=0;i<X;i++)
    {
        for(j=0;j<Y;j++)
        {
            printf("%d\t",chess[i][j]);
        }
        printf("\n");
    }
}
