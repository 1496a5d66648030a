-- The peer of the Delta snapshot benchmarks (bench/README.md, "Delta snapshots"): load the
-- snapshot of a log made of one classic checkpoint and the JSON commits after it, as
-- bench/delta/gen_delta_logs.mjs lays out its `latest` and `commits` tables. Every row of the
-- checkpoint (Parquet) and every action of the commits (JSON) is read; for each path the action
-- of the highest version wins (the checkpoint's rows count as its version); the live files are
-- the paths whose winning action is an add. As queries/snapshot_load.sql, stats stay unread.
WITH checkpoint_rows AS (
    SELECT CAST(regexp_extract(filename, '(\d{20})\.checkpoint\.parquet$', 1) AS BIGINT) AS version,
           add.path AS add_path, add.size AS add_size, remove.path AS remove_path
    FROM read_parquet('${LOG}/_delta_log/*.checkpoint.parquet', filename = true)
),
commit_rows AS (
    SELECT CAST(regexp_extract(filename, '(\d{20})\.json$', 1) AS BIGINT) AS version,
           add, remove
    FROM read_json('${LOG}/_delta_log/*.json',
                   format = 'newline_delimited', filename = true,
                   columns = {
                       'add': 'STRUCT(path VARCHAR, partitionValues MAP(VARCHAR, VARCHAR),
                                      size BIGINT, modificationTime BIGINT,
                                      dataChange BOOLEAN, stats VARCHAR)',
                       'remove': 'STRUCT(path VARCHAR, deletionTimestamp BIGINT,
                                         dataChange BOOLEAN, size BIGINT)',
                       'protocol': 'JSON', 'metaData': 'JSON', 'commitInfo': 'JSON'})
),
file_actions AS (
    SELECT version, add_path AS path, true AS is_add, add_size AS size
    FROM checkpoint_rows WHERE add_path IS NOT NULL
    UNION ALL
    SELECT version, remove_path, false, NULL FROM checkpoint_rows WHERE remove_path IS NOT NULL
    UNION ALL
    SELECT version, add.path, true, add.size FROM commit_rows WHERE add IS NOT NULL
    UNION ALL
    SELECT version, remove.path, false, remove.size FROM commit_rows WHERE remove IS NOT NULL
),
latest AS (
    SELECT path, arg_max(is_add, version) AS is_add, arg_max(size, version) AS size
    FROM file_actions GROUP BY path
)
SELECT count(*) AS live_files, sum(size) AS live_bytes FROM latest WHERE is_add;
