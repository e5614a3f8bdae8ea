/* The compiled core of server.engine: shared declarations.
 *
 * The Python engine (search.py, walker.py, hints.py) is the reference; every
 * loop here is a transcription of one of its loops, step for step, so both give
 * the same events, counts, tours and witnesses.  Only plain C data is touched in
 * the loops, so long runs release the GIL.
 */
#ifndef KT_CORE_H
#define KT_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

/* A board's neighbour table, built once from Board.neighbours (articles' order). */
typedef struct {
    PyObject_HEAD
    int rows, cols, area, size;
    int32_t *nbr; /* area * 8 squares; only the first deg[sq] are valid */
    uint8_t *deg;
    uint8_t *open; /* 0 for a blocked square */
} Tables;

extern PyTypeObject TablesType;
extern PyTypeObject SearchType;

/* The fields every type of the module starts with: its name, its size, how it is freed. */
#define KT_TYPE_HEAD(name, type, dealloc, doc)                                               \
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "server.engine._core." name,                    \
    .tp_basicsize = sizeof(type), .tp_dealloc = (destructor)(dealloc),                        \
    .tp_flags = Py_TPFLAGS_DEFAULT, .tp_doc = doc

/* The Python classes the events are made of, set once by configure(). */
typedef struct {
    PyTypeObject *move, *backtrack, *found, *exhausted, *budget, *declared;
    PyObject *board_error;
    PyObject *end_of_stream;
} EventClasses;

extern EventClasses kt_classes;

double kt_now(void);
int kt_search_ready(void);
PyObject *kt_search_solve_seed(PyObject *self, PyObject *args);
PyObject *kt_hint_grid(PyObject *self, PyObject *args);
PyObject *kt_hint_complete(PyObject *self, PyObject *args);
PyObject *kt_hint_degrees(PyObject *self, PyObject *args);
PyObject *kt_hint_forced(PyObject *self, PyObject *args);
int kt_hints_ready(PyObject *module);

#endif
