-- Untimed: load sales into memory so that the timed part is the Parquet write alone.
CREATE TABLE sales_mem AS SELECT * FROM read_parquet('${TABLES}/sales.parquet');
