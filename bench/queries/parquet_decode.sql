-- Decode every column of every row of sales.parquet (snappy pages, dictionary and plain
-- encodings) and touch every value; the aggregate keeps the result small.
SELECT count(*), sum(id), min(category), max(category), min(region), max(region),
       sum(amount), sum(qty), min(ts), max(ts), sum(customer_id)
FROM read_parquet('${TABLES}/sales.parquet');
