"""User story 003 (/work/shared/seeds/003_a70260c2387ecaa4.txt, "Delta Lake Deep Dive in Azure
Databricks"): every PySpark cell, with only the imports changed, and the story's SQL cells run
through spark.sql between them. Each check is what the story says the reader sees."""

import datetime as dt

import pytest
from story_helpers import history_timestamp

# The story's imports, changed:
#   from pyspark.sql.functions import *   ->  from deltalite.spark.functions import *
#   from delta.tables import DeltaTable   ->  from deltalite.spark.tables import DeltaTable
from deltalite.spark.functions import *  # noqa: F403
from deltalite.spark.tables import DeltaTable


def rows(df, *cols):
    return [tuple(r[c] for c in cols) for r in df.collect()]


def version_0(spark):
    # ---- cell: Version 0 (story text verbatim) ----
    data = [
        (1, "Naveen", "Data Engineering", "Mississauga", 95000, "2023-01-15"),
        (2, "Shrey", "Data Science", "Toronto", 88000, "2023-03-20"),
        (3, "Vrushab", "DevOps", "Vancouver", 92000, "2023-06-10"),
        (4, "Vishnu", "Analytics", "Ottawa", 91000, "2023-09-01"),
        (5, "Ravi", "Engineering", "Calgary", 85000, "2024-01-05"),
    ]
    columns = ["emp_id", "name", "department", "city", "salary", "hire_date"]
    df = spark.createDataFrame(data, columns) .withColumn("hire_date", to_date(col("hire_date")))  # noqa: F405
    # Save as managed Delta table — this is VERSION 0
    df.write.format("delta").mode("overwrite").saveAsTable("delta_demo.employees")
    print("Table created: delta_demo.employees (Version 0)")
    return columns


def versions_0_to_4(spark):
    spark.sql("CREATE SCHEMA IF NOT EXISTS delta_demo")
    spark.sql("USE delta_demo")
    columns = version_0(spark)
    spark.sql("""INSERT INTO delta_demo.employees VALUES
        (6, 'Anita', 'Marketing', 'Montreal', 78000, '2024-03-15'),
        (7, 'Deepak', 'Finance', 'Edmonton', 82000, '2024-05-01')""")
    spark.sql("UPDATE delta_demo.employees SET salary = 105000, city = 'Toronto' WHERE emp_id = 1")
    spark.sql("DELETE FROM delta_demo.employees WHERE emp_id = 5")
    # ---- cell: Version 4 MERGE (verbatim) ----
    merge_data = [
        (2, "Shrey", "Machine Learning", "Toronto", 95000, "2023-03-20"),  # EXISTING — department changed, salary increased
        (8, "Manju", "QA", "Pune", 72000, "2024-07-01"),  # NEW
        (9, "Teja", "Backend", "Hyderabad", 88000, "2024-08-15"),  # NEW
    ]
    df_source = spark.createDataFrame(merge_data, columns) .withColumn("hire_date", to_date(col("hire_date")))  # noqa: F405
    # Load the target Delta table
    target_table = DeltaTable.forName(spark, "delta_demo.employees")
    # MERGE: update if exists, insert if new
    target_table.alias("target").merge(
        df_source.alias("source"),
        "target.emp_id = source.emp_id"
    ).whenMatchedUpdateAll() .whenNotMatchedInsertAll() .execute()
    print("MERGE completed — Version 4")
    return columns


def test_version_0_table(spark):
    spark.sql("CREATE SCHEMA IF NOT EXISTS delta_demo")
    version_0(spark)
    df = spark.sql("SELECT * FROM delta_demo.employees ORDER BY emp_id")
    assert df.columns == ["emp_id", "name", "department", "city", "salary", "hire_date"]
    assert df.dtypes == [("emp_id", "bigint"), ("name", "string"), ("department", "string"), ("city", "string"),
                         ("salary", "bigint"), ("hire_date", "date")]
    assert rows(df, "emp_id", "name", "city", "salary", "hire_date")[0] == (1, "Naveen", "Mississauga", 95000,
                                                                              dt.date(2023, 1, 15))
    assert df.count() == 5


def test_versions_history_and_time_travel(spark, capsys):
    versions_0_to_4(spark)
    current = spark.sql("SELECT * FROM delta_demo.employees ORDER BY emp_id")
    assert [r.emp_id for r in current.collect()] == [1, 2, 3, 4, 6, 7, 8, 9]  # 8 employees, Ravi gone
    shrey = current.filter(col("emp_id") == 2).collect()[0]  # noqa: F405
    assert (shrey.department, shrey.salary) == ("Machine Learning", 95000)
    history = spark.sql("DESCRIBE HISTORY delta_demo.employees").collect()
    assert [r.version for r in history] == [4, 3, 2, 1, 0]
    assert [r.operation for r in history][:4] == ["MERGE", "DELETE", "UPDATE", "WRITE"]
    assert history[3].operationParameters["mode"] == "Append"

    # ---- cell: Method 3: PySpark API (verbatim) ----
    # Read Version 0 programmatically
    df_v0 = spark.read.format("delta") .option("versionAsOf", 0) .table("delta_demo.employees")
    df_v0.show()
    print(f"Version 0 had {df_v0.count()} employees")
    out = capsys.readouterr().out
    assert "Version 0 had 5 employees" in out
    assert "|     1| Naveen|Data Engineering|Mississauga| 95000|2023-01-15|" in out

    # Read by timestamp: the story's '2026-05-05 10:12:00' is a time from its own history
    # (between versions 1 and 2); here the same point is version 1's commit time.
    ts = history_timestamp(spark, "delta_demo.employees", 1)
    df_past = spark.read.format("delta") .option("timestampAsOf", ts) .table("delta_demo.employees")
    df_past.show()
    assert df_past.count() == 7

    # ---- cell: Compare Two Versions (verbatim) ----
    df_v1 = spark.read.format("delta").option("versionAsOf", 1).table("delta_demo.employees")
    df_v3 = spark.read.format("delta").option("versionAsOf", 3).table("delta_demo.employees")
    # Find rows in Version 1 but NOT in Version 3 (deleted or changed)
    df_deleted = df_v1.exceptAll(df_v3)
    print("Rows removed or changed between V1 and V3:")
    df_deleted.show()
    # Find rows in Version 3 but NOT in Version 1 (new or changed)
    df_added = df_v3.exceptAll(df_v1)
    print("Rows added or changed between V1 and V3:")
    df_added.show()
    assert sorted(rows(df_deleted, "emp_id", "city", "salary")) == [(1, "Mississauga", 95000), (5, "Calgary", 85000)]
    assert rows(df_added, "emp_id", "city", "salary") == [(1, "Toronto", 105000)]

    # ---- cell: Track One Employee Across All Versions (verbatim) ----
    capsys.readouterr()
    print("Naveen's journey through time:")
    print("=" * 60)
    for v in range(5):
        try:
            df_v = spark.read.format("delta").option("versionAsOf", v).table("delta_demo.employees")
            naveen = df_v.filter(col("emp_id") == 1).collect()  # noqa: F405
            if naveen:
                row = naveen[0]
                print(f"Version {v}: city={row['city']}, salary={row['salary']}, dept={row['department']}")
            else:
                print(f"Version {v}: Not found (deleted)")
        except Exception as e:
            print(f"Version {v}: Error - {e}")
    assert capsys.readouterr().out.splitlines()[2:] == [
        "Version 0: city=Mississauga, salary=95000, dept=Data Engineering",
        "Version 1: city=Mississauga, salary=95000, dept=Data Engineering",
        "Version 2: city=Toronto, salary=105000, dept=Data Engineering",
        "Version 3: city=Toronto, salary=105000, dept=Data Engineering",
        "Version 4: city=Toronto, salary=105000, dept=Data Engineering",
    ]


def test_restore_vacuum_schema_evolution_and_table_api(spark, capsys):
    versions_0_to_4(spark)
    spark.sql("RESTORE TABLE delta_demo.employees TO VERSION AS OF 1")
    restored = spark.sql("SELECT * FROM delta_demo.employees ORDER BY emp_id").collect()
    assert [r.emp_id for r in restored] == [1, 2, 3, 4, 5, 6, 7]  # 7 employees, Ravi back
    assert (restored[0].salary, restored[0].city) == (95000, "Mississauga")
    spark.sql("RESTORE TABLE delta_demo.employees TO VERSION AS OF 4")
    assert spark.sql("SELECT * FROM delta_demo.employees").count() == 8
    history = spark.sql("DESCRIBE HISTORY delta_demo.employees").collect()
    assert [(r.version, r.operation) for r in history[:2]] == [(6, "RESTORE"), (5, "RESTORE")]

    spark.sql("DESCRIBE DETAIL delta_demo.employees")
    spark.sql("VACUUM delta_demo.employees RETAIN 168 HOURS")
    assert spark.read.format("delta").option("versionAsOf", 0).table("delta_demo.employees").count() == 5

    spark.sql("SET spark.databricks.delta.retentionDurationCheck.enabled = false")
    spark.sql("VACUUM delta_demo.employees RETAIN 0 HOURS")
    # -- Time travel to old versions will FAIL after this!
    with pytest.raises(Exception):
        spark.read.format("delta").option("versionAsOf", 0).table("delta_demo.employees").collect()

    # ---- cell: Without mergeSchema (Fails) (verbatim) ----
    new_data = [
        (10, "Sanju", "Backend", "Pune", 89000, "2024-09-01", "Senior"),
        (11, "Ayushi", "Frontend", "Jaipur", 86000, "2024-10-15", "Junior"),
    ]
    df_new = spark.createDataFrame(new_data,
        ["emp_id", "name", "department", "city", "salary", "hire_date", "level"]) .withColumn("hire_date", to_date(col("hire_date")))  # noqa: E128,F405
    # This FAILS — new column 'level' does not exist in the table
    try:
        df_new.write.format("delta").mode("append").saveAsTable("delta_demo.employees")
    except Exception as e:
        print(f"ERROR: {e}")
        print("Need to enable schema evolution!")
    out = capsys.readouterr().out
    assert "ERROR: " in out and "level" in out and "Need to enable schema evolution!" in out
    assert spark.sql("SELECT * FROM delta_demo.employees").count() == 8

    # ---- cell: With mergeSchema (Works) (verbatim) ----
    df_new.write .format("delta") .mode("append") .option("mergeSchema", "true") .saveAsTable("delta_demo.employees")
    print("Schema evolved! New column 'level' added automatically.")
    evolved = spark.sql("SELECT emp_id, name, city, salary, level FROM delta_demo.employees ORDER BY emp_id")
    got = rows(evolved, "emp_id", "name", "salary", "level")
    assert got[0] == (1, "Naveen", 105000, None) and got[1] == (2, "Shrey", 95000, None)
    assert got[-2:] == [(10, "Sanju", 89000, "Senior"), (11, "Ayushi", 86000, "Junior")]

    # ---- cell: DESCRIBE DETAIL, programmatic (verbatim) ----
    detail = spark.sql("DESCRIBE DETAIL delta_demo.employees").collect()[0]
    print(f"Format: {detail['format']}")
    print(f"Files: {detail['numFiles']}")
    print(f"Size: {detail['sizeInBytes'] / 1024:.1f} KB")
    print(f"Location: {detail['location']}")
    out = capsys.readouterr().out
    assert "Format: delta" in out and "Location: " in out and "employees" in out
    assert detail["numFiles"] >= 1

    # ---- cell: DeltaTable API — Python Access (verbatim) ----
    # Load the Delta table as a DeltaTable object
    dt_ = DeltaTable.forName(spark, "delta_demo.employees")
    # Get the history
    dt_.history().show(truncate=False)
    # Get the current version number
    latest_version = dt_.history(1).select("version").collect()[0][0]
    print(f"Current version: {latest_version}")
    # Convert to DataFrame for transformations
    df = dt_.toDF()
    df.show()
    # Delete using DeltaTable API
    dt_.delete("emp_id = 99")  # Delete rows matching condition
    # Update using DeltaTable API
    dt_.update(
        condition="emp_id = 2",
        set={"salary": "100000"}
    )
    history = spark.sql("DESCRIBE HISTORY delta_demo.employees").collect()
    # The DELETE matched no row and committed nothing (as Delta's DeleteCommand); the UPDATE did.
    assert [r.operation for r in history[:2]] == ["UPDATE", "WRITE"]
    assert f"Current version: {history[1].version}" in capsys.readouterr().out
    assert spark.sql("SELECT salary FROM delta_demo.employees WHERE emp_id = 2").collect()[0][0] == 100000
    assert df.count() == 10  # toDF reads the table as it is now, as Spark's does
