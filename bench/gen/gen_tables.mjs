// SPDX-License-Identifier: Apache-2.0
// Generates the standard data sets of the benchmark suite, `sales` and `customers`, as Parquet
// written by DuckDB (snappy, row groups of ROW_GROUP_SIZE rows), deterministically from a seed.
//
// usage: node bench/gen/gen_tables.mjs [--scale S] [--seed N] [--force] [--check] [--format F]
//
//   sales      10,000,000 x S rows: id BIGINT, category VARCHAR (20 values), region VARCHAR
//              (5 values), amount DOUBLE, qty INTEGER, ts TIMESTAMP, customer_id BIGINT.
//              customer_id (1..customers) is added beyond the columns issue 3 lists, for the
//              join benchmark. ts rises with id over 2023-01-01 .. 2024-12-31 with up to a minute
//              of jitter, so a time range selects a contiguous run of rows (row groups can be
//              skipped by their statistics).
//   customers   1,000,000 x S rows: id BIGINT, name VARCHAR, region VARCHAR, segment VARCHAR,
//              signup_date DATE, credit_limit DOUBLE.
//
// Output: bench/data/tables_sf<S>_seed<N>/{sales,customers}.parquet and manifest.json (rows,
// a content checksum from a query, and the SHA-256 of each file). An existing data set whose
// manifest matches is reused. --check regenerates into a scratch folder and requires identical
// checksums and bytes: the proof of determinism.
//
// --format delta also writes each table as a Delta table, tables_sf<S>_seed<N>/delta/<table>/,
// through deltalite's writer (bench/delta/load_delta.c: files of about 1 M rows, snappy, stats
// in the add actions, one commit), cached like the Parquet files (see ensureDeltaTables).

import { spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import {
    GENERATOR_VERSION, REPO_DIR, columnKeys, rowHash, parseArgs, die, tablesDir, readJson,
    writeJsonAtomic, sha256File,
} from '../lib/common.mjs';

const USAGE = `usage: node bench/gen/gen_tables.mjs [--scale S] [--seed N] [--force] [--check]
                                     [--format parquet|delta] [--out DIR] [--build DIR]

  --format delta  also write the Delta copies in <data set>/delta/{sales,customers} with
                  <build>/bench/dl_bench_load_delta (--build: default build/release or
                  $DL_BENCH_BUILD)
`;

export const ROW_GROUP_SIZE = 1000000;
const SALES_ROWS_AT_SCALE_1 = 10000000;
const CUSTOMERS_ROWS_AT_SCALE_1 = 1000000;
const TS_START_US = 1672531200000000n; // 2023-01-01 00:00:00 UTC
const TS_SPAN_US = 731n * 86400n * 1000000n; // through 2024-12-31 (2024 is a leap year)

const CATEGORIES = [
    'electronics', 'books', 'clothing', 'home', 'garden', 'toys', 'sports', 'beauty', 'grocery',
    'automotive', 'music', 'movies', 'health', 'jewelry', 'office', 'pets', 'shoes', 'tools',
    'baby', 'outdoors',
];
const REGIONS = ['north', 'south', 'east', 'west', 'central'];
const SEGMENTS = ['consumer', 'corporate', 'home_office', 'small_business', 'enterprise'];
const FIRST_NAMES = [
    'Ada', 'Alan', 'Anna', 'Ben', 'Carla', 'Chen', 'Dana', 'David', 'Elena', 'Emil', 'Fatima',
    'Frank', 'Grace', 'Hana', 'Igor', 'Ines', 'Jamal', 'Julia', 'Kenji', 'Lara', 'Liam', 'Maria',
    'Mehmet', 'Nadia', 'Noah', 'Olga', 'Omar', 'Priya', 'Quentin', 'Rosa', 'Sven', 'Tariq',
];
const LAST_NAMES = [
    'Adams', 'Bauer', 'Costa', 'Dubois', 'Evans', 'Fischer', 'Garcia', 'Hansen', 'Ibrahim',
    'Jensen', 'Kim', 'Lopez', 'Moreau', 'Nakamura', 'Novak', 'Okafor', 'Petrov', 'Quinn', 'Rossi',
    'Schmidt', 'Silva', 'Tanaka', 'Ulrich', 'Varga', 'Wang', 'Weber', 'Xu', 'Yilmaz', 'Zhang',
    'Berg', 'Moretti', 'Kowalski',
];

// Column ids: each (table, column) pair hashes with its own keys.
const COL = {
    sales_customer: 1, sales_category: 2, sales_region: 3, sales_amount: 4, sales_qty: 5,
    sales_ts: 6, cust_first: 11, cust_last: 12, cust_region: 13, cust_segment: 14,
    cust_signup: 15, cust_credit: 16,
};

/** Rows of each table at a scale factor (at least one of each). */
export function tableRows(scale) {
    return {
        sales: Math.max(1, Math.round(SALES_ROWS_AT_SCALE_1 * scale)),
        customers: Math.max(1, Math.round(CUSTOMERS_ROWS_AT_SCALE_1 * scale)),
    };
}

const HASH_MACROS = [
    `CREATE OR REPLACE TEMP MACRO lb_a(x) AS
        (xor(x, x >> 16) * 2146121005::UBIGINT) & 4294967295::UBIGINT`,
    `CREATE OR REPLACE TEMP MACRO lb_b(x) AS
        (xor(x, x >> 15) * 2221713035::UBIGINT) & 4294967295::UBIGINT`,
    `CREATE OR REPLACE TEMP MACRO lb32(x) AS xor(lb_b(lb_a(x)), lb_b(lb_a(x)) >> 16)`,
];

/** SQL for the hash of the current row (column `r`, UBIGINT) in column `col`. */
function h(seed, col) {
    const [k1, k2] = columnKeys(seed, col);
    return `lb32(xor(lb32(xor(r, ${k1}::UBIGINT)), ${k2}::UBIGINT))`;
}

function sqlList(values) {
    return `[${values.map((v) => `'${v}'`).join(', ')}]`;
}

function pick(values, seed, col) {
    return `${sqlList(values)}[1 + (${h(seed, col)} % ${values.length})::BIGINT]`;
}

export function salesSelect(seed, rows) {
    const nCust = tableRows(rows.scale).customers;
    const step = TS_SPAN_US / BigInt(rows.n);
    return `SELECT
        (r + 1)::BIGINT AS id,
        ${pick(CATEGORIES, seed, COL.sales_category)} AS category,
        ${pick(REGIONS, seed, COL.sales_region)} AS region,
        (${h(seed, COL.sales_amount)} % 1000000)::DOUBLE / 100.0 AS amount,
        (1 + ${h(seed, COL.sales_qty)} % 20)::INTEGER AS qty,
        make_timestamp((${TS_START_US} + r::BIGINT * ${step}
                        + (${h(seed, COL.sales_ts)} % 60000000)::BIGINT)::BIGINT) AS ts,
        (1 + ${h(seed, COL.sales_customer)} % ${nCust})::BIGINT AS customer_id
      FROM (SELECT range::UBIGINT AS r FROM range(${rows.n}))`;
}

export function customersSelect(seed, rows) {
    return `SELECT
        (r + 1)::BIGINT AS id,
        ${pick(FIRST_NAMES, seed, COL.cust_first)} || ' ' ||
            ${pick(LAST_NAMES, seed, COL.cust_last)} AS name,
        ${pick(REGIONS, seed, COL.cust_region)} AS region,
        ${pick(SEGMENTS, seed, COL.cust_segment)} AS segment,
        DATE '2015-01-01' + (${h(seed, COL.cust_signup)} % 3287)::INTEGER AS signup_date,
        500.0 + (${h(seed, COL.cust_credit)} % 19000)::DOUBLE * 5.0 AS credit_limit
      FROM (SELECT range::UBIGINT AS r FROM range(${rows.n}))`;
}

const CHECKSUM_SQL = {
    sales: `SELECT count(*)::VARCHAR, sum(hash(id, category, region, amount, qty, ts,
                   customer_id))::VARCHAR, sum(amount)::VARCHAR`,
    customers: `SELECT count(*)::VARCHAR, sum(hash(id, name, region, segment, signup_date,
                       credit_limit))::VARCHAR, sum(credit_limit)::VARCHAR`,
};

/** Checks that DuckDB's SQL hash gives what the JS reference gives, on a few rows. */
async function selfTestHash(con, seed) {
    const rowsToTry = [0, 1, 2, 12345, 999999, 4294967295];
    for (const col of [COL.sales_amount, COL.cust_credit]) {
        const sql = `SELECT ${h(seed, col)} FROM (SELECT unnest([${rowsToTry.join(',')}])::UBIGINT AS r)`;
        const got = (await con.runAndReadAll(sql)).getRows().map((x) => Number(x[0]));
        const want = rowsToTry.map((row) => rowHash(row, columnKeys(seed, col)));
        if (got.join() !== want.join()) {
            die(`gen_tables: SQL hash disagrees with the JS reference: ${got} vs ${want}`);
        }
    }
}

async function writeTable(con, select, file) {
    const tmp = `${file}.tmp`;
    rmSync(tmp, { force: true });
    await con.run(`COPY (${select}) TO '${tmp}'
                   (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE ${ROW_GROUP_SIZE})`);
    renameSync(tmp, file);
}

async function checksum(con, table, file) {
    const sql = `${CHECKSUM_SQL[table]} FROM read_parquet('${file}')`;
    const row = (await con.runAndReadAll(sql)).getRows()[0];
    return { rows: Number(row[0]), hash_sum: row[1], value_sum: row[2] };
}

/** Generates both tables into `dir`; returns the manifest. */
async function generate(dir, scale, seed) {
    mkdirSync(dir, { recursive: true });
    const inst = await DuckDBInstance.create(':memory:');
    const con = await inst.connect();
    for (const m of HASH_MACROS) {
        await con.run(m);
    }
    await selfTestHash(con, seed);
    const rows = tableRows(scale);
    const manifest = {
        generator_version: GENERATOR_VERSION, scale, seed, row_group_size: ROW_GROUP_SIZE,
        duckdb_version: (await con.runAndReadAll('SELECT version()')).getRows()[0][0],
        tables: {},
    };
    const selects = {
        customers: customersSelect(seed, { n: rows.customers, scale }),
        sales: salesSelect(seed, { n: rows.sales, scale }),
    };
    for (const table of ['customers', 'sales']) {
        const t0 = performance.now();
        const file = join(dir, `${table}.parquet`);
        await writeTable(con, selects[table], file);
        const sum = await checksum(con, table, file);
        if (sum.rows !== rows[table]) {
            die(`gen_tables: ${file} has ${sum.rows} rows, expected ${rows[table]}`);
        }
        manifest.tables[table] = {
            file: `${table}.parquet`, ...sum, sha256: await sha256File(file),
            seconds: Number(((performance.now() - t0) / 1000).toFixed(2)),
        };
        process.stderr.write(`gen_tables: ${table}: ${sum.rows} rows in ` +
                             `${manifest.tables[table].seconds} s\n`);
    }
    con.closeSync();
    inst.closeSync();
    return manifest;
}

function sameData(a, b) {
    return ['sales', 'customers'].every((t) =>
        a.tables[t].hash_sum === b.tables[t].hash_sum && a.tables[t].sha256 === b.tables[t].sha256);
}

// The Delta copies (--format delta): written by deltalite's own writer, one program run per
// table. Bump DELTA_LOADER_VERSION when the layout changes, so cached copies are rewritten.
export const DELTA_LOADER_VERSION = 1;
export const DELTA_ROWS_PER_FILE = 1000000;

/** The build folder holding deltalite's bench programs, as the runner picks it. */
export function defaultBuild() {
    const b = process.env.DL_BENCH_BUILD || 'build/release';
    return isAbsolute(b) ? b : resolve(REPO_DIR, b);
}

function loadOneTable(program, parquet, out) {
    const tmp = `${out}.tmp`;
    rmSync(tmp, { recursive: true, force: true });
    const r = spawnSync(program, [parquet, tmp, '--rows-per-file', String(DELTA_ROWS_PER_FILE)],
                        { encoding: 'utf8', maxBuffer: 16 << 20 });
    const line = (r.stdout || '').split('\n').filter((l) => l.startsWith('RESULT ')).pop();
    if (r.status !== 0 || !line) {
        rmSync(tmp, { recursive: true, force: true });
        return { error: `${program} failed: ${(r.stderr || r.error?.message || '').trim()}` };
    }
    const result = Object.fromEntries([...line.matchAll(/([a-z_]+)=(\S+)/g)].map((m) => [m[1], m[2]]));
    rmSync(out, { recursive: true, force: true });
    renameSync(tmp, out);
    return { rows: Number(result.rows), files: Number(result.files), bytes: Number(result.bytes),
             seconds: Number(result.seconds) };
}

/**
 * Makes sure the Parquet data set in `dir` (with its `manifest`) has Delta copies in
 * dir/delta/{sales,customers}, written by `build`/bench/dl_bench_load_delta (files of about
 * DELTA_ROWS_PER_FILE rows, snappy, stats in the add actions, one commit). Cached: reused while
 * dir/delta/manifest.json names the same loader version and the same Parquet bytes (SHA-256).
 * Synchronous, so that a benchmark's argv can call it. Returns {dir, manifest} or {error}.
 */
export function ensureDeltaTables({ dir, manifest, build = defaultBuild(), force = false }) {
    const out = join(dir, 'delta');
    const manifestPath = join(out, 'manifest.json');
    const old = readJson(manifestPath);
    const sources = Object.fromEntries(['sales', 'customers'].map((t) => [t, manifest.tables[t].sha256]));
    if (!force && old && old.loader_version === DELTA_LOADER_VERSION &&
        old.rows_per_file === DELTA_ROWS_PER_FILE &&
        ['sales', 'customers'].every((t) => old.tables?.[t]?.source_sha256 === sources[t] &&
                                            existsSync(join(out, t, '_delta_log')))) {
        return { dir: out, manifest: old };
    }
    const program = join(build, 'bench/dl_bench_load_delta');
    if (!existsSync(program)) {
        return { error: `${program} is not built (cmake --build ${build} --target dl_bench)` };
    }
    mkdirSync(out, { recursive: true });
    const made = { loader_version: DELTA_LOADER_VERSION, rows_per_file: DELTA_ROWS_PER_FILE, tables: {} };
    for (const t of ['customers', 'sales']) {
        const r = loadOneTable(program, join(dir, manifest.tables[t].file), join(out, t));
        if (r.error) {
            return r;
        }
        if (r.rows !== manifest.tables[t].rows) {
            return { error: `gen_tables: delta/${t} has ${r.rows} rows, the Parquet file ${manifest.tables[t].rows}` };
        }
        made.tables[t] = { ...r, source_sha256: sources[t] };
        process.stderr.write(`gen_tables: delta/${t}: ${r.rows} rows in ${r.files} files, ${r.seconds} s\n`);
    }
    writeJsonAtomic(manifestPath, made);
    return { dir: out, manifest: made };
}

/** Makes sure the data set exists (generating it if needed); returns its folder and manifest. */
export async function ensureTables({ scale, seed, force = false, out = null }) {
    if (!(scale > 0 && scale <= 400)) {
        die(`gen_tables: --scale must be in (0, 400], got ${scale}`);
    }
    const dir = out || tablesDir(scale, seed);
    const manifestPath = join(dir, 'manifest.json');
    const old = readJson(manifestPath);
    if (!force && old && old.generator_version === GENERATOR_VERSION &&
        ['sales', 'customers'].every((t) => old.tables?.[t] && existsSync(join(dir, old.tables[t].file)))) {
        return { dir, manifest: old };
    }
    const manifest = await generate(dir, scale, seed);
    writeJsonAtomic(manifestPath, manifest);
    return { dir, manifest };
}

async function main() {
    const args = parseArgs(process.argv.slice(2), {
        scale: 0.1, seed: 42, force: false, check: false, format: 'parquet', out: '', build: '',
    }, USAGE);
    const { dir, manifest } = await ensureTables({ ...args, out: args.out || null });
    if (args.format === 'delta') {
        const build = args.build ? resolve(args.build) : defaultBuild();
        const d = ensureDeltaTables({ dir, manifest, build, force: args.force });
        if (d.error) {
            die(`gen_tables: --format delta: ${d.error}`);
        }
    } else if (args.format !== 'parquet') {
        die(`gen_tables: unknown --format ${args.format}`);
    }
    if (args.check) {
        const scratch = `${dir}.check`;
        rmSync(scratch, { recursive: true, force: true });
        const again = await generate(scratch, args.scale, args.seed);
        rmSync(scratch, { recursive: true, force: true });
        if (!sameData(manifest, again)) {
            die(`gen_tables: NOT deterministic: ${JSON.stringify(manifest.tables)} vs ` +
                `${JSON.stringify(again.tables)}`);
        }
        process.stderr.write('gen_tables: check: a second generation gave identical checksums ' +
                             'and identical bytes\n');
    }
    process.stdout.write(`${dir}\n`);
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
    await main();
}
