/* The depth-first search of search.py's _walk, as a resumable state machine.
 *
 * step() yields one event at a time (Move, Backtrack, then one final event), in
 * exactly the order _walk yields them.  Three consumers share it:
 *
 *   Search.__next__       one Python event per call (search_events);
 *   Search.encode_batch   up to n events encoded into the protocol's flat ints
 *                         (the /watch runs);
 *   Search.walk           the Walker: path, heat map and depth chart kept per
 *                         event, the events encoded or skipped.
 *
 * Frames hold what _walk's stack tuples hold: the square, its candidates in the
 * order tried (with their onward counts for Warnsdorff), how many were taken,
 * and the dead-end rule's count of short squares.  Unvisited neighbour counts
 * are kept per square, so the pruning rules and Warnsdorff's ordering read one
 * byte where the Python engine sums over the neighbours.
 */
#include "core.h"

#include <string.h>
#include <time.h>

enum { EV_ERROR = -1, EV_NONE = 0, EV_MOVE, EV_BACK, EV_FOUND, EV_EXHAUSTED, EV_BUDGET };
enum { LIMIT_NONE = 0, LIMIT_NODES, LIMIT_TIME };
enum { PH_INIT = 0, PH_RUN, PH_DONE };

#define NEVER ((int64_t)1 << 62)
#define CHECK_EVERY_EVENTS 256 /* search.py: CHECK_EVERY_EVENTS */
#define CHECK_EVERY_FAST 1024  /* search.py: CHECK_EVERY_FAST */
#define RELEASE_GIL_AFTER 4096 /* events: shorter calls keep the GIL */

double kt_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts); /* time.perf_counter's clock on Linux */
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* -- limits: search.py's _Limits ------------------------------------------------ */

typedef struct {
    int64_t budget; /* < 0: none */
    int has_deadline;
    double deadline;
    int64_t every;
    int64_t check_at;
} Limits;

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

typedef struct {
    int capacity;
    int32_t *mins, *maxs;
    int64_t span, length, fill, events;
} Chart;

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

/* -- the search object ------------------------------------------------------------ */

typedef struct {
    int32_t cur;
    int32_t shortv; /* the dead-end rule's short squares at this depth (open tours) */
    int32_t cands[8];
    uint8_t onward[8];
    uint8_t n, pos; /* candidates, and how many were taken */
    PyObject *cands_obj, *onward_obj; /* the event tuples, made on demand */
} Frame;

typedef struct {
    int kind;
    int32_t sq, depth;
    int32_t from; /* frame holding the move's candidates; -1 for the root */
} Step;

typedef struct {
    PyObject_HEAD
    Tables *t;
    int closed, warnsdorff, dead_ends, parity, connect;
    int start, base, last, size, area;
    int32_t *prefix; /* the path before the root (base squares) */
    uint8_t *visited, *adjs, *freecnt;
    int count_free; /* keep freecnt (Warnsdorff, dead-ends) */
    int plain;      /* no pruning, no Warnsdorff: the lesson's loop */
    Frame *frames;
    int top, nframes;
    int64_t nodes, backtracks;
    int64_t budget;
    double time_limit;
    Limits lim;
    int phase;
    Step queue[4];
    int qhead, qlen;
    int final_kind, final_limit, final_tour;
    int64_t final_nodes, final_backtracks;
    /* resume */
    int has_resume;
    int32_t *rpath;
    int rlen, rafter;
    int64_t rnodes, rbacktracks;
    /* connectivity: flood fill scratch */
    int32_t *bfs;
    uint32_t *stamp;
    uint32_t gen;
    /* the walker's state */
    int track;
    int64_t *heat;
    int64_t index, wnodes, wbacktracks;
    int32_t max_depth, plen, after;
    Chart chart;
    PyObject *end; /* the final event, once walk/encode_batch reached it */
    int busy, oom;
    int objs_hi; /* highest frame that may hold event tuples */
    int32_t *lpath, *pathpos; /* skip_plain: the path, and each square's place on it */
    uint8_t *lidx;            /* skip_plain: the next neighbour to try, per depth */
    int32_t *buf;
    Py_ssize_t buflen, bufcap;
} Search;

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

#define ALWAYS_INLINE inline __attribute__((always_inline))

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

/* The frame's candidates: unvisited neighbours, stably sorted by onward count. */
static ALWAYS_INLINE void order_candidates(Search *s, Frame *f)
{
    const int32_t *nb = s->t->nbr + 8 * f->cur;
    int n = 0;
    for (int i = 0, d = s->t->deg[f->cur]; i < d; i++)
        if (!s->visited[nb[i]])
            f->cands[n++] = nb[i];
    f->n = (uint8_t)n;
    f->pos = 0;
    if (s->warnsdorff) {
        for (int i = 0; i < n; i++)
            f->onward[i] = s->freecnt[f->cands[i]];
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
        s->oom = 1;
        return -1;
    }
    Frame *g = &s->frames[++s->top];
    g->cur = sq;
    g->shortv = shortv;
    Py_CLEAR(g->cands_obj); /* NULL whenever the GIL is released */
    Py_CLEAR(g->onward_obj);
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

static int fail(Search *s, PyObject *type, const char *fmt, int value)
{
    (void)s;
    PyErr_Format(type, fmt, value);
    return EV_ERROR;
}

/* _walk from its start to its main loop: limits, root checks, the resumed stack. */
static int begin(Search *s)
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
    order_candidates(s, &s->frames[0]);
    if (!s->has_resume)
        return 0;
    /* Walk down the resumed path as the main loop would have moved. */
    for (int i = s->base + 1; i < s->rlen; i++) {
        int32_t nxt = s->rpath[i];
        Frame *f = &s->frames[s->top];
        while (f->pos < f->n && f->cands[f->pos] != nxt)
            f->pos++;
        if (f->pos == f->n)
            return fail(s, kt_classes.board_error,
                        "the resumed path does not follow the search at %d", nxt);
        f->pos++;
        int nd = s->base + s->top + 1;
        int32_t nshort = f->shortv;
        if (nd < s->last && s->dead_ends && !s->closed)
            nshort = open_ways(s, f->cur, nxt, f->shortv);
        visit(s, nxt);
        if (push_frame(s, nxt, nshort) < 0)
            return EV_ERROR;
        order_candidates(s, &s->frames[s->top]);
    }
    Frame *f = &s->frames[s->top];
    if (s->rafter >= 0) {
        while (f->pos < f->n && f->cands[f->pos] != s->rafter)
            f->pos++;
        if (f->pos == f->n) {
            PyErr_Format(kt_classes.board_error,
                         "the resumed square %d is not a candidate of %d", s->rafter, f->cur);
            return EV_ERROR;
        }
        f->pos++;
    }
    s->nodes = s->rnodes;
    s->backtracks = s->rbacktracks;
    limit = limits_check(&s->lim, s->nodes);
    if (limit) {
        enqueue_final(s, EV_BUDGET, limit, s->nodes, s->backtracks);
        return 0;
    }
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
        if (begin(s) < 0) {
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
            if (nd == last && (!closed || adjs[nxt])) {
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
                order_candidates(s, g);
            }
            return EV_MOVE;
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

static int step(Search *s, Step *ev)
{
    return s->plain ? step_impl(s, ev, 1) : step_impl(s, ev, 0);
}

/* -- Python objects ------------------------------------------------------------------- */

static PyObject *int_tuple(const int32_t *items, int n)
{
    PyObject *t = PyTuple_New(n);
    if (!t)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(items[i]);
        if (!v) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

static PyObject *named(PyTypeObject *type, Py_ssize_t n, PyObject **items)
{
    /* tuple.__new__(type, items): what search.py's tnew does, without the call */
    PyObject *obj = type->tp_alloc(type, n);
    if (!obj) {
        for (Py_ssize_t i = 0; i < n; i++)
            Py_XDECREF(items[i]);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!items[i]) {
            for (Py_ssize_t j = i + 1; j < n; j++)
                Py_XDECREF(items[j]);
            Py_DECREF(obj);
            return NULL;
        }
        PyTuple_SET_ITEM(obj, i, items[i]);
    }
    return obj;
}

static PyObject *path_tuple(const Search *s, int len)
{
    PyObject *t = PyTuple_New(len);
    if (!t)
        return NULL;
    const int resumed = s->phase == PH_INIT && s->has_resume; /* frames not built yet */
    for (int i = 0; i < len; i++) {
        int32_t sq = resumed ? s->rpath[i] : i < s->base ? s->prefix[i] : s->frames[i - s->base].cur;
        PyObject *v = PyLong_FromLong(sq);
        if (!v) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

static PyObject *final_event(Search *s)
{
    PyObject *items[3];
    switch (s->final_kind) {
    case EV_FOUND:
        items[0] = path_tuple(s, s->base + s->top + 1);
        items[1] = PyLong_FromLongLong(s->final_nodes);
        items[2] = PyLong_FromLongLong(s->final_backtracks);
        return named(kt_classes.found, 3, items);
    case EV_EXHAUSTED:
        items[0] = PyLong_FromLongLong(s->final_nodes);
        items[1] = PyLong_FromLongLong(s->final_backtracks);
        return named(kt_classes.exhausted, 2, items);
    default:
        items[0] = PyUnicode_FromString(s->final_limit == LIMIT_TIME ? "time" : "nodes");
        items[1] = PyLong_FromLongLong(s->final_nodes);
        items[2] = PyLong_FromLongLong(s->final_backtracks);
        return named(kt_classes.budget, 3, items);
    }
}

static PyObject *event_object(Search *s, const Step *ev)
{
    PyObject *items[4];
    if (ev->kind == EV_MOVE) {
        items[0] = PyLong_FromLong(ev->sq);
        items[1] = PyLong_FromLong(ev->depth);
        if (ev->from < 0) {
            items[2] = PyTuple_New(0);
            items[3] = Py_NewRef(Py_None);
        } else {
            Frame *f = &s->frames[ev->from];
            if (ev->from > s->objs_hi)
                s->objs_hi = ev->from;
            if (!f->cands_obj)
                f->cands_obj = int_tuple(f->cands, f->n);
            items[2] = Py_XNewRef(f->cands_obj);
            if (!s->warnsdorff) {
                items[3] = Py_NewRef(Py_None);
            } else {
                if (!f->onward_obj) {
                    int32_t on[8];
                    for (int i = 0; i < f->n; i++)
                        on[i] = f->onward[i];
                    f->onward_obj = int_tuple(on, f->n);
                }
                items[3] = Py_XNewRef(f->onward_obj);
            }
        }
        return named(kt_classes.move, 4, items);
    }
    if (ev->kind == EV_BACK) {
        items[0] = PyLong_FromLong(ev->sq);
        items[1] = PyLong_FromLong(ev->depth);
        return named(kt_classes.backtrack, 2, items);
    }
    return final_event(s);
}

static int raise_pending(Search *s)
{
    if (s->oom) {
        s->oom = 0;
        PyErr_NoMemory();
    }
    return -1;
}

/* Drop the cached event tuples, so the loops may run without the GIL. */
static void drop_event_tuples(Search *s)
{
    for (int i = 0; i <= s->objs_hi && i < s->nframes; i++) {
        Py_CLEAR(s->frames[i].cands_obj);
        Py_CLEAR(s->frames[i].onward_obj);
    }
    s->objs_hi = -1;
}

/* -- construction ------------------------------------------------------------------------ */

static int read_squares(PyObject *seq, int area, int32_t **out, int *len)
{
    PyObject *fast = PySequence_Fast(seq, "expected a sequence of squares");
    if (!fast)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    int32_t *buf = malloc(sizeof(int32_t) * (size_t)(n ? n : 1));
    if (!buf) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            free(buf);
            Py_DECREF(fast);
            return -1;
        }
        if (v < 0 || v >= area) {
            free(buf);
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "square %ld is off the board", v);
            return -1;
        }
        buf[i] = (int32_t)v;
    }
    Py_DECREF(fast);
    *out = buf;
    *len = (int)n;
    return 0;
}

static int read_chart(Chart *c, PyObject *frozen, int capacity)
{
    long long span, length, fill, events;
    PyObject *mins, *maxs;
    if (!PyArg_ParseTuple(frozen, "LLLLOO", &span, &length, &fill, &events, &mins, &maxs))
        return -1;
    c->span = span;
    c->length = length;
    c->fill = fill;
    c->events = events;
    int32_t *vals = NULL;
    int n = 0;
    for (int which = 0; which < 2; which++) {
        if (read_squares(which ? maxs : mins, INT32_MAX, &vals, &n) < 0)
            return -1;
        if (n > capacity || length >= capacity || span < 1) {
            free(vals);
            PyErr_SetString(PyExc_ValueError, "the depth chart does not fit");
            return -1;
        }
        memcpy(which ? c->maxs : c->mins, vals, (size_t)n * sizeof(int32_t));
        free(vals);
    }
    return 0;
}

/* Search(tables, path, closed, warnsdorff, dead_ends, parity, connectivity,
 *        node_budget, time_limit, resume, track)
 *
 * ``path``: the validated path (prefix, root last); ``node_budget`` < 0 and
 * ``time_limit`` < 0 mean none; ``resume``: None or (path, after, nodes, backtracks)
 * with after -1 for None; ``track``: None or the walker's state (index, nodes,
 * backtracks, max_depth, heat, chart, chart capacity). */
static PyObject *Search_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    Tables *t;
    PyObject *path, *resume, *track;
    int closed, warns, dead_ends, parity, connect;
    long long budget;
    double time_limit;
    if (!PyArg_ParseTuple(args, "O!OpppppLdOO:Search", &TablesType, &t, &path, &closed, &warns,
                          &dead_ends, &parity, &connect, &budget, &time_limit, &resume, &track))
        return NULL;
    (void)kw;
    Search *s = (Search *)type->tp_alloc(type, 0);
    if (!s)
        return NULL;
    s->t = (Tables *)Py_NewRef((PyObject *)t);
    s->closed = closed;
    s->warnsdorff = warns;
    s->dead_ends = dead_ends;
    s->parity = parity;
    s->connect = connect;
    s->count_free = warns || dead_ends;
    s->plain = !warns && !dead_ends && !connect; /* parity acts at the root only */
    s->budget = budget;
    s->time_limit = time_limit;
    s->area = t->area;
    s->size = t->size;
    s->last = t->size - 1;
    s->rafter = -1;
    s->after = -1;
    s->objs_hi = -1;
    int32_t *squares = NULL;
    int n = 0;
    if (read_squares(path, t->area, &squares, &n) < 0 || n < 1) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "the path is empty");
        free(squares);
        Py_DECREF(s);
        return NULL;
    }
    s->start = squares[0];
    s->base = n - 1;
    s->prefix = squares;
    size_t area = (size_t)t->area;
    s->visited = calloc(area, 1);
    s->adjs = calloc(area, 1);
    s->freecnt = calloc(area, 1);
    s->bfs = malloc(area * sizeof(int32_t));
    s->stamp = calloc(area, sizeof(uint32_t));
    if (!s->visited || !s->adjs || !s->freecnt || !s->bfs || !s->stamp ||
        frames_reserve(s, 1) < 0) {
        Py_DECREF(s);
        return PyErr_NoMemory();
    }
    for (int i = 0; i < n; i++)
        s->visited[squares[i]] = 1;
    if (closed) {
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
    s->frames[0].cur = squares[n - 1];
    if (resume != Py_None) {
        PyObject *rpath;
        int after;
        long long rnodes, rback;
        if (!PyArg_ParseTuple(resume, "OiLL", &rpath, &after, &rnodes, &rback) ||
            read_squares(rpath, t->area, &s->rpath, &s->rlen) < 0) {
            Py_DECREF(s);
            return NULL;
        }
        s->has_resume = 1;
        s->rafter = after;
        s->rnodes = rnodes;
        s->rbacktracks = rback;
        s->nodes = rnodes;
        s->backtracks = rback;
        if (s->rlen && s->rlen <= s->base) {
            Py_DECREF(s);
            PyErr_SetString(kt_classes.board_error, "the resumed path is shorter than the prefix");
            return NULL;
        }
    }
    if (track != Py_None) {
        long long index, wnodes, wback;
        int max_depth, capacity;
        PyObject *heat, *chart;
        if (!PyArg_ParseTuple(track, "LLLiOOi", &index, &wnodes, &wback, &max_depth, &heat,
                              &chart, &capacity)) {
            Py_DECREF(s);
            return NULL;
        }
        if (capacity < 2 || capacity % 2) {
            Py_DECREF(s);
            PyErr_SetString(PyExc_ValueError, "the chart capacity must be even");
            return NULL;
        }
        s->track = 1;
        s->index = index;
        s->wnodes = wnodes;
        s->wbacktracks = wback;
        s->max_depth = max_depth;
        s->plen = s->has_resume ? s->rlen : 0;
        s->after = s->rafter;
        s->heat = calloc(area, sizeof(int64_t));
        s->chart.capacity = capacity;
        s->chart.mins = calloc((size_t)capacity, sizeof(int32_t));
        s->chart.maxs = calloc((size_t)capacity, sizeof(int32_t));
        s->chart.span = 1;
        if (!s->heat || !s->chart.mins || !s->chart.maxs) {
            Py_DECREF(s);
            return PyErr_NoMemory();
        }
        PyObject *fast = PySequence_Fast(heat, "heat must be a sequence");
        if (!fast) {
            Py_DECREF(s);
            return NULL;
        }
        if (PySequence_Fast_GET_SIZE(fast) != t->area) {
            Py_DECREF(fast);
            Py_DECREF(s);
            PyErr_SetString(kt_classes.board_error, "the walker state belongs to another board");
            return NULL;
        }
        for (Py_ssize_t i = 0; i < t->area; i++) {
            s->heat[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
            if (s->heat[i] == -1 && PyErr_Occurred()) {
                Py_DECREF(fast);
                Py_DECREF(s);
                return NULL;
            }
        }
        Py_DECREF(fast);
        if (chart != Py_None && read_chart(&s->chart, chart, capacity) < 0) {
            Py_DECREF(s);
            return NULL;
        }
    }
    return (PyObject *)s;
}

static void Search_dealloc(Search *s)
{
    if (s->frames) {
        for (int i = 0; i < s->nframes; i++) {
            Py_XDECREF(s->frames[i].cands_obj);
            Py_XDECREF(s->frames[i].onward_obj);
        }
        free(s->frames);
    }
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
    Py_XDECREF(s->end);
    Py_XDECREF((PyObject *)s->t);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static int enter(Search *s)
{
    if (s->busy) {
        PyErr_SetString(PyExc_ValueError, "the search is already running");
        return -1;
    }
    s->busy = 1;
    return 0;
}

/* -- one event at a time: search_events ------------------------------------------------- */

static PyObject *Search_next(Search *s)
{
    if (enter(s) < 0)
        return NULL;
    Step ev;
    int kind = step(s, &ev);
    PyObject *out = NULL;
    if (kind == EV_ERROR)
        raise_pending(s);
    else if (kind != EV_NONE)
        out = event_object(s, &ev);
    s->busy = 0;
    return out;
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
        s->oom = 1;
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
        Py_CLEAR(f->cands_obj); /* NULL whenever the GIL is released */
        Py_CLEAR(f->onward_obj);
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
            if (s->oom) {
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
                    s->oom = 1;
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
                    s->oom = 1;
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

static Py_ssize_t take(Search *s, Py_ssize_t n, int encode, int counts, int *final,
                       int64_t *moves)
{
    if (s->plain)
        return take_impl(s, n, encode, counts, final, moves, 1);
    return take_impl(s, n, encode, counts, final, moves, 0);
}

/* The ints a batch is made of are small (squares of small boards, counts): keep
 * them at hand rather than asking PyLong_FromLong for each. */
#define SMALL_LOW 400
#define SMALL_COUNT 800
static PyObject *small_ints[SMALL_COUNT];

int kt_search_ready(void)
{
    for (int i = 0; i < SMALL_COUNT; i++)
        if (!(small_ints[i] = PyLong_FromLong(i - SMALL_LOW)))
            return -1;
    return 0;
}

/* Run take() (without the GIL for long runs), then append the buffer to ``out``. */
static Py_ssize_t take_into(Search *s, Py_ssize_t n, PyObject *out, int counts, int *final,
                            int64_t *moves)
{
    int encode = out != Py_None;
    s->buflen = 0;
    if (s->phase == PH_INIT && begin(s) < 0) {
        s->phase = PH_DONE;
        *final = EV_ERROR;
        return -1;
    }
    Py_ssize_t taken;
    if (!encode && s->track)
        drop_event_tuples(s); /* skip_plain rebuilds frames */
    if (n >= RELEASE_GIL_AFTER) {
        drop_event_tuples(s);
        Py_BEGIN_ALLOW_THREADS
        taken = take(s, n, encode, counts, final, moves);
        Py_END_ALLOW_THREADS
    } else {
        taken = take(s, n, encode, counts, final, moves);
    }
    if (*final == EV_ERROR) {
        raise_pending(s);
        return -1;
    }
    if (encode && s->buflen) {
        PyObject *ints = PyList_New(s->buflen);
        if (!ints)
            return -1;
        PyObject **items = ((PyListObject *)ints)->ob_item;
        for (Py_ssize_t i = 0; i < s->buflen; i++) {
            int32_t x = s->buf[i];
            PyObject *v;
            if ((uint32_t)(x + SMALL_LOW) < SMALL_COUNT) {
                v = small_ints[x + SMALL_LOW];
                Py_INCREF(v);
            } else if (!(v = PyLong_FromLong(x))) {
                Py_DECREF(ints);
                return -1;
            }
            items[i] = v;
        }
        Py_ssize_t len = PyList_GET_SIZE(out);
        int rc = PyList_SetSlice(out, len, len, ints);
        Py_DECREF(ints);
        if (rc < 0)
            return -1;
    }
    if (s->bufcap > (1 << 20)) { /* do not keep a huge buffer between calls */
        free(s->buf);
        s->buf = NULL;
        s->bufcap = 0;
    }
    if (*final >= EV_FOUND && !s->end) {
        s->end = final_event(s);
        if (!s->end)
            return -1;
    }
    return taken;
}

static int check_out(PyObject *out)
{
    if (out != Py_None && !PyList_CheckExact(out)) {
        PyErr_SetString(PyExc_TypeError, "out must be a list or None");
        return -1;
    }
    return 0;
}

/* encode_batch(n, out, counts) -> (taken, moves, final event, END_OF_STREAM or None) */
static PyObject *Search_encode_batch(Search *s, PyObject *args)
{
    Py_ssize_t n;
    PyObject *out;
    int counts;
    if (!PyArg_ParseTuple(args, "nOp:encode_batch", &n, &out, &counts) || check_out(out) < 0)
        return NULL;
    if (enter(s) < 0)
        return NULL;
    int final;
    int64_t moves = 0;
    Py_ssize_t taken = n > 0 ? take_into(s, n, out, counts, &final, &moves) : 0;
    s->busy = 0;
    if (taken < 0)
        return NULL;
    PyObject *terminal = Py_None;
    if (n > 0 && final >= EV_FOUND)
        terminal = s->end;
    else if (n > 0 && final == EV_NONE && taken < n)
        terminal = kt_classes.end_of_stream; /* the final event was taken before */
    return Py_BuildValue("nLO", taken, (long long)moves, terminal);
}

/* walk(n, out) -> taken: the Walker's advance (requires a tracked search). */
static PyObject *Search_walk(Search *s, PyObject *args)
{
    Py_ssize_t n;
    PyObject *out;
    int counts;
    if (!PyArg_ParseTuple(args, "nOp:walk", &n, &out, &counts) || check_out(out) < 0)
        return NULL;
    if (!s->track) {
        PyErr_SetString(PyExc_ValueError, "this search keeps no walker state");
        return NULL;
    }
    if (s->end || n <= 0)
        return PyLong_FromLong(0);
    if (enter(s) < 0)
        return NULL;
    int final;
    int64_t moves;
    Py_ssize_t taken = take_into(s, n, out, counts, &final, &moves);
    s->busy = 0;
    if (taken < 0)
        return NULL;
    return PyLong_FromSsize_t(taken);
}

/* finish() -> the final event, the events in between not made (solve). */
static PyObject *Search_finish(Search *s, PyObject *unused)
{
    (void)unused;
    if (enter(s) < 0)
        return NULL;
    int final = EV_NONE;
    int64_t moves;
    s->buflen = 0;
    if (s->phase == PH_INIT && begin(s) < 0) {
        s->phase = PH_DONE;
        s->busy = 0;
        return NULL;
    }
    drop_event_tuples(s);
    Py_BEGIN_ALLOW_THREADS
    while (final == EV_NONE && !(s->phase == PH_DONE && !s->qlen))
        take(s, (Py_ssize_t)1 << 30, 0, 0, &final, &moves);
    Py_END_ALLOW_THREADS
    s->busy = 0;
    if (final == EV_ERROR) {
        raise_pending(s);
        return NULL;
    }
    if (final < EV_FOUND)
        Py_RETURN_NONE;
    return final_event(s);
}

/* state() -> (index, path, after, nodes, backtracks, max_depth, heat, chart) */
static PyObject *Search_state(Search *s, PyObject *unused)
{
    (void)unused;
    if (!s->track) {
        PyErr_SetString(PyExc_ValueError, "this search keeps no walker state");
        return NULL;
    }
    PyObject *path = path_tuple(s, s->plen);
    PyObject *heat = PyTuple_New(s->area);
    Chart *c = &s->chart;
    int cols = (int)(c->length + (c->fill ? 1 : 0));
    PyObject *mins = int_tuple(c->mins, cols);
    PyObject *maxs = int_tuple(c->maxs, cols);
    if (!path || !heat || !mins || !maxs)
        goto error;
    for (int i = 0; i < s->area; i++) {
        PyObject *v = PyLong_FromLongLong(s->heat[i]);
        if (!v)
            goto error;
        PyTuple_SET_ITEM(heat, i, v);
    }
    PyObject *after = s->after < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(s->after);
    return Py_BuildValue("LNNLLiN(LLLLNN)", (long long)s->index, path, after,
                         (long long)s->wnodes, (long long)s->wbacktracks, s->max_depth, heat,
                         (long long)c->span, (long long)c->length, (long long)c->fill,
                         (long long)c->events, mins, maxs);
error:
    Py_XDECREF(path);
    Py_XDECREF(heat);
    Py_XDECREF(mins);
    Py_XDECREF(maxs);
    return NULL;
}

static PyObject *Search_close(Search *s, PyObject *unused)
{
    (void)unused;
    if (!s->busy && !(s->phase == PH_DONE && !s->qlen)) {
        s->phase = PH_DONE;
        s->qlen = 0;
    }
    Py_RETURN_NONE;
}

static PyObject *Search_get_end(Search *s, void *closure)
{
    (void)closure;
    return Py_NewRef(s->end ? s->end : Py_None);
}

static PyObject *Search_get_counts(Search *s, void *closure)
{
    (void)closure;
    return Py_BuildValue("LLLii", (long long)s->index, (long long)s->wnodes,
                         (long long)s->wbacktracks, s->max_depth, s->after);
}

static PyObject *Search_get_path(Search *s, void *closure)
{
    (void)closure;
    int len = s->base + s->top + 1;
    if (s->phase == PH_INIT && s->has_resume)
        len = s->rlen;
    return path_tuple(s, s->track ? s->plen : len);
}

static PyObject *Search_get_heat(Search *s, void *closure)
{
    (void)closure;
    if (!s->track)
        Py_RETURN_NONE;
    PyObject *heat = PyList_New(s->area);
    if (!heat)
        return NULL;
    for (int i = 0; i < s->area; i++) {
        PyObject *v = PyLong_FromLongLong(s->heat[i]);
        if (!v) {
            Py_DECREF(heat);
            return NULL;
        }
        PyList_SET_ITEM(heat, i, v);
    }
    return heat;
}

static PyMethodDef Search_methods[] = {
    {"encode_batch", (PyCFunction)Search_encode_batch, METH_VARARGS,
     "encode_batch(n, out, counts) -> (taken, moves, terminal)"},
    {"walk", (PyCFunction)Search_walk, METH_VARARGS, "walk(n, out, counts) -> taken"},
    {"finish", (PyCFunction)Search_finish, METH_NOARGS, "finish() -> the final event"},
    {"state", (PyCFunction)Search_state, METH_NOARGS, "the walker's state as a tuple"},
    {"close", (PyCFunction)Search_close, METH_NOARGS, "end the stream"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Search_getset[] = {
    {"end", (getter)Search_get_end, NULL, "the final event, once reached", NULL},
    {"counts", (getter)Search_get_counts, NULL, "(index, nodes, backtracks, max_depth, after)",
     NULL},
    {"path", (getter)Search_get_path, NULL, "the path now", NULL},
    {"heat", (getter)Search_get_heat, NULL, "entries per square", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "server.engine._core.Search",
    .tp_basicsize = sizeof(Search),
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "search.py's _walk as an iterator of events",
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)Search_next,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
    .tp_new = Search_new,
};

/* -- the plain search without events: search.py's _seed_fast ---------------------------- */

/* solve_seed(tables, path, closed, node_budget, time_limit)
 *   -> (status, tour or None, nodes, backtracks, limit or None) */
PyObject *kt_search_solve_seed(PyObject *self, PyObject *args)
{
    (void)self;
    Tables *t;
    PyObject *pathobj;
    int closed;
    long long budget;
    double time_limit;
    if (!PyArg_ParseTuple(args, "O!OpLd:solve_seed", &TablesType, &t, &pathobj, &closed, &budget,
                          &time_limit))
        return NULL;
    int32_t *given;
    int base;
    if (read_squares(pathobj, t->area, &given, &base) < 0)
        return NULL;
    const int size = t->size, area = t->area;
    int32_t *path = malloc(sizeof(int32_t) * (size_t)(size + 1));
    uint8_t *idx = malloc((size_t)(size + 1));
    uint8_t *visited = calloc((size_t)area, 1);
    uint8_t *adjs = calloc((size_t)area, 1);
    if (!path || !idx || !visited || !adjs || base < 1 || base > size) {
        free(given);
        free(path);
        free(idx);
        free(visited);
        free(adjs);
        return base < 1 || base > size ? (PyErr_SetString(PyExc_ValueError, "bad path"), NULL)
                                       : PyErr_NoMemory();
    }
    memcpy(path, given, sizeof(int32_t) * (size_t)base);
    free(given);
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
    Py_BEGIN_ALLOW_THREADS
    int64_t check_at = lim.check_at;
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
    Py_END_ALLOW_THREADS
done:;
    PyObject *tour = Py_None;
    if (status[0] == 'f') {
        tour = PyList_New(size);
        if (!tour)
            goto fail;
        for (int i = 0; i < size; i++)
            PyList_SET_ITEM(tour, i, PyLong_FromLong(path[i]));
    } else {
        Py_INCREF(tour);
    }
    free(path);
    free(idx);
    free(visited);
    free(adjs);
    const char *lname = limit == LIMIT_TIME ? "time" : limit == LIMIT_NODES ? "nodes" : NULL;
    return Py_BuildValue("sNLLz", status, tour, (long long)nodes, (long long)backtracks, lname);
fail:
    free(path);
    free(idx);
    free(visited);
    free(adjs);
    return NULL;
}
