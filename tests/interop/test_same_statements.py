"""The same statements on Spark and deltalite (issue 14, part 3): a scripted history and a short
random run (same_statements.py), each statement run on a Spark table and a deltalite table from
the same start and compared after it (commits with their operation, parameters and metrics,
contents at the last and an earlier version, DESCRIBE DETAIL, error classes)."""

import pytest

import engines
import same_statements
from same_statements import Pair

# One history through every write both engines have; `{t}` is each engine's table.
SCRIPT = [
    "CREATE TABLE {t} (id BIGINT, p STRING, d DECIMAL(10,2), s STRING) USING DELTA PARTITIONED BY (p) "
    "TBLPROPERTIES ('delta.checkpointInterval' = '3', 'team' = 'interop')",
    "INSERT INTO {t} VALUES (1, 'a', 1.50, 'x'), (2, 'a', 2.25, NULL), (3, 'b c', -3.00, 'y'), (4, 'b c', NULL, 'z')",
    "INSERT INTO {t} SELECT id + 10, p, d * 2, s FROM {t}",
    "UPDATE {t} SET d = d + 1 WHERE id % 2 = 0",
    "DELETE FROM {t} WHERE id = 13",
    "DELETE FROM {t} WHERE p = 'nowhere'",
    "UPDATE {t} SET s = 'never' WHERE id < 0",
    "MERGE INTO {t} t USING (SELECT * FROM VALUES (1L, 'upd'), (3L, 'del'), (100L, 'ins') AS src(id, op)) s "
    "ON t.id = s.id WHEN MATCHED AND s.op = 'del' THEN DELETE WHEN MATCHED THEN UPDATE SET t.s = s.op "
    "WHEN NOT MATCHED THEN INSERT (id, p, s) VALUES (s.id, 'a', s.op) "
    "WHEN NOT MATCHED BY SOURCE AND t.id > 12 THEN UPDATE SET t.d = 0",
    "MERGE INTO {t} t USING (SELECT 12345L AS id) s ON t.id = s.id WHEN MATCHED THEN DELETE",
    "MERGE INTO {t} t USING (SELECT * FROM VALUES (1L), (1L) AS src(id)) s ON t.id = s.id "
    "WHEN MATCHED THEN UPDATE SET t.s = 'twice'",
    "ALTER TABLE {t} SET TBLPROPERTIES ('team' = 'interop2', 'extra' = 'e')",
    "ALTER TABLE {t} UNSET TBLPROPERTIES ('extra')",
    "ALTER TABLE {t} UNSET TBLPROPERTIES IF EXISTS ('never.set')",
    "ALTER TABLE {t} UNSET TBLPROPERTIES ('never.set.either')",
    "ALTER TABLE {t} ADD COLUMNS (extra INT COMMENT 'added')",
    "INSERT INTO {t} (id, p, extra) VALUES (200, 'ü', 7)",
    "INSERT OVERWRITE {t} SELECT * FROM {t} WHERE id < 100",
    "OPTIMIZE {t}",
    "RESTORE TABLE {t} TO VERSION AS OF 4",
    "RESTORE TABLE {t} TO VERSION AS OF 1000",
    "SELECT * FROM {t} VERSION AS OF 1000",
    "INSERT INTO {t} SELECT * FROM {t} WHERE id < 0",
    "INSERT INTO {t} VALUES (1)",
    "UPDATE {t} SET nosuch = 1",
    "ALTER TABLE {t} SET TBLPROPERTIES ('delta.checkpointInterval' = '-1')",
    "CREATE OR REPLACE TABLE {t} USING DELTA PARTITIONED BY (p) AS SELECT id, p, d FROM {t} WHERE id > 2",
    "INSERT INTO {t} VALUES (300, 'z', 3.00)",
]


def test_scripted_history_agrees(spark, tmp_path):
    pair = Pair(spark, engines.Deltalite, tmp_path, spark_reads=False)
    found = []
    for step in SCRIPT:
        problems = pair.run(step)
        found += [f"{step[:120]}\n    {p}" for p in problems]
    found += [f"(Spark reads and describes both at the end)\n    {p}" for p in pair.final()]
    assert not found, "\n".join(found)


# The short random run of scripts/test: tables x statements of seed 14 (the long run is
# same_statements.py's main, reported in tests/interop/README.md).
SHORT_TABLES, SHORT_STATEMENTS = 1, 8


@pytest.mark.parametrize("index", range(SHORT_TABLES))
def test_random_statements_agree(spark, tmp_path, index):
    found, stats = same_statements.run_table(spark, engines.Deltalite, tmp_path, 14, index, SHORT_STATEMENTS,
                                             spark_reads=False)
    assert not found, "\n".join(f"{sql[:300]}\n    " + "\n    ".join(p) for sql, p in found)
    assert stats["statements"] >= SHORT_STATEMENTS
