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
import { readJson } from './lib/common.mjs';
import { ensureDeltaTables } from './gen/gen_tables.mjs';
import { ensureDeltaLogsFrom } from './delta/gen_delta_logs.mjs';

// Data made by deltalite's own programs from the runner's data sets, on first use (so only when
// a benchmark needs it, and after the runner has built the programs). Synchronous and cached
// on disk; a failure is reported and yields paths that do not exist, so that side fails with
// the reason.
const derived = new Map();
function once(key, make) {
    if (!derived.has(key)) {
        const r = make();
        if (r.error) {
            process.stderr.write(`bench: ${r.error}\n`);
        }
        derived.set(key, r);
    }
    return derived.get(key);
}

/** The warehouse of Delta copies of the tables (gen_tables --format delta). */
function deltaWarehouse(ctx) {
    const r = once(`tables:${ctx.tables}:${ctx.build}`, () => ensureDeltaTables({
        dir: ctx.tables, manifest: readJson(join(ctx.tables, 'manifest.json')), build: ctx.build,
    }));
    return r.dir || join(ctx.tables, 'delta-missing');
}

/** The checkpointed logs of the Delta snapshot benchmarks (bench/delta/gen_delta_logs.mjs). */
function deltaLogs(ctx) {
    const r = once(`logs:${ctx.log}:${ctx.build}`, () => ensureDeltaLogsFrom({
        src: { dir: ctx.log, manifest: readJson(join(ctx.log, 'manifest.json')) }, build: ctx.build,
    }));
    return r.error ? { dir: join(ctx.log, 'checkpoints-missing'), manifest: { time_travel_version: 0 } } : r;
}

// The Delta snapshot benchmarks: deltalite opens one of the checkpointed logs; the peer is
// DuckDB reading the same checkpoint and commits in SQL and reconciling them (no log segment
// selection: the checkpointed tables hold only the files of their segment, and for time travel
// the peer's query names the files).
const snapshotBench = (name, table, what, opts = {}) => ({
    name, group: 'delta', data: ['log'], what, compare: ['live_files', 'live_bytes'],
    peer: (ctx) => {
        const logs = deltaLogs(ctx);
        return ['node', join(ctx.repo, 'bench/peer/duckdb_query.mjs'), '--log', join(logs.dir, table),
                opts.timeTravel ? join(logs.dir, 'history_peer.sql')
                    : join(ctx.repo, 'bench/delta/snapshot_checkpoint.sql')];
    },
    deltalite: {
        program: 'bench/dl_bench_delta_snapshot',
        argv: (ctx) => {
            const logs = deltaLogs(ctx);
            return [join(logs.dir, table),
                    ...(opts.timeTravel ? ['--version', String(logs.manifest.time_travel_version)] : [])];
        },
    },
});

const peerQuery = (query, opts = {}) => (ctx) => [
    'node', join(ctx.repo, 'bench/peer/duckdb_query.mjs'),
    ...(opts.tables !== false ? ['--tables', ctx.tables] : []),
    ...(opts.log ? ['--log', ctx.log] : []),
    ...(opts.tmp ? ['--tmp', ctx.tmp] : []),
    ...(opts.setup ? ['--setup', join(ctx.repo, 'bench/queries', opts.setup)] : []),
    join(ctx.repo, 'bench/queries', query),
];

// deltalite's SQL side: one program that opens the warehouse of Delta tables written from the
// same data by deltalite's writer (gen_tables --format delta) and runs one query file.
const sqlBench = (name, query, what) => ({
    name, group: 'sql', data: ['tables'], what,
    peer: peerQuery(query),
    deltalite: {
        program: 'bench/dl_bench_sql',
        argv: (ctx) => [deltaWarehouse(ctx), join(ctx.repo, 'bench/queries', query)],
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
    snapshotBench('snapshot_checkpoint', 'latest',
                  'open a table of 1 M x S live files: a checkpoint + 9 commits'),
    snapshotBench('snapshot_commits', 'commits',
                  'open a table with 10,000 x S - 1 commits after a checkpoint (of version 0)'),
    snapshotBench('time_travel', 'history',
                  'time travel to the middle of the log: one checkpoint + 5 commits',
                  { timeTravel: true }),
    sqlBench('q1_scan_count_sum', 'q1_scan_count_sum.sql', 'count(*), sum of two columns'),
    sqlBench('q2_group_by_strings', 'q2_group_by_strings.sql', 'GROUP BY two string columns'),
    sqlBench('q3_range_filter', 'q3_range_filter.sql', 'selective range filter on ts (~1%)'),
    sqlBench('q4_join_customers', 'q4_join_customers.sql', 'join with customers, GROUP BY'),
    sqlBench('q5_top10', 'q5_top10.sql', 'ORDER BY amount DESC LIMIT 10'),
    sqlBench('q6_full_sort', 'q6_full_sort.sql', 'full sort of all rows on two keys'),
];
