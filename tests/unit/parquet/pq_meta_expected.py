#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Extracts the footer facts of ../shared/corpus/parquet-testing/EXPECTED.json into
pq_meta_expected.tsv, which test_pq_meta_corpus.c checks every footer against.

Usage: pq_meta_expected.py [CORPUS_DIR] > pq_meta_expected.tsv

One line per file: path (relative to parquet-testing/), kind (valid, bad, encrypted, aux),
num_rows, row_groups, schema elements, leaf columns, created_by, codecs and encodings (sorted,
comma-separated). '-' marks a fact EXPECTED.json does not give; created_by '<none>' means the
file has no created_by. The facts come from DuckDB's reading (see EXPECTED.json's _about).
"""
import json
import os
import sys


def leaf_count(schema):
    n = 0
    for line in schema:
        tokens = line.split()
        if not tokens:
            continue
        t = tokens[1] if tokens[0] in ("REQUIRED", "OPTIONAL", "REPEATED") else tokens[0]
        if t != "group":
            n += 1
    return n


def clean(s):
    return s.replace("\t", " ").replace("\n", " ")


def main():
    corpus = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(__file__), "..", "..", "..", "..", "shared", "corpus")
    with open(os.path.join(corpus, "parquet-testing", "EXPECTED.json")) as f:
        files = json.load(f)["files"]
    print("# path\tkind\tnum_rows\trow_groups\tschema_elements\tleaves\tcreated_by\tcodecs\tencodings")
    for path in sorted(files):
        e = files[path]
        schema = e.get("schema")
        cols = [
            path,
            e["kind"],
            str(e["num_rows"]) if "num_rows" in e else "-",
            str(e["row_groups"]) if "row_groups" in e else "-",
            str(len(schema)) if schema else "-",
            str(leaf_count(schema)) if schema else "-",
            ("<none>" if e["created_by"] is None else clean(e["created_by"]))
            if "created_by" in e else "-",
            ",".join(sorted(e["compression"])) if e.get("compression") else "-",
            ",".join(sorted(e["encodings"])) if e.get("encodings") and "" not in e["encodings"]
            else "-",
        ]
        print("\t".join(cols))


if __name__ == "__main__":
    main()
