/* The Python side of search.c: the Search type, its event objects and solve_seed.
 *
 * Search(...) parses its arguments into search.c's state; __next__ makes one Move,
 * Backtrack or final event (the classes configure() was given) per step, caching the
 * candidate tuples per frame; encode_batch, walk and finish run many steps at once,
 * without the GIL for long runs, and hand back ints, counts and the final event.  A
 * failure search.c reports (Search.fault) is raised here.
 */
#include "search.h"

#include <string.h>

#define RELEASE_GIL_AFTER 4096 /* events: shorter calls keep the GIL */

/* -- event objects -------------------------------------------------------------------- */

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
    /* frames not built (yet): the search stands where it was resumed */
    const int resumed = (s->phase == PH_INIT && s->has_resume) || s->final_resumed;
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
    case EV_DECLARED:
        items[0] = path_tuple(s, s->final_resumed ? s->rlen : s->base + s->top + 1);
        items[1] = PyLong_FromLongLong(s->final_nodes);
        items[2] = PyLong_FromLongLong(s->final_backtracks);
        return named(kt_classes.declared, 3, items);
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
            if (f->stale) { /* search.c changed the candidates since the tuples were made */
                Py_CLEAR(f->cands_obj);
                Py_CLEAR(f->onward_obj);
                f->stale = 0;
            }
            if (!f->cands_obj)
                f->cands_obj = int_tuple(f->cands, f->n);
            items[2] = Py_XNewRef(f->cands_obj);
            if (!s->counted) {
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

/* Raise what search.c left in s->fault; -1. */
static int raise_pending(Search *s)
{
    int fault = s->fault;
    s->fault = FAULT_NONE;
    switch (fault) {
    case FAULT_MEMORY:
        PyErr_NoMemory();
        break;
    case FAULT_RESUME_PATH:
        PyErr_Format(kt_classes.board_error, "the resumed path does not follow the search at %d",
                     s->fault_sq);
        break;
    case FAULT_RESUME_AFTER:
        PyErr_Format(kt_classes.board_error, "the resumed square %d is not a candidate of %d",
                     s->fault_sq, s->fault_cur);
        break;
    default:
        break;
    }
    return -1;
}

/* Drop the cached event tuples before a long run of events, which would leave them
 * stale anyway: only the GIL's holder may free them. */
static void drop_event_tuples(Search *s)
{
    for (int i = 0; i <= s->objs_hi && i < s->nframes; i++) {
        Py_CLEAR(s->frames[i].cands_obj);
        Py_CLEAR(s->frames[i].onward_obj);
    }
    s->objs_hi = -1;
}

/* -- construction: Search(...) ----------------------------------------------------------- */

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
    PyObject *mins, *maxs;
    if (!PyArg_ParseTuple(frozen, "LLLLOO", &c->span, &c->length, &c->fill, &c->events, &mins,
                          &maxs))
        return -1;
    int32_t *vals = NULL;
    int n = 0;
    for (int which = 0; which < 2; which++) {
        if (read_squares(which ? maxs : mins, INT32_MAX, &vals, &n) < 0)
            return -1;
        if (n > capacity || c->length >= capacity || c->span < 1) {
            free(vals);
            PyErr_SetString(PyExc_ValueError, "the depth chart does not fit");
            return -1;
        }
        memcpy(which ? c->maxs : c->mins, vals, (size_t)n * sizeof(int32_t));
        free(vals);
    }
    return 0;
}

/* An article's rule, (sort, lands_on_start, keeps_root) with sort None, "onward" or
 * "static" (article_orders.py's Rule; its move order is the table's), into s. */
static int read_rule(Search *s, PyObject *rule)
{
    PyObject *sort;
    int lands, keeps_root;
    if (!PyArg_ParseTuple(rule, "Opp:rule", &sort, &lands, &keeps_root))
        return -1;
    if (sort != Py_None) {
        int is_str = PyUnicode_Check(sort);
        if (is_str && PyUnicode_CompareWithASCIIString(sort, "onward") == 0) {
            s->warnsdorff = 1;
        } else if (is_str && PyUnicode_CompareWithASCIIString(sort, "static") == 0) {
            s->by_degree = 1;
        } else {
            PyErr_Format(PyExc_ValueError, "unknown sort %R", sort);
            return -1;
        }
    }
    s->lands = lands;
    s->keeps_root = keeps_root;
    return 0;
}

/* Search(tables, path, closed, warnsdorff, dead_ends, parity, connectivity,
 *        node_budget, time_limit, resume, track[, rule])
 *
 * ``path``: the validated path (prefix, root last); ``node_budget`` < 0 and
 * ``time_limit`` < 0 mean none; ``resume``: None or (path, after, nodes, backtracks)
 * with after -1 for None; ``track``: None or the walker's state (index, nodes,
 * backtracks, max_depth, heat, chart, chart capacity); ``rule``: None or an
 * article's (sort, lands_on_start, keeps_root), ``tables`` then in its move order. */
static PyObject *Search_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    Tables *t;
    PyObject *path, *resume, *track, *rule = Py_None;
    int closed, warns, dead_ends, parity, connect;
    long long budget;
    double time_limit;
    if (!PyArg_ParseTuple(args, "O!OpppppLdOO|O:Search", &TablesType, &t, &path, &closed,
                          &warns, &dead_ends, &parity, &connect, &budget, &time_limit, &resume,
                          &track, &rule))
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
    s->budget = budget;
    s->time_limit = time_limit;
    if (rule != Py_None && read_rule(s, rule) < 0) {
        Py_DECREF(s);
        return NULL;
    }
    int32_t *squares = NULL;
    int n = 0;
    if (read_squares(path, t->area, &squares, &n) < 0 || n < 1) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "the path is empty");
        free(squares);
        Py_DECREF(s);
        return NULL;
    }
    if (kt_search_init(s, squares, n) < 0) { /* s holds squares now */
        Py_DECREF(s);
        return PyErr_NoMemory();
    }
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
        if (kt_search_track(s, capacity) < 0) {
            Py_DECREF(s);
            return PyErr_NoMemory();
        }
        s->index = index;
        s->wnodes = wnodes;
        s->wbacktracks = wback;
        s->max_depth = max_depth;
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
    for (int i = 0; s->frames && i < s->nframes; i++) {
        Py_XDECREF(s->frames[i].cands_obj);
        Py_XDECREF(s->frames[i].onward_obj);
    }
    kt_search_free(s);
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
    int kind = kt_search_step(s, &ev);
    PyObject *out = NULL;
    if (kind == EV_ERROR)
        raise_pending(s);
    else if (kind != EV_NONE)
        out = event_object(s, &ev);
    s->busy = 0;
    return out;
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

/* Run kt_search_take (without the GIL for long runs), then append the buffer to ``out``. */
static Py_ssize_t take_into(Search *s, Py_ssize_t n, PyObject *out, int counts, int *final,
                            int64_t *moves)
{
    int encode = out != Py_None;
    s->buflen = 0;
    if (s->phase == PH_INIT && kt_search_begin(s) < 0) {
        s->phase = PH_DONE;
        *final = EV_ERROR;
        return raise_pending(s);
    }
    Py_ssize_t taken;
    if (!encode && s->track)
        drop_event_tuples(s); /* skip_plain rebuilds frames */
    if (n >= RELEASE_GIL_AFTER) {
        drop_event_tuples(s);
        Py_BEGIN_ALLOW_THREADS
        taken = kt_search_take(s, n, encode, counts, final, moves);
        Py_END_ALLOW_THREADS
    } else {
        taken = kt_search_take(s, n, encode, counts, final, moves);
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

/* A batch's arguments (n, out, counts) and what taking it did. */
typedef struct {
    Py_ssize_t n;
    PyObject *out; /* a list the events are appended to, or None */
    int counts;
    int final;
    int64_t moves;
} Batch;

static int parse_batch(PyObject *args, const char *format, Batch *b)
{
    b->final = EV_NONE;
    b->moves = 0;
    if (!PyArg_ParseTuple(args, format, &b->n, &b->out, &b->counts))
        return -1;
    if (b->out != Py_None && !PyList_CheckExact(b->out)) {
        PyErr_SetString(PyExc_TypeError, "out must be a list or None");
        return -1;
    }
    return 0;
}

/* Up to b->n events into b->out, the search held for the while: how many, or -1. */
static Py_ssize_t take_batch(Search *s, Batch *b)
{
    if (enter(s) < 0)
        return -1;
    Py_ssize_t taken =
        b->n > 0 ? take_into(s, b->n, b->out, b->counts, &b->final, &b->moves) : 0;
    s->busy = 0;
    return taken;
}

/* encode_batch(n, out, counts) -> (taken, moves, final event, END_OF_STREAM or None) */
static PyObject *Search_encode_batch(Search *s, PyObject *args)
{
    Batch b;
    if (parse_batch(args, "nOp:encode_batch", &b) < 0)
        return NULL;
    Py_ssize_t taken = take_batch(s, &b);
    if (taken < 0)
        return NULL;
    PyObject *terminal = Py_None;
    if (b.n > 0 && b.final >= EV_FOUND)
        terminal = s->end;
    else if (b.n > 0 && b.final == EV_NONE && taken < b.n)
        terminal = kt_classes.end_of_stream; /* the final event was taken before */
    return Py_BuildValue("nLO", taken, (long long)b.moves, terminal);
}

/* walk(n, out, counts) -> taken: the Walker's advance (requires a tracked search). */
static PyObject *Search_walk(Search *s, PyObject *args)
{
    Batch b;
    if (parse_batch(args, "nOp:walk", &b) < 0)
        return NULL;
    if (!s->track) {
        PyErr_SetString(PyExc_ValueError, "this search keeps no walker state");
        return NULL;
    }
    if (s->end || b.n <= 0)
        return PyLong_FromLong(0);
    Py_ssize_t taken = take_batch(s, &b);
    return taken < 0 ? NULL : PyLong_FromSsize_t(taken);
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
    if (s->phase == PH_INIT && kt_search_begin(s) < 0) {
        s->phase = PH_DONE;
        s->busy = 0;
        raise_pending(s);
        return NULL;
    }
    drop_event_tuples(s);
    Py_BEGIN_ALLOW_THREADS
    while (final == EV_NONE && !(s->phase == PH_DONE && !s->qlen))
        kt_search_take(s, (Py_ssize_t)1 << 30, 0, 0, &final, &moves);
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
                         c->span, c->length, c->fill, c->events, mins, maxs);
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
    KT_TYPE_HEAD("Search", Search, Search_dealloc, "search.py's _walk as an iterator of events"),
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
    const int size = t->size;
    if (base < 1 || base > size) {
        free(given);
        PyErr_SetString(PyExc_ValueError, "bad path");
        return NULL;
    }
    int32_t *path = malloc(sizeof(int32_t) * (size_t)(size + 1));
    if (!path) {
        free(given);
        return PyErr_NoMemory();
    }
    memcpy(path, given, sizeof(int32_t) * (size_t)base);
    free(given);
    int64_t nodes, backtracks;
    int limit;
    const char *status;
    Py_BEGIN_ALLOW_THREADS
    status = kt_seed_solve(t, path, base, closed, budget, time_limit, &nodes, &backtracks, &limit);
    Py_END_ALLOW_THREADS
    if (!status) {
        free(path);
        return PyErr_NoMemory();
    }
    PyObject *tour = Py_None;
    if (status[0] == 'f') {
        tour = PyList_New(size);
        if (!tour) {
            free(path);
            return NULL;
        }
        for (int i = 0; i < size; i++)
            PyList_SET_ITEM(tour, i, PyLong_FromLong(path[i]));
    } else {
        Py_INCREF(tour);
    }
    free(path);
    const char *lname = limit == LIMIT_TIME ? "time" : limit == LIMIT_NODES ? "nodes" : NULL;
    return Py_BuildValue("sNLLz", status, tour, (long long)nodes, (long long)backtracks, lname);
}
