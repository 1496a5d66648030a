"""User story 001 (/work/shared/seeds/001_b57c66eb39c6c049.txt, "Delta Lake History, Time
Travel and Data Recovery", PySpark.in): the PySpark cells with only the imports changed, the
SQL cells through spark.sql. The table comes from the course's previous lesson (not in the
story): CREATE TABLE, then three MERGEs of daily driver files (10 inserted; 5 updated + 5
inserted; 5 updated + 5 inserted), written here with DeltaTable.merge."""

from story_helpers import history_timestamp

# Changed import: Databricks' notebook display() comes from deltalite.spark.
from deltalite.spark import display
from deltalite.spark.functions import col, upper
from deltalite.spark.tables import DeltaTable

COLUMNS = ["driverId", "forename", "surname"]
DAY1 = [(i, f"forename{i}", f"surname{i}") for i in range(1, 11)]
DAY2 = [(i, f"FORENAME{i}", f"SURNAME{i}") for i in range(6, 16)]
DAY3 = [(i, f"FORENAME{i}", f"SURNAME{i}") for i in list(range(1, 6)) + list(range(16, 21))]


def previous_lesson(spark):
    spark.sql("CREATE SCHEMA IF NOT EXISTS f1_demo")
    spark.sql("CREATE TABLE IF NOT EXISTS f1_demo.drivers_merge (driverId INT, forename STRING, surname STRING) "
              "USING DELTA")
    target = DeltaTable.forName(spark, "f1_demo.drivers_merge")
    for day in (DAY1, DAY2, DAY3):
        source = spark.createDataFrame(day, COLUMNS).withColumn("driverId", col("driverId").cast("int"))
        (target.alias("tgt").merge(source.alias("upd"), "tgt.driverId = upd.driverId")
         .whenMatchedUpdate(set={"forename": "upd.forename", "surname": upper(col("upd.surname"))})
         .whenNotMatchedInsert(values={"driverId": "upd.driverId", "forename": "upd.forename",
                                       "surname": "upd.surname"})
         .execute())


def test_history_and_sql_time_travel(spark):
    previous_lesson(spark)
    history = spark.sql("DESCRIBE HISTORY f1_demo.drivers_merge").collect()
    assert [(r.version, r.operation) for r in history] == [(3, "MERGE"), (2, "MERGE"), (1, "MERGE"),
                                                           (0, "CREATE TABLE")]
    metrics = [(r.operationMetrics["numTargetRowsInserted"], r.operationMetrics["numTargetRowsUpdated"])
               for r in history[:3]]
    assert metrics == [("5", "5"), ("5", "5"), ("10", "0")]
    v1 = spark.sql("SELECT * FROM f1_demo.drivers_merge VERSION AS OF 1 ORDER BY driverId").collect()
    assert [r.driverId for r in v1] == list(range(1, 11)) and v1[0].forename == "forename1"
    v2 = spark.sql("SELECT * FROM f1_demo.drivers_merge VERSION AS OF 2 ORDER BY driverId").collect()
    assert len(v2) == 15
    assert [r.forename for r in v2[:5]] == [f"forename{i}" for i in range(1, 6)]  # 1-5 unchanged
    assert [r.forename for r in v2[5:10]] == [f"FORENAME{i}" for i in range(6, 11)]  # 6-10 updated


def test_pyspark_time_travel_cells(spark, capsys):
    previous_lesson(spark)
    # "Use the actual storage location of the Delta table" (DESCRIBE DETAIL's location).
    location = spark.sql("DESCRIBE DETAIL f1_demo.drivers_merge").collect()[0]["location"]

    # ---- cell: PYSPARK — READ A PREVIOUS TABLE VERSION (path changed as the note says) ----
    delta_path = location

    df = (spark.read.format('delta')
          .option('versionAsOf', 1)
          .load(delta_path))

    display(df)
    out = capsys.readouterr().out
    assert df.count() == 10 and "|forename10|" in out

    # ---- cell: PYSPARK — READ DATA BY TIMESTAMP (a timestamp from the table's history) ----
    df = (spark.read.format('delta')
          .option('timestampAsOf', history_timestamp(spark, "f1_demo.drivers_merge", 2))
          .load(delta_path))

    display(df)
    assert df.count() == 15


def test_the_placeholder_timestamp_is_refused_clearly(spark):
    previous_lesson(spark)
    location = spark.sql("DESCRIBE DETAIL f1_demo.drivers_merge").collect()[0]["location"]
    try:
        spark.read.format('delta').option('timestampAsOf', 'YYYY-MM-DD HH:MM:SS').load(location)
    except Exception as e:
        assert "YYYY-MM-DD HH:MM:SS" in str(e)
    else:
        raise AssertionError("a timestamp that is not a timestamp was accepted")


def test_vacuum_delete_and_merge_recovery(spark):
    previous_lesson(spark)
    spark.sql("VACUUM f1_demo.drivers_merge")  # default retention: nothing is old enough
    assert spark.sql("SELECT * FROM f1_demo.drivers_merge VERSION AS OF 1").count() == 10

    spark.sql("DELETE FROM f1_demo.drivers_merge WHERE driverId = 1")
    assert spark.sql("SELECT COUNT(*) AS current_count FROM f1_demo.drivers_merge").collect()[0].current_count == 19
    assert spark.sql("SELECT COUNT(*) AS prior_count FROM f1_demo.drivers_merge VERSION AS OF 3"
                     ).collect()[0].prior_count == 20
    spark.sql("""
MERGE INTO f1_demo.drivers_merge AS tgt
USING (
SELECT *
FROM f1_demo.drivers_merge VERSION AS OF 3
WHERE driverId = 1
) AS src
ON tgt.driverId = src.driverId
WHEN NOT MATCHED THEN INSERT *;
""")
    assert spark.sql("SELECT * FROM f1_demo.drivers_merge").count() == 20
    restored = spark.sql("SELECT * FROM f1_demo.drivers_merge WHERE driverId = 1").collect()
    assert [(r.driverId, r.forename) for r in restored] == [(1, "FORENAME1")]
    history = spark.sql("DESCRIBE HISTORY f1_demo.drivers_merge").collect()
    assert [r.operation for r in history[:2]] == ["MERGE", "DELETE"]
