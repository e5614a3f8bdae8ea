/* The seeds' plain backtracking as a plain C loop: the bench's yardstick.
 *
 * A neighbour table in the articles' move order, an explicit stack, no events:
 * the fastest honest form of the lesson's algorithm.  `make bench` compiles it
 * with gcc -O2 and times the compiled core's solve() against it, in the same run.
 *
 * usage: seed_reference ROWS COLS START   ->  "nodes backtracks found cpu_seconds"
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static const int DR[8] = {-1, -2, -2, -1, +1, +2, +2, +1};
static const int DC[8] = {-2, -1, +1, +2, +2, +1, -1, -2};

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: seed_reference ROWS COLS START\n");
        return 2;
    }
    int rows = atoi(argv[1]), cols = atoi(argv[2]), start = atoi(argv[3]);
    int area = rows * cols;
    if (rows < 1 || cols < 1 || area > 1000000 || start < 0 || start >= area) {
        fprintf(stderr, "seed_reference: bad board or start\n");
        return 2;
    }
    int *next = malloc(sizeof(int) * 8 * area), *degree = calloc(area, sizeof(int));
    int *stack = malloc(sizeof(int) * area), *tried = malloc(sizeof(int) * area);
    char *seen = calloc(area, 1);
    for (int sq = 0; sq < area; sq++) {
        int r = sq / cols, c = sq % cols;
        for (int k = 0; k < 8; k++) {
            int nr = r + DR[k], nc = c + DC[k];
            if (nr >= 0 && nr < rows && nc >= 0 && nc < cols) next[8 * sq + degree[sq]++] = nr * cols + nc;
        }
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    long long nodes = 1, backtracks = 0;
    int depth = 0, found = 0;
    stack[0] = start;
    tried[0] = 0;
    seen[start] = 1;
    while (depth >= 0) {
        if (depth == area - 1) {
            found = 1;
            break;
        }
        int sq = stack[depth], moved = 0;
        while (tried[depth] < degree[sq]) {
            int to = next[8 * sq + tried[depth]++];
            if (!seen[to]) {
                seen[to] = 1;
                stack[++depth] = to;
                tried[depth] = 0;
                nodes++;
                moved = 1;
                break;
            }
        }
        if (!moved) {
            seen[sq] = 0;
            backtracks++;
            depth--;
        }
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("%lld %lld %d %.6f\n", nodes, backtracks, found, seconds);
    return 0;
}
