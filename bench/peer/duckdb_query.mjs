// SPDX-License-Identifier: Apache-2.0
// The peer: runs one benchmark query in DuckDB (npm @duckdb/node-api, in-process, in-memory
// database, DuckDB's default thread count) and prints the time the query took.
//
// usage: node bench/peer/duckdb_query.mjs [--tables DIR] [--log DIR] [--tmp DIR]
//                                          [--setup FILE] [--print] QUERY_FILE
//
// --tables DIR  creates views `sales` and `customers` over DIR/{sales,customers}.parquet
// --setup FILE  SQL run before the clock starts (e.g. loading a table into memory)
// QUERY_FILE    SQL, one or more statements; all are timed; the last one's result is streamed
//               to the end in DuckDB's own chunks (not converted to JS values), so the time is
//               DuckDB's work, not node's.
// In both files ${TABLES}, ${LOG} and ${TMP} stand for the folders given.
//
// Prints, as its last line: RESULT seconds=<query time> rows=<result rows> digest=<sha256
// prefix of the result's JSON, for results of up to 1000 rows, so two runs' answers can be
// compared>, and for a one-row result, name=value for each column with a plain lower-case name
// (e.g. live_files=… from snapshot_load.sql), which the runner compares with deltalite's.
// --print also writes up to 20 result rows to stderr.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { parseArgs, die } from '../lib/common.mjs';

const USAGE = `usage: node bench/peer/duckdb_query.mjs [--tables DIR] [--log DIR] [--tmp DIR]
                                         [--setup FILE] [--print] QUERY_FILE
`;
const DIGEST_MAX_ROWS = 1000;

function load(file, vars) {
    return readFileSync(file, 'utf8').replace(/\$\{(TABLES|LOG|TMP)\}/g, (m, name) => {
        if (!vars[name]) {
            die(`duckdb_query: ${file} uses \${${name}} but no --${name.toLowerCase()} was given`);
        }
        return vars[name];
    });
}

/** Runs every statement of `sql`; streams the last one's result; returns {rows, kept chunks}. */
async function runAll(con, sql) {
    const extracted = await con.extractStatements(sql);
    let rows = 0;
    let kept = [];
    for (let i = 0; i < extracted.count; i++) {
        const prepared = await extracted.prepare(i);
        if (i < extracted.count - 1) {
            await prepared.run();
            continue;
        }
        const result = await prepared.stream();
        const names = result.columnNames();
        for (;;) {
            const chunk = await result.fetchChunk();
            if (!chunk || chunk.rowCount === 0) {
                break;
            }
            rows += chunk.rowCount;
            kept = rows <= DIGEST_MAX_ROWS ? [...kept, chunk] : null;
        }
        kept = kept ? kept : [];
        return { rows, kept, names, complete: rows <= DIGEST_MAX_ROWS };
    }
    return { rows, kept, names: [], complete: true };
}

async function main() {
    const args = parseArgs(process.argv.slice(2), {
        tables: '', log: '', tmp: '', setup: '', print: false,
    }, USAGE);
    if (args._.length !== 1) {
        die(USAGE);
    }
    const vars = { TABLES: args.tables, LOG: args.log, TMP: args.tmp };
    const inst = await DuckDBInstance.create(':memory:');
    const con = await inst.connect();
    if (args.tables) {
        for (const t of ['sales', 'customers']) {
            await con.run(`CREATE VIEW ${t} AS SELECT * FROM read_parquet('${args.tables}/${t}.parquet')`);
        }
    }
    if (args.setup) {
        await runAll(con, load(args.setup, vars));
    }
    const sql = load(args._[0], vars);

    const t0 = process.hrtime.bigint();
    const { rows, kept, names, complete } = await runAll(con, sql);
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;

    let digest = '-';
    let named = '';
    if (complete) {
        const values = kept.flatMap((c) => c.getRows());
        const json = JSON.stringify(values, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
        digest = createHash('sha256').update(json).digest('hex').slice(0, 16);
        if (values.length === 1) {
            named = names.map((n, i) => (/^[a-z][a-z0-9_]*$/.test(n) ? ` ${n}=${values[0][i]}` : ''))
                .join('');
        }
        if (args.print) {
            process.stderr.write(values.slice(0, 20).map((r) => r.map(String).join(' | ')).join('\n') + '\n');
        }
    }
    con.closeSync();
    inst.closeSync();
    process.stdout.write(`RESULT seconds=${seconds.toFixed(6)} rows=${rows} digest=${digest}${named}\n`);
}

await main();
