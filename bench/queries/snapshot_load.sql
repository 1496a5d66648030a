-- Snapshot load: list and read every JSON commit of the log, then replay it the way the Delta
-- protocol says: for each file path the action of the highest version wins; the live files are
-- the paths whose winning action is an add. Stats stay unparsed strings, as a snapshot that
-- parses them lazily would keep them.
WITH actions AS (
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
    SELECT version, add.path AS path, true AS is_add, add.size AS size FROM actions
    WHERE add IS NOT NULL
    UNION ALL
    SELECT version, remove.path, false, remove.size FROM actions WHERE remove IS NOT NULL
),
latest AS (
    SELECT path, arg_max(is_add, version) AS is_add, arg_max(size, version) AS size
    FROM file_actions GROUP BY path
)
SELECT count(*) AS live_files, sum(size) AS live_bytes FROM latest WHERE is_add;
