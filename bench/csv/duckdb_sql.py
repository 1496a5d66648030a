# SPDX-License-Identifier: Apache-2.0
"""The peer's side of bench/csv/run: runs the SQL in the file argv[1] in DuckDB (in memory)."""
import sys

import duckdb

with open(sys.argv[1]) as f:
    duckdb.sql(f.read()).fetchall()
