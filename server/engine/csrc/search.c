/* The depth-first search of search.py's _walk, as a resumable state machine.
 *
 * step() yields one event at a time (Move, Backtrack, then one final event), in
 * exactly the order _walk yields them.  Three consumers share it, through the
 * bindings in search_bindings.c:
 *
 *   Search.__next__       one Python event per call (search_events);
 *   Search.encode_batch   up to n events encoded into the protocol's flat ints
 *                         (the /watch runs);
 *   Search.walk           the Walker: path, heat map and depth chart kept per
 *                         event, the events encoded or skipped.
 *
 * Frames hold what _walk's stack tuples hold: the square, its candidates in the
 * order tried (with their onward counts for Warnsdorff and the Java articles'
 * static degree), how many were taken, and the dead-end rule's count of short
 * squares.
 *
 * The articles' programs (article_orders.py's Rule) come in as data: their move
 * order is the neighbour table's, their sort, last move onto the start (Declared)
 * and root that is never left are flags of the Search; no ordering id lives here.  Unvisited neighbour counts
 * are kept per square, so the pruning rules and Warnsdorff's ordering read one
 * byte where the Python engine sums over the neighbours.
 *
 * Only plain C data is touched here (search.h): no Python call, no Python error.
 */
#include "search.h"

#include <string.h>
#include <time.h>

#define NEVER ((int64_t)1 << 62)
#define CHECK_EVERY_EVENTS 256 /* search.py: CHECK_EVERY_EVENTS */
#define CHECK_EVERY_FAST 1024  /* search.py: CHECK_EVERY_FAST */

double kt_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts); /* time.perf_counter's clock on Linux */
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* -- limits: search.py's _Limits ------------------------------------------------ */

static void limits_init(Limits *l, int64_t budget, double time_limit, int64_t every)
{
    l->budget = budget;
    l->has_deadline = time_limit >= 0;
    l->deadline = l->has_deadline ? kt_now() + time_limit : 0.0;
    l->every = every;
    l->check_at = 0;
}

static int limits_check(Limits *l, int64_t nodes)
{
    if (l->budget >= 0 && nodes >= l->budget) {
        l->check_at = 0;
        return LIMIT_NODES;
    }
    if (!l->has_deadline) {
        l->check_at = l->budget < 0 ? NEVER : l->budget;
        return LIMIT_NONE;
    }
    if (kt_now() >= l->deadline)
        return LIMIT_TIME;
    int64_t again = nodes + l->every;
    l->check_at = (l->budget < 0 || again < l->budget) ? again : l->budget;
    return LIMIT_NONE;
}

/* -- the depth chart: walker.py's DepthChart -------------------------------------- */

/* The open column is complete: the next event opens another; when the columns fill
 * up, pairs merge and the span doubles. */
static void chart_close_column(Chart *c)
{
    c->fill = 0;
    c->length++;
    if (c->length == c->capacity) {
        int half = c->capacity >> 1;
        for (int j = 0; j < half; j++) {
            int32_t a = c->mins[2 * j], b = c->mins[2 * j + 1];
            c->mins[j] = a < b ? a : b;
            a = c->maxs[2 * j];
            b = c->maxs[2 * j + 1];
            c->maxs[j] = a > b ? a : b;
        }
        c->length = half;
        c->span *= 2;
    }
}

static inline void chart_push(Chart *c, int32_t depth)
{
    int64_t i = c->length;
    if (c->fill == 0) {
        c->mins[i] = depth;
        c->maxs[i] = depth;
    } else {
        if (depth < c->mins[i])
            c->mins[i] = depth;
        if (depth > c->maxs[i])
            c->maxs[i] = depth;
    }
    c->events++;
    c->fill++;
    if (c->fill == c->span)
        chart_close_column(c);
}

/* -- the search's state ------------------------------------------------------------ */

static int frames_reserve(Search *s, int need)
{
    if (need < s->nframes)
        return 0;
    int cap = s->nframes ? s->nframes : 64;
    while (cap <= need)
        cap *= 2;
    if (cap > s->size + 1)
        cap = s->size + 1;
    if (cap <= need)
        cap = need + 1;
    Frame *f = realloc(s->frames, (size_t)cap * sizeof(Frame));
    if (!f)
        return -1;
    memset(f + s->nframes, 0, (size_t)(cap - s->nframes) * sizeof(Frame));
    s->frames = f;
    s->nframes = cap;
    return 0;
}

static ALWAYS_INLINE void visit(Search *s, int32_t sq)
{
    s->visited[sq] = 1;
    if (s->count_free) {
        const int32_t *nb = s->t->nbr + 8 * sq;
        for (int i = 0, d = s->t->deg[sq]; i < d; i++)
            s->freecnt[nb[i]]--;
    }
}

static ALWAYS_INLINE void unvisit(Search *s, int32_t sq)
{
    s->visited[sq] = 0;
    if (s->count_free) {
        const int32_t *nb = s->t->nbr + 8 * sq;
        for (int i = 0, d = s->t->deg[sq]; i < d; i++)
            s->freecnt[nb[i]]++;
    }
}

/* Unvisited neighbours of the start (the closed rule keeps one for the last move). */
static inline int start_free(const Search *s)
{
    const int32_t *nb = s->t->nbr + 8 * s->start;
    int nfree = 0;
    for (int i = 0, d = s->t->deg[s->start]; i < d; i++)
        nfree += !s->visited[nb[i]];
    return nfree;
}

/* The candidates of the frame at ``depth``: unvisited neighbours in the table's
 * order, stably sorted by onward count (Warnsdorff) or by static degree (the Java
 * articles' sort).  With ``lands`` the start is a candidate for the last move. */
static ALWAYS_INLINE void order_candidates(Search *s, Frame *f, int depth)
{
    const int32_t *nb = s->t->nbr + 8 * f->cur;
    int n = 0;
    if (__builtin_expect(s->lands && depth == s->last - 1, 0)) {
        for (int i = 0, d = s->t->deg[f->cur]; i < d; i++)
            if (!s->visited[nb[i]] || nb[i] == s->start)
                f->cands[n++] = nb[i];
    } else {
        for (int i = 0, d = s->t->deg[f->cur]; i < d; i++)
            if (!s->visited[nb[i]])
                f->cands[n++] = nb[i];
    }
    f->n = (uint8_t)n;
    f->pos = 0;
    if (s->counted) {
        /* the static degree counts every on-board move, visited squares included */
        const uint8_t *key = s->warnsdorff ? s->freecnt : s->t->deg;
        for (int i = 0; i < n; i++)
            f->onward[i] = key[f->cands[i]];
        for (int i = 1; i < n; i++) { /* insertion sort: stable, as sorted() */
            int32_t c = f->cands[i];
            uint8_t w = f->onward[i];
            int j = i - 1;
            while (j >= 0 && f->onward[j] > w) {
                f->cands[j + 1] = f->cands[j];
                f->onward[j + 1] = f->onward[j];
                j--;
            }
            f->cands[j + 1] = c;
            f->onward[j + 1] = w;
        }
    }
}

static ALWAYS_INLINE int push_frame(Search *s, int32_t sq, int32_t shortv)
{
    if (s->top + 1 >= s->nframes && frames_reserve(s, s->top + 1) < 0) {
        s->fault = FAULT_MEMORY;
        return -1;
    }
    Frame *g = &s->frames[++s->top];
    g->cur = sq;
    g->shortv = shortv;
    g->stale = 1;
    return 0;
}

/* -- pruning: search.py's open_ways / closed_ways and pruning.py's root checks ------ */

static int open_ways(const Search *s, int32_t cur, int32_t nxt, int32_t shortv)
{
    const int32_t *nb = s->t->nbr + 8 * cur;
    for (int i = 0, d = s->t->deg[cur]; i < d; i++) {
        int32_t u = nb[i];
        if (!s->visited[u] && u != nxt) {
            int ways = s->freecnt[u]; /* nxt, still unvisited, counts */
            if (ways <= 1) {
                if (ways == 0)
                    return -1;
                shortv++;
            }
        }
    }
    return shortv > 1 ? -1 : shortv;
}

static int closed_ways(const Search *s, int32_t cur, int32_t nxt)
{
    const int32_t *nb = s->t->nbr + 8 * cur;
    for (int i = 0, d = s->t->deg[cur]; i < d; i++) {
        int32_t u = nb[i];
        if (!s->visited[u] && u != nxt && s->freecnt[u] + s->adjs[u] < 2)
            return 0;
    }
    return 1;
}

static int colour_balanced(const Search *s, int32_t cur)
{
    if (s->closed && s->size % 2)
        return 0;
    int cols = s->t->cols;
    int mine = (cur / cols + cur % cols) & 1;
    int64_t left = 0, same = 0;
    for (int sq = 0; sq < s->area; sq++) {
        if (s->t->open[sq] && !s->visited[sq]) {
            left++;
            same += ((sq / cols + sq % cols) & 1) == mine;
        }
    }
    return same == left / 2;
}

static int is_neighbour(const Tables *t, int32_t a, int32_t b)
{
    const int32_t *nb = t->nbr + 8 * a;
    for (int i = 0; i < t->deg[a]; i++)
        if (nb[i] == b)
            return 1;
    return 0;
}

static int ways_ok(const Search *s, int32_t cur)
{
    const Tables *t = s->t;
    int64_t left = 0;
    for (int sq = 0; sq < s->area; sq++)
        left += t->open[sq] && !s->visited[sq];
    if (s->closed && left < 2 && cur == s->start)
        return 0;
    int shortv = 0;
    for (int u = 0; u < s->area; u++) {
        if (!t->open[u] || s->visited[u])
            continue;
        int ways = 0;
        const int32_t *nb = t->nbr + 8 * u;
        for (int i = 0; i < t->deg[u]; i++)
            ways += !s->visited[nb[i]];
        ways += is_neighbour(t, cur, u);
        ways += s->closed && s->adjs[u] && s->start != cur;
        if (s->closed) {
            if (ways < 2)
                return -1;
        } else if (ways == 0) {
            return -1;
        } else if (ways == 1) {
            shortv++;
        }
    }
    return shortv > 1 ? -1 : shortv;
}

/* Every unvisited square but ``skip`` reachable from the unvisited neighbours of
 * ``from`` (pruning.py's reaches_all on the unvisited set).  ``want``: their count. */
static int reaches_all(Search *s, int32_t from, int32_t skip, int64_t want)
{
    const Tables *t = s->t;
    uint32_t gen = ++s->gen;
    if (gen == 0) {
        memset(s->stamp, 0, (size_t)s->area * sizeof(uint32_t));
        gen = s->gen = 1;
    }
    if (skip >= 0)
        s->stamp[skip] = gen;
    int64_t head = 0, tail = 0;
    const int32_t *nb = t->nbr + 8 * from;
    for (int i = 0; i < t->deg[from]; i++) {
        int32_t v = nb[i];
        if (!s->visited[v] && s->stamp[v] != gen) {
            s->stamp[v] = gen;
            s->bfs[tail++] = v;
        }
    }
    while (head < tail) {
        int32_t u = s->bfs[head++];
        const int32_t *nu = t->nbr + 8 * u;
        for (int i = 0; i < t->deg[u]; i++) {
            int32_t v = nu[i];
            if (!s->visited[v] && s->stamp[v] != gen) {
                s->stamp[v] = gen;
                s->bfs[tail++] = v;
            }
        }
    }
    return tail == want;
}

/* -- the state machine -------------------------------------------------------------- */

static void enqueue(Search *s, int kind, int32_t sq, int32_t depth, int32_t from)
{
    Step *q = &s->queue[(s->qhead + s->qlen++) % 4];
    q->kind = kind;
    q->sq = sq;
    q->depth = depth;
    q->from = from;
}

static void enqueue_final(Search *s, int kind, int limit, int64_t nodes, int64_t backtracks)
{
    s->final_kind = kind;
    s->final_limit = limit;
    s->final_nodes = nodes;
    s->final_backtracks = backtracks;
    enqueue(s, kind, -1, -1, -1);
}

static int dequeue(Search *s, Step *ev)
{
    *ev = s->queue[s->qhead];
    s->qhead = (s->qhead + 1) % 4;
    s->qlen--;
    if (ev->kind >= EV_FOUND)
        s->phase = PH_DONE;
    return ev->kind;
}

static int fail(Search *s, int fault, int32_t sq, int32_t cur)
{
    s->fault = fault;
    s->fault_sq = sq;
    s->fault_cur = cur;
    return EV_ERROR;
}

/* _walk from its start to its main loop: limits, root checks, the resumed stack. */
int kt_search_begin(Search *s)
{
    s->phase = PH_RUN;
    limits_init(&s->lim, s->budget, s->time_limit, CHECK_EVERY_EVENTS);
    int limit = limits_check(&s->lim, 0);
    if (limit) {
        enqueue_final(s, EV_BUDGET, limit, 0, 0);
        return 0;
    }
    s->nodes = 1;
    if (s->has_resume && s->rlen == 0) { /* the root was left: the search is over */
        enqueue_final(s, EV_EXHAUSTED, 0, s->rnodes, s->rbacktracks);
        return 0;
    }
    if (s->lands && s->has_resume && s->rafter < 0 && s->rlen > 1 &&
        s->rpath[s->rlen - 1] == s->rpath[0]) { /* after the last move onto the start */
        s->final_resumed = 1;
        enqueue_final(s, EV_DECLARED, 0, s->rnodes, s->rbacktracks);
        return 0;
    }
    int root = s->frames[0].cur;
    if (!s->has_resume)
        enqueue(s, EV_MOVE, root, s->base, -1);
    int alive;
    int32_t shortv = 0;
    if (s->base == s->last) {
        alive = !s->closed || s->adjs[root];
        if (alive) {
            s->final_tour = 1;
            enqueue_final(s, EV_FOUND, 0, 1, 0);
            return 0;
        }
    } else {
        alive = !(s->closed && start_free(s) == 0);
        if (alive && s->parity)
            alive = colour_balanced(s, root);
        if (alive && s->dead_ends) {
            shortv = ways_ok(s, root);
            alive = shortv >= 0;
        }
        if (alive && s->connect)
            alive = reaches_all(s, root, -1, (int64_t)s->size - s->base - 1);
    }
    if (!alive) {
        enqueue(s, EV_BACK, root, s->base, -1);
        enqueue_final(s, EV_EXHAUSTED, 0, 1, 1);
        return 0;
    }
    s->frames[0].shortv = shortv;
    order_candidates(s, &s->frames[0], s->base);
    if (!s->has_resume)
        return 0;
    /* Walk down the resumed path as the main loop would have moved. */
    for (int i = s->base + 1; i < s->rlen; i++) {
        int32_t nxt = s->rpath[i];
        Frame *f = &s->frames[s->top];
        while (f->pos < f->n && f->cands[f->pos] != nxt)
            f->pos++;
        if (f->pos == f->n)
            return fail(s, FAULT_RESUME_PATH, nxt, f->cur);
        f->pos++;
        int nd = s->base + s->top + 1;
        int32_t nshort = f->shortv;
        if (nd < s->last && s->dead_ends && !s->closed)
            nshort = open_ways(s, f->cur, nxt, f->shortv);
        visit(s, nxt);
        if (push_frame(s, nxt, nshort) < 0)
            return EV_ERROR;
        order_candidates(s, &s->frames[s->top], nd);
    }
    Frame *f = &s->frames[s->top];
    if (s->rafter >= 0) {
        while (f->pos < f->n && f->cands[f->pos] != s->rafter)
            f->pos++;
        if (f->pos == f->n)
            return fail(s, FAULT_RESUME_AFTER, s->rafter, f->cur);
        f->pos++;
    }
    s->nodes = s->rnodes;
    s->backtracks = s->rbacktracks;
    /* The limits are read before the next move, where the uninterrupted search reads
     * them: the backtracks (or the Found) it yields first come first here too. */
    s->lim.check_at = s->nodes;
    if (s->base + s->top == s->last && s->rafter < 0 && (!s->closed || s->adjs[f->cur])) {
        s->final_tour = 1;
        enqueue_final(s, EV_FOUND, 0, s->nodes, s->backtracks);
    }
    return 0;
}

/* The next event of the search (its kind; EV_NONE once the final event was taken).
 * ``plain``: a constant 1 for the plain search (no pruning, no Warnsdorff), so the
 * compiler drops every other rule from the lesson's hot loop. */
static ALWAYS_INLINE int step_impl(Search *s, Step *ev, const int plain)
{
    if (__builtin_expect(s->qlen || s->phase != PH_RUN, 0)) {
        if (s->qlen)
            return dequeue(s, ev);
        if (s->phase == PH_DONE)
            return EV_NONE;
        if (kt_search_begin(s) < 0) {
            s->phase = PH_DONE; /* as a generator that raised: nothing more */
            return EV_ERROR;
        }
        if (s->qlen)
            return dequeue(s, ev);
    }
    const int last = s->last, closed = s->closed;
    const uint8_t *adjs = s->adjs;
    for (;;) {
        int top = s->top;
        Frame *f = &s->frames[top];
        int depth = s->base + top;
        while (f->pos < f->n) {
            int32_t nxt = f->cands[f->pos++];
            int nd = depth + 1;
            int32_t nshort = f->shortv;
            if (nd < last) {
                if (closed && adjs[nxt] && start_free(s) <= 1)
                    continue; /* the start's last free neighbour must wait for the last move */
                if (!plain && s->dead_ends) {
                    if (s->freecnt[nxt] == 0)
                        continue; /* no way on from nxt, and squares remain */
                    if (closed) {
                        if (f->cur != s->start && !closed_ways(s, f->cur, nxt))
                            continue;
                    } else {
                        nshort = open_ways(s, f->cur, nxt, nshort);
                        if (nshort < 0)
                            continue;
                    }
                }
                if (!plain && s->connect &&
                    !reaches_all(s, nxt, nxt, (int64_t)s->size - nd - 1))
                    continue;
            }
            if (__builtin_expect(s->nodes >= s->lim.check_at, 0)) {
                int limit = limits_check(&s->lim, s->nodes);
                if (limit) {
                    s->final_kind = EV_BUDGET;
                    s->final_limit = limit;
                    s->final_nodes = s->nodes;
                    s->final_backtracks = s->backtracks;
                    s->phase = PH_DONE;
                    ev->kind = EV_BUDGET;
                    return EV_BUDGET;
                }
            }
            s->nodes++;
            if (plain)
                s->visited[nxt] = 1;
            else
                visit(s, nxt);
            if (push_frame(s, nxt, nshort) < 0)
                return EV_ERROR;
            ev->kind = EV_MOVE;
            ev->sq = nxt;
            ev->depth = nd;
            ev->from = top;
            Frame *g = &s->frames[top + 1];
            if (!plain && s->lands && nxt == s->start) { /* the last move landed on the start */
                g->n = g->pos = 0;
                s->final_tour = 1;
                enqueue_final(s, EV_DECLARED, 0, s->nodes, s->backtracks);
            } else if (nd == last && (!closed || adjs[nxt])) {
                g->n = g->pos = 0;
                s->final_tour = 1;
                enqueue_final(s, EV_FOUND, 0, s->nodes, s->backtracks);
            } else if (plain) {
                const int32_t *nb = s->t->nbr + 8 * nxt;
                int n = 0;
                for (int i = 0, d = s->t->deg[nxt]; i < d; i++) {
                    int32_t v = nb[i];
                    g->cands[n] = v;
                    n += !s->visited[v];
                }
                g->n = (uint8_t)n;
                g->pos = 0;
            } else {
                order_candidates(s, g, nd);
            }
            return EV_MOVE;
        }
        if (top == 0 && s->keeps_root) { /* the C article's traverse never clears its start */
            s->final_kind = EV_EXHAUSTED;
            s->final_limit = LIMIT_NONE;
            s->final_nodes = s->nodes;
            s->final_backtracks = s->backtracks;
            s->phase = PH_DONE;
            ev->kind = EV_EXHAUSTED;
            return EV_EXHAUSTED;
        }
        s->backtracks++;
        ev->kind = EV_BACK;
        ev->sq = f->cur;
        ev->depth = depth;
        ev->from = -1;
        if (plain)
            s->visited[f->cur] = 0;
        else
            unvisit(s, f->cur);
        if (top == 0) {
            enqueue_final(s, EV_EXHAUSTED, 0, s->nodes, s->backtracks);
        } else {
            s->top--;
        }
        return EV_BACK;
    }
}

int kt_search_step(Search *s, Step *ev)
{
    return s->plain ? step_impl(s, ev, 1) : step_impl(s, ev, 0);
}

/* -- many events at once: the walker and the /watch batches ------------------------------- */

static inline int buf_reserve(Search *s, Py_ssize_t more)
{
    if (s->buflen + more <= s->bufcap)
        return 0;
    Py_ssize_t cap = s->bufcap ? s->bufcap : 4096;
    while (cap < s->buflen + more)
        cap *= 2;
    int32_t *b = realloc(s->buf, (size_t)cap * sizeof(int32_t));
    if (!b)
        return -1;
    s->buf = b;
    s->bufcap = cap;
    return 0;
}

/* -- the lesson's loop for a walker that skips events ------------------------------------ */

/* Up to n events of the plain search, not made or encoded: the C reference's loop
 * (the neighbour table scanned lazily, an explicit stack) plus the walker's heat
 * map and depth chart.  It stops short of the events that end the search or check
 * its limits, which step() then takes; the frames are rebuilt on the way out, so
 * step() continues exactly where it stopped.  Returns the events taken. */
static Py_ssize_t skip_plain(Search *s, Py_ssize_t n, int64_t *moves)
{
    *moves = 0;
    if (s->qlen || s->phase != PH_RUN || n <= 0)
        return 0;
    const Tables *t = s->t;
    const int32_t *nbr = t->nbr;
    const uint8_t *deg = t->deg;
    if (!s->lpath) {
        s->lpath = malloc(sizeof(int32_t) * (size_t)(s->size + 1));
        s->lidx = malloc((size_t)(s->size + 1));
        s->pathpos = malloc(sizeof(int32_t) * (size_t)s->area);
        if (!s->lpath || !s->lidx || !s->pathpos)
            return 0; /* step() takes them one by one instead */
        for (int i = 0; i < s->area; i++)
            s->pathpos[i] = -1;
    }
    int32_t *lpath = s->lpath;
    uint8_t *lidx = s->lidx;
    int top = s->top;
    for (int d = 0; d <= top; d++) {
        const Frame *f = &s->frames[d];
        lpath[d] = f->cur;
        int idx = 0;
        if (f->pos) {
            const int32_t *nb = nbr + 8 * f->cur;
            while (nb[idx] != f->cands[f->pos - 1])
                idx++;
            idx++;
        }
        lidx[d] = (uint8_t)idx;
    }
    uint8_t *visited = s->visited;
    const uint8_t *adjs = s->adjs;
    const int last = s->last, base = s->base, closed = s->closed;
    const int64_t check_at = s->lim.check_at;
    int64_t nodes = s->nodes, m = 0;
    int64_t *heat = s->heat;
    /* The depth chart's open column lives in locals (a store through c-> per event
     * costs more than the search itself).  Depth moves by one per event, so a move
     * can only raise the column's max and a backtrack only lower its min; an empty
     * column starts at (depth + 1, depth - 1), which the first event of either kind
     * turns into (its depth, its depth). */
    Chart *c = &s->chart;
    int32_t max_depth = s->max_depth, after = s->after;
    int32_t depth = base + top + 1; /* the path's length */
    int64_t left = c->span - c->fill; /* events until the open column closes */
    int32_t cmin = depth + 1, cmax = depth - 1;
    if (c->fill) {
        cmin = c->mins[c->length];
        cmax = c->maxs[c->length];
    }
    Py_ssize_t taken = 0;
    while (taken < n) {
        int32_t cur = lpath[top];
        const int32_t *nb = nbr + 8 * cur;
        int i = lidx[top], d = deg[cur];
        int nd = depth;
        int32_t nxt = -1;
        for (; i < d; i++) {
            int32_t v = nb[i];
            if (visited[v])
                continue;
            if (closed && adjs[v] && nd < last && start_free(s) <= 1)
                continue;
            nxt = v;
            break;
        }
        if (nxt >= 0) {
            if (nd == last || nodes >= check_at)
                break; /* the move that may end the search, or a limit check: step()'s */
            lidx[top] = (uint8_t)(i + 1);
            visited[nxt] = 1;
            lpath[++top] = nxt;
            lidx[top] = 0;
            nodes++;
            m++;
            heat[nxt]++;
            depth++;
            after = -1;
            if (depth > cmax)
                cmax = depth;
        } else {
            if (top == 0)
                break; /* leaving the root ends the search: step()'s */
            visited[cur] = 0;
            top--;
            depth--;
            after = cur;
            if (depth < cmin)
                cmin = depth;
        }
        taken++;
        if (--left == 0) {
            if (cmax > max_depth)
                max_depth = cmax;
            c->mins[c->length] = cmin;
            c->maxs[c->length] = cmax;
            chart_close_column(c);
            left = c->span;
            cmin = depth + 1;
            cmax = depth - 1;
        }
    }
    if (left != c->span) { /* the open column */
        if (cmax > max_depth)
            max_depth = cmax;
        c->mins[c->length] = cmin;
        c->maxs[c->length] = cmax;
        c->fill = c->span - left;
    }
    c->events += taken;
    s->nodes = nodes;
    s->backtracks += taken - m;
    s->plen = depth;
    s->max_depth = max_depth;
    s->after = after;
    *moves = m;
    if (!taken)
        return 0;
    /* Rebuild the frames: a frame's candidates are its square's neighbours that were
     * unvisited when it was entered, i.e. not on the path up to it. */
    if (frames_reserve(s, top) < 0) {
        s->fault = FAULT_MEMORY;
        return taken;
    }
    int32_t *pathpos = s->pathpos;
    for (int dd = 0; dd <= top; dd++)
        pathpos[lpath[dd]] = dd;
    for (int dd = 0; dd <= top; dd++) {
        Frame *f = &s->frames[dd];
        int32_t cur = lpath[dd];
        const int32_t *nb = nbr + 8 * cur;
        int k = 0, pos = 0;
        for (int j = 0; j < deg[cur]; j++) {
            int32_t v = nb[j];
            if (!visited[v] || pathpos[v] > dd) {
                f->cands[k++] = v;
                pos += j < lidx[dd];
            }
        }
        f->cur = cur;
        f->n = (uint8_t)k;
        f->pos = (uint8_t)pos;
        f->shortv = 0;
        f->stale = 1;
    }
    for (int dd = 0; dd <= top; dd++)
        pathpos[lpath[dd]] = -1;
    s->top = top;
    return taken;
}

/* Up to n Move/Backtrack events, encoded into s->buf when ``encode``; the walker's
 * state kept when s->track.  Returns how many were taken; *final is the kind that
 * stopped it (EV_NONE when n were taken or the stream had ended, EV_ERROR). */
static ALWAYS_INLINE Py_ssize_t take_impl(Search *s, Py_ssize_t n, int encode, int counts,
                                          int *final, int64_t *moves, const int plain)
{
    Py_ssize_t taken = 0;
    int64_t m = 0;
    Step ev;
    const int track = s->track;
    *final = EV_NONE;
    while (taken < n) {
        if (plain && track && !encode) {
            int64_t skipped;
            taken += skip_plain(s, n - taken, &skipped);
            m += skipped;
            if (s->fault) {
                *final = EV_ERROR;
                break;
            }
            if (taken >= n)
                break;
        }
        int kind = step_impl(s, &ev, plain);
        if (kind == EV_MOVE) {
            m++;
            if (track) {
                s->heat[ev.sq]++;
                s->plen = ev.depth + 1;
                s->after = -1;
                if (s->plen > s->max_depth)
                    s->max_depth = s->plen;
                chart_push(&s->chart, s->plen);
            }
            if (encode) {
                if (buf_reserve(s, 18) < 0) {
                    s->fault = FAULT_MEMORY;
                    *final = EV_ERROR;
                    break;
                }
                int32_t *b = s->buf + s->buflen;
                b[0] = ev.sq;
                if (ev.from < 0) {
                    b[1] = 0;
                    s->buflen += 2;
                } else {
                    const Frame *f = &s->frames[ev.from];
                    int k = f->n;
                    b[1] = k;
                    for (int i = 0; i < k; i++)
                        b[2 + i] = f->cands[i];
                    if (counts && k) {
                        for (int i = 0; i < k; i++)
                            b[2 + k + i] = f->onward[i];
                        k *= 2;
                    }
                    s->buflen += 2 + k;
                }
            }
        } else if (kind == EV_BACK) {
            if (track) {
                s->plen = ev.depth;
                s->after = ev.sq;
                chart_push(&s->chart, s->plen);
            }
            if (encode) {
                if (buf_reserve(s, 1) < 0) {
                    s->fault = FAULT_MEMORY;
                    *final = EV_ERROR;
                    break;
                }
                s->buf[s->buflen++] = -1 - ev.sq;
            }
        } else {
            *final = kind;
            break;
        }
        taken++;
    }
    if (track) {
        s->index += taken;
        s->wnodes += m;
        s->wbacktracks += taken - m;
    }
    *moves = m;
    return taken;
}

Py_ssize_t kt_search_take(Search *s, Py_ssize_t n, int encode, int counts, int *final,
                          int64_t *moves)
{
    if (s->plain)
        return take_impl(s, n, encode, counts, final, moves, 1);
    return take_impl(s, n, encode, counts, final, moves, 0);
}

/* -- setting up and tearing down -------------------------------------------------------- */

int kt_search_init(Search *s, int32_t *path, int n)
{
    const Tables *t = s->t;
    s->count_free = s->warnsdorff || s->dead_ends;
    s->counted = s->warnsdorff || s->by_degree;
    /* parity acts at the root only */
    s->plain = !s->counted && !s->lands && !s->dead_ends && !s->connect;
    s->area = t->area;
    s->size = t->size;
    s->last = t->size - 1;
    s->rafter = -1;
    s->after = -1;
    s->objs_hi = -1;
    s->start = path[0];
    s->base = n - 1;
    s->prefix = path;
    size_t area = (size_t)t->area;
    s->visited = calloc(area, 1);
    s->adjs = calloc(area, 1);
    s->freecnt = calloc(area, 1);
    s->bfs = malloc(area * sizeof(int32_t));
    s->stamp = calloc(area, sizeof(uint32_t));
    if (!s->visited || !s->adjs || !s->freecnt || !s->bfs || !s->stamp ||
        frames_reserve(s, 1) < 0)
        return -1;
    for (int i = 0; i < n; i++)
        s->visited[path[i]] = 1;
    if (s->closed) {
        const int32_t *nb = t->nbr + 8 * s->start;
        for (int i = 0; i < t->deg[s->start]; i++)
            s->adjs[nb[i]] = 1;
    }
    for (int u = 0; u < t->area; u++) {
        const int32_t *nb = t->nbr + 8 * u;
        int nfree = 0;
        for (int i = 0; i < t->deg[u]; i++)
            nfree += !s->visited[nb[i]];
        s->freecnt[u] = (uint8_t)nfree;
    }
    s->frames[0].cur = path[n - 1];
    return 0;
}

int kt_search_track(Search *s, int capacity)
{
    s->track = 1;
    s->plen = s->has_resume ? s->rlen : 0;
    s->after = s->rafter;
    s->heat = calloc((size_t)s->area, sizeof(int64_t));
    s->chart.capacity = capacity;
    s->chart.mins = calloc((size_t)capacity, sizeof(int32_t));
    s->chart.maxs = calloc((size_t)capacity, sizeof(int32_t));
    s->chart.span = 1;
    return s->heat && s->chart.mins && s->chart.maxs ? 0 : -1;
}

void kt_search_free(Search *s)
{
    free(s->frames);
    free(s->prefix);
    free(s->visited);
    free(s->adjs);
    free(s->freecnt);
    free(s->bfs);
    free(s->stamp);
    free(s->rpath);
    free(s->heat);
    free(s->chart.mins);
    free(s->chart.maxs);
    free(s->buf);
    free(s->lpath);
    free(s->lidx);
    free(s->pathpos);
}

/* -- the plain search without events: search.py's _seed_fast ---------------------------- */

const char *kt_seed_solve(const Tables *t, int32_t *path, int base, int closed,
                          int64_t budget, double time_limit, int64_t *nodes_out,
                          int64_t *backtracks_out, int *limit_out)
{
    const int size = t->size, area = t->area;
    uint8_t *idx = malloc((size_t)(size + 1));
    uint8_t *visited = calloc((size_t)area, 1);
    uint8_t *adjs = calloc((size_t)area, 1);
    if (!idx || !visited || !adjs) {
        free(idx);
        free(visited);
        free(adjs);
        return NULL;
    }
    for (int i = 0; i < base; i++)
        visited[path[i]] = 1;
    const int start = path[0];
    const int32_t *nbr = t->nbr;
    const uint8_t *deg = t->deg;
    const int32_t *snbrs = nbr + 8 * start;
    const int sdeg = deg[start];
    if (closed)
        for (int i = 0; i < sdeg; i++)
            adjs[snbrs[i]] = 1;
    Limits lim;
    limits_init(&lim, budget, time_limit, CHECK_EVERY_FAST);
    int limit = limits_check(&lim, 0);
    int64_t nodes = 0, backtracks = 0;
    const char *status = "budget";
    int len = base; /* squares on the path */
    int64_t check_at = lim.check_at;
    if (limit)
        goto done;
    nodes = 1;
    if (closed && base < size) {
        int any = 0;
        for (int i = 0; i < sdeg; i++)
            any |= !visited[snbrs[i]];
        if (!any) {
            status = "exhausted";
            backtracks = 1;
            goto done;
        }
    }
    idx[len - 1] = 0;
    for (;;) {
        int32_t cur = path[len - 1];
        const int32_t *nb = nbr + 8 * cur;
        int i = idx[len - 1], d = deg[cur];
        int32_t nxt = -1;
        for (; i < d; i++) {
            int32_t v = nb[i];
            if (visited[v])
                continue;
            if (closed && adjs[v] && len + 1 < size) {
                int left = 0;
                for (int j = 0; j < sdeg; j++)
                    left += !visited[snbrs[j]];
                if (left <= 1)
                    continue; /* the start's last free neighbour must wait for the last move */
            }
            nxt = v;
            break;
        }
        if (nxt >= 0) {
            idx[len - 1] = (uint8_t)(i + 1);
            if (nodes >= check_at) {
                limit = limits_check(&lim, nodes);
                check_at = lim.check_at;
                if (limit) {
                    backtracks = nodes - (len - base + 1);
                    break;
                }
            }
            visited[nxt] = 1;
            path[len] = nxt;
            idx[len] = 0;
            len++;
            nodes++;
            continue;
        }
        if (len == size && (!closed || adjs[cur])) {
            status = "found";
            backtracks = nodes - (size - base + 1);
            break;
        }
        if (len == base) {
            status = "exhausted";
            backtracks = nodes;
            break;
        }
        visited[cur] = 0;
        len--;
    }
done:
    free(idx);
    free(visited);
    free(adjs);
    *nodes_out = nodes;
    *backtracks_out = backtracks;
    *limit_out = limit;
    return status;
}
