"""User story 000 (/work/shared/seeds/000_8e00c5c224abf11f.txt, "Implementing Delta Lake Time
Travel in a Fabric Lakehouse"): every PySpark cell, with only the imports changed. The story
starts at version 2 (its versions 0 and 1 are not shown), so `gold_sales_orders` first gets a
9-row load (v0) and a late-arriving row (v1), written here with the same API. Paths are the
story's, relative to the working directory (the test's folder), as in a Fabric notebook."""

import re

import pytest
from story_helpers import history_timestamp

# Changed imports: pyspark.sql.functions -> deltalite.spark.functions,
# delta.tables -> deltalite.spark.tables.
from deltalite.spark.functions import col, current_timestamp, lit
from deltalite.spark.functions import sum as _sum
from deltalite.spark.tables import DeltaTable

PATH = "Tables/gold_sales_orders"
V0_ROWS = [
    ("2024-01-01", "Electronics", "AMER", 1_250_000.00, 410),
    ("2024-01-01", "Electronics", "EMEA", 980_000.00, 322),
    ("2024-01-01", "Apparel", "APAC", 310_500.00, 1_204),
    ("2024-01-02", "Electronics", "AMER", 1_105_250.00, 388),
    ("2024-01-02", "Home", "EMEA", 420_000.00, 611),
    ("2024-01-02", "Apparel", "AMER", 288_000.00, 1_010),
    ("2024-01-03", "Home", "APAC", 199_900.00, 402),
    ("2024-01-03", "Electronics", "EMEA", 1_010_000.00, 345),
]
V1_ROW = ("2024-01-03", "Apparel", "AMER", 301_250.00, 1_077)
COLUMNS = ["order_date", "category", "region", "revenue", "order_count"]


def build_versions_0_to_3(spark):
    # Versions 0 and 1 (not in the story): the initial load and a late row.
    df = spark.createDataFrame(V0_ROWS, COLUMNS).withColumn("order_date", col("order_date").cast("date"))
    df.write.format("delta").mode("overwrite").save(PATH)
    late = spark.createDataFrame([V1_ROW], COLUMNS).withColumn("order_date", col("order_date").cast("date"))
    late.write.format("delta").mode("append").save(PATH)

    # ---- cell: Version 2 (verbatim) ----
    dt = DeltaTable.forPath(spark, "Tables/gold_sales_orders")
    dt.update(
        condition="order_date = '2024-01-01' AND category = 'Electronics' AND region = 'AMER'",
        set={"revenue": lit(1_312_750.00)}
    )
    print("Version 2 written: revenue correction for Electronics AMER Jan 1")
    # ---- Version 3: THE BAD WRITE ----
    # Simulate the overnight job that accidentally multiplied all revenues by 10
    df_corrupted = spark.read.format("delta").load("Tables/gold_sales_orders")
    df_corrupted = df_corrupted.withColumn("revenue", col("revenue") * 10)
    df_corrupted.write.format("delta").mode("overwrite").save(
        "Tables/gold_sales_orders"
    )
    print("Version 3 written: CORRUPTED DATA — revenue multiplied by 10!")


def revenue_by_key(df):
    return {(str(r.order_date), r.category, r.region): r.revenue for r in df.collect()}


@pytest.fixture
def table(spark):
    build_versions_0_to_3(spark)
    return spark


def test_bad_write_history_and_time_travel(table, capsys):
    spark = table
    # ---- cell: Confirm current state is corrupted (verbatim) ----
    spark.read.format("delta").load("Tables/gold_sales_orders").show()
    current = revenue_by_key(spark.read.format("delta").load(PATH))
    clean = revenue_by_key(spark.read.format("delta").option("versionAsOf", 2).load(PATH))
    assert len(current) == 9 and all(current[k] == clean[k] * 10 for k in clean)

    # The history the story describes: newest first, v3 an overwrite of all 9 rows.
    history = DeltaTable.forPath(spark, PATH).history().collect()
    assert [r.version for r in history] == [3, 2, 1, 0]
    assert history[0].operation == "WRITE" and history[0].operationParameters["mode"] == "Overwrite"
    assert history[0].operationMetrics["numOutputRows"] == "9"
    assert history[1].operation == "UPDATE"

    # ---- cell: Querying by Version Number (verbatim) ----
    df_v2 = (
        spark.read
        .format("delta")
        .option("versionAsOf", 2)
        .load("Tables/gold_sales_orders")
    )
    print(f"Row count at version 2: {df_v2.count()}")
    df_v2.show()
    assert "Row count at version 2: 9" in capsys.readouterr().out
    assert clean[("2024-01-01", "Electronics", "AMER")] == 1_312_750.00

    # ---- cell: version 0 and the totals (verbatim) ----
    df_v0 = (
        spark.read
        .format("delta")
        .option("versionAsOf", 0)
        .load("Tables/gold_sales_orders")
    )
    v0_total = df_v0.agg(_sum("revenue").alias("total_revenue")).collect()[0]["total_revenue"]
    v2_total = df_v2.agg(_sum("revenue").alias("total_revenue")).collect()[0]["total_revenue"]
    print(f"Revenue total at v0: ${v0_total:,.2f}")
    print(f"Revenue total at v2: ${v2_total:,.2f}")
    print(f"Difference (the correction): ${v2_total - v0_total:,.2f}")
    out = capsys.readouterr().out
    v0_sum = sum(r[3] for r in V0_ROWS)
    assert f"Revenue total at v0: ${v0_sum:,.2f}" in out
    assert f"Difference (the correction): ${1_312_750.00 - 1_250_000.00 + V1_ROW[3]:,.2f}" in out

    # ---- cell: Querying by Timestamp ("adjust to your actual timestamps": version 2's) ----
    clean_timestamp = history_timestamp(spark, f"delta.`{PATH}`", 2)
    df_clean = (
        spark.read
        .format("delta")
        .option("timestampAsOf", clean_timestamp)
        .load("Tables/gold_sales_orders")
    )
    df_clean.show()
    assert revenue_by_key(df_clean) == clean


def test_restore_to_version(table, capsys):
    spark = table
    clean_total = sum(revenue_by_key(spark.read.format("delta").option("versionAsOf", 2).load(PATH)).values())
    # ---- cell: Method 1: RESTORE TABLE (verbatim) ----
    dt = DeltaTable.forPath(spark, "Tables/gold_sales_orders")
    # Restore to version 2 — the last known-good state
    restore_result = dt.restoreToVersion(2)
    restore_result.show()
    # ---- cell: After the restore, verify (verbatim) ----
    # Confirm version 4 now exists (the restore is its own commit)
    dt.history().select("version", "timestamp", "operation").show()
    # Verify row counts and revenue totals match what we expected from v2
    df_restored = spark.read.format("delta").load("Tables/gold_sales_orders")
    df_restored.agg(_sum("revenue").alias("total"), _sum("order_count").alias("orders")).show()

    out = capsys.readouterr().out
    assert re.search(r"\|\s+4\|[^|]+\|\s*RESTORE\|", out), out
    history = dt.history().collect()
    assert history[0].operation == "RESTORE" and history[0].operationParameters["version"] == "2"
    total = df_restored.agg(_sum("revenue").alias("total")).collect()[0]["total"]
    assert total == pytest.approx(clean_total)
    # Version 3 stays readable: the corrupt state is still there for investigation.
    assert spark.read.format("delta").option("versionAsOf", 3).load(PATH).count() == 9


def test_restore_to_timestamp(table):
    spark = table
    dt = DeltaTable.forPath(spark, "Tables/gold_sales_orders")
    # ---- cell: restore by timestamp (the story's time adjusted to version 2's commit) ----
    dt.restoreToTimestamp(history_timestamp(spark, f"delta.`{PATH}`", 2))
    assert revenue_by_key(spark.read.format("delta").load(PATH)) == revenue_by_key(
        spark.read.format("delta").option("versionAsOf", 2).load(PATH))
    assert dt.history(1).collect()[0].operation == "RESTORE"


def test_overwrite_from_historical_read(table):
    spark = table
    # ---- cell: Method 2: INSERT OVERWRITE from a Historical Read (verbatim) ----
    # Read the clean state
    df_clean = (
        spark.read
        .format("delta")
        .option("versionAsOf", 2)
        .load("Tables/gold_sales_orders")
    )
    # Overwrite the table with the clean data
    # This creates a new version (not a restore — the operation will show as WRITE)
    df_clean.write.format("delta").mode("overwrite").save("Tables/gold_sales_orders")
    last = DeltaTable.forPath(spark, PATH).history(1).collect()[0]
    assert (last.version, last.operation) == (4, "WRITE")
    assert revenue_by_key(spark.read.format("delta").load(PATH)) == revenue_by_key(df_clean)


def test_partial_rollback_with_merge(table, capsys):
    spark = table
    clean = revenue_by_key(spark.read.format("delta").option("versionAsOf", 2).load(PATH))
    # ---- cell: Handling Partial Rollbacks (verbatim) ----
    # Read the correct AMER data from version 2
    df_correct_amer = (
        spark.read
        .format("delta")
        .option("versionAsOf", 2)
        .load("Tables/gold_sales_orders")
        .filter("region = 'AMER'")
    )
    # Use MERGE to update only the affected rows
    dt = DeltaTable.forPath(spark, "Tables/gold_sales_orders")
    dt.alias("target").merge(
        df_correct_amer.alias("source"),
        """
        target.order_date = source.order_date AND
        target.category = source.category AND
        target.region = source.region
        """
    ).whenMatchedUpdateAll().execute()
    print("Surgical fix applied — only AMER rows updated from historical version")
    after = revenue_by_key(spark.read.format("delta").load(PATH))
    for key, revenue in after.items():
        assert revenue == (clean[key] if key[2] == "AMER" else clean[key] * 10), key
    assert dt.history(1).collect()[0].operation == "MERGE"


def test_audit_snapshot(table, capsys):
    spark = table

    # ---- cell: Reading DESCRIBE HISTORY Programmatically (verbatim) ----
    def capture_table_audit_snapshot(table_path: str, table_name: str, audit_table_path: str):
        """
        Reads the full history of a Delta table and appends new entries
        to a persistent audit log Delta table.
        """
        dt = DeltaTable.forPath(spark, table_path)
        history_df = dt.history().select(
            lit(table_name).alias("table_name"),
            col("version"),
            col("timestamp").alias("operation_timestamp"),
            col("operation"),
            col("operationParameters").cast("string").alias("operation_parameters"),
            col("operationMetrics").cast("string").alias("operation_metrics"),
            col("userName").alias("executed_by"),
            col("clusterId").alias("cluster_id"),
            col("readVersion").alias("read_version"),
            col("isolationLevel").alias("isolation_level"),
            col("isBlindAppend").alias("is_blind_append"),
            current_timestamp().alias("audit_captured_at")
        )
        # Append to audit log (upsert logic would be better in production)
        history_df.write.format("delta").mode("append").save(audit_table_path)
        print(f"Captured {history_df.count()} history entries for {table_name}")

    # Run against your table
    capture_table_audit_snapshot(
        "Tables/gold_sales_orders",
        "gold_sales_orders",
        "Tables/delta_audit_log"
    )
    # Query the audit log
    audit_df = spark.read.format("delta").load("Tables/delta_audit_log")
    # Which operations touched gold_sales_orders and what was their impact?
    audit_df.filter("table_name = 'gold_sales_orders'") \
        .orderBy("operation_timestamp", ascending=False) \
        .show(truncate=False)

    out = capsys.readouterr().out
    assert "Captured 4 history entries for gold_sales_orders" in out
    audit = audit_df.orderBy("version").collect()
    assert [(r.version, r.operation) for r in audit] == [(0, "CREATE TABLE AS SELECT"), (1, "WRITE"), (2, "UPDATE"),
                                                         (3, "WRITE")]
    assert audit[3].operation_parameters.startswith("{mode -> Overwrite")
    assert "|gold_sales_orders|3      |" in out  # newest first, values left-aligned (truncate=False)


def test_raw_log_cells(table, capsys):
    spark = table
    # ---- cell: Reading the Raw Transaction Log Files (verbatim; imports changed) ----
    import json  # noqa: F401
    from deltalite.spark.functions import explode  # noqa: F401
    # Read all commit log files from the _delta_log directory
    log_path = "Tables/gold_sales_orders/_delta_log/*.json"
    raw_log = spark.read.text(log_path)
    raw_log.show(5, truncate=False)
    out = capsys.readouterr().out
    assert out.startswith("+---") and '{"commitInfo":' in out and "only showing top 5 rows" in out

    # ---- cell: Parse commit log to extract file-level add/remove actions (verbatim) ----
    # (the cell calls regexp_extract and get_json_object without importing them: imported here)
    from deltalite.spark.functions import get_json_object, regexp_extract
    from deltalite.spark.types import StructType, StructField, StringType, LongType, BooleanType, MapType  # noqa: F401
    from deltalite.spark.functions import from_json, col, input_file_name
    # Read with file source information to know which commit version each action belongs to
    raw_log_with_source = (
        spark.read
        .text("Tables/gold_sales_orders/_delta_log/*.json")
        .withColumn("source_file", input_file_name())
        # Extract version number from filename (e.g., 00000000000000000003.json -> 3)
        .withColumn(
            "commit_version",
            regexp_extract(col("source_file"), r"(\d+)\.json$", 1).cast("long")
        )
    )
    # Parse the "add" actions to see which files were written
    add_schema = StructType([
        StructField("path", StringType()),
        StructField("size", LongType()),
        StructField("modificationTime", LongType()),
        StructField("dataChange", BooleanType()),
        StructField("stats", StringType())
    ])
    adds_df = (
        raw_log_with_source
        .filter(col("value").contains('"add"'))
        .withColumn("add_action", from_json(
            get_json_object(col("value"), "$.add"), add_schema
        ))
        .filter(col("add_action").isNotNull())
        .select(
            "commit_version",
            col("add_action.path").alias("file_path"),
            col("add_action.size").alias("file_size_bytes"),
            col("add_action.dataChange").alias("is_data_change")
        )
    )
    adds_df.orderBy("commit_version").show(truncate=False)

    adds = adds_df.orderBy("commit_version").collect()
    assert sorted({r.commit_version for r in adds}) == [0, 1, 2, 3]  # every version added files
    assert all(r.file_path.endswith(".parquet") and r.file_size_bytes > 0 and r.is_data_change for r in adds)
    files = {r.file_path for r in adds}
    import os
    assert all(os.path.isfile(os.path.join(PATH, f)) for f in files)  # nothing vacuumed yet
    assert "|commit_version|file_path" in capsys.readouterr().out


def test_input_file_name_elsewhere_is_refused(table):
    spark = table
    with pytest.raises(NotImplementedError, match="input_file_name"):
        spark.read.format("delta").load(PATH).withColumn("f", input_file_name_())


def input_file_name_():
    from deltalite.spark.functions import input_file_name

    return input_file_name()


def test_retention_and_vacuum_cells(table, capsys):
    spark = table
    # ---- cell: Checking and Configuring Retention (verbatim) ----
    dt = DeltaTable.forPath(spark, "Tables/gold_sales_orders")
    assert dt.toDF().count() == 9
    # View all table properties
    spark.sql("DESCRIBE DETAIL delta.`Tables/gold_sales_orders`").select(
        "name", "location", "createdAt", "lastModified", "numFiles", "sizeInBytes",
        "properties"
    ).show(truncate=False)
    # Set a longer retention window — e.g., 30 days for audit compliance
    spark.sql("""
    ALTER TABLE delta.`Tables/gold_sales_orders`
    SET TBLPROPERTIES (
    'delta.deletedFileRetentionDuration' = 'interval 30 days',
    'delta.logRetentionDuration' = 'interval 30 days'
    )
    """)
    out = capsys.readouterr().out
    assert "|name|location" in out and "gold_sales_orders" in out
    props = spark.sql("DESCRIBE DETAIL delta.`Tables/gold_sales_orders`").collect()[0]["properties"]
    assert props["delta.deletedFileRetentionDuration"] == "interval 30 days"
    assert props["delta.logRetentionDuration"] == "interval 30 days"

    # ---- cell: Running VACUUM Safely (verbatim) ----
    # Dry run: shows which files WOULD be deleted without actually deleting them
    spark.sql("""
    VACUUM delta.`Tables/gold_sales_orders` DRY RUN
    """).show(truncate=False)
    # Actually run VACUUM with an explicit retention period
    # This removes files older than 30 days that are no longer part of the current table
    spark.sql("""
    VACUUM delta.`Tables/gold_sales_orders` RETAIN 720 HOURS
    """)
    # Nothing is 30 days old: every version stays readable.
    assert spark.read.format("delta").option("versionAsOf", 0).load(PATH).count() == 8


def test_troubleshooting_checkpoint_cell_fails_as_in_pyspark(table):
    spark = table
    dt = DeltaTable.forPath(spark, "Tables/gold_sales_orders")
    # ---- cell: force a checkpoint ----
    # delta-spark's DeltaTable has no createOrReplaceTempView (the cell's first line fails
    # there too), and dt._jdt is the JVM object: neither exists without a JVM.
    with pytest.raises(AttributeError, match="createOrReplaceTempView"):
        dt.createOrReplaceTempView("my_table")
    with pytest.raises(AttributeError):
        dt._jdt.checkpoint(False)
    # What the cell means to do, spelled the way deltalite.spark has it:
    dt.toDF().createOrReplaceTempView("my_table")
    assert spark.sql("SELECT count(*) AS n FROM my_table").collect()[0].n == 9
