"""spark.read.text: the lines of text files, read here and carried into the engine as any
Python data (VALUES, or Arrow data registered with the connection), with a hidden column of each line's
file for input_file_name()."""

import glob
import os
import pathlib

from . import _sql
from .column import INPUT_FILE_COLUMN
from .dataframe import DataFrame


def _files(paths):
    found = []
    for p in paths:
        p = os.fspath(p)
        if p.startswith("file://"):
            p = p[len("file://"):]
        elif p.startswith("file:"):
            p = p[len("file:"):]
        matches = sorted(glob.glob(p)) if glob.has_magic(p) else [p]
        if not matches:
            raise FileNotFoundError(f"[PATH_NOT_FOUND] Path does not exist: {p}")
        for m in matches:
            if os.path.isdir(m):
                found += sorted(os.path.join(m, n) for n in os.listdir(m)
                                if not n.startswith((".", "_")) and os.path.isfile(os.path.join(m, n)))
            elif os.path.isfile(m):
                found.append(m)
            else:
                raise FileNotFoundError(f"[PATH_NOT_FOUND] Path does not exist: {m}")
    return found


def _lines(text, line_sep):
    if line_sep is not None:
        parts = text.split(line_sep)
    else:
        parts = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if parts and parts[-1] == "":
        parts.pop()
    return parts


def read_text(session, paths, wholetext, line_sep):
    import pyarrow as pa

    from ._create import INLINE_VALUES

    values, files = [], []
    for path in _files(paths):
        uri = pathlib.Path(os.path.abspath(path)).as_uri()
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
        lines = [text] if wholetext else _lines(text, line_sep)
        values += lines
        files += [uri] * len(lines)
    hidden = INPUT_FILE_COLUMN.strip("`")
    if len(values) * 2 > INLINE_VALUES:
        table = pa.table({"value": pa.array(values, pa.string()), hidden: pa.array(files, pa.string())})
        relation = session._data_relation(table)
    else:
        relation = f"({_sql.values_relation(['value', hidden], ['string', 'string'], list(zip(values, files)))})"
    name = session._next_alias()
    from_clause = f"{relation} AS {_sql.quote_ident(name)}"
    df = DataFrame(session, f"SELECT `value` FROM {from_clause}", name=name, core=(from_clause, []))
    df._star = "`value`"
    return df
