/* The exact hint search of hints.py (_Search), hint_degrees.py and hint_forced.py.
 *
 * Square sets are the bits of the padded hint grid (hints.py's _Grid: bit
 * row * (cols + 2) + col), held in W 64-bit words instead of a Python int; boards
 * up to MAXW * 64 bits (20 x 20 needs 440) run here, larger ones in Python.
 * Every function is a transcription of its Python original, in the same order,
 * so both engines count the same nodes and return the same witness.
 */
#include "core.h"

#include <string.h>

#define MAXW 8
#define END_NODE(g) ((g)->bits) /* hint_degrees' virtual END square */
#define MEMO_BYTES ((size_t)64 << 20) /* failed states kept at most; more are forgotten */

enum { H_DONE = 0, H_TIMEOUT = -2, H_CAP = -3, H_NOMEM = -4 };

typedef struct {
    int rows, cols, width, bits, W;
    uint64_t *nbm; /* bits * W */
    uint8_t *colour;
    int off[4];
} Grid;

typedef struct {
    uint64_t w[MAXW];
} Set;

/* -- word-parallel sets ----------------------------------------------------------------- */

static inline int set_any(const Set *a, int W)
{
    uint64_t acc = 0;
    for (int i = 0; i < W; i++)
        acc |= a->w[i];
    return acc != 0;
}

static inline int set_count(const Set *a, int W)
{
    int n = 0;
    for (int i = 0; i < W; i++)
        n += __builtin_popcountll(a->w[i]);
    return n;
}

static inline int set_has(const Set *a, int p) { return (int)(a->w[p >> 6] >> (p & 63) & 1); }
static inline void set_add(Set *a, int p) { a->w[p >> 6] |= (uint64_t)1 << (p & 63); }
static inline void set_del(Set *a, int p) { a->w[p >> 6] &= ~((uint64_t)1 << (p & 63)); }

/* More than one member (Python: m & (m - 1) != 0). */
static inline int set_many(const Set *a, int W)
{
    int seen = 0;
    for (int i = 0; i < W; i++) {
        uint64_t x = a->w[i];
        if (!x)
            continue;
        if (seen || (x & (x - 1)))
            return 1;
        seen = 1;
    }
    return 0;
}

static inline int set_low(const Set *a, int W)
{
    for (int i = 0; i < W; i++)
        if (a->w[i])
            return i * 64 + __builtin_ctzll(a->w[i]);
    return -1;
}

static inline int set_high(const Set *a, int W)
{
    for (int i = W - 1; i >= 0; i--)
        if (a->w[i])
            return i * 64 + 63 - __builtin_clzll(a->w[i]);
    return -1;
}

static inline int set_eq(const Set *a, const Set *b, int W)
{
    for (int i = 0; i < W; i++)
        if (a->w[i] != b->w[i])
            return 0;
    return 1;
}

static inline const Set *nbm_of(const Grid *g, int p) { return (const Set *)(g->nbm + (size_t)p * g->W); }

/* OR of src shifted left (k > 0) or right (k < 0) into dst. */
static inline void or_shifted(Set *dst, const Set *src, int k, int W)
{
    if (k > 0) {
        int q = k >> 6, r = k & 63;
        for (int i = W - 1; i >= q; i--) {
            uint64_t v = src->w[i - q] << r;
            if (r && i - q - 1 >= 0)
                v |= src->w[i - q - 1] >> (64 - r);
            dst->w[i] |= v;
        }
    } else {
        k = -k;
        int q = k >> 6, r = k & 63;
        for (int i = 0; i + q < W; i++) {
            uint64_t v = src->w[i + q] >> r;
            if (r && i + q + 1 < W)
                v |= src->w[i + q + 1] << (64 - r);
            dst->w[i] |= v;
        }
    }
}

/* _Grid.spread: every square one knight move from some square of m (unmasked). */
static inline void spread(const Grid *g, const Set *m, Set *out)
{
    const int W = g->W;
    memset(out, 0, sizeof(uint64_t) * W);
    for (int j = 0; j < 4; j++) {
        or_shifted(out, m, g->off[j], W);
        or_shifted(out, m, -g->off[j], W);
    }
}

/* _Grid.counts: the squares with at least 1, 2, 3 and 4 neighbours in m. */
static void counts(const Grid *g, const Set *m, Set *o, Set *t, Set *h, Set *f)
{
    const int W = g->W;
    memset(o, 0, sizeof(uint64_t) * W);
    memset(t, 0, sizeof(uint64_t) * W);
    memset(h, 0, sizeof(uint64_t) * W);
    memset(f, 0, sizeof(uint64_t) * W);
    for (int j = 0; j < 8; j++) {
        Set s;
        memset(&s, 0, sizeof(uint64_t) * W);
        or_shifted(&s, m, (j & 1) ? -g->off[j >> 1] : g->off[j >> 1], W);
        for (int i = 0; i < W; i++) {
            uint64_t x = s.w[i];
            f->w[i] |= h->w[i] & x;
            h->w[i] |= t->w[i] & x;
            t->w[i] |= o->w[i] & x;
            o->w[i] |= x;
        }
    }
}

/* -- the memo of failed (unvisited set, square) states ------------------------------- */

typedef struct {
    uint64_t *slots; /* (W + 1) words each; the last holds square + 1, 0 when empty */
    size_t cap, used, limit;
    int W;
} Memo;

static uint64_t memo_hash(const Set *s, int p, int W)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL * (uint64_t)(p + 1);
    for (int i = 0; i < W; i++) {
        h ^= s->w[i] + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        h *= 0xff51afd7ed558ccdULL;
    }
    return h ^ (h >> 33);
}

static int memo_init(Memo *m, int W)
{
    m->W = W;
    m->cap = 1024;
    m->used = 0;
    m->limit = MEMO_BYTES / ((size_t)(W + 1) * 8) / 2;
    m->slots = calloc(m->cap * (size_t)(W + 1), sizeof(uint64_t));
    return m->slots ? 0 : -1;
}

static int memo_has(const Memo *m, const Set *s, int p)
{
    const int W = m->W;
    size_t mask = m->cap - 1;
    for (size_t i = memo_hash(s, p, W) & mask;; i = (i + 1) & mask) {
        const uint64_t *e = m->slots + i * (size_t)(W + 1);
        if (!e[W])
            return 0;
        if (e[W] == (uint64_t)(p + 1) && !memcmp(e, s->w, sizeof(uint64_t) * W))
            return 1;
    }
}

static void memo_put(Memo *m, const Set *s, int p);

static void memo_grow(Memo *m)
{
    const int W = m->W;
    size_t cap = m->cap * 2;
    uint64_t *slots = calloc(cap * (size_t)(W + 1), sizeof(uint64_t));
    if (!slots)
        return; /* keep the old table: a memo is only a shortcut */
    uint64_t *old = m->slots;
    size_t old_cap = m->cap;
    m->slots = slots;
    m->cap = cap;
    m->used = 0;
    for (size_t i = 0; i < old_cap; i++) {
        const uint64_t *e = old + i * (size_t)(W + 1);
        if (e[W])
            memo_put(m, (const Set *)e, (int)e[W] - 1);
    }
    free(old);
}

static void memo_put(Memo *m, const Set *s, int p)
{
    const int W = m->W;
    if ((m->used + 1) * 2 > m->cap) {
        if (m->cap >= m->limit)
            return; /* full: forget new failures rather than grow without bound */
        memo_grow(m);
        if ((m->used + 1) * 2 > m->cap)
            return;
    }
    size_t mask = m->cap - 1;
    for (size_t i = memo_hash(s, p, W) & mask;; i = (i + 1) & mask) {
        uint64_t *e = m->slots + i * (size_t)(W + 1);
        if (!e[W]) {
            memcpy(e, s->w, sizeof(uint64_t) * W);
            e[W] = (uint64_t)(p + 1);
            m->used++;
            return;
        }
        if (e[W] == (uint64_t)(p + 1) && !memcmp(e, s->w, sizeof(uint64_t) * W))
            return;
    }
}

/* -- hint_degrees.degrees_feasible: a bipartite degree-constrained subgraph ---------- */

typedef struct {
    int n;       /* nodes: grid bits, then END */
    int8_t *need, *left, *isa;
    int32_t *start_e, *ecount; /* per A node: its edges (first, count) */
    int32_t *ea, *eb;          /* edge ends */
    uint8_t *flow;
    int32_t *bstart, *bcount, *bedges; /* per B node: edges into it */
    int32_t *queue, *pa, *pb;          /* BFS: queue of A nodes, parent edges */
    uint8_t *seena, *seenb;
    int32_t *anodes;
    int maxe;
} Flow;

static int flow_init(Flow *fl, const Grid *g)
{
    int n = g->bits + 1;
    fl->n = n;
    fl->maxe = 8 * n + n; /* knight edges plus END's */
    fl->need = calloc((size_t)n, 1);
    fl->left = calloc((size_t)n, 1);
    fl->isa = calloc((size_t)n, 1);
    fl->start_e = calloc((size_t)n, sizeof(int32_t));
    fl->ecount = calloc((size_t)n, sizeof(int32_t));
    fl->bstart = calloc((size_t)n, sizeof(int32_t));
    fl->bcount = calloc((size_t)n, sizeof(int32_t));
    fl->ea = calloc((size_t)fl->maxe, sizeof(int32_t));
    fl->eb = calloc((size_t)fl->maxe, sizeof(int32_t));
    fl->flow = calloc((size_t)fl->maxe, 1);
    fl->bedges = calloc((size_t)fl->maxe, sizeof(int32_t));
    fl->queue = calloc((size_t)n, sizeof(int32_t));
    fl->pa = calloc((size_t)n, sizeof(int32_t));
    fl->pb = calloc((size_t)n, sizeof(int32_t));
    fl->seena = calloc((size_t)n, 1);
    fl->seenb = calloc((size_t)n, 1);
    fl->anodes = calloc((size_t)n, sizeof(int32_t));
    return (fl->need && fl->left && fl->isa && fl->start_e && fl->ecount && fl->bstart &&
            fl->bcount && fl->ea && fl->eb && fl->flow && fl->bedges && fl->queue && fl->pa &&
            fl->pb && fl->seena && fl->seenb && fl->anodes)
               ? 0
               : -1;
}

static void flow_free(Flow *fl)
{
    free(fl->need);
    free(fl->left);
    free(fl->isa);
    free(fl->start_e);
    free(fl->ecount);
    free(fl->bstart);
    free(fl->bcount);
    free(fl->ea);
    free(fl->eb);
    free(fl->flow);
    free(fl->bedges);
    free(fl->queue);
    free(fl->pa);
    free(fl->pb);
    free(fl->seena);
    free(fl->seenb);
    free(fl->anodes);
}

/* False when no choice of edges gives every square the degree a tour needs. */
static int degrees_feasible(const Grid *g, Flow *fl, const Set *unvisited, int cur, int start,
                            int closed)
{
    const int W = g->W;
    if (!set_any(unvisited, W))
        return 1;
    const int END = END_NODE(g);
    Set nodes = *unvisited;
    set_add(&nodes, cur);
    int with_start = closed && start != cur;
    if (with_start)
        set_add(&nodes, start);
    int end_colour = 0, has_end = 0;
    if (!closed) {
        int k = set_count(unvisited, W);
        end_colour = k % 2 == 0 ? g->colour[cur] : 1 - g->colour[cur];
        has_end = 1;
    }
    int side_a = g->colour[cur];
    /* need */
    int total_a = 0, total_b = 0, na = 0;
    for (int i = 0; i < W; i++) {
        for (uint64_t x = nodes.w[i]; x; x &= x - 1) {
            int p = i * 64 + __builtin_ctzll(x);
            int need = 2;
            if (p == cur)
                need = (closed && !with_start) ? 2 : 1;
            else if (with_start && p == start)
                need = 1;
            fl->need[p] = (int8_t)need;
            fl->left[p] = (int8_t)need;
            fl->isa[p] = g->colour[p] == side_a;
            if (fl->isa[p]) {
                total_a += need;
                fl->anodes[na++] = p;
            } else {
                total_b += need;
            }
            fl->bcount[p] = 0;
        }
    }
    if (has_end) {
        fl->need[END] = fl->left[END] = 1;
        fl->isa[END] = end_colour != side_a;
        fl->bcount[END] = 0;
        if (fl->isa[END]) {
            total_a += 1;
            fl->anodes[na++] = END;
        } else {
            total_b += 1;
        }
    }
    if (total_a != total_b)
        return 0;
    /* edges from the A side, in the order hint_degrees lists them */
    int ne = 0;
    for (int j = 0; j < na; j++) {
        int a = fl->anodes[j];
        fl->start_e[a] = ne;
        if (a == END) {
            for (int i = 0; i < W; i++)
                for (uint64_t x = unvisited->w[i]; x; x &= x - 1) {
                    int p = i * 64 + __builtin_ctzll(x);
                    if (g->colour[p] == end_colour) {
                        fl->ea[ne] = a;
                        fl->eb[ne++] = p;
                    }
                }
        } else {
            Set m;
            const Set *nb = nbm_of(g, a);
            for (int i = 0; i < W; i++)
                m.w[i] = nb->w[i] & nodes.w[i];
            if (with_start && a == cur)
                set_del(&m, start);
            else if (with_start && a == start)
                set_del(&m, cur);
            for (int i = 0; i < W; i++)
                for (uint64_t x = m.w[i]; x; x &= x - 1) {
                    fl->ea[ne] = a;
                    fl->eb[ne++] = i * 64 + __builtin_ctzll(x);
                }
            if (has_end && a != cur && g->colour[a] == end_colour && set_has(unvisited, a)) {
                fl->ea[ne] = a;
                fl->eb[ne++] = END;
            }
        }
        fl->ecount[a] = ne - fl->start_e[a];
    }
    /* per B node: the edges into it (counted, then placed) */
    for (int e = 0; e < ne; e++) {
        fl->flow[e] = 0;
        fl->bcount[fl->eb[e]]++;
        fl->seenb[fl->eb[e]] = 0; /* a BFS of an earlier call may have left it set */
    }
    int acc = 0;
    for (int e = 0; e < ne; e++) {
        int b = fl->eb[e];
        if (fl->bcount[b] > 0 && !fl->seenb[b]) {
            fl->seenb[b] = 1; /* borrowed as "block reserved" */
            fl->bstart[b] = acc;
            acc += fl->bcount[b];
            fl->pb[b] = 0; /* borrowed as the fill cursor */
        }
    }
    for (int e = 0; e < ne; e++) {
        int b = fl->eb[e];
        fl->bedges[fl->bstart[b] + fl->pb[b]++] = e;
        fl->seenb[b] = 0;
    }
    /* greedy start */
    int missing = 0;
    for (int j = 0; j < na; j++) {
        int a = fl->anodes[j];
        for (int k = 0; k < fl->ecount[a] && fl->left[a]; k++) {
            int e = fl->start_e[a] + k, b = fl->eb[e];
            if (fl->left[b]) {
                fl->flow[e] = 1;
                fl->left[a]--;
                fl->left[b]--;
            }
        }
        missing += fl->left[a];
    }
    while (missing) {
        /* one breadth-first search from every A node that still needs an edge */
        int head = 0, tail = 0, found = -1;
        for (int j = 0; j < na; j++)
            fl->seena[fl->anodes[j]] = 0;
        for (int e = 0; e < ne; e++)
            fl->seenb[fl->eb[e]] = 0;
        for (int j = 0; j < na; j++) {
            int a = fl->anodes[j];
            if (fl->left[a]) {
                fl->seena[a] = 1;
                fl->pa[a] = -1;
                fl->queue[tail++] = a;
            }
        }
        while (head < tail && found < 0) {
            int x = fl->queue[head++];
            for (int k = 0; k < fl->ecount[x]; k++) {
                int e = fl->start_e[x] + k, y = fl->eb[e];
                if (fl->seenb[y] || fl->flow[e])
                    continue;
                fl->seenb[y] = 1;
                fl->pb[y] = e;
                if (fl->left[y]) {
                    found = y;
                    break;
                }
                for (int q = 0; q < fl->bcount[y]; q++) {
                    int e2 = fl->bedges[fl->bstart[y] + q];
                    int x2 = fl->ea[e2];
                    if (fl->flow[e2] && !fl->seena[x2]) {
                        fl->seena[x2] = 1;
                        fl->pa[x2] = e2;
                        fl->queue[tail++] = x2;
                    }
                }
            }
        }
        if (found < 0)
            return 0;
        int y = found;
        fl->left[y]--;
        for (;;) {
            int e = fl->pb[y], x = fl->ea[e];
            fl->flow[e] = 1;
            int e2 = fl->pa[x];
            if (e2 < 0) {
                fl->left[x]--;
                break;
            }
            fl->flow[e2] = 0;
            y = fl->eb[e2];
        }
        missing--;
    }
    return 1;
}

/* -- hint_forced: forced-move propagation ----------------------------------------------- */

typedef struct {
    Set *adj, *forced; /* per grid bit */
    int8_t *need;
    int32_t *order;
    int32_t *loop; /* the squares of a forced loop, when one is found */
    int nloop;
    int clash; /* the square of a "forced" contradiction */
} Forced;

enum { F_NONE = 0, F_FORCED, F_LOOP };

static int forced_init(Forced *fc, const Grid *g)
{
    fc->adj = calloc((size_t)g->bits, sizeof(Set));
    fc->forced = calloc((size_t)g->bits, sizeof(Set));
    fc->need = calloc((size_t)g->bits, 1);
    fc->order = calloc((size_t)g->bits, sizeof(int32_t));
    fc->loop = calloc((size_t)g->bits, sizeof(int32_t));
    return (fc->adj && fc->forced && fc->need && fc->order && fc->loop) ? 0 : -1;
}

static void forced_free(Forced *fc)
{
    free(fc->adj);
    free(fc->forced);
    free(fc->need);
    free(fc->order);
    free(fc->loop);
}

/* open_end: the square an open tour must end on, if exactly one is forced; -1 if none. */
static int open_end(const Grid *g, const Set *unvisited, int cur)
{
    const int W = g->W;
    Set avail = *unvisited;
    set_add(&avail, cur);
    int found = -1, n = 0;
    for (int i = 0; i < W; i++)
        for (uint64_t x = unvisited->w[i]; x; x &= x - 1) {
            int p = i * 64 + __builtin_ctzll(x);
            const Set *nb = nbm_of(g, p);
            int c = 0;
            for (int j = 0; j < W && c <= 1; j++)
                c += __builtin_popcountll(nb->w[j] & avail.w[j]);
            if (c <= 1) {
                if (!n)
                    found = p;
                n++;
            }
        }
    return n == 1 ? found : -1;
}

static int forced_contradiction(const Grid *g, Forced *fc, const Set *unvisited, int cur, int end,
                                int closed)
{
    const int W = g->W;
    Set nodes = *unvisited;
    set_add(&nodes, cur);
    if (closed)
        set_add(&nodes, end);
    int total = 0;
    for (int i = 0; i < W; i++)
        for (uint64_t x = nodes.w[i]; x; x &= x - 1)
            fc->order[total++] = i * 64 + __builtin_ctzll(x);
    for (int j = 0; j < total; j++) {
        int p = fc->order[j];
        fc->need[p] = 2;
        const Set *nb = nbm_of(g, p);
        for (int i = 0; i < W; i++) {
            fc->adj[p].w[i] = nb->w[i] & nodes.w[i];
            fc->forced[p].w[i] = 0;
        }
    }
    fc->need[cur] = 1;
    fc->need[end] = 1;
    if (closed && set_any(unvisited, W)) {
        set_del(&fc->adj[cur], end);
        set_del(&fc->adj[end], cur);
    }
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int j = 0; j < total; j++) {
            int v = fc->order[j];
            Set *a = &fc->adj[v];
            int n = fc->need[v];
            int count = set_count(a, W);
            if (count < n) {
                fc->clash = v;
                return F_FORCED;
            }
            Set *fv = &fc->forced[v];
            if (count == n && !set_eq(a, fv, W)) {
                for (int i = 0; i < W; i++)
                    for (uint64_t x = a->w[i] & ~fv->w[i]; x; x &= x - 1)
                        set_add(&fc->forced[i * 64 + __builtin_ctzll(x)], v);
                *fv = *a;
                changed = 1;
            }
            int k = set_count(fv, W);
            if (k > n) {
                fc->clash = v;
                return F_FORCED;
            }
            if (k == n && !set_eq(a, fv, W)) {
                for (int i = 0; i < W; i++)
                    for (uint64_t x = a->w[i] & ~fv->w[i]; x; x &= x - 1)
                        set_del(&fc->adj[i * 64 + __builtin_ctzll(x)], v);
                *a = *fv;
                changed = 1;
            }
        }
        /* a square forced earlier in the pass may have gained more forced edges since it
         * was checked; the chains below are paths only without those */
        for (int j = 0; j < total; j++) {
            int v = fc->order[j];
            if (set_count(&fc->forced[v], W) > fc->need[v]) {
                fc->clash = v;
                return F_FORCED;
            }
        }
        /* follow every chain of forced edges from one of its ends */
        Set seen;
        memset(&seen, 0, sizeof seen);
        for (int j = 0; j < total; j++) {
            int v = fc->order[j];
            if (set_has(&seen, v) || set_count(&fc->forced[v], W) != 1)
                continue;
            int chain = 1, prev = -1, x = v;
            set_add(&seen, v);
            for (;;) {
                Set stepset = fc->forced[x];
                if (prev >= 0)
                    set_del(&stepset, prev);
                if (!set_any(&stepset, W))
                    break;
                prev = x;
                x = set_high(&stepset, W);
                set_add(&seen, x);
                chain++;
            }
            if (chain == total)
                continue;
            if (fc->need[v] == 1 && fc->need[x] == 1) {
                fc->clash = v;
                return F_FORCED; /* the tour's two ends joined with squares left over */
            }
            if (set_has(&fc->adj[v], x) && !set_has(&fc->forced[v], x)) {
                set_del(&fc->adj[v], x); /* closing the chain would make a loop */
                set_del(&fc->adj[x], v);
                changed = 1;
            }
        }
        int first = -1;
        for (int j = 0; j < total && first < 0; j++) {
            int v = fc->order[j];
            if (set_any(&fc->forced[v], W) && !set_has(&seen, v))
                first = v;
        }
        if (first >= 0) {
            fc->nloop = 0;
            fc->loop[fc->nloop++] = first;
            int prev = -1, x = first;
            for (;;) {
                Set stepset = fc->forced[x];
                if (prev >= 0)
                    set_del(&stepset, prev);
                int nxt = set_low(&stepset, W);
                if (nxt == first || nxt < 0 || fc->nloop >= total)
                    break;
                prev = x;
                x = nxt;
                fc->loop[fc->nloop++] = x;
            }
            return F_LOOP;
        }
    }
    return F_NONE;
}

/* -- hints.py's _Search ---------------------------------------------------------------------- */

typedef struct {
    const Grid *g;
    int start, closed;
    double deadline;
    int64_t nodes, cap, flow_after, forced_after;
    const int32_t *rank;
    Memo failed;
    Flow flow;
    Forced forced;
} HSearch;

typedef struct {
    Set unvisited;
    int cur;
    int n, pos;
    int32_t moves[8];
} HFrame;

/* _Search.children: the moves from cur that survive every local check, best first.
 * Returns how many (written to out), or H_TIMEOUT / H_CAP. */
static int children(HSearch *hs, const Set *unvisited, int cur, int32_t *out)
{
    const Grid *g = hs->g;
    const int W = g->W;
    hs->nodes++;
    if (!(hs->nodes & 63)) {
        if (kt_now() > hs->deadline)
            return H_TIMEOUT;
        if (hs->nodes > hs->cap)
            return H_CAP;
    }
    Set cand, ge1, ge2, ge3, ge4, two, ones, end;
    const Set *nc = nbm_of(g, cur);
    for (int i = 0; i < W; i++)
        cand.w[i] = nc->w[i] & unvisited->w[i];
    if (!set_any(&cand, W))
        return 0;
    memset(&end, 0, sizeof end);
    memset(&ones, 0, sizeof ones);
    if (hs->closed) {
        Set with = *unvisited;
        set_add(&with, hs->start);
        counts(g, &with, &ge1, &ge2, &ge3, &ge4);
        Set weak;
        for (int i = 0; i < W; i++)
            weak.w[i] = unvisited->w[i] & ~ge2.w[i];
        if (set_any(&weak, W)) {
            if (set_many(&weak, W))
                return 0;
            for (int i = 0; i < W; i++)
                cand.w[i] &= weak.w[i];
        }
        Set home;
        const Set *ns = nbm_of(g, hs->start);
        for (int i = 0; i < W; i++)
            home.w[i] = ns->w[i] & unvisited->w[i];
        if (!set_any(&home, W))
            return 0; /* no way back to the start */
        if (set_eq(&home, unvisited, W)) {
            /* the last square: anything adjacent to the start */
        } else if (!set_many(&home, W)) {
            for (int i = 0; i < W; i++)
                cand.w[i] &= ~home.w[i]; /* keep the start's last unvisited neighbour for the end */
        }
        if (!set_many(unvisited, W))
            for (int i = 0; i < W; i++)
                cand.w[i] &= home.w[i];
        for (int i = 0; i < W; i++)
            two.w[i] = unvisited->w[i] & ge2.w[i] & ~ge3.w[i];
        set_add(&end, hs->start);
    } else {
        counts(g, unvisited, &ge1, &ge2, &ge3, &ge4);
        Set lonely;
        for (int i = 0; i < W; i++)
            lonely.w[i] = unvisited->w[i] & ~ge1.w[i];
        if (set_any(&lonely, W) && set_many(unvisited, W))
            return 0; /* an unvisited square nobody can reach */
        for (int i = 0; i < W; i++)
            ones.w[i] = unvisited->w[i] & ~ge2.w[i];
        if (set_many(&ones, W)) {
            Set rest = ones;
            set_del(&rest, set_low(&ones, W));
            if (set_many(&rest, W))
                return 0; /* three squares with one way in */
            for (int i = 0; i < W; i++)
                cand.w[i] &= ones.w[i]; /* two: we enter one now, the other is the end */
        }
        for (int i = 0; i < W; i++)
            two.w[i] = unvisited->w[i] & ge2.w[i] & ~ge3.w[i];
    }
    if (!set_any(&cand, W))
        return 0;
    int64_t keys[8];
    int k = 0;
    for (int i = 0; i < W; i++) {
        for (uint64_t x = cand.w[i]; x; x &= x - 1) {
            int n = i * 64 + __builtin_ctzll(x);
            Set rest = *unvisited;
            set_del(&rest, n);
            if (!set_any(&rest, W)) {
                keys[k] = 0;
                out[k++] = n;
                continue;
            }
            Set forced = two;
            set_del(&forced, n);
            Set f1, f2, f3, f4;
            int cut = 0;
            if (hs->closed) {
                if (set_any(&forced, W)) {
                    counts(g, &forced, &f1, &f2, &f3, &f4);
                    for (int j = 0; j < W && !cut; j++) {
                        uint64_t nb_end = end.w[j] | (j == n >> 6 ? (uint64_t)1 << (n & 63) : 0);
                        cut = (f3.w[j] & rest.w[j]) || (f2.w[j] & nb_end);
                    }
                }
            } else {
                Set known = ones;
                set_del(&known, n);
                if (set_any(&known, W)) {
                    for (int j = 0; j < W; j++)
                        forced.w[j] |= known.w[j];
                    counts(g, &forced, &f1, &f2, &f3, &f4);
                    for (int j = 0; j < W && !cut; j++) {
                        uint64_t nb_known =
                            known.w[j] | (j == n >> 6 ? (uint64_t)1 << (n & 63) : 0);
                        cut = (f3.w[j] & rest.w[j]) || (f2.w[j] & nb_known);
                    }
                } else if (set_any(&forced, W)) {
                    counts(g, &forced, &f1, &f2, &f3, &f4);
                    for (int j = 0; j < W && !cut; j++)
                        cut = (f4.w[j] & rest.w[j]) != 0;
                    cut = cut || set_has(&f3, n);
                }
            }
            if (cut)
                continue;
            const Set *nn = nbm_of(g, n);
            int deg = 0;
            for (int j = 0; j < W; j++)
                deg += __builtin_popcountll(nn->w[j] & rest.w[j]);
            keys[k] = (int64_t)deg * 4096 + hs->rank[n];
            out[k++] = n;
        }
    }
    for (int i = 1; i < k; i++) { /* sort by (key, square), as sorted() on the pairs */
        int64_t key = keys[i];
        int32_t sq = out[i];
        int j = i - 1;
        while (j >= 0 && (keys[j] > key || (keys[j] == key && out[j] > sq))) {
            keys[j + 1] = keys[j];
            out[j + 1] = out[j];
            j--;
        }
        keys[j + 1] = key;
        out[j + 1] = sq;
    }
    return k;
}

/* _Search.connected_without: is rest (a connected set minus n) still one piece? */
static int connected_without(const Grid *g, const Set *rest, int n)
{
    const int W = g->W;
    Set seeds;
    const Set *nb = nbm_of(g, n);
    for (int i = 0; i < W; i++)
        seeds.w[i] = nb->w[i] & rest->w[i];
    if (!set_many(&seeds, W))
        return set_any(&seeds, W);
    Set seen, frontier, grown;
    memset(&seen, 0, sizeof seen);
    set_add(&seen, set_low(&seeds, W));
    frontier = seen;
    while (set_any(&frontier, W)) {
        spread(g, &frontier, &grown);
        for (int i = 0; i < W; i++) {
            frontier.w[i] = grown.w[i] & rest->w[i] & ~seen.w[i];
            seen.w[i] |= frontier.w[i];
        }
        int covered = 1;
        for (int i = 0; i < W && covered; i++)
            covered = !(seeds.w[i] & ~seen.w[i]);
        if (covered)
            return 1;
    }
    return 0;
}

/* _Search.forced_dead: forced-move propagation proves the state dead (the end known). */
static int forced_dead(HSearch *hs, const Set *unvisited, int cur)
{
    int end = hs->closed ? hs->start : open_end(hs->g, unvisited, cur);
    return end >= 0 && end != cur &&
           forced_contradiction(hs->g, &hs->forced, unvisited, cur, end, hs->closed) != F_NONE;
}

/* _Search.dead: the degree test, then forced-move propagation. */
static int state_dead(HSearch *hs, const HFrame *f)
{
    if (!degrees_feasible(hs->g, &hs->flow, &f->unvisited, f->cur, hs->start, hs->closed))
        return 1;
    return forced_dead(hs, &f->unvisited, f->cur);
}

/* _Search.backjump: how many of the len frames to keep after backing out of a square. */
static int backjump(HSearch *hs, const HFrame *stack, int len)
{
    int top = len - 1;
    if (top < 1 || !state_dead(hs, &stack[top]))
        return len;
    int lo = 1, hi = top, step = 1; /* stack[hi] is dead; the first dead frame is >= lo */
    while (hi - step >= 1) {
        int j = hi - step;
        if (!state_dead(hs, &stack[j])) {
            lo = j + 1;
            break;
        }
        hi = j;
        step *= 2;
    }
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (state_dead(hs, &stack[mid]))
            hi = mid;
        else
            lo = mid + 1;
    }
    return hi;
}

/* _Search.run: the bits completing the path into *path (returns its length), -1 when
 * provably none exists, or H_TIMEOUT / H_CAP / H_NOMEM. */
static int run(HSearch *hs, HFrame *stack, const Set *free0, int cur0, int32_t *path)
{
    const Grid *g = hs->g;
    const int W = g->W;
    HFrame *top = &stack[0];
    top->unvisited = *free0;
    top->cur = cur0;
    top->pos = 0;
    top->n = children(hs, free0, cur0, top->moves);
    if (top->n < 0)
        return top->n;
    if (!top->n)
        return -1;
    int depth = 0, plen = 0;
    while (depth >= 0) {
        top = &stack[depth];
        int moved = 0;
        while (top->pos < top->n) {
            int n = top->moves[top->pos++];
            Set rest = top->unvisited;
            set_del(&rest, n);
            if (!set_any(&rest, W)) {
                path[plen++] = n;
                return plen;
            }
            if (memo_has(&hs->failed, &rest, n) || !connected_without(g, &rest, n))
                continue;
            if (hs->nodes > hs->flow_after &&
                !degrees_feasible(g, &hs->flow, &rest, n, hs->start, hs->closed)) {
                memo_put(&hs->failed, &rest, n);
                continue;
            }
            if (hs->nodes > hs->forced_after && forced_dead(hs, &rest, n)) {
                memo_put(&hs->failed, &rest, n);
                continue;
            }
            HFrame *next = &stack[depth + 1];
            int k = children(hs, &rest, n, next->moves);
            if (k < 0)
                return k;
            if (!k) {
                memo_put(&hs->failed, &rest, n);
                continue;
            }
            path[plen++] = n;
            next->unvisited = rest;
            next->cur = n;
            next->n = k;
            next->pos = 0;
            depth++;
            moved = 1;
            break;
        }
        if (!moved) {
            memo_put(&hs->failed, &top->unvisited, top->cur);
            depth--;
            if (plen)
                plen--;
            for (int keep = backjump(hs, stack, depth + 1); depth + 1 > keep; depth--, plen--)
                memo_put(&hs->failed, &stack[depth].unvisited, stack[depth].cur);
        }
    }
    return -1;
}

/* -- Python bindings ------------------------------------------------------------------------ */

static void grid_free(PyObject *capsule)
{
    Grid *g = PyCapsule_GetPointer(capsule, "kt.hint_grid");
    if (g) {
        free(g->nbm);
        free(g->colour);
        free(g);
    }
}

/* hint_grid(rows, cols, nbm bytes, colour bytes) -> a capsule; None when too wide. */
PyObject *kt_hint_grid(PyObject *self, PyObject *args)
{
    (void)self;
    int rows, cols;
    Py_buffer nbm, colour;
    if (!PyArg_ParseTuple(args, "iiy*y*:hint_grid", &rows, &cols, &nbm, &colour))
        return NULL;
    int width = cols + 2, bits = rows * width, W = (bits + 63) / 64;
    PyObject *out = NULL;
    if (rows < 1 || cols < 1 || W > MAXW) {
        out = Py_NewRef(Py_None);
        goto done;
    }
    if (nbm.len != (Py_ssize_t)bits * W * 8 || colour.len != bits) {
        PyErr_SetString(PyExc_ValueError, "hint grid tables of the wrong size");
        goto done;
    }
    Grid *g = calloc(1, sizeof(Grid));
    if (!g) {
        PyErr_NoMemory();
        goto done;
    }
    g->rows = rows;
    g->cols = cols;
    g->width = width;
    g->bits = bits;
    g->W = W;
    g->off[0] = 2 * width + 1;
    g->off[1] = 2 * width - 1;
    g->off[2] = width + 2;
    g->off[3] = width - 2;
    g->nbm = malloc((size_t)nbm.len);
    g->colour = malloc((size_t)bits);
    if (!g->nbm || !g->colour) {
        free(g->nbm);
        free(g->colour);
        free(g);
        PyErr_NoMemory();
        goto done;
    }
    memcpy(g->nbm, nbm.buf, (size_t)nbm.len); /* little-endian words, as int.to_bytes wrote */
    memcpy(g->colour, colour.buf, (size_t)bits);
    out = PyCapsule_New(g, "kt.hint_grid", grid_free);
    if (!out) {
        free(g->nbm);
        free(g->colour);
        free(g);
    }
done:
    PyBuffer_Release(&nbm);
    PyBuffer_Release(&colour);
    return out;
}

static int read_set(const Grid *g, Py_buffer *buf, Set *s)
{
    if (buf->len != (Py_ssize_t)g->W * 8) {
        PyErr_SetString(PyExc_ValueError, "a square set of the wrong size");
        return -1;
    }
    memset(s, 0, sizeof *s);
    memcpy(s->w, buf->buf, (size_t)buf->len);
    return 0;
}

static int check_square(const Grid *g, int p)
{
    if (p < 0 || p >= g->bits) {
        PyErr_SetString(PyExc_ValueError, "square off the hint grid");
        return -1;
    }
    return 0;
}

/* hint_complete(grid, unvisited, cur, start, closed, seconds, flow_after, forced_after,
 *               restart_nodes, restarts, ranks) -> (status, bits or None, nodes)
 *
 * _Search.solve: status "found", "dead" or "timeout".  ``ranks``: restarts + 1
 * rank tables (int32, the base first) as hints.py's jitter makes them. */
PyObject *kt_hint_complete(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *cap;
    Py_buffer freebuf, ranks;
    int cur, start, closed, restarts;
    double seconds;
    long long flow0, forced0, restart_nodes;
    if (!PyArg_ParseTuple(args, "Oy*iipdLLLiy*:hint_complete", &cap, &freebuf, &cur, &start,
                          &closed, &seconds, &flow0, &forced0, &restart_nodes, &restarts, &ranks))
        return NULL;
    PyObject *result = NULL;
    Grid *g = PyCapsule_GetPointer(cap, "kt.hint_grid");
    HSearch hs;
    memset(&hs, 0, sizeof hs);
    HFrame *stack = NULL;
    int32_t *path = NULL;
    Set unvisited;
    if (!g || read_set(g, &freebuf, &unvisited) < 0 || check_square(g, cur) < 0 ||
        check_square(g, start) < 0)
        goto done;
    if (restarts < 0 || ranks.len != (Py_ssize_t)(restarts + 1) * g->bits * 4) {
        PyErr_SetString(PyExc_ValueError, "one rank table per restart, and the base");
        goto done;
    }
    int k = set_count(&unvisited, g->W);
    stack = malloc(sizeof(HFrame) * (size_t)(k + 2));
    path = malloc(sizeof(int32_t) * (size_t)(k + 2));
    if (!stack || !path || memo_init(&hs.failed, g->W) < 0 || flow_init(&hs.flow, g) < 0 ||
        forced_init(&hs.forced, g) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    hs.g = g;
    hs.start = start;
    hs.closed = closed;
    hs.deadline = kt_now() + seconds;
    int64_t slack = 2 * (int64_t)k; /* one descent without backtracking fits */
    hs.flow_after = flow0 ? flow0 + slack : 0;
    hs.forced_after = forced0 ? forced0 + slack : 0;
    const int32_t *rank_tables = ranks.buf;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    int64_t budget = restart_nodes + slack;
    rc = H_CAP;
    for (int r = 0; r < restarts && rc == H_CAP; r++) {
        hs.rank = rank_tables + (size_t)r * g->bits;
        hs.cap = hs.nodes + budget;
        rc = run(&hs, stack, &unvisited, cur, path);
        budget += budget / 4;
    }
    if (rc == H_CAP) {
        hs.rank = rank_tables + (size_t)restarts * g->bits;
        hs.cap = (int64_t)1 << 62;
        rc = run(&hs, stack, &unvisited, cur, path);
    }
    Py_END_ALLOW_THREADS
    if (rc == H_TIMEOUT) {
        result = Py_BuildValue("sOL", "timeout", Py_None, (long long)hs.nodes);
    } else if (rc < 0) {
        result = Py_BuildValue("sOL", "dead", Py_None, (long long)hs.nodes);
    } else {
        PyObject *list = PyList_New(rc);
        if (!list)
            goto done;
        for (int i = 0; i < rc; i++)
            PyList_SET_ITEM(list, i, PyLong_FromLong(path[i]));
        result = Py_BuildValue("sNL", "found", list, (long long)hs.nodes);
    }
done:
    free(stack);
    free(path);
    free(hs.failed.slots);
    if (g) {
        flow_free(&hs.flow);
        forced_free(&hs.forced);
    }
    PyBuffer_Release(&freebuf);
    PyBuffer_Release(&ranks);
    return result;
}

/* hint_degrees(grid, unvisited, cur, start, closed) -> bool: degrees_feasible */
PyObject *kt_hint_degrees(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *cap;
    Py_buffer freebuf;
    int cur, start, closed;
    if (!PyArg_ParseTuple(args, "Oy*iip:hint_degrees", &cap, &freebuf, &cur, &start, &closed))
        return NULL;
    PyObject *result = NULL;
    Grid *g = PyCapsule_GetPointer(cap, "kt.hint_grid");
    Set unvisited;
    Flow fl;
    memset(&fl, 0, sizeof fl);
    if (g && read_set(g, &freebuf, &unvisited) == 0 && check_square(g, cur) == 0 &&
        check_square(g, start) == 0) {
        if (flow_init(&fl, g) < 0)
            PyErr_NoMemory();
        else
            result = PyBool_FromLong(degrees_feasible(g, &fl, &unvisited, cur, start, closed));
        flow_free(&fl);
    }
    PyBuffer_Release(&freebuf);
    return result;
}

/* hint_forced(grid, unvisited, cur, end, closed) -> None | ("loop" | "forced", [bits]) */
PyObject *kt_hint_forced(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *cap;
    Py_buffer freebuf;
    int cur, end, closed;
    if (!PyArg_ParseTuple(args, "Oy*iip:hint_forced", &cap, &freebuf, &cur, &end, &closed))
        return NULL;
    PyObject *result = NULL;
    Grid *g = PyCapsule_GetPointer(cap, "kt.hint_grid");
    Set unvisited;
    Forced fc;
    memset(&fc, 0, sizeof fc);
    if (g && read_set(g, &freebuf, &unvisited) == 0 && check_square(g, cur) == 0 &&
        check_square(g, end) == 0) {
        if (forced_init(&fc, g) < 0) {
            PyErr_NoMemory();
        } else {
            int kind = forced_contradiction(g, &fc, &unvisited, cur, end, closed);
            if (kind == F_NONE) {
                result = Py_NewRef(Py_None);
            } else if (kind == F_FORCED) {
                result = Py_BuildValue("s[i]", "forced", fc.clash);
            } else {
                PyObject *list = PyList_New(fc.nloop);
                if (list) {
                    for (int i = 0; i < fc.nloop; i++)
                        PyList_SET_ITEM(list, i, PyLong_FromLong(fc.loop[i]));
                    result = Py_BuildValue("sN", "loop", list);
                }
            }
        }
        forced_free(&fc);
    }
    PyBuffer_Release(&freebuf);
    return result;
}

int kt_hints_ready(PyObject *module)
{
    return PyModule_AddIntConstant(module, "HINT_MAX_BITS", MAXW * 64);
}
