"""DataFrame operations written once against PySpark's API, run by make_golden.py on Apache
Spark (pyspark from the interop venv) and by test_dataframe_vs_spark.py on deltalite.spark:
each case takes (spark, F) -- a session and its functions module -- and returns a DataFrame."""

PEOPLE = [
    (1, "Ann", "NY", 34, 1200.5),
    (2, "Bob", "SF", None, 980.0),
    (3, "Cid", "NY", 29, None),
    (4, "Dee", "LA", 41, 1500.25),
    (5, "Eve", "SF", 34, 700.0),
]
CITIES = [("NY", "East"), ("SF", "West"), ("TX", "South")]
TYPED_SCHEMA = ("d DECIMAL(5,2), dt DATE, ts TIMESTAMP, arr ARRAY<INT>, m MAP<STRING,INT>, st STRUCT<a:INT,b:STRING>, "
                "bin BINARY, flag BOOLEAN, big DOUBLE, small DOUBLE, n INT")


def typed(spark):
    import datetime
    import decimal

    from pyspark_row import row_class

    Row = row_class(spark)
    return spark.createDataFrame([
        (decimal.Decimal("12.50"), datetime.date(2024, 2, 29), datetime.datetime(2024, 3, 1, 8, 30, 0),
         [1, None, 3], {"k": 1}, Row(a=1, b="x"), b"\x01\xff", True, 1.0e10, 0.0001, None),
        (decimal.Decimal("-0.05"), None, datetime.datetime(2024, 3, 1, 8, 30, 0, 123456), [], {}, None, None,
         False, -2.5, 123456789.125, 7),
    ], TYPED_SCHEMA)


def people(spark):
    return spark.createDataFrame(PEOPLE, ["id", "name", "city", "age", "score"])


def cities(spark):
    return spark.createDataFrame(CITIES, ["city", "coast"])


def _w(s):
    from pyspark_row import window_class

    return window_class(s)


def _order(df):
    return df.orderBy(*df.columns)


CASES = {
    "select_names": lambda s, F: people(s).select("id", "name"),
    "select_list": lambda s, F: people(s).select(["name", "city"]),
    "select_expressions": lambda s, F: people(s).select(F.col("id"), (F.col("score") * 2).alias("double_score"),
                                                        (F.col("age") + 1).alias("next_age")),
    "select_unnamed_arithmetic": lambda s, F: people(s).select(F.col("score") * 10, F.col("age") - 1),
    "filter_string": lambda s, F: people(s).filter("city = 'NY' AND age > 30"),
    "filter_column": lambda s, F: people(s).filter((F.col("age") >= 34) | F.col("score").isNull()),
    "where_isin": lambda s, F: people(s).where(F.col("city").isin("SF", "LA")),
    "where_not": lambda s, F: people(s).where(~(F.col("city") == "NY")),
    "df_attribute_columns": lambda s, F: (lambda df: df.filter(df.age > 30).select(df.name, df["city"]))(people(s)),
    "with_column_new": lambda s, F: people(s).withColumn("bonus", F.col("score") * 0.1),
    "with_column_replace": lambda s, F: people(s).withColumn("score", F.col("score") * 10),
    "with_column_lit": lambda s, F: people(s).withColumn("one", F.lit(1)).withColumn("flag", F.lit(True))
                                             .withColumn("label", F.lit("x")).withColumn("f", F.lit(2.5)),
    "with_column_renamed": lambda s, F: people(s).withColumnRenamed("name", "full_name"),
    "drop": lambda s, F: people(s).drop("score", "no_such_column"),
    "group_agg": lambda s, F: _order(people(s).groupBy("city").agg(F.sum("score").alias("total"),
                                                                   F.count("*").alias("n"),
                                                                   F.avg("age").alias("mean_age"),
                                                                   F.min("age").alias("youngest"),
                                                                   F.max("score").alias("best"))),
    "group_agg_default_names": lambda s, F: _order(people(s).groupBy("city").agg(F.sum("score"), F.count("id"),
                                                                                 F.max("age"))),
    "group_count": lambda s, F: _order(people(s).groupBy("city").count()),
    "group_dict": lambda s, F: _order(people(s).groupBy("city").agg({"age": "max"})),
    "group_shortcut_sum": lambda s, F: _order(people(s).groupBy("city").sum("score")),
    "agg_whole": lambda s, F: people(s).agg(F.sum("age").alias("ages"), F.countDistinct("city").alias("cities")),
    "order_desc": lambda s, F: people(s).orderBy(F.col("score").desc()),
    "order_ascending_list": lambda s, F: people(s).orderBy(["city", "id"], ascending=[False, True]),
    "sort_ascending_false": lambda s, F: people(s).sort("id", ascending=False),
    "limit": lambda s, F: people(s).orderBy("id").limit(2),
    "distinct": lambda s, F: _order(people(s).select("city").distinct()),
    "except_all": lambda s, F: _order(people(s).exceptAll(people(s).filter("id > 2"))),
    "subtract": lambda s, F: _order(people(s).select("city").subtract(cities(s).select("city"))),
    "intersect": lambda s, F: _order(people(s).select("city").intersect(cities(s).select("city"))),
    "union": lambda s, F: _order(people(s).select("city").union(cities(s).select("city"))),
    "union_by_name": lambda s, F: _order(cities(s).unionByName(cities(s).select("coast", "city"))),
    "join_on_name": lambda s, F: _order(people(s).join(cities(s), "city")),
    "join_left_on_column": lambda s, F: (lambda p, c: _order(p.join(c, p.city == c.city, "left")
                                                              .select(p.name, c.coast)))(people(s), cities(s)),
    "join_left_anti": lambda s, F: _order(people(s).join(cities(s), ["city"], "left_anti")),
    "join_aliases": lambda s, F: _order(people(s).alias("p").join(cities(s).alias("c"),
                                                                  F.col("p.city") == F.col("c.city"))
                                        .select("p.name", "c.coast")),
    "when_otherwise": lambda s, F: people(s).select("id", F.when(F.col("age") > 33, "senior")
                                                    .when(F.col("age").isNull(), "unknown")
                                                    .otherwise("junior").alias("band")),
    "cast": lambda s, F: people(s).select(F.col("age").cast("string").alias("age_s"),
                                          F.col("score").cast("int").alias("score_i")),
    "coalesce_is_null": lambda s, F: people(s).select(F.coalesce(F.col("age"), F.lit(0)).alias("age"),
                                                      F.col("score").isNull().alias("no_score")),
    "string_functions": lambda s, F: people(s).select(F.upper("name").alias("u"),
                                                      F.concat_ws("-", "name", "city").alias("nc"),
                                                      F.substring("name", 1, 2).alias("ab"),
                                                      F.length("city").alias("len")),
    "to_date_and_expr": lambda s, F: people(s).select(F.to_date(F.lit("2024-03-15")).alias("d"),
                                                      F.expr("id * 100").alias("e")),
    "select_expr": lambda s, F: people(s).selectExpr("id", "score / 2 AS half"),
    "between_like": lambda s, F: people(s).filter(F.col("age").between(30, 40) & F.col("name").like("A%")),
    "typed_values": lambda s, F: typed(s),
    "typed_casts": lambda s, F: typed(s).select(F.col("d").cast("double").alias("dd"), F.round("small", 2).alias("r"),
                                                F.col("n").cast("decimal(10,2)").alias("nd"),
                                                F.year("ts").alias("y"), F.size("arr").alias("sz"),
                                                F.col("st.b").alias("b"), F.col("m")["k"].alias("mk")),
    "quoted_literal": lambda s, F: people(s).select(F.lit("O'Neil \\ co").alias("q"), F.lit(None).alias("nothing")).limit(1),
    "count_star_default_name": lambda s, F: people(s).groupBy().agg(F.count("*")),
    "agg_dict_star": lambda s, F: people(s).agg({"*": "count"}),
    "union_all_cross_join": lambda s, F: _order(cities(s).unionAll(cities(s)).crossJoin(cities(s).select(F.col("coast").alias("c2")))
                                                .select("city", "coast", "c2")),
    "with_columns_to_df": lambda s, F: people(s).withColumns({"a": F.col("id") * 2, "id": F.lit(0)}).toDF(
        "i", "n", "c", "ag", "s", "a2"),
    "window_row_number": lambda s, F: _order(people(s).select(
        "id", "city", F.row_number().over(_w(s).partitionBy("city").orderBy("id")).alias("rn"))),
    "window_running_sum": lambda s, F: _order(people(s).select(
        "id", F.sum("score").over(_w(s).partitionBy("city").orderBy("id")
                                  .rowsBetween(_w(s).unboundedPreceding, _w(s).currentRow)).alias("running"))),
    "window_lag_rank": lambda s, F: _order(people(s).select(
        "id", F.lag("age", 1).over(_w(s).orderBy("id")).alias("prev_age"),
        F.lead("name", 2, "none").over(_w(s).orderBy("id")).alias("next2"),
        F.rank().over(_w(s).orderBy(F.col("age").desc())).alias("rk"),
        F.dense_rank().over(_w(s).orderBy(F.col("age").desc())).alias("drk"))),
    "window_aggregate_partition": lambda s, F: _order(people(s).withColumn(
        "city_total", F.sum("score").over(_w(s).partitionBy("city")))),
    "drop_duplicates_subset": lambda s, F: _order(people(s).dropDuplicates(["city"]).select("city")),
    "fillna_number": lambda s, F: _order(people(s).fillna(0)),
    "fillna_string_subset": lambda s, F: _order(people(s).withColumn("city", F.when(F.col("id") == 2, None)
                                                                      .otherwise(F.col("city"))).fillna("?", ["city"])),
    "fillna_dict": lambda s, F: _order(people(s).na.fill({"age": -1, "score": 0.5})),
    "dropna_any": lambda s, F: _order(people(s).dropna()),
    "dropna_subset_thresh": lambda s, F: _order(people(s).na.drop(thresh=2, subset=["age", "score", "city"])),
    "order_functions_desc_nulls": lambda s, F: people(s).orderBy(F.desc("city"), F.col("age").desc_nulls_last(),
                                                                 F.asc("id")),
    "group_by_alias": lambda s, F: _order(people(s).groupBy(F.col("city").alias("c")).agg(F.max("id").alias("m"))),
    "join_duplicate_names": lambda s, F: (lambda p, c: _order(p.join(c, p.city == c.city).select(p.id, c.coast)))(
        people(s), cities(s)),
    "from_json": lambda s, F: s.createDataFrame(
        [(1, '{"a": 1, "b": {"c": "x"}, "s": {"k": [1]}, "t": true}'), (2, '{"a": "nope", "b": null}'), (3, None),
         (4, '{"a": 5}'), (5, '{"s": "plain", "a": 2.0}')], "id INT, j STRING")
        .select("id", F.from_json("j", "a INT, b STRUCT<c: STRING>, s STRING, t BOOLEAN").alias("p")).orderBy("id"),
    "describe_all": lambda s, F: people(s).describe(),
    "describe_some": lambda s, F: people(s).describe("age", "name"),
    "row_values": lambda s, F: s.createDataFrame([(1, "x", 2.5, True, None)], "a INT, b STRING, c DOUBLE, d BOOLEAN, e STRING"),
}

# show() calls compared as text: (case, kwargs).
SHOWS = [
    ("select_names", {}),
    ("group_agg", {}),
    ("with_column_lit", {"truncate": False}),
    ("order_desc", {"n": 2}),
    ("order_desc", {"n": 1}),
    ("long_text", {}),
    ("long_text", {"truncate": 5}),
    ("long_text", {"truncate": False}),
    ("long_text", {"vertical": True}),
    ("empty", {}),
    ("typed_values", {}),
    ("typed_values", {"truncate": False}),
    ("typed_casts", {}),
    ("quoted_literal", {}),
    ("join_duplicate", {}),
    ("describe_all", {}),
]
EXTRA = {
    "long_text": lambda s, F: s.createDataFrame([("a" * 30, 1), ("short", None)], ["text", "n"]),
    "empty": lambda s, F: people(s).filter("id > 100"),
    "join_duplicate": lambda s, F: (lambda p, c: p.join(c, p.city == c.city).orderBy(p.id))(people(s), cities(s)),
}
