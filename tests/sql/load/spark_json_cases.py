# SPDX-License-Identifier: Apache-2.0
"""read_json against Spark's spark.read.json on the same text (not in ctest: it needs Spark and
the release build; run it by hand with the interop venv's Python, from tests/interop):

    cd tests/interop && python ../sql/load/spark_json_cases.py

Every case is a small JSON file with reader options (inferring) or a schema. Spark reads it
with DataFrameReader.json; deltalite with read_json through its C library (Arrow); both are
turned into engines.py's canonical (schema, sorted rows) and must be equal, or fail with an
error both. The cases are the ones tests/unit/formats/test_fmt_json.c and
tests/sql/load/read_json.test expect Spark's answers for; a case Spark answers with an error
is expected to be an error in deltalite too.
"""
import json
import os
import pathlib
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tests" / "interop"))

from conftest import spark_session  # noqa: E402
from engines import Deltalite, DeltaliteError, arrow_result, spark_result  # noqa: E402

cases = [
 ("basic", '{"a":1,"b":"x"}\n{"a":2.5,"c":true}\n\n{"b":null}\n', {}),
 ("bigint", '{"a":12345678901234567890}\n{"a":1}\n', {}),
 ("prefdec", '{"a":1.5}\n{"a":0.001}\n{"a":1e10}\n{"a":2}\n{"s":"1.25"}\n', {"prefersDecimal":"true"}),
 ("conflict", '{"a":1}\n{"a":"x"}\n{"b":{"x":1}}\n{"b":2}\n{"c":[1,2]}\n{"c":[1.5,null]}\n{"d":true}\n{"d":1}\n', {}),
 ("nested", '{"s":{"z":1,"y":{"q":"a"}},"arr":[{"k":1},{"j":"t"}],"e":[],"o":{}}\n', {}),
 ("toparr", '[{"a":1},{"a":2}]\n{"a":3}\n', {}),
 ("corrupt", '{"a":1}\n{"a":\n7\n"str"\n{"a":2}\n', {}),
 ("corrupt_drop", '{"a":1}\n{"a":\n7\n{"a":2}\n', {"mode":"DROPMALFORMED"}),
 ("pas", '{"a":1,"b":1.50,"c":true,"d":1e10,"e":{"x":1.0}}\n', {"primitivesAsString":"true"}),
 ("lenient", "{'a':'x', \"b\":NaN, \"c\":Infinity, \"d\":-Infinity}\n", {}),
 ("comments", '{"a":1 /* c */, "b":2} // end\n# hash\n', {"allowComments":"true"}),
 ("nocomments", '{"a":1 /* c */, "b":2}\n', {}),
 ("unq", '{a:1, b:007}\n', {"allowUnquotedFieldNames":"true","allowNumericLeadingZeros":"true"}),
 ("multiline", '[\n {"a":1},\n {"a":2, "b":"x"}\n]\n', {"multiLine":"true"}),
 ("multiline_obj", '{\n "a":1\n}\n', {"multiLine":"true"}),
 ("dup", '{"a":1,"a":2}\n', {}),
 ("strofobj", '{"a":{"x":1.50,"y":"q\\u00e9\\n"}}\n{"a":"s"}\n{"a":1e10}\n{"a":[1,2]}\n', {}),
 ("ws", '   \n{"a":1}\n  {"a":2}  \n', {}),
 ("ts", '{"t":"2024-01-02T03:04:05.123Z","d":"2024-01-02"}\n', {}),
 ("tsinf", '{"t":"2024-01-02T03:04:05.123Z","d":"2024-01-02"}\n', {"inferTimestamp":"true"}),
 ("neg0", '{"a":-0,"b":-0.0,"c":1E2}\n', {}),
 ("emptyobjonly", '{}\n', {}),
 ("allnull", '{"a":null}\n', {}),
 ("allnulldrop", '{"a":null,"b":1}\n', {"dropFieldIfAllNull":"true"}),
 ("trail", '{"a":1} x\n{"a":2}{"a":3}\n', {}),
 ("casecols", '{"a":1,"A":2}\n', {}),
]
schemas = [
 ("sch_int", '{"a":1}\n{"a":3000000000}\n{"a":"5"}\n{"a":1.5}\n{"a":null,"b":1}\n', "a INT, b LONG"),
 ("sch_partial", '{"a":1,"b":"x"}\n{"a":"bad","b":"y"}\n', "a INT, b STRING, _corrupt_record STRING"),
 ("sch_nested", '{"s":{"x":"bad","y":2}}\n{"s":{"x":1,"y":2}}\n', "s STRUCT<x: INT, y: INT>, _corrupt_record STRING"),
 ("sch_arr", '{"a":[1,"x",3]}\n', "a ARRAY<INT>, _corrupt_record STRING"),
 ("sch_dec", '{"d":1.005}\n{"d":"2.5"}\n{"d":123456}\n{"d":1e2}\n', "d DECIMAL(5,2), _corrupt_record STRING"),
 ("sch_dbl", '{"d":"NaN"}\n{"d":"Infinity"}\n{"d":"-INF"}\n{"d":"1.5"}\n{"d":true}\n', "d DOUBLE, _corrupt_record STRING"),
 ("sch_ts", '{"t":"2024-01-02T03:04:05.123Z"}\n{"t":1700000000}\n{"t":"2024-01-02"}\n{"t":"2024-01-02 03:04:05"}\n', "t TIMESTAMP, _corrupt_record STRING"),
 ("sch_date", '{"d":"2024-01-02"}\n{"d":"2024-1-2"}\n{"d":19000}\n{"d":"2024-01-02T10:00:00"}\n', "d DATE, _corrupt_record STRING"),
 ("sch_bool", '{"b":"true"}\n{"b":1}\n{"b":false}\n', "b BOOLEAN, _corrupt_record STRING"),
 ("sch_str", '{"s":1.50}\n{"s":true}\n{"s":{"k":[1,null]}}\n{"s":1e10}\n{"s":12345678901234567890}\n', "s STRING"),
 ("sch_top", '7\n[1,2]\n[{"a":1},2]\n', "a INT, _corrupt_record STRING"),
 ("sch_case", '{"A":1}\n', "a INT"),
 ("sch_long", '{"a":1.0}\n{"a":9223372036854775808}\n', "a LONG, _corrupt_record STRING"),
 ("sch_float", '{"a":1.1}\n{"a":1e40}\n', "a FLOAT, _corrupt_record STRING"),
]


def sql_literal(v):
    return "'" + str(v).replace("'", "''") + "'"


def deltalite_case(db, path, opts, schema):
    args = [sql_literal(path)] + [f"`{k}` => {sql_literal(v)}" for k, v in opts.items()]
    if schema is not None:
        args.append(f"schema => {sql_literal(schema)}")
    return arrow_result(db.query(f"SELECT * FROM read_json({', '.join(args)})"))


def main():
    spark = spark_session()
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="dl_json_cases_"))
    db = Deltalite(tmp)
    runs = [(n, t, o, None) for n, t, o in cases] + [(n, t, {}, s) for n, t, s in schemas]
    bad = 0
    for name, text, opts, schema in runs:
        path = tmp / f"{name}.json"
        path.write_text(text)
        reader = spark.read.options(**opts)
        if schema is not None:
            reader = reader.schema(schema)
        try:
            want = spark_result(reader.json(str(path)))
        except Exception as e:  # Spark refuses: deltalite must too
            want = ("error", str(e).split("]")[0] + "]")
        try:
            got = deltalite_case(db, str(path), opts, schema)
        except DeltaliteError as e:
            got = ("error", str(e)[:200])
        same = got == want or (want[0] == "error" and got[0] == "error")
        bad += not same
        print(json.dumps({"case": name, "same": same, "spark": want, "deltalite": got}))
    print(f"{len(runs)} cases, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
