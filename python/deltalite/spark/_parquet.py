"""df.write.parquet(path): a folder of Parquet files, as Spark writes one (part-00000-<uuid>-c000
.<codec>.parquet, then an empty _SUCCESS), through the engine's COPY ... TO, which makes each
file appear only when it is complete. Unlike Spark, an overwrite deletes the folder's old files
only after the new file is written, so a job that fails leaves the old files in place (Spark
deletes them when the overwrite starts, and a failure leaves an empty folder)."""

import os
import shutil
import uuid

from . import _sql
from .errors import AnalysisException

# Spark's parquet compression names -> (the engine's COPY codec, Spark's file-name infix).
_CODECS = {
    "none": ("uncompressed", ""), "uncompressed": ("uncompressed", ""), "snappy": ("snappy", ".snappy"),
    "gzip": ("gzip", ".gz"), "zstd": ("zstd", ".zstd"), "lz4": ("lz4", ".lz4hadoop"), "lz4_raw": ("lz4_raw", ".lz4raw"),
    "brotli": ("brotli", ".br"),
}


def _local_path(path):
    path = str(path)
    if path.startswith("file:"):
        path = path[len("file:"):]
        if path.startswith("//"):
            path = path[2:]
    elif "://" in path:
        raise NotImplementedError(f"DataFrameWriter.parquet({path!r}): deltalite.spark writes local files only")
    if not path:
        raise ValueError("DataFrameWriter.parquet needs a folder path")
    return os.path.abspath(path)


def _codec(compression):
    name = "snappy" if compression is None else str(compression).lower()
    if name not in _CODECS:
        raise NotImplementedError(f"DataFrameWriter.parquet(compression={compression!r}): deltalite writes "
                                  f"{', '.join(sorted(_CODECS))}")
    return _CODECS[name]


def _first_missing(folder):
    """The outermost folder of folder's path that does not exist yet (None when folder exists)."""
    missing = None
    while not os.path.exists(folder):
        missing = folder
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return missing


def _remove_empty(folder, up_to):
    """Removes the empty folders a failed write created, from folder up to up_to."""
    while True:
        try:
            os.rmdir(folder)
        except OSError:
            return
        if folder == up_to:
            return
        folder = os.path.dirname(folder)


def write_parquet(df, path, mode, compression):
    """Writes df's rows as one Parquet file in the folder path; mode is the writer's
    ('error', 'append', 'overwrite', 'ignore')."""
    folder = _local_path(path)
    codec, infix = _codec(compression)
    exists = os.path.exists(folder)
    if exists and mode == "ignore":
        return
    if exists and mode == "error":
        raise AnalysisException(f"[PATH_ALREADY_EXISTS] Path file:{folder} already exists. Set mode as "
                                f"\"overwrite\" to overwrite the existing path.")
    if exists and not os.path.isdir(folder):
        raise AnalysisException(f"cannot write Parquet files into file:{folder}: it is a file, not a folder")
    name = f"part-00000-{uuid.uuid4()}-c000{infix}.parquet"
    target = os.path.join(folder, name)
    created = _first_missing(folder)
    try:
        df._session._run(f"COPY (SELECT * FROM {df._from()}) TO {_sql.string_literal(target)} "
                         f"(FORMAT parquet, CODEC {_sql.string_literal(codec)})")
    except Exception:
        if created is not None:
            _remove_empty(folder, created)
        raise
    if mode == "overwrite" and exists:
        for entry in os.listdir(folder):
            if entry == name:
                continue
            old = os.path.join(folder, entry)
            if os.path.isdir(old) and not os.path.islink(old):
                shutil.rmtree(old)
            else:
                os.remove(old)
    with open(os.path.join(folder, "_SUCCESS"), "wb"):
        pass
