-- Encode and write sales as one snappy Parquet file with row groups of 1,000,000 rows.
COPY sales_mem TO '${TMP}/sales_copy.parquet'
    (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE 1000000);
