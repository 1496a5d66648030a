"""What the story tests share."""


def history_timestamp(spark, table, version):
    """The commit timestamp of a version, as text DESCRIBE HISTORY shows it (what the stories
    tell the reader to copy into timestampAsOf)."""
    rows = spark.sql(f"SELECT CAST(timestamp AS STRING) AS ts FROM (DESCRIBE HISTORY {table}) "
                     f"WHERE version = {version}").collect()
    return rows[0]["ts"]
