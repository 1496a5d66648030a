/* SPDX-License-Identifier: Apache-2.0 */
/*
 * deltalite._native: the CPython binding of include/deltalite.h. It is deliberately thin: the
 * Python layer (python/deltalite/) builds the API users see; this file owns the handles and
 * turns values and errors into Python objects.
 *
 * Handles and threads. A Database holds a refcounted `dbref` around one deltalite_db; every
 * Result and every exported Arrow stream holds a reference too, so the handle is closed when
 * the last of them goes (deltalite_close refuses while results live). The C API allows one
 * thread at a time per handle; a recursive mutex in the dbref serialises every call on it,
 * also the ones an Arrow consumer makes through the stream on any thread. Deadlock rule:
 * nobody blocks on that mutex while holding the GIL (the GIL is released before locking).
 *
 * Errors. A failed call copies the handle's last error (status, message, hint, offset, line,
 * column, caret) while still holding the mutex, then raises the Python class registered for
 * the status by deltalite/_errors.py through _set_error_classes.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <datetime.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "deltalite.h"

/* ---- the shared handle ---------------------------------------------------------------------- */

typedef struct error_copy {
    deltalite_status status;
    char *message; /* PyMem_Raw; NULL when none */
    char *hint;
    char *caret;
    int64_t offset;
    int64_t line;
    int64_t column;
} error_copy;

typedef struct dbref {
    deltalite_db *db;
    pthread_mutex_t lock; /* recursive */
    atomic_long refs;
    error_copy stream_err; /* the last failure of an exported stream (under lock) */
} dbref;

static char *
raw_strdup(const char *s) {
    if (s == NULL) {
        return NULL;
    }
    size_t n = strlen(s) + 1;
    char *out = PyMem_RawMalloc(n);
    if (out != NULL) {
        memcpy(out, s, n);
    }
    return out;
}

static void
error_copy_clear(error_copy *e) {
    PyMem_RawFree(e->message);
    PyMem_RawFree(e->hint);
    PyMem_RawFree(e->caret);
    memset(e, 0, sizeof(*e));
}

/* Copies db's last error into e (caller holds the lock). */
static void
error_copy_take(error_copy *e, const deltalite_db *db, deltalite_status status) {
    error_copy_clear(e);
    e->status = status;
    e->message = raw_strdup(deltalite_error_message(db));
    e->hint = raw_strdup(deltalite_error_hint(db));
    e->caret = raw_strdup(deltalite_error_caret(db));
    e->offset = deltalite_error_offset(db);
    e->line = deltalite_error_line(db);
    e->column = deltalite_error_column(db);
}

static void
dbref_lock(dbref *ref) {
    (void)pthread_mutex_lock(&ref->lock);
}

static void
dbref_unlock(dbref *ref) {
    (void)pthread_mutex_unlock(&ref->lock);
}

static void
dbref_ref(dbref *ref) {
    atomic_fetch_add(&ref->refs, 1);
}

/* Drops one reference; the last closes the handle. Callable without the GIL. */
static void
dbref_unref(dbref *ref) {
    if (ref == NULL || atomic_fetch_sub(&ref->refs, 1) != 1) {
        return;
    }
    (void)deltalite_close(ref->db);
    error_copy_clear(&ref->stream_err);
    (void)pthread_mutex_destroy(&ref->lock);
    PyMem_RawFree(ref);
}

/* ---- errors ---------------------------------------------------------------------------------- */

static PyObject *error_classes; /* dict: status name -> exception class */

static PyObject *
set_error_classes(PyObject *self, PyObject *arg) {
    (void)self;
    if (!PyDict_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "_set_error_classes takes a dict");
        return NULL;
    }
    Py_XSETREF(error_classes, Py_NewRef(arg));
    Py_RETURN_NONE;
}

/* Raises the registered class for e (or RuntimeError before registration). Returns NULL. */
static PyObject *
raise_error_copy(const error_copy *e, const char *sql) {
    const char *name = deltalite_status_name(e->status);
    PyObject *cls = error_classes ? PyDict_GetItemString(error_classes, name) : NULL;
    const char *message = e->message && e->message[0] ? e->message : name;
    if (cls == NULL) {
        PyErr_Format(PyExc_RuntimeError, "%s: %s", name, message);
        return NULL;
    }
    PyObject *exc = PyObject_CallFunction(cls, "sssLLLsz", message, name, e->hint ? e->hint : "",
                                          (long long)e->offset, (long long)e->line,
                                          (long long)e->column, e->caret ? e->caret : "", sql);
    if (exc != NULL) {
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
        Py_DECREF(exc);
    }
    return NULL;
}

static PyObject *
raise_status(dbref *ref, deltalite_status status, const char *sql, bool is_locked) {
    error_copy e = {0};
    if (!is_locked) {
        PyThreadState *ts = PyEval_SaveThread();
        dbref_lock(ref);
        PyEval_RestoreThread(ts);
    }
    error_copy_take(&e, ref->db, status);
    dbref_unlock(ref);
    raise_error_copy(&e, sql);
    error_copy_clear(&e);
    return NULL;
}

/* ---- Database -------------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD dbref *ref; /* NULL after close */
} DatabaseObject;

typedef struct {
    PyObject_HEAD dbref *ref;
    deltalite_result *res; /* NULL once moved into a stream or closed */
    int32_t n_cols;
    PyObject *columns; /* list of str */
    PyObject *types;   /* list of Spark type names */
    PyObject *type_ids;
    PyObject *statement;
} ResultObject;

static PyTypeObject DatabaseType;
static PyTypeObject ResultType;

static int
database_init(DatabaseObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"warehouse", "threads", "time_zone", "create", "no_fsync", NULL};
    const char *warehouse = NULL;
    int threads = 0;
    const char *time_zone = NULL;
    int create = 1;
    int no_fsync = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s|izpp", kwlist, &warehouse, &threads,
                                     &time_zone, &create, &no_fsync)) {
        return -1;
    }
    if (self->ref != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the database is already open");
        return -1;
    }
    dbref *ref = PyMem_RawCalloc(1, sizeof(dbref));
    if (ref == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    pthread_mutexattr_t attr;
    (void)pthread_mutexattr_init(&attr);
    (void)pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    (void)pthread_mutex_init(&ref->lock, &attr);
    (void)pthread_mutexattr_destroy(&attr);
    atomic_init(&ref->refs, 1);
    deltalite_options opts = {0};
    opts.threads = threads;
    opts.time_zone = time_zone;
    opts.flags = (create ? DELTALITE_OPEN_CREATE : 0u) | (no_fsync ? DELTALITE_OPEN_NO_FSYNC : 0u);
    deltalite_status st;
    PyThreadState *ts = PyEval_SaveThread();
    st = deltalite_open(warehouse, &opts, &ref->db);
    PyEval_RestoreThread(ts);
    if (st != DELTALITE_OK) {
        if (ref->db == NULL) {
            dbref_unref(ref);
            PyErr_NoMemory();
            return -1;
        }
        error_copy e = {0};
        error_copy_take(&e, ref->db, st);
        dbref_unref(ref);
        raise_error_copy(&e, NULL);
        error_copy_clear(&e);
        return -1;
    }
    self->ref = ref;
    return 0;
}

static void
database_dealloc(DatabaseObject *self) {
    dbref *ref = self->ref;
    self->ref = NULL;
    dbref_unref(ref);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static dbref *
database_ref(DatabaseObject *self) {
    if (self->ref == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the connection is closed");
    }
    return self->ref;
}

static PyObject *
database_close(DatabaseObject *self, PyObject *unused) {
    (void)unused;
    dbref *ref = self->ref;
    self->ref = NULL;
    PyThreadState *ts = PyEval_SaveThread();
    dbref_unref(ref);
    PyEval_RestoreThread(ts);
    Py_RETURN_NONE;
}

static PyObject *
database_exec(DatabaseObject *self, PyObject *args) {
    const char *sql = NULL;
    if (!PyArg_ParseTuple(args, "s", &sql)) {
        return NULL;
    }
    dbref *ref = database_ref(self);
    if (ref == NULL) {
        return NULL;
    }
    deltalite_status st;
    PyThreadState *ts = PyEval_SaveThread();
    dbref_lock(ref);
    st = deltalite_exec(ref->db, sql);
    if (st == DELTALITE_OK) {
        dbref_unlock(ref);
    }
    PyEval_RestoreThread(ts);
    if (st != DELTALITE_OK) {
        return raise_status(ref, st, sql, true);
    }
    Py_RETURN_NONE;
}

static PyObject *
str_list(int32_t n, const char *(*get)(const deltalite_result *, int32_t),
         const deltalite_result *res) {
    PyObject *list = PyList_New(n);
    for (int32_t c = 0; list != NULL && c < n; c++) {
        const char *s = get(res, c);
        PyObject *item =
            PyUnicode_DecodeUTF8(s ? s : "", (Py_ssize_t)strlen(s ? s : ""), "replace");
        if (item == NULL) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, c, item);
    }
    return list;
}

/* Fills the column metadata of a new result (caller holds the lock). */
static int
result_describe(ResultObject *r) {
    r->n_cols = deltalite_result_column_count(r->res);
    r->columns = str_list(r->n_cols, deltalite_result_column_name, r->res);
    r->types = str_list(r->n_cols, deltalite_result_column_type_name, r->res);
    r->type_ids = PyList_New(r->n_cols);
    for (int32_t c = 0; r->type_ids != NULL && c < r->n_cols; c++) {
        PyList_SET_ITEM(r->type_ids, c,
                        PyLong_FromLong((long)deltalite_result_column_type(r->res, c)));
    }
    r->statement = PyUnicode_FromString(deltalite_result_statement(r->res));
    return r->columns && r->types && r->type_ids && r->statement ? 0 : -1;
}

/* Wraps res (ref locked, released here) in a new Result. */
static PyObject *
new_result(dbref *ref, deltalite_result *res) {
    ResultObject *r = PyObject_New(ResultObject, &ResultType);
    if (r != NULL) {
        r->ref = NULL;
        r->res = res;
        r->columns = r->types = r->type_ids = r->statement = NULL;
        if (result_describe(r) < 0) {
            Py_CLEAR(r);
        }
    }
    if (r == NULL) {
        deltalite_result_free(res);
        dbref_unlock(ref);
        return NULL;
    }
    dbref_ref(ref);
    r->ref = ref;
    dbref_unlock(ref);
    return (PyObject *)r;
}

static PyObject *
database_query(DatabaseObject *self, PyObject *args) {
    const char *sql = NULL;
    Py_ssize_t len = 0;
    if (!PyArg_ParseTuple(args, "s#", &sql, &len)) {
        return NULL;
    }
    dbref *ref = database_ref(self);
    if (ref == NULL) {
        return NULL;
    }
    deltalite_status st;
    deltalite_result *res = NULL;
    PyThreadState *ts = PyEval_SaveThread();
    dbref_lock(ref);
    st = deltalite_query_len(ref->db, sql, (size_t)len, &res);
    PyEval_RestoreThread(ts);
    if (st != DELTALITE_OK) {
        return raise_status(ref, st, sql, true);
    }
    return new_result(ref, res);
}

/* Binds one (tag, value) pair of deltalite/_sql.py's native_args to parameter index. Sets a
 * Python error and returns -1 when the pair is malformed; else the status (OK or not). */
static int
bind_tagged(deltalite_stmt *st, int32_t index, PyObject *pair, deltalite_status *out) {
    const char *tag = NULL;
    PyObject *v = NULL;
    if (!PyArg_ParseTuple(pair, "sO", &tag, &v)) {
        return -1;
    }
    Py_ssize_t n = 0;
    const char *bytes = NULL;
    switch (tag[0]) {
    case 'n':
        *out = deltalite_bind_null(st, index);
        return 0;
    case 'b':
        *out = deltalite_bind_bool(st, index, PyObject_IsTrue(v) == 1);
        return 0;
    case 'i':
        *out = deltalite_bind_int32(st, index, (int32_t)PyLong_AsLong(v));
        return PyErr_Occurred() ? -1 : 0;
    case 'l':
        *out = deltalite_bind_int64(st, index, (int64_t)PyLong_AsLongLong(v));
        return PyErr_Occurred() ? -1 : 0;
    case 'f':
        *out = deltalite_bind_double(st, index, PyFloat_AsDouble(v));
        return PyErr_Occurred() ? -1 : 0;
    case 'd':
        bytes = PyUnicode_AsUTF8(v);
        *out = bytes ? deltalite_bind_decimal(st, index, bytes) : DELTALITE_OK;
        return bytes ? 0 : -1;
    case 's':
        bytes = PyUnicode_AsUTF8AndSize(v, &n);
        *out = bytes ? deltalite_bind_text(st, index, bytes, (size_t)n) : DELTALITE_OK;
        return bytes ? 0 : -1;
    case 'x':
        if (PyBytes_AsStringAndSize(v, (char **)&bytes, &n) < 0) {
            return -1;
        }
        *out = deltalite_bind_blob(st, index, bytes, (size_t)n);
        return 0;
    case 'D':
        *out = deltalite_bind_date(st, index, (int32_t)PyLong_AsLong(v));
        return PyErr_Occurred() ? -1 : 0;
    case 't':
        *out = deltalite_bind_timestamp(st, index, (int64_t)PyLong_AsLongLong(v));
        return PyErr_Occurred() ? -1 : 0;
    case 'T':
        *out = deltalite_bind_timestamp_ntz(st, index, (int64_t)PyLong_AsLongLong(v));
        return PyErr_Occurred() ? -1 : 0;
    default:
        PyErr_Format(PyExc_ValueError, "unknown parameter tag '%s'", tag);
        return -1;
    }
}

/* Binds every value of the list values (names: None for ? markers, else a list of the same
 * length) to st. -1 with a Python error; else the first failing status (or OK). */
static int
bind_all(deltalite_stmt *st, PyObject *values, PyObject *names, deltalite_status *out) {
    *out = DELTALITE_OK;
    Py_ssize_t n = PyList_Size(values);
    for (Py_ssize_t i = 0; i < n && *out == DELTALITE_OK; i++) {
        int32_t index = (int32_t)i + 1;
        if (names != Py_None) {
            const char *name = PyUnicode_AsUTF8(PyList_GetItem(names, i));
            if (name == NULL) {
                return -1;
            }
            index = deltalite_bind_parameter_index(st, name);
            if (index == 0) {
                continue; /* _sql.py checked the names; a name the statement lacks binds nothing */
            }
        }
        if (bind_tagged(st, index, PyList_GetItem(values, i), out) < 0) {
            return -1;
        }
    }
    return 0;
}

static PyObject *
database_query_params(DatabaseObject *self, PyObject *args) {
    const char *sql = NULL;
    Py_ssize_t len = 0;
    PyObject *values = NULL;
    PyObject *names = NULL;
    if (!PyArg_ParseTuple(args, "s#O!O", &sql, &len, &PyList_Type, &values, &names)) {
        return NULL;
    }
    dbref *ref = database_ref(self);
    if (ref == NULL) {
        return NULL;
    }
    deltalite_stmt *st = NULL;
    deltalite_result *res = NULL;
    PyThreadState *ts = PyEval_SaveThread();
    dbref_lock(ref);
    PyEval_RestoreThread(ts);
    deltalite_status status = deltalite_prepare_len(ref->db, sql, (size_t)len, &st);
    if (status == DELTALITE_OK && bind_all(st, values, names, &status) < 0) {
        deltalite_finalize(st);
        dbref_unlock(ref);
        return NULL;
    }
    if (status == DELTALITE_OK) {
        ts = PyEval_SaveThread();
        status = deltalite_stmt_execute(st, &res);
        PyEval_RestoreThread(ts);
    }
    deltalite_finalize(st); /* the result outlives it; the last error stays */
    if (status != DELTALITE_OK) {
        return raise_status(ref, status, sql, true);
    }
    return new_result(ref, res);
}

static PyObject *
database_interrupt(DatabaseObject *self, PyObject *unused) {
    (void)unused;
    if (self->ref != NULL) {
        deltalite_interrupt(self->ref->db); /* the one call that needs no lock */
    }
    Py_RETURN_NONE;
}

static PyObject *
database_warehouse(DatabaseObject *self, PyObject *unused) {
    (void)unused;
    dbref *ref = database_ref(self);
    return ref ? PyUnicode_FromString(deltalite_warehouse(ref->db)) : NULL;
}

/* The stream failure recorded by the last exported stream that failed, raised; None if none. */
static PyObject *
database_raise_stream_error(DatabaseObject *self, PyObject *unused) {
    (void)unused;
    dbref *ref = database_ref(self);
    if (ref == NULL) {
        return NULL;
    }
    error_copy e = {0};
    PyThreadState *ts = PyEval_SaveThread();
    dbref_lock(ref);
    e = ref->stream_err;
    memset(&ref->stream_err, 0, sizeof(ref->stream_err));
    dbref_unlock(ref);
    PyEval_RestoreThread(ts);
    if (e.status == DELTALITE_OK) {
        error_copy_clear(&e);
        Py_RETURN_NONE;
    }
    raise_error_copy(&e, NULL);
    error_copy_clear(&e);
    return NULL;
}

/* register_arrow(name, capsule): the stream in an "arrow_array_stream" capsule becomes the
 * temporary relation name (the stream moves out of the capsule). */
static PyObject *
database_register_arrow(DatabaseObject *self, PyObject *args) {
    const char *name = NULL;
    PyObject *capsule = NULL;
    if (!PyArg_ParseTuple(args, "sO", &name, &capsule)) {
        return NULL;
    }
    dbref *ref = database_ref(self);
    if (ref == NULL) {
        return NULL;
    }
    struct ArrowArrayStream *src = PyCapsule_GetPointer(capsule, "arrow_array_stream");
    if (src == NULL) {
        return NULL;
    }
    if (src->release == NULL) {
        PyErr_SetString(PyExc_ValueError, "the Arrow stream was already consumed");
        return NULL;
    }
    struct ArrowArrayStream stream = *src;
    src->release = NULL; /* moved */
    PyThreadState *ts = PyEval_SaveThread();
    dbref_lock(ref);
    deltalite_status st = deltalite_register_arrow_stream(ref->db, name, &stream);
    if (st == DELTALITE_OK) {
        dbref_unlock(ref);
    }
    PyEval_RestoreThread(ts);
    if (st != DELTALITE_OK) {
        return raise_status(ref, st, NULL, true);
    }
    Py_RETURN_NONE;
}

/* unregister(name): True when a temporary relation of that name was removed. */
static PyObject *
database_unregister(DatabaseObject *self, PyObject *args) {
    const char *name = NULL;
    if (!PyArg_ParseTuple(args, "s", &name)) {
        return NULL;
    }
    dbref *ref = database_ref(self);
    if (ref == NULL) {
        return NULL;
    }
    bool found = false;
    PyThreadState *ts = PyEval_SaveThread();
    dbref_lock(ref);
    deltalite_status st = deltalite_unregister(ref->db, name, &found);
    if (st == DELTALITE_OK) {
        dbref_unlock(ref);
    }
    PyEval_RestoreThread(ts);
    if (st != DELTALITE_OK) {
        return raise_status(ref, st, NULL, true);
    }
    return PyBool_FromLong(found);
}

static PyMethodDef database_methods[] = {
    {"close", (PyCFunction)database_close, METH_NOARGS,
     "Drops this handle's reference; the warehouse closes when its results are gone."},
    {"exec", (PyCFunction)database_exec, METH_VARARGS, "Runs a SQL script, discarding rows."},
    {"query_params", (PyCFunction)database_query_params, METH_VARARGS,
     "Prepares one statement, binds (tag, value) pairs to its markers and executes it."},
    {"query", (PyCFunction)database_query, METH_VARARGS,
     "Runs a SQL script and returns the last statement's Result."},
    {"interrupt", (PyCFunction)database_interrupt, METH_NOARGS,
     "Cancels what runs on this handle (any thread)."},
    {"warehouse", (PyCFunction)database_warehouse, METH_NOARGS, "The warehouse folder."},
    {"register_arrow", (PyCFunction)database_register_arrow, METH_VARARGS,
     "Registers an Arrow stream capsule as a temporary relation."},
    {"unregister", (PyCFunction)database_unregister, METH_VARARGS,
     "Removes a temporary relation; True when there was one."},
    {"raise_stream_error", (PyCFunction)database_raise_stream_error, METH_NOARGS,
     "Raises the last failure of an exported Arrow stream, if any."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject DatabaseType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "deltalite._native.Database",
    .tp_basicsize = sizeof(DatabaseObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)database_init,
    .tp_dealloc = (destructor)database_dealloc,
    .tp_methods = database_methods,
};

/* ---- Result: rows as Python values ----------------------------------------------------------- */

static PyObject *decimal_cls; /* decimal.Decimal */
static PyObject *json_loads;  /* json.loads */

/* Civil date from days since 1970-01-01 (Howard Hinnant's algorithm). */
static void
civil_from_days(int64_t z, int *y, int *m, int *d) {
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = (int)(yoe + era * 400 + (*m <= 2));
}

static PyObject *
date_value(int64_t days) {
    int y, m, d;
    civil_from_days(days, &y, &m, &d);
    if (y < 1 || y > 9999) {
        PyErr_Format(PyExc_OverflowError,
                     "the date %d-%02d-%02d is outside Python's datetime.date (years 1 to 9999); "
                     "read it as text with CAST(... AS STRING) or through Arrow",
                     y, m, d);
        return NULL;
    }
    return PyDate_FromDate(y, m, d);
}

static PyObject *
timestamp_value(int64_t micros, bool is_utc) {
    int64_t days =
        micros >= 0 ? micros / 86400000000LL : -((-micros + 86399999999LL) / 86400000000LL);
    int64_t rest = micros - days * 86400000000LL;
    int y, m, d;
    civil_from_days(days, &y, &m, &d);
    if (y < 1 || y > 9999) {
        PyErr_Format(PyExc_OverflowError,
                     "the timestamp of year %d is outside Python's datetime (years 1 to 9999); "
                     "read it as text with CAST(... AS STRING) or through Arrow",
                     y);
        return NULL;
    }
    int us = (int)(rest % 1000000);
    int64_t secs = rest / 1000000;
    return PyDateTimeAPI->DateTime_FromDateAndTime(
        y, m, d, (int)(secs / 3600), (int)(secs / 60 % 60), (int)(secs % 60), us,
        is_utc ? PyDateTime_TimeZone_UTC : Py_None, PyDateTimeAPI->DateTimeType);
}

static PyObject *
text_value(deltalite_result *res, int32_t c, deltalite_status *st, PyObject *convert) {
    const char *s = NULL;
    size_t n = 0;
    *st = convert == json_loads ? deltalite_result_get_json(res, c, &s, &n)
                                : deltalite_result_get_text(res, c, &s, &n);
    if (*st != DELTALITE_OK) {
        return NULL;
    }
    PyObject *text = PyUnicode_DecodeUTF8(s, (Py_ssize_t)n, "strict");
    if (text == NULL || convert == NULL) {
        return text;
    }
    PyObject *v = PyObject_CallOneArg(convert, text);
    Py_DECREF(text);
    return v;
}

/* Column c of the current row as a Python value; NULL with *st set or a Python error. */
static PyObject *
cell_value(deltalite_result *res, int32_t c, int type, deltalite_status *st) {
    *st = DELTALITE_OK;
    if (deltalite_result_is_null(res, c)) {
        Py_RETURN_NONE;
    }
    bool b = false;
    int64_t i = 0;
    double f = 0;
    int32_t days = 0;
    const void *blob = NULL;
    size_t n = 0;
    switch (type) {
    case DELTALITE_TYPE_NULL:
        Py_RETURN_NONE;
    case DELTALITE_TYPE_BOOLEAN:
        *st = deltalite_result_get_bool(res, c, &b);
        return *st ? NULL : PyBool_FromLong(b);
    case DELTALITE_TYPE_BYTE:
    case DELTALITE_TYPE_SHORT:
    case DELTALITE_TYPE_INT:
    case DELTALITE_TYPE_LONG:
        *st = deltalite_result_get_int64(res, c, &i);
        return *st ? NULL : PyLong_FromLongLong((long long)i);
    case DELTALITE_TYPE_FLOAT:
    case DELTALITE_TYPE_DOUBLE:
        *st = deltalite_result_get_double(res, c, &f);
        return *st ? NULL : PyFloat_FromDouble(f);
    case DELTALITE_TYPE_DECIMAL:
        return text_value(res, c, st, decimal_cls);
    case DELTALITE_TYPE_STRING:
        *st = deltalite_result_get_blob(res, c, &blob, &n);
        return *st ? NULL : PyUnicode_DecodeUTF8(blob, (Py_ssize_t)n, "strict");
    case DELTALITE_TYPE_BINARY:
        *st = deltalite_result_get_blob(res, c, &blob, &n);
        return *st ? NULL : PyBytes_FromStringAndSize(blob, (Py_ssize_t)n);
    case DELTALITE_TYPE_DATE:
        *st = deltalite_result_get_date(res, c, &days);
        return *st ? NULL : date_value(days);
    case DELTALITE_TYPE_TIMESTAMP:
    case DELTALITE_TYPE_TIMESTAMP_NTZ:
        *st = deltalite_result_get_timestamp(res, c, &i);
        return *st ? NULL : timestamp_value(i, type == DELTALITE_TYPE_TIMESTAMP);
    case DELTALITE_TYPE_STRUCT:
    case DELTALITE_TYPE_ARRAY:
    case DELTALITE_TYPE_MAP:
        return text_value(res, c, st, json_loads);
    default:
        return text_value(res, c, st, NULL);
    }
}

static deltalite_result *
result_res(ResultObject *self) {
    if (self->res == NULL) {
        PyErr_SetString(PyExc_RuntimeError,
                        "this result was already read as an Arrow stream or closed");
    }
    return self->res;
}

/* Appends up to n rows (n < 0: all) as tuples to list (caller holds the lock). */
static deltalite_status
fetch_rows(ResultObject *self, Py_ssize_t n, PyObject *list, bool *is_py_error) {
    deltalite_result *res = self->res;
    *is_py_error = false;
    for (Py_ssize_t k = 0; n < 0 || k < n; k++) {
        bool has_row = false;
        deltalite_status st = deltalite_result_next_row(res, &has_row);
        if (st != DELTALITE_OK || !has_row) {
            return st;
        }
        PyObject *row = PyTuple_New(self->n_cols);
        if (row == NULL) {
            *is_py_error = true;
            return DELTALITE_ERROR_NOMEM;
        }
        for (int32_t c = 0; c < self->n_cols; c++) {
            int type = (int)PyLong_AsLong(PyList_GET_ITEM(self->type_ids, c));
            PyObject *v = cell_value(res, c, type, &st);
            if (v == NULL) {
                Py_DECREF(row);
                *is_py_error = st == DELTALITE_OK;
                return st == DELTALITE_OK ? DELTALITE_ERROR_INTERNAL : st;
            }
            PyTuple_SET_ITEM(row, c, v);
        }
        int rc = PyList_Append(list, row);
        Py_DECREF(row);
        if (rc < 0) {
            *is_py_error = true;
            return DELTALITE_ERROR_NOMEM;
        }
    }
    return DELTALITE_OK;
}

static PyObject *
result_fetchmany(ResultObject *self, PyObject *args) {
    Py_ssize_t n = -1;
    if (!PyArg_ParseTuple(args, "|n", &n)) {
        return NULL;
    }
    if (result_res(self) == NULL) {
        return NULL;
    }
    PyObject *list = PyList_New(0);
    if (list == NULL) {
        return NULL;
    }
    dbref *ref = self->ref;
    PyThreadState *ts = PyEval_SaveThread();
    dbref_lock(ref);
    PyEval_RestoreThread(ts);
    bool is_py_error = false;
    deltalite_status st = fetch_rows(self, n, list, &is_py_error);
    if (st != DELTALITE_OK) {
        Py_DECREF(list);
        if (is_py_error) {
            dbref_unlock(ref);
            return NULL;
        }
        return raise_status(ref, st, NULL, true);
    }
    dbref_unlock(ref);
    return list;
}

static void
result_free_res(ResultObject *self) {
    deltalite_result *res = self->res;
    self->res = NULL;
    if (res != NULL) {
        dbref *ref = self->ref;
        PyThreadState *ts = PyEval_SaveThread();
        dbref_lock(ref);
        deltalite_result_free(res);
        dbref_unlock(ref);
        PyEval_RestoreThread(ts);
    }
}

static PyObject *
result_close(ResultObject *self, PyObject *unused) {
    (void)unused;
    result_free_res(self);
    Py_RETURN_NONE;
}

static void
result_dealloc(ResultObject *self) {
    result_free_res(self);
    PyThreadState *ts = PyEval_SaveThread();
    dbref_unref(self->ref);
    PyEval_RestoreThread(ts);
    self->ref = NULL;
    Py_XDECREF(self->columns);
    Py_XDECREF(self->types);
    Py_XDECREF(self->type_ids);
    Py_XDECREF(self->statement);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* ---- Result: the Arrow C stream -------------------------------------------------------------- */

/* Wraps the library's stream: every callback takes the handle's lock and keeps it alive. */
typedef struct locked_stream {
    struct ArrowArrayStream inner;
    dbref *ref;
} locked_stream;

static int
locked_get_schema(struct ArrowArrayStream *stream, struct ArrowSchema *out) {
    locked_stream *s = stream->private_data;
    dbref_lock(s->ref);
    int rc = s->inner.get_schema(&s->inner, out);
    dbref_unlock(s->ref);
    return rc;
}

static int
locked_get_next(struct ArrowArrayStream *stream, struct ArrowArray *out) {
    locked_stream *s = stream->private_data;
    dbref_lock(s->ref);
    int rc = s->inner.get_next(&s->inner, out);
    deltalite_status st = deltalite_error_status(s->ref->db);
    if (rc != 0 && st != DELTALITE_OK) {
        error_copy_take(&s->ref->stream_err, s->ref->db, st);
    }
    dbref_unlock(s->ref);
    return rc;
}

static const char *
locked_get_last_error(struct ArrowArrayStream *stream) {
    locked_stream *s = stream->private_data;
    dbref_lock(s->ref);
    const char *msg = s->inner.get_last_error(&s->inner);
    dbref_unlock(s->ref);
    return msg;
}

static void
locked_release(struct ArrowArrayStream *stream) {
    locked_stream *s = stream->private_data;
    dbref_lock(s->ref);
    if (s->inner.release != NULL) {
        s->inner.release(&s->inner);
    }
    dbref_unlock(s->ref);
    dbref_unref(s->ref);
    PyMem_RawFree(s);
    stream->release = NULL;
}

static void
stream_capsule_free(PyObject *capsule) {
    struct ArrowArrayStream *stream = PyCapsule_GetPointer(capsule, "arrow_array_stream");
    if (stream == NULL) {
        PyErr_Clear();
        return;
    }
    if (stream->release != NULL) {
        PyThreadState *ts = PyEval_SaveThread();
        stream->release(stream);
        PyEval_RestoreThread(ts);
    }
    PyMem_RawFree(stream);
}

/* The rest of the result as a PyCapsule "arrow_array_stream" (the result moves into it). */
static PyObject *
result_arrow_stream(ResultObject *self, PyObject *unused) {
    (void)unused;
    deltalite_result *res = result_res(self);
    if (res == NULL) {
        return NULL;
    }
    struct ArrowArrayStream *out = PyMem_RawCalloc(1, sizeof(*out));
    locked_stream *s = PyMem_RawCalloc(1, sizeof(*s));
    if (out == NULL || s == NULL) {
        PyMem_RawFree(out);
        PyMem_RawFree(s);
        return PyErr_NoMemory();
    }
    dbref *ref = self->ref;
    self->res = NULL;
    deltalite_status st;
    PyThreadState *ts = PyEval_SaveThread();
    dbref_lock(ref);
    st = deltalite_result_to_arrow(res, &s->inner);
    PyEval_RestoreThread(ts);
    if (st != DELTALITE_OK) {
        PyMem_RawFree(out);
        PyMem_RawFree(s);
        return raise_status(ref, st, NULL, true);
    }
    dbref_unlock(ref);
    dbref_ref(ref);
    s->ref = ref;
    *out = (struct ArrowArrayStream){
        .get_schema = locked_get_schema,
        .get_next = locked_get_next,
        .get_last_error = locked_get_last_error,
        .release = locked_release,
        .private_data = s,
    };
    PyObject *capsule = PyCapsule_New(out, "arrow_array_stream", stream_capsule_free);
    if (capsule == NULL) {
        locked_release(out);
        PyMem_RawFree(out);
    }
    return capsule;
}

static PyObject *
result_get_columns(ResultObject *self, void *closure) {
    (void)closure;
    return Py_NewRef(self->columns);
}

static PyObject *
result_get_types(ResultObject *self, void *closure) {
    (void)closure;
    return Py_NewRef(self->types);
}

static PyObject *
result_get_type_ids(ResultObject *self, void *closure) {
    (void)closure;
    return Py_NewRef(self->type_ids);
}

static PyObject *
result_get_statement(ResultObject *self, void *closure) {
    (void)closure;
    return Py_NewRef(self->statement);
}

static PyObject *
result_get_is_open(ResultObject *self, void *closure) {
    (void)closure;
    return PyBool_FromLong(self->res != NULL);
}

static PyMethodDef result_methods[] = {
    {"fetchmany", (PyCFunction)result_fetchmany, METH_VARARGS,
     "The next n rows (all when n < 0) as a list of tuples."},
    {"arrow_stream", (PyCFunction)result_arrow_stream, METH_NOARGS,
     "The rest of the rows as an 'arrow_array_stream' PyCapsule (the result moves into it)."},
    {"close", (PyCFunction)result_close, METH_NOARGS, "Frees the result."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef result_getset[] = {
    {"columns", (getter)result_get_columns, NULL, "column names", NULL},
    {"types", (getter)result_get_types, NULL, "column types in Spark's spelling", NULL},
    {"type_ids", (getter)result_get_type_ids, NULL, "column types as deltalite_type", NULL},
    {"statement", (getter)result_get_statement, NULL, "the kind of statement", NULL},
    {"is_open", (getter)result_get_is_open, NULL, "rows can still be read", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject ResultType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "deltalite._native.Result",
    .tp_basicsize = sizeof(ResultObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = (destructor)result_dealloc,
    .tp_methods = result_methods,
    .tp_getset = result_getset,
};

/* ---- module ---------------------------------------------------------------------------------- */

static PyObject *
native_version(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    return PyUnicode_FromString(deltalite_version());
}

static PyObject *
native_is_complete(PyObject *self, PyObject *args) {
    (void)self;
    const char *sql = NULL;
    if (!PyArg_ParseTuple(args, "s", &sql)) {
        return NULL;
    }
    return PyBool_FromLong(deltalite_is_complete(sql));
}

static PyMethodDef module_methods[] = {
    {"version", native_version, METH_NOARGS, "The C library's version."},
    {"is_complete", native_is_complete, METH_VARARGS,
     "True when the text ends with a complete statement."},
    {"_set_error_classes", set_error_classes, METH_O,
     "Registers the exception class of each status name."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT,
    "deltalite._native",
    "The C binding of deltalite.",
    -1,
    module_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

static PyObject *
import_attr(const char *module, const char *name) {
    PyObject *m = PyImport_ImportModule(module);
    if (m == NULL) {
        return NULL;
    }
    PyObject *attr = PyObject_GetAttrString(m, name);
    Py_DECREF(m);
    return attr;
}

PyMODINIT_FUNC PyInit__native(void); /* the module's one exported symbol */

PyMODINIT_FUNC
PyInit__native(void) {
    PyDateTime_IMPORT;
    if (PyDateTimeAPI == NULL || PyType_Ready(&DatabaseType) < 0 || PyType_Ready(&ResultType) < 0) {
        return NULL;
    }
    decimal_cls = import_attr("decimal", "Decimal");
    json_loads = import_attr("json", "loads");
    if (decimal_cls == NULL || json_loads == NULL) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&native_module);
    if (m == NULL) {
        return NULL;
    }
    if (PyModule_AddObjectRef(m, "Database", (PyObject *)&DatabaseType) < 0 ||
        PyModule_AddObjectRef(m, "Result", (PyObject *)&ResultType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
