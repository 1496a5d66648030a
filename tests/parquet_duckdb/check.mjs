// SPDX-License-Identifier: Apache-2.0
// Cross-check of deltalite's Parquet writer with DuckDB (README.md in this folder).
//
// usage: node check.mjs PQ_WRITE_ALLTYPES OUT_DIR
//
// For each writer configuration (pages v1/v2, every codec, with and without the DELTA
// encodings) it runs pq_write_alltypes, which writes 3,000 rows of every Delta type (flat and
// nested) and prints its result; then it has DuckDB:
//   1. read the schema back as the expected DuckDB types;
//   2. read every row and compare each value with the values computed here from the same
//      formulas as pq_write_alltypes.c (written independently, so a shared mistake is unlikely);
//   3. list parquet_metadata(): per row group and leaf column, null counts, min/max values and
//      their exactness must be those of the expected data (byte arrays cut to 64 bytes);
//   4. run filters that prune row groups by those statistics and count the expected rows;
// and it compares the writer's own result (per-leaf file statistics) with the expected data.
//
// Exit codes: 0 all checks pass; 1 a check failed; 2 bad usage or the program failed;
// DL_SKIP_EXIT (default 0; the ctest wrapper sets 77) when @duckdb/node-api is not installed.

import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

let duckdb;
try {
    duckdb = await import('@duckdb/node-api');
} catch {
    console.log('skipped: @duckdb/node-api is not installed (npm unreachable?); '
        + 'run `npm install` in tests/parquet_duckdb');
    process.exit(Number(process.env.DL_SKIP_EXIT ?? 0));
}

const [program, outDir] = process.argv.slice(2);
if (!program || !outDir) {
    console.error('usage: node check.mjs PQ_WRITE_ALLTYPES OUT_DIR');
    process.exit(2);
}

const N_ROWS = 3000;
const RG_ROWS = 1000;
const STATS_MAX_BYTES = 64;
const FLAT = ['b', 'i8', 'i16', 'i32', 'i64', 'f32', 'f64', 'd9', 'd18', 'd38', 's', 'bin', 'dt',
    'ts', 'tsn', 'nul'];
const SCALE = { d9: 2, d18: 6, d38: 10 };
const TYPES = {
    b: 'BOOLEAN', i8: 'TINYINT', i16: 'SMALLINT', i32: 'INTEGER', i64: 'BIGINT', f32: 'FLOAT',
    f64: 'DOUBLE', d9: 'DECIMAL(9,2)', d18: 'DECIMAL(18,6)', d38: 'DECIMAL(38,10)', s: 'VARCHAR',
    bin: 'BLOB', dt: 'DATE', ts: 'TIMESTAMP WITH TIME ZONE', tsn: 'TIMESTAMP', nul: 'INTEGER',
    st: 'STRUCT(a INTEGER, b VARCHAR)', arr: 'INTEGER[]', arrs: 'STRUCT(x BIGINT, y VARCHAR[])[]',
    m: 'MAP(VARCHAR, DOUBLE)', m2: 'MAP(INTEGER, VARCHAR[])',
};

// ---- The expected data (mirrors pq_write_alltypes.c) --------------------------------------

const P = (n) => 10n ** BigInt(n);
const F32_SPECIAL = [NaN, -0, Infinity, -Infinity];
const F64_SPECIAL = [-0, NaN, 1e308, -5e-324];

function flatValue(c, r) {
    const k = FLAT.indexOf(c);
    if (c === 'nul' || (r >= 4 && r % 7 === k % 7)) {
        return null;
    }
    const R = BigInt(r);
    switch (c) {
    case 'b': return r % 3 === 0;
    case 'i8': return r === 0 ? -128 : r === 1 ? 127 : (r * 37) % 256 - 128;
    case 'i16': return r === 0 ? -32768 : r === 1 ? 32767 : (r * 333) % 65536 - 32768;
    case 'i32': return r === 0 ? -2147483648 : r === 1 ? 2147483647 : r * 1001 - 1500000;
    case 'i64': return r === 0 ? -(2n ** 63n) : r === 1 ? 2n ** 63n - 1n
        : R * 1234567891011n - 1000000000000000n;
    case 'f32': return r < 4 ? F32_SPECIAL[r] : Math.fround((r % 100) * 0.5 - 20);
    case 'f64': return r < 4 ? F64_SPECIAL[r] : r * 0.125 - 100;
    case 'd9': return r === 0 ? -999999999n : r === 1 ? 999999999n : R * 12345n - 10000000n;
    case 'd18': return r === 0 ? -(P(18) - 1n) : r === 1 ? P(18) - 1n
        : R * 123456789n - 50000000000n;
    case 'd38': return r === 0 ? -(P(38) - 1n) : r === 1 ? P(38) - 1n : R * P(20) + R;
    case 's': return r === 0 ? '' : r === 1 ? 'z'.repeat(100) : r === 2 ? 'héllo wörld ✓'
        : `cat${r % 13}`;
    case 'bin': return r === 0 ? Buffer.alloc(0) : r === 1 ? Buffer.from([0, 255, 128])
        : Buffer.from([r & 255, (r >> 8) & 255]);
    case 'dt': return r === 0 ? -719162n : r === 1 ? 2932896n : BigInt(r - 1000);
    case 'ts':
    case 'tsn': {
        const x = r === 0 ? -62135596800000000n : r === 1 ? 253402300799999999n
            : 1700000000000000n + R * 1000003n;
        return x + (c === 'tsn' ? 7n : 0n);
    }
    default: throw new Error(c);
    }
}

function nestedValue(c, r) {
    switch (c) {
    case 'st':
        return r % 11 === 5 ? null : { a: r % 4 === 1 ? null : r, b: `b${r}` };
    case 'arr':
        return r % 9 === 4 ? null
            : Array.from({ length: r % 4 }, (_, j) => (j === 1 && r % 2 === 0 ? null : r * 10 + j));
    case 'arrs':
        return r % 10 === 7 ? null : Array.from({ length: r % 3 }, (_, j) => ((r + j) % 5 === 0
            ? null
            : {
                x: j === 1 && r % 4 === 0 ? null : BigInt(r * 100 + j),
                y: (r + j) % 7 === 3 ? null
                    : Array.from({ length: (r + j) % 3 }, (__, k) => `y${r}_${k}`),
            }));
    case 'm':
        return r % 8 === 6 ? null : Array.from({ length: r % 3 }, (_, j) => ({
            key: `k${j}`, value: (r + j) % 4 === 3 ? null : (r + j) * 0.5,
        }));
    case 'm2':
        return r % 6 === 2 ? null : Array.from({ length: r % 2 }, (_, j) => ({
            key: j + r, value: r % 5 === 0 ? null : [`v${r}`, null],
        }));
    default: throw new Error(c);
    }
}

// The entries of a leaf column for row r: a value, or null for an entry without one.
function leafEntries(path, r) {
    if (FLAT.includes(path)) {
        return [flatValue(path, r)];
    }
    const [top] = path.split('.');
    const v = nestedValue(top, r);
    const each = (list, f) => (list === null || list.length === 0 ? [null] : list.flatMap(f));
    switch (path) {
    case 'st.a': return [v === null ? null : v.a];
    case 'st.b': return [v === null ? null : v.b];
    case 'arr.list.element': return each(v, (e) => [e]);
    case 'arrs.list.element.x': return each(v, (e) => [e === null ? null : e.x]);
    case 'arrs.list.element.y.list.element':
        return each(v, (e) => (e === null ? [null] : each(e.y, (s) => [s])));
    case 'm.key_value.key':
    case 'm2.key_value.key': return each(v, (e) => [e.key]);
    case 'm.key_value.value': return each(v, (e) => [e.value]);
    case 'm2.key_value.value.list.element':
        return each(v, (e) => (e.value === null ? [null] : e.value));
    default: throw new Error(path);
    }
}

// ---- Comparing values --------------------------------------------------------------------

function isNum(v) {
    return typeof v === 'number';
}

function cmp(a, b) {
    if (Buffer.isBuffer(a)) {
        return Buffer.compare(a, b);
    }
    if (typeof a === 'string') {
        return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
    }
    if (typeof a === 'boolean') {
        return Number(a) - Number(b);
    }
    return a < b ? -1 : a > b ? 1 : 0;
}

function deepEqual(a, b) {
    if (isNum(a) && isNum(b)) {
        return Object.is(a, b);
    }
    if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
        return a === b;
    }
    if (Array.isArray(a) !== Array.isArray(b)) {
        return false;
    }
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => deepEqual(a[k], b[k]));
}

function decimalString(unscaled, scale) {
    const neg = unscaled < 0n;
    let s = (neg ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
    s = `${s.slice(0, s.length - scale)}.${s.slice(s.length - scale)}`;
    return neg ? `-${s}` : s;
}

// The bounds statistics should hold for values: [min, max, minExact, maxExact], or null (no
// values, or a NaN among them: the writer gives a chunk holding NaN no bounds, since readers
// that predate nan_count, Spark's parquet-mr among them, prune NaN rows away with bounds that
// leave NaN out). The writer's result (what Delta stats are made from) keeps the bounds of the
// other values, with nan_count beside them: pass isResult.
function expectedBounds(values, isResult = false) {
    if (!isResult && values.some((v) => isNum(v) && Number.isNaN(v))) {
        return null;
    }
    const vals = values.filter((v) => v !== null && !(isNum(v) && Number.isNaN(v)));
    if (vals.length === 0) {
        return null;
    }
    let lo = vals[0];
    let hi = vals[0];
    for (const v of vals) {
        lo = cmp(v, lo) < 0 ? v : lo;
        hi = cmp(v, hi) > 0 ? v : hi;
    }
    if (typeof lo === 'string' || Buffer.isBuffer(lo)) {
        return [...cutBounds(lo, hi)];
    }
    return [lo, hi, true, true];
}

// Byte arrays longer than STATS_MAX_BYTES: min cut, max cut and incremented (UTF-8 aware).
function cutBounds(lo, hi) {
    const isStr = typeof lo === 'string';
    const lb = isStr ? Buffer.from(lo, 'utf8') : lo;
    const hb = isStr ? Buffer.from(hi, 'utf8') : hi;
    let minOut = lb;
    let maxOut = hb;
    if (lb.length > STATS_MAX_BYTES) {
        let cut = STATS_MAX_BYTES;
        while (isStr && cut > 0 && (lb[cut] & 0xc0) === 0x80) cut--;
        minOut = lb.subarray(0, cut);
    }
    if (hb.length > STATS_MAX_BYTES) {
        // Our test strings are ASCII at the cut: increment the last byte below 0x7f/0xff.
        let end = STATS_MAX_BYTES;
        const top = isStr ? 0x7f : 0xff;
        while (end > 0 && hb[end - 1] === top) end--;
        maxOut = Buffer.from(hb.subarray(0, end));
        maxOut[end - 1]++;
    }
    const conv = (b) => (isStr ? b.toString('utf8') : b);
    return [conv(minOut), conv(maxOut), lb.length <= STATS_MAX_BYTES, hb.length <= STATS_MAX_BYTES];
}

// Parses DuckDB's text of a statistics value of a leaf back into our representation.
function parseStat(path, text) {
    if (text === null) {
        return null;
    }
    if (path in SCALE) {
        return text;
    }
    switch (path) {
    case 'b': return text === 'true';
    case 'i64': case 'arrs.list.element.x': return BigInt(text);
    case 'f32': case 'f64': case 'm.key_value.value': return Number(text);
    case 'dt': return BigInt(parseTimestamp(text) / 86400000000n);
    case 'ts': case 'tsn': return parseTimestamp(text);
    case 'bin': return Buffer.from(text.replace(/\\x([0-9A-F]{2})/g, (_, h) => String.fromCharCode(
        parseInt(h, 16))), 'latin1');
    default:
        return /^-?\d+$/.test(text) && !path.includes('key_value.key') || path === 'm2.key_value.key'
            ? Number(text) : text;
    }
}

// 'YYYY-MM-DD[ HH:MM:SS[.ffffff]][+00]' -> microseconds since the epoch (BigInt).
function parseTimestamp(text) {
    const m = /^(-?\d+)-(\d\d)-(\d\d)(?: (\d\d):(\d\d):(\d\d)(?:\.(\d+))?)?(?:\+00)?$/.exec(text);
    if (!m) {
        throw new Error(`cannot parse timestamp ${text}`);
    }
    const d = new Date(0);
    d.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
    d.setUTCHours(Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0), 0);
    const frac = BigInt((m[7] ?? '').padEnd(6, '0'));
    return BigInt(d.getTime()) * 1000n + frac;
}

function statEquals(path, want, got) {
    if (path in SCALE) {
        return decimalString(want, SCALE[path]) === got;
    }
    if (Buffer.isBuffer(want)) {
        return Buffer.isBuffer(got) && want.equals(got);
    }
    if (isNum(want)) {
        return want === got; // numeric: -0 == 0
    }
    return want === got;
}

// ---- Checks ------------------------------------------------------------------------------

let failures = 0;
function fail(msg) {
    failures++;
    if (failures <= 30) {
        console.log(`FAIL ${msg}`);
    }
}

async function checkTypes(con, file, tag) {
    const rows = (await con.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${file}')`))
        .getRowObjectsJson();
    for (const row of rows) {
        if (TYPES[row.column_name] !== row.column_type) {
            fail(`${tag}: column ${row.column_name} reads as ${row.column_type}, `
                + `want ${TYPES[row.column_name]}`);
        }
    }
    if (rows.length !== Object.keys(TYPES).length) {
        fail(`${tag}: ${rows.length} columns`);
    }
}

async function checkValues(con, file, tag) {
    const sql = `SELECT b, i8, i16, i32, i64, f32, f64, d9::VARCHAR AS d9, d18::VARCHAR AS d18,
        d38::VARCHAR AS d38, s, bin, (dt - DATE '1970-01-01')::BIGINT AS dt, epoch_us(ts) AS ts,
        epoch_us(tsn) AS tsn, nul, st, arr, arrs, m, m2
        FROM read_parquet('${file}', file_row_number = true) ORDER BY file_row_number`;
    const rows = (await con.runAndReadAll(sql)).getRowObjectsJS();
    if (rows.length !== N_ROWS) {
        fail(`${tag}: ${rows.length} rows`);
        return;
    }
    let bad = 0;
    for (let r = 0; r < N_ROWS; r++) {
        for (const c of Object.keys(TYPES)) {
            let want = FLAT.includes(c) ? flatValue(c, r) : nestedValue(c, r);
            let got = rows[r][c];
            if (c in SCALE && want !== null) {
                want = decimalString(want, SCALE[c]);
            }
            if (c === 'bin' && got !== null) {
                got = Buffer.from(got);
            }
            const ok = Buffer.isBuffer(want) ? Buffer.isBuffer(got) && want.equals(got)
                : deepEqual(want, got);
            if (!ok && bad++ < 10) {
                fail(`${tag}: row ${r} column ${c}: DuckDB reads ${inspect(got)}, `
                    + `wrote ${inspect(want)}`);
            }
        }
    }
    console.log(`  ${tag}: ${N_ROWS} rows x ${Object.keys(TYPES).length} columns compared`);
}

function inspect(v) {
    return JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? `${x}n` : x));
}

async function checkMetadata(con, file, tag) {
    const rows = (await con.runAndReadAll(`SELECT row_group_id, path_in_schema, stats_null_count,
        stats_min_value, stats_max_value, min_is_exact, max_is_exact, num_values
        FROM parquet_metadata('${file}')`)).getRowObjectsJson();
    let n = 0;
    for (const row of rows) {
        const path = row.path_in_schema.split(', ').join('.');
        const rg = Number(row.row_group_id);
        const entries = [];
        for (let r = rg * RG_ROWS; r < Math.min(N_ROWS, (rg + 1) * RG_ROWS); r++) {
            entries.push(...leafEntries(path, r));
        }
        const nulls = entries.filter((v) => v === null).length;
        const where = `${tag}: row group ${rg} '${path}'`;
        if (Number(row.stats_null_count) !== nulls || Number(row.num_values) !== entries.length) {
            fail(`${where}: null count ${row.stats_null_count}, values ${row.num_values}; `
                + `want ${nulls}, ${entries.length}`);
        }
        const b = expectedBounds(entries);
        const gotMin = parseStat(path, row.stats_min_value);
        const gotMax = parseStat(path, row.stats_max_value);
        if (b === null) {
            if (gotMin !== null || gotMax !== null) {
                fail(`${where}: bounds without values`);
            }
            continue;
        }
        const finite = (v) => !isNum(v) || Number.isFinite(v); // DuckDB hides infinite bounds
        if (finite(b[0]) && finite(b[1])) {
            if (!statEquals(path, b[0], gotMin) || !statEquals(path, b[1], gotMax)) {
                fail(`${where}: bounds ${inspect(row.stats_min_value)}..`
                    + `${inspect(row.stats_max_value)}, want ${inspect(b[0])}..${inspect(b[1])}`);
            }
            if (row.min_is_exact !== b[2] || row.max_is_exact !== b[3]) {
                fail(`${where}: exactness ${row.min_is_exact}/${row.max_is_exact}`);
            }
        }
        n++;
    }
    console.log(`  ${tag}: statistics of ${n} column chunks match parquet_metadata()`);
    const fm = (await con.runAndReadAll(`SELECT created_by, num_rows, num_row_groups
        FROM parquet_file_metadata('${file}')`)).getRowObjectsJson()[0];
    if (fm.created_by !== 'deltalite version 0.1.0 (build none)' || fm.num_rows !== String(N_ROWS)
        || fm.num_row_groups !== String(N_ROWS / RG_ROWS)) {
        fail(`${tag}: file metadata ${inspect(fm)}`);
    }
}

// Filters DuckDB answers with row-group pruning by our statistics.
async function checkFilters(con, file, tag) {
    const filters = [
        ['i32 > 2000000000', (r) => (flatValue('i32', r) ?? -Infinity) > 2000000000],
        ['i64 < -1000000000000000', (r) => (flatValue('i64', r) ?? 0n) < -1000000000000000n],
        ["s >= 'zz'", (r) => cmp(flatValue('s', r) ?? '', 'zz') >= 0],
        ["s = 'cat7'", (r) => flatValue('s', r) === 'cat7'],
        ['d38 > 2000000000', (r) => (flatValue('d38', r) ?? 0n) > 2000000000n * P(10)],
        ["dt BETWEEN DATE '1970-01-01' AND DATE '1970-02-01'",
            (r) => { const v = flatValue('dt', r); return v !== null && v >= 0n && v <= 31n; }],
        ['st.a BETWEEN 1500 AND 1600',
            (r) => { const v = nestedValue('st', r); return v !== null && v.a !== null && v.a >= 1500 && v.a <= 1600; }],
        // DuckDB orders NaN above every number.
        ['f64 > 200', (r) => { const v = flatValue('f64', r); return v !== null && !(v <= 200); }],
    ];
    for (const [where, pred] of filters) {
        const got = Number((await con.runAndReadAll(
            `SELECT count(*) AS n FROM read_parquet('${file}') WHERE ${where}`)).getRowObjectsJson()[0].n);
        let want = 0;
        for (let r = 0; r < N_ROWS; r++) want += pred(r) ? 1 : 0;
        if (got !== want) {
            fail(`${tag}: WHERE ${where} counts ${got}, want ${want}`);
        }
    }
    console.log(`  ${tag}: ${filters.length} filtered counts agree`);
}

// The writer's own result: per-leaf file statistics.
function checkResult(result, tag) {
    if (result.num_rows !== N_ROWS || result.n_row_groups !== N_ROWS / RG_ROWS) {
        fail(`${tag}: result rows ${result.num_rows}, row groups ${result.n_row_groups}`);
    }
    for (const leaf of result.leaves) {
        const entries = [];
        for (let r = 0; r < N_ROWS; r++) entries.push(...leafEntries(leaf.path, r));
        const nulls = entries.filter((v) => v === null).length;
        const nans = entries.filter((v) => isNum(v) && Number.isNaN(v)).length;
        if (leaf.null_count !== nulls || leaf.nan_count !== nans) {
            fail(`${tag}: result '${leaf.path}' nulls ${leaf.null_count}, NaN ${leaf.nan_count}`);
        }
        const b = expectedBounds(entries, true);
        if ((b === null) !== (leaf.min === undefined)) {
            fail(`${tag}: result '${leaf.path}' has bounds ${leaf.min !== undefined}`);
            continue;
        }
        if (b === null) {
            continue;
        }
        const fmt = (v) => (Buffer.isBuffer(v) ? v.toString('hex')
            : typeof v === 'string' ? Buffer.from(v, 'utf8').toString('hex')
                : isNum(v) ? v : String(v));
        const parse = (s) => (isNum(b[0]) ? Number(s.replace('inf', 'Infinity')) : s);
        if (fmt(b[0]) !== parse(leaf.min) || fmt(b[1]) !== parse(leaf.max)
            || leaf.min_exact !== b[2] || leaf.max_exact !== b[3]) {
            fail(`${tag}: result '${leaf.path}' ${leaf.min}..${leaf.max}, want `
                + `${fmt(b[0])}..${fmt(b[1])}`);
        }
    }
    console.log(`  ${tag}: writer result matches for ${result.leaves.length} leaves`);
}

const CONFIGS = [
    ['v1', 'SNAPPY'], ['v2', 'SNAPPY'], ['v1', 'ZSTD', 'delta'], ['v2', 'GZIP', 'delta'],
    ['v1', 'UNCOMPRESSED'], ['v2', 'LZ4_RAW'],
];

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const instance = await duckdb.DuckDBInstance.create(':memory:');
const con = await instance.connect();
for (const cfg of CONFIGS) {
    const tag = cfg.join('+');
    const file = join(outDir, `alltypes_${cfg.join('_')}.parquet`);
    const run = spawnSync(program, [file, ...cfg], { encoding: 'utf8' });
    if (run.status !== 0) {
        console.error(`${program} ${file} ${cfg.join(' ')} failed: ${run.stderr}`);
        process.exit(2);
    }
    console.log(`${tag}: ${file}`);
    checkResult(JSON.parse(run.stdout), tag);
    await checkTypes(con, file, tag);
    await checkValues(con, file, tag);
    await checkMetadata(con, file, tag);
    await checkFilters(con, file, tag);
}
if (failures > 0) {
    console.log(`${failures} checks failed`);
    process.exit(1);
}
console.log(`all checks passed (${CONFIGS.length} files, DuckDB ${duckdb.version()})`);
