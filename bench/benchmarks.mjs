// SPDX-License-Identifier: Apache-2.0
// The benchmark list, as data: what each benchmark measures, the data it needs, how the peer
// runs it and which deltalite program runs it. Adding a benchmark is adding an entry.
//
// A side is a function ctx -> argv (ctx: {repo, build, tables, log, json, tmp}). A deltalite side
// names its program relative to the build folder; while that program does not exist the runner
// reports "deltalite: not yet" and still runs the peer. Every program prints a last line
// `RESULT seconds=<in-process time> [key=value ...]`; keys that both sides print (other than
// seconds, digest and rates) must agree, or the runner flags the row; `compare` narrows that to
// the keys listed.

import { join } from 'node:path';

const peerQuery = (query, opts = {}) => (ctx) => [
    'node', join(ctx.repo, 'bench/peer/duckdb_query.mjs'),
    ...(opts.tables !== false ? ['--tables', ctx.tables] : []),
    ...(opts.log ? ['--log', ctx.log] : []),
    ...(opts.tmp ? ['--tmp', ctx.tmp] : []),
    ...(opts.setup ? ['--setup', join(ctx.repo, 'bench/queries', opts.setup)] : []),
    join(ctx.repo, 'bench/queries', query),
];

// deltalite's SQL side: one program that opens the warehouse of Delta tables written from the
// same data (gen_tables --format delta, not yet) and runs one query file.
const sqlBench = (name, query, what) => ({
    name, group: 'sql', data: ['tables'], what,
    peer: peerQuery(query),
    deltalite: {
        program: 'bench/dl_bench_sql',
        argv: (ctx) => [join(ctx.tables, 'delta'), join(ctx.repo, 'bench/queries', query)],
    },
});

export const BENCHMARKS = [
    {
        name: 'parquet_decode', group: 'parquet', data: ['tables'],
        what: 'decode every column of sales.parquet (snappy) and touch every value',
        peer: peerQuery('parquet_decode.sql'),
        deltalite: {
            program: 'bench/dl_bench_parquet_decode',
            argv: (ctx) => [join(ctx.tables, 'sales.parquet')],
        },
    },
    {
        name: 'parquet_write', group: 'parquet', data: ['tables'],
        what: 'encode the in-memory sales table as snappy Parquet (load untimed)',
        peer: peerQuery('parquet_write.sql', { tmp: true, setup: 'parquet_write.setup.sql' }),
        deltalite: {
            program: 'bench/dl_bench_parquet_write',
            argv: (ctx) => [join(ctx.tables, 'sales.parquet'), join(ctx.tmp, 'dl_sales_copy.parquet')],
        },
    },
    {
        name: 'json_log_parse', group: 'json', data: ['json'],
        what: 'parse a large Delta commit file (bench/json/gen_commit.mjs) into actions',
        peer: (ctx) => ['node', join(ctx.repo, 'bench/json/json_parse.mjs'), ctx.json],
        compare: ['actions', 'adds', 'sum_size', 'records'],
        deltalite: {
            program: 'bench/json/dl_bench_json',
            argv: (ctx) => [ctx.json],
        },
    },
    {
        name: 'snapshot_load', group: 'delta', data: ['log'],
        what: 'list, read and replay a JSON-only log (10,000 x S commits, 1 M x S add actions)',
        peer: peerQuery('snapshot_load.sql', { tables: false, log: true }),
        compare: ['live_files', 'live_bytes'],
        deltalite: {
            program: 'bench/dl_bench_snapshot_load',
            argv: (ctx) => [ctx.log],
        },
    },
    sqlBench('q1_scan_count_sum', 'q1_scan_count_sum.sql', 'count(*), sum of two columns'),
    sqlBench('q2_group_by_strings', 'q2_group_by_strings.sql', 'GROUP BY two string columns'),
    sqlBench('q3_range_filter', 'q3_range_filter.sql', 'selective range filter on ts (~1%)'),
    sqlBench('q4_join_customers', 'q4_join_customers.sql', 'join with customers, GROUP BY'),
    sqlBench('q5_top10', 'q5_top10.sql', 'ORDER BY amount DESC LIMIT 10'),
    sqlBench('q6_full_sort', 'q6_full_sort.sql', 'full sort of all rows on two keys'),
];
