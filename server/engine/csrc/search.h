/* The search's state, shared by the algorithm (search.c) and its bindings
 * (search_bindings.c).
 *
 * search.c touches plain C data only: it never calls into Python, so its loops run
 * without the GIL.  What goes wrong there is left in Search.fault for the bindings
 * to raise.  The bindings parse the arguments, make the event objects and the
 * Python type, and call the entry points declared at the end of this file.
 */
#ifndef KT_SEARCH_H
#define KT_SEARCH_H

#include "core.h"

#define ALWAYS_INLINE inline __attribute__((always_inline))

/* Kinds from EV_FOUND on end the stream; EV_DECLARED is an article's false tour. */
enum { EV_ERROR = -1, EV_NONE = 0, EV_MOVE, EV_BACK, EV_FOUND, EV_EXHAUSTED, EV_BUDGET, EV_DECLARED };
enum { LIMIT_NONE = 0, LIMIT_NODES, LIMIT_TIME };
enum { PH_INIT = 0, PH_RUN, PH_DONE };
/* Why an entry point failed: the bindings raise it (MemoryError, or BoardError with
 * fault_sq and fault_cur in the message). */
enum { FAULT_NONE = 0, FAULT_MEMORY, FAULT_RESUME_PATH, FAULT_RESUME_AFTER };

/* search.py's _Limits: node budget and deadline, consulted only every few nodes. */
typedef struct {
    int64_t budget; /* < 0: none */
    int has_deadline;
    double deadline;
    int64_t every;
    int64_t check_at;
} Limits;

/* walker.py's DepthChart. */
typedef struct {
    int capacity;
    int32_t *mins, *maxs;
    long long span, length, fill, events; /* long long: PyArg's "L" reads them in place */
} Chart;

typedef struct {
    int32_t cur;
    int32_t shortv; /* the dead-end rule's short squares at this depth (open tours) */
    int32_t cands[8];
    uint8_t onward[8];
    uint8_t n, pos; /* candidates, and how many were taken */
    uint8_t stale;  /* set by search.c when the candidates change: the tuples are old */
    PyObject *cands_obj, *onward_obj; /* the bindings' event tuples, made on demand */
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
    /* An article's rule (article_orders.py's Rule; its move order is the table's):
     * ``by_degree`` sorts by the static degree (the Java articles), ``lands`` lets
     * the last move land on the start (the Python article), ``keeps_root`` never
     * leaves the root (the C article's traverse). */
    int by_degree, lands, keeps_root;
    int counted; /* moves carry onward counts: Warnsdorff or by_degree */
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
    int final_resumed; /* the final event's path is the resumed one (rpath) */
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
    int busy;
    int fault; /* FAULT_*: why the last entry point failed */
    int32_t fault_sq, fault_cur;
    int objs_hi; /* highest frame that may hold event tuples */
    int32_t *lpath, *pathpos; /* skip_plain: the path, and each square's place on it */
    uint8_t *lidx;            /* skip_plain: the next neighbour to try, per depth */
    int32_t *buf;
    Py_ssize_t buflen, bufcap;
} Search;

/* search_bindings.c's Search_new fills the flags, budget, time limit and tables, then: */
int kt_search_init(Search *s, int32_t *path, int n); /* s takes path; -1: no memory */
int kt_search_track(Search *s, int capacity);        /* the walker's arrays; -1: no memory */
void kt_search_free(Search *s);                      /* the C arrays (not the objects) */

/* _walk from its start to its main loop; EV_ERROR with s->fault set when it fails. */
int kt_search_begin(Search *s);
/* The next event (its kind; EV_NONE once the final event was taken, EV_ERROR). */
int kt_search_step(Search *s, Step *ev);
/* Up to n Move/Backtrack events, encoded into s->buf when ``encode``; the walker's
 * state kept when s->track.  Returns how many were taken; *final is the kind that
 * stopped it (EV_NONE when n were taken or the stream had ended, EV_ERROR). */
Py_ssize_t kt_search_take(Search *s, Py_ssize_t n, int encode, int counts, int *final,
                          int64_t *moves);

/* search.py's _seed_fast over path[0..base) (room for t->size squares): status
 * "found" (the tour in path), "exhausted" or "budget" (*limit LIMIT_NODES or
 * LIMIT_TIME).  Plain C: the caller may release the GIL around it. */
const char *kt_seed_solve(const Tables *t, int32_t *path, int base, int closed,
                          int64_t budget, double time_limit, int64_t *nodes,
                          int64_t *backtracks, int *limit);

#endif
