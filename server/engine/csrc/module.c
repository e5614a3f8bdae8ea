/* server.engine._core: the module, the board tables and configure(). */
#include "core.h"

#include <string.h>

EventClasses kt_classes;

/* Tables(rows, cols, neighbours, blocked): as Board.neighbours (a tuple per square,
 * blocked squares have none) and Board.blocked. */
static PyObject *Tables_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    (void)kw;
    int rows, cols;
    PyObject *neighbours, *blocked;
    if (!PyArg_ParseTuple(args, "iiOO:Tables", &rows, &cols, &neighbours, &blocked))
        return NULL;
    if (rows < 1 || cols < 1 || (int64_t)rows * cols > INT32_MAX / 8) {
        PyErr_SetString(PyExc_ValueError, "board out of range");
        return NULL;
    }
    PyObject *fast = PySequence_Fast(neighbours, "neighbours must be a sequence");
    if (!fast)
        return NULL;
    int area = rows * cols;
    if (PySequence_Fast_GET_SIZE(fast) != area) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "one neighbour tuple per square");
        return NULL;
    }
    Tables *t = (Tables *)type->tp_alloc(type, 0);
    if (!t) {
        Py_DECREF(fast);
        return NULL;
    }
    t->rows = rows;
    t->cols = cols;
    t->area = area;
    t->size = area;
    t->nbr = calloc((size_t)area * 8, sizeof(int32_t));
    t->deg = calloc((size_t)area, 1);
    t->open = malloc((size_t)area);
    if (!t->nbr || !t->deg || !t->open) {
        Py_DECREF(fast);
        Py_DECREF(t);
        return PyErr_NoMemory();
    }
    memset(t->open, 1, (size_t)area);
    for (int sq = 0; sq < area; sq++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, sq), "bad neighbours");
        if (!row)
            goto error;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(row);
        if (n > 8) {
            Py_DECREF(row);
            PyErr_SetString(PyExc_ValueError, "a square has at most eight neighbours");
            goto error;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(row, i));
            if ((v == -1 && PyErr_Occurred()) || v < 0 || v >= area) {
                Py_DECREF(row);
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "neighbour off the board");
                goto error;
            }
            t->nbr[8 * sq + i] = (int32_t)v;
        }
        t->deg[sq] = (uint8_t)n;
        Py_DECREF(row);
    }
    Py_CLEAR(fast);
    PyObject *it = PyObject_GetIter(blocked);
    if (!it)
        goto error;
    PyObject *item;
    while ((item = PyIter_Next(it))) {
        long v = PyLong_AsLong(item);
        Py_DECREF(item);
        if (v == -1 && PyErr_Occurred())
            break;
        if (v < 0 || v >= area) {
            PyErr_SetString(PyExc_ValueError, "blocked square off the board");
            break;
        }
        if (t->open[v]) {
            t->open[v] = 0;
            t->size--;
        }
    }
    Py_DECREF(it);
    if (PyErr_Occurred())
        goto error;
    return (PyObject *)t;
error:
    Py_XDECREF(fast);
    Py_DECREF(t);
    return NULL;
}

static void Tables_dealloc(Tables *t)
{
    free(t->nbr);
    free(t->deg);
    free(t->open);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

PyTypeObject TablesType = {
    KT_TYPE_HEAD("Tables", Tables, Tables_dealloc, "a board's knight-move table"),
    .tp_new = Tables_new,
};

/* configure(Move, Backtrack, Found, Exhausted, Budget, Declared, BoardError, END_OF_STREAM) */
static PyObject *configure(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *m, *b, *f, *e, *g, *d, *err, *end;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!OO:configure", &PyType_Type, &m, &PyType_Type, &b,
                          &PyType_Type, &f, &PyType_Type, &e, &PyType_Type, &g, &PyType_Type, &d,
                          &err, &end))
        return NULL;
    PyObject *types[] = {m, b, f, e, g, d};
    for (int i = 0; i < 6; i++) {
        if (!PyType_IsSubtype((PyTypeObject *)types[i], &PyTuple_Type)) {
            PyErr_SetString(PyExc_TypeError, "events must be tuple subclasses");
            return NULL;
        }
        Py_INCREF(types[i]);
    }
    Py_INCREF(err);
    Py_INCREF(end);
    kt_classes.move = (PyTypeObject *)m;
    kt_classes.backtrack = (PyTypeObject *)b;
    kt_classes.found = (PyTypeObject *)f;
    kt_classes.exhausted = (PyTypeObject *)e;
    kt_classes.budget = (PyTypeObject *)g;
    kt_classes.declared = (PyTypeObject *)d;
    kt_classes.board_error = err;
    kt_classes.end_of_stream = end;
    Py_RETURN_NONE;
}

static PyMethodDef core_methods[] = {
    {"configure", configure, METH_VARARGS, "the event classes, BoardError and END_OF_STREAM"},
    {"solve_seed", kt_search_solve_seed, METH_VARARGS, "search.py's _seed_fast"},
    {"hint_grid", kt_hint_grid, METH_VARARGS, "a hint grid (hints.py's _Grid)"},
    {"hint_complete", kt_hint_complete, METH_VARARGS, "hints.py's _Search.solve"},
    {"hint_degrees", kt_hint_degrees, METH_VARARGS, "hint_degrees.degrees_feasible"},
    {"hint_forced", kt_hint_forced, METH_VARARGS, "hint_forced.forced_contradiction"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    "server.engine._core",
    "The compiled core of server.engine (see server/engine/native.py).",
    -1,
    core_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__core(void)
{
    if (PyType_Ready(&TablesType) < 0 || PyType_Ready(&SearchType) < 0 || kt_search_ready() < 0)
        return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m)
        return NULL;
    if (PyModule_AddObjectRef(m, "Tables", (PyObject *)&TablesType) < 0 ||
        PyModule_AddObjectRef(m, "Search", (PyObject *)&SearchType) < 0 ||
        kt_hints_ready(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
