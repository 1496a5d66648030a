// SPDX-License-Identifier: Apache-2.0
// Differential tester of the data-changing statements against DuckDB (issue 13, part 2).
// Random Delta tables are built and changed by random DELETE, UPDATE, MERGE, INSERT INTO
// (VALUES / SELECT), INSERT OVERWRITE and OPTIMIZE, run by the `deltalite` shell on a Delta
// table and by DuckDB (npm @duckdb/node-api, the version tests/parquet_duckdb pins) on a table
// of its own; after every statement the whole table is compared (EXCEPT ALL both ways, through
// deltalite's COPY ... TO parquet), and so is deltalite's time travel to a random earlier
// version against DuckDB's saved copy of that version.
//
// usage: node tests/sql/dml_diff/dml_diff.mjs [--seed N] [--tables N] [--statements N]
//          [--min-rows N] [--max-rows N] [--first-table N] [--deltalite PATH] [--dir DIR]
//          [--modules DIR] [--time-limit SECONDS] [--keep-going 0|1] [--quiet 0|1] [--verbose 0|1]
//          [--dv-permille N] [--cm-permille N]
//   --seed: the run's seed; table i draws everything from (seed, i), so
//     `--seed S --first-table I --tables 1` replays table I of run S alone (same statements).
//   --tables / --statements: tables in the run, statements per table (after the build).
//   --min-rows / --max-rows: rows of a table when built (log-uniform between them).
//   --time-limit: start no new table after this many seconds (0 = no limit).
//   --dv-permille: tables (per thousand) with delta.enableDeletionVectors = true (default 250).
//     Which tables is decided by a hash of (seed, table) outside the table's random stream, so
//     every other table, and the statements of every table, are what the seed gave before
//     deletion vectors were in the mix.
//   --cm-permille: tables (per thousand) with delta.columnMapping.mode = 'name' (default 0):
//     physical column names, Parquet field ids, random file folders; decided like --dv-permille
//     by a hash of its own.
//   --keep-going 0: stop at the first disagreement (default: go on with the next table).
//   --modules: the node_modules holding @duckdb/node-api (tests/parquet_duckdb/ensure_duckdb.sh
//     installs it there and prints it). run.sh is the ctest wrapper.
//   Writes DIR/failures.txt. A table that disagrees keeps its folder DIR/t<I>/ with the Delta
//   table (wh/), the Parquet inputs of its statements, repro.sql (every statement deltalite ran,
//   in order: `deltalite DIR/t<I>/wh -bail -f repro.sql` on a fresh copy replays it) and
//   expected.parquet (DuckDB's table after the failing statement). Exits 1 on any disagreement.
//
// Tables: a BIGINT key k (unique when built; sorted in insertion order or shuffled), 2-7 more
// columns of INT, BIGINT, DOUBLE, DECIMAL, STRING, DATE, TIMESTAMP, BOOLEAN with NULLs (some
// values follow the insertion order, so they are sorted too; strings longer than the 32
// characters of Delta's string statistics; timestamps with microseconds, the statistics keep
// milliseconds), partitioned by 0-2 columns or not, built by one INSERT or many (many files;
// deltalite's pages hold 20,000 rows, so tables have many pages per file; there is no setting
// for smaller row groups, so one file is one row group up to 128 MiB), delta.checkpointInterval
// 2, 3, 5 or the default, some with deletion vectors (delta.enableDeletionVectors: DELETE,
// UPDATE and MERGE mark rows instead of rewriting files; on those tables a commit of one must
// copy no row: numCopiedRows / numTargetRowsCopied 0). Predicates: equality and ranges on sorted and shuffled columns, IN,
// NOT IN, IS [NOT] NULL, LIKE 'prefix%', partition-only, partition and data, AND, OR, NOT, and
// ones that match nothing, one row, about one page, one built file, or everything; DATE
// columns against TIMESTAMP literals; IN / NOT IN / [NOT] EXISTS subqueries. MERGE:
// every clause kind with and without extra conditions; the source is a random subset of the
// target's rows with changed values plus new keys; duplicate source keys only where Spark must
// fail (an UPDATE clause) or must not (a lone unconditional DELETE, inserts only).
// Checked after each statement: both engines fail or neither; at most one new version, and
// none after a failure; the contents; the time travel; Spark's row-count metrics of the commit
// (numDeletedRows, numUpdatedRows, numOutputRows, MERGE's inserted + updated + deleted) against
// DuckDB's changed rows.
//
// SQL kept to what both engines agree on (deltalite follows Spark): no integer or decimal
// overflow (values stay far from the limits, updates add small amounts), no decimal results
// of a larger scale than the column (Spark and DuckDB round differently), no division, no
// string functions that depend on Unicode case rules; doubles are multiples of 1/64 so that
// literals are exact. Spark stores '' in a partition column as NULL: partition strings are
// never empty. DuckDB allows a target row matched by several source rows in MERGE, Spark
// refuses it (DELTA_MULTIPLE_SOURCE_ROW_MATCHING_TARGET_ROW_IN_MERGE): such statements are run
// on deltalite only and must fail there. DuckDB has no INSERT OVERWRITE (emulated by DELETE +
// INSERT in one transaction) and no OPTIMIZE (nothing to do). TIMESTAMP is Spark's
// (UTC-adjusted): DuckDB's column is TIMESTAMPTZ with TimeZone UTC. Not covered: dynamic
// partition overwrite.

import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdtempSync } from 'node:fs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const opt = {
  seed: 1, tables: 20, statements: 20, 'min-rows': 20000, 'max-rows': 1000000, 'first-table': 0,
  deltalite: join(REPO, 'build/release/deltalite'), dir: null,
  modules: join(REPO, 'tests/parquet_duckdb/node_modules'), 'time-limit': 0, 'keep-going': 1,
  quiet: 0, verbose: 0, 'dv-permille': 250, 'cm-permille': 0,
};
const NUMERIC = new Set(['seed', 'tables', 'statements', 'min-rows', 'max-rows', 'first-table',
  'time-limit', 'keep-going', 'quiet', 'verbose', 'dv-permille', 'cm-permille']);
for (let i = 2; i < process.argv.length; i += 2) {
  const k = process.argv[i].replace(/^--/, '');
  if (!(k in opt) || i + 1 >= process.argv.length) {
    console.error(`unknown option or missing value: ${process.argv[i]}`);
    process.exit(2);
  }
  opt[k] = NUMERIC.has(k) ? Number(process.argv[i + 1]) : process.argv[i + 1];
}
const D = resolve(opt.dir || mkdtempSync(join(tmpdir(), 'dl_dml_diff_')));
mkdirSync(D, { recursive: true });
const { DuckDBInstance } = await import(join(resolve(opt.modules), '@duckdb/node-api/lib/index.js'));
const FAIL = join(D, 'failures.txt');
writeFileSync(FAIL, '');

// ---- random numbers: splitmix-style, one stream per table ----
let state = 0n;
const M64 = (1n << 64n) - 1n;
function seedTable(s, t) { state = (BigInt(s) * 0x9E3779B97F4A7C15n + BigInt(t) * 0xBF58476D1CE4E5B9n + 1n) & M64; }
function rnd() {
  state = (state + 0x9E3779B97F4A7C15n) & M64;
  let z = state;
  z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & M64;
  z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & M64;
  z ^= z >> 31n;
  return Number(z >> 11n) / 2 ** 53;
}
// Whether table t of run s has deletion vectors: a hash of its own, so that the tables'
// random streams (and so every table without deletion vectors) are what they were before.
function tableHash(s, t, salt) {
  let z = (BigInt(s) * 0x9E3779B97F4A7C15n + BigInt(t) * 0xD6E8FEB86659FD93n + salt) & M64;
  z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & M64;
  z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & M64;
  z ^= z >> 31n;
  return Number(z % 1000n);
}
const dvTable = (s, t) => tableHash(s, t, 0x2545F4914F6CDD1Dn) < opt['dv-permille'];
// ... and column mapping ('name' mode), by another hash.
const cmTable = (s, t) => tableHash(s, t, 0x632BE59BD9B4E019n) < opt['cm-permille'];
const pick = (a) => a[Math.floor(rnd() * a.length)];
const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1)); // inclusive
const chance = (p) => rnd() < p;

// ---- column types ----
// gen(i, salt) is a DuckDB expression of the row index i; dl/duck are the type names.
const TYPES = {
  int: { dl: 'INT', duck: 'INTEGER', prefix: 'i' },
  bigint: { dl: 'BIGINT', duck: 'BIGINT', prefix: 'l' },
  double: { dl: 'DOUBLE', duck: 'DOUBLE', prefix: 'd' },
  decimal: { dl: null, duck: null, prefix: 'm' },
  string: { dl: 'STRING', duck: 'VARCHAR', prefix: 's' },
  date: { dl: 'DATE', duck: 'DATE', prefix: 'dt' },
  timestamp: { dl: 'TIMESTAMP', duck: 'TIMESTAMPTZ', prefix: 'ts' },
  boolean: { dl: 'BOOLEAN', duck: 'BOOLEAN', prefix: 'f' },
};
const DECIMALS = [[9, 2], [18, 4], [12, 0], [10, 3], [38, 6]];
const TS0 = 946684800000000n; // 2000-01-01 in microseconds

function makeColumn(type, name, n, isPart) {
  const c = { type, name, part: isPart, salt: int(1, 1 << 30) };
  const h = `hash(i, ${c.salt})`;
  c.sorted = chance(isPart ? 0.3 : 0.35);
  c.nullPermille = isPart ? pick([0, 0, 50]) : pick([0, 0, 10, 100, 500, chance(0.1) ? 1000 : 100]);
  let e;
  switch (type) {
    case 'int':
      if (isPart) { const p = pick([2, 5, 12]); e = c.sorted ? `(i * ${p} // ${n})::INT` : `(${h} % ${p})::INT`; } else {
        const r = pick([10, 1000, 2000000]);
        e = c.sorted ? `(i // ${pick([1, 7, 100])})::INT` : `((${h} % ${r})::BIGINT - ${r / 2})::INT`;
      }
      break;
    case 'bigint':
      e = c.sorted ? `(i * 3 + 1000)::BIGINT` : pick([`((${h} % 1000000000000)::BIGINT - 500000000000)`, `(${h} % 50)::BIGINT`]);
      break;
    case 'double':
      e = c.sorted ? `i::DOUBLE / 8` : `((${h} % 2000000)::BIGINT - 1000000)::DOUBLE / 64`;
      break;
    case 'decimal': {
      const [p, s] = pick(DECIMALS);
      c.p = p; c.s = s;
      c.dlType = c.duckType = `DECIMAL(${p},${s})`;
      const u = 10n ** BigInt(Math.min(p - 2, 17));
      const units = c.sorted ? 'i' : `((${h} % ${u})::BIGINT - ${u / 2n})`;
      e = `(${units}::DECIMAL(18,0)${s > 0 ? ` * 0.${'0'.repeat(s - 1)}1` : ''})::DECIMAL(${p},${s})`;
      break;
    }
    case 'string': {
      if (isPart) { e = `'p' || (${h} % ${pick([3, 7])})::VARCHAR`; c.sorted = false; break; }
      c.variant = pick(['short', 'short', 'long', 'unicode', 'sorted']);
      const card = pick([5, 1000, 1000000000]);
      if (c.variant === 'sorted') c.sorted = true; else c.sorted = false;
      e = { short: `'v' || (${h} % ${card})::VARCHAR`,
        long: `repeat('abcdefghij', 3) || '-' || (${h} % ${card})::VARCHAR`,
        unicode: `'ü' || (${h} % ${card})::VARCHAR || 'é'`,
        sorted: `lpad(i::VARCHAR, 9, '0')` }[c.variant];
      if (c.variant === 'short' && chance(0.5)) e = `CASE WHEN ${h} % 50 = 0 THEN '' ELSE ${e} END`;
      break;
    }
    case 'date':
      if (isPart) { e = `DATE '2024-01-01' + (${h} % ${pick([3, 10])})::INT`; c.sorted = false; break; }
      e = c.sorted ? `DATE '2000-01-01' + (i // 50)::INT` : `DATE '2000-01-01' + (${h} % 20000)::INT`;
      break;
    case 'timestamp': {
      const r = `(${h} % 630000000000000)::BIGINT`;
      e = c.sorted ? `make_timestamp(${TS0} + i * 1000003)::TIMESTAMPTZ`
        : chance(0.3) ? `make_timestamp(${TS0} + ${r} // 1000000 * 1000000)::TIMESTAMPTZ`
          : `make_timestamp(${TS0} + ${r})::TIMESTAMPTZ`;
      break;
    }
    default: // boolean
      e = c.sorted ? `(i % 1000 < 500)` : `(${h} % 2 = 0)`;
  }
  if (type !== 'decimal') { c.dlType = TYPES[type].dl; c.duckType = TYPES[type].duck; }
  c.gen = c.nullPermille > 0 ? `CASE WHEN hash(i, ${c.salt + 1}) % 1000 < ${c.nullPermille} THEN NULL ELSE ${e} END` : e;
  return c;
}

function makeSpec(tableIndex) {
  const lo = Math.log(opt['min-rows']), hi = Math.log(Math.max(opt['max-rows'], opt['min-rows']));
  // Log-uniform, with a lean towards the small end so that long runs cover many tables.
  const n = Math.round(Math.exp(lo + (hi - lo) * rnd() ** 1.6));
  const sorted = chance(0.5);
  const nData = int(2, 7);
  const nPart = chance(0.4) ? (nData > 2 && chance(0.25) ? 2 : 1) : 0;
  const cols = [{ type: 'bigint', name: 'k', part: false, key: true, sorted, dlType: 'BIGINT', duckType: 'BIGINT',
    gen: sorted ? 'i' : `((i * 2147483647 + ${int(0, n)}) % ${n})` }];
  const names = new Set(['k']);
  const uniq = (p) => { let j = 1; while (names.has(`${p}${j}`)) j++; names.add(`${p}${j}`); return `${p}${j}`; };
  const dataTypes = Object.keys(TYPES);
  for (let j = 0; j < nData - nPart; j++) {
    const t = pick(dataTypes);
    cols.push(makeColumn(t, uniq(TYPES[t].prefix), n, false));
  }
  for (let j = 0; j < nPart; j++) {
    const t = pick(['int', 'int', 'string', 'date', 'boolean']);
    cols.push(makeColumn(t, uniq('p' + TYPES[t].prefix), n, true));
  }
  const nBatches = chance(0.4) ? 1 : int(2, 12);
  const cuts = new Set();
  while (cuts.size < nBatches - 1) cuts.add(int(1, n - 1));
  const b = [0, ...[...cuts].sort((x, y) => x - y), n];
  const batches = b.slice(1).map((e, j) => [b[j], e]);
  const ckpt = pick([0, 2, 3, 5]);
  // Writer settings of the session (Spark passes them to parquet-mr): smaller pages, row
  // groups and files than the defaults, so that tables of 20,000 rows have many of each.
  const write = { pageRows: pick([20000, 1000, 2500, 5000]), blockBytes: pick([0, 65536, 262144, 1048576]),
    fileRows: pick([0, 0, 5000, 30000, 100000]) };
  const sets = [];
  if (write.pageRows !== 20000) sets.push(`SET parquet.page.row.count.limit = ${write.pageRows}`);
  if (write.blockBytes) sets.push(`SET parquet.block.size = ${write.blockBytes}`);
  if (write.fileRows) sets.push(`SET spark.sql.files.maxRecordsPerFile = ${write.fileRows}`);
  return { index: tableIndex, n, sorted, cols, batches, ckpt, write, sets, dv: dvTable(opt.seed, tableIndex),
    cm: cmTable(opt.seed, tableIndex) };
}

function ddlDl(spec) {
  const parts = spec.cols.filter((c) => c.part).map((c) => c.name);
  const props = [...(spec.ckpt ? [`'delta.checkpointInterval' = '${spec.ckpt}'`] : []),
    ...(spec.dv ? [`'delta.enableDeletionVectors' = 'true'`] : []),
    ...(spec.cm ? [`'delta.columnMapping.mode' = 'name'`] : [])];
  return `CREATE TABLE t (${spec.cols.map((c) => `${c.name} ${c.dlType}`).join(', ')}) USING delta` +
    (parts.length ? ` PARTITIONED BY (${parts.join(', ')})` : '') +
    (props.length ? ` TBLPROPERTIES (${props.join(', ')})` : '');
}
const ddlDuck = (spec) => `CREATE OR REPLACE TABLE t (${spec.cols.map((c) => `${c.name} ${c.duckType}`).join(', ')})`;

// ---- literals ----
function lit(c, v) {
  if (v === null || v === undefined) return 'NULL';
  switch (c.type) {
    case 'int': case 'bigint': return String(v);
    case 'double': return chance(0.5) ? `CAST('${v}' AS DOUBLE)` : String(Number(v).toString().includes('e') ? `CAST('${v}' AS DOUBLE)` : v);
    case 'decimal': return String(v);
    case 'string': return `'${String(v).replace(/'/g, "''")}'`;
    case 'date': return `DATE '${v}'`;
    case 'timestamp': return `TIMESTAMP '${String(v).replace(/\+00(:00)?$/, '')}'`;
    default: return v ? 'true' : 'false';
  }
}
// A timestamp literal cut to milliseconds (the precision of Delta's statistics).
function litMs(v) {
  const s = String(v).replace(/\+00(:00)?$/, '');
  const m = s.match(/^(.*\.\d{3})\d*$/);
  return `TIMESTAMP '${m ? m[1] : s}'`;
}

// ---- the run ----
const inst = await DuckDBInstance.create(':memory:', { threads: '2', memory_limit: '1GB' });
const con = await inst.connect();
await con.run(`SET TimeZone = 'UTC'`);
await con.run(`SET enable_external_file_cache = false`);
async function duckRows(sql) { const r = await con.runAndReadAll(sql); return r.getRowsJson(); }
async function duckRun(sql) { const r = await con.run(sql); return Number(r.rowsChanged); }

const totals = { tables: 0, statements: 0, fails: 0, bothErr: 0, expectedErr: 0, committed: 0, kinds: {}, dlMs: 0, classes: {} };
const t0 = Date.now();

class Table {
  constructor(spec) {
    this.spec = spec;
    this.dir = join(D, `t${spec.index}`);
    this.wh = join(this.dir, 'wh');
    rmSync(this.dir, { recursive: true, force: true });
    mkdirSync(this.dir, { recursive: true });
    this.names = spec.cols.map((c) => c.name).join(', ');
    this.castSel = spec.cols.map((c) => `CAST(${c.name} AS ${c.duckType}) AS ${c.name}`).join(', ');
    this.version = -1;
    this.snaps = new Map(); // version -> parquet file of DuckDB's table at that version
    this.repro = spec.sets.map((x) => `${x};`);
    this.keyHi = spec.n; // every key is below keyHi
    this.fileNo = 0;
  }
  file(tag) { return join(this.dir, `${tag}${this.fileNo++}.parquet`); }
  dl(sql) {
    const t = Date.now();
    const pre = this.spec.sets.map((x) => `${x};\n`).join('');
    const r = spawnSync(opt.deltalite, [this.wh, '-json', '-bail', '-c', pre + sql], { encoding: 'utf8', maxBuffer: 1 << 28 });
    totals.dlMs += Date.now() - t;
    return { rc: r.status, out: r.stdout || '', err: (r.stderr || '') + (r.error ? String(r.error) : '') };
  }
  async snapshot(v) {
    const f = join(this.dir, `snap_v${v}.parquet`);
    await con.run(`COPY (SELECT ${this.names} FROM t) TO '${f}' (FORMAT parquet)`);
    this.snaps.set(v, f);
  }
}

// The rows that supply literals: the first row at or after a random key.
async function sampleRows(tb, count) {
  const parts = [];
  for (let j = 0; j < count; j++) {
    const g = Math.floor(rnd() * tb.keyHi);
    parts.push(`(SELECT ${tb.names} FROM t WHERE k >= ${g} ORDER BY ALL LIMIT 1)`);
  }
  parts.push(`(SELECT ${tb.names} FROM t ORDER BY ALL LIMIT 1)`);
  const rows = await duckRows(parts.join(' UNION ALL '));
  return rows.map((r) => Object.fromEntries(tb.spec.cols.map((c, j) => [c.name, r[j]])));
}

// ---- predicates ----
function atom(tb, c, rows, q) {
  const col = `${q}${c.name}`;
  const vals = rows.map((r) => r[c.name]);
  const v = pick(vals);
  const nn = vals.filter((x) => x !== null);
  if (v === null || chance(0.08)) return `${col} IS ${pick(['', 'NOT '])}NULL`;
  if (c.type === 'boolean') return pick([col, `NOT ${col}`, `${col} = ${lit(c, v)}`]);
  const shape = int(0, 7);
  if (shape <= 1) return `${col} = ${lit(c, v)}`;
  if (shape === 2) return `${col} ${pick(['<', '<=', '>', '>='])} ${c.type === 'timestamp' && chance(0.5) ? litMs(v) : lit(c, v)}`;
  if (shape === 3 || shape === 4) {
    let [a, b] = [v, pick(nn)];
    const num = ['int', 'bigint', 'double', 'decimal'].includes(c.type);
    if (num ? Number(a) > Number(b) : String(a) > String(b)) [a, b] = [b, a];
    return `${col} BETWEEN ${lit(c, a)} AND ${lit(c, b)}`;
  }
  if (shape === 5) return `${col} ${chance(0.7) ? '' : 'NOT '}IN (${[v, pick(nn), pick(nn)].map((x) => lit(c, x)).join(', ')})`;
  if (shape === 6 && c.type === 'date') { // Spark casts the DATE column to TIMESTAMP
    return `${col} ${pick(['<', '<=', '>', '>=', '=', '<>'])} TIMESTAMP '${v} ${pick(['00:00:00', '12:00:00', '23:59:59.999999'])}'`;
  }
  if (shape === 6 && c.type === 'string') return `${col} LIKE ${lit(c, String(v).slice(0, int(1, Math.max(1, String(v).length - 1))) + '%')}`;
  return `${col} ${pick(['<>', '<', '>='])} ${lit(c, v)}`;
}
function keyAtom(tb, rows, q, what) {
  const k = `${q}k`;
  const keys = rows.map((r) => Number(r.k));
  switch (what) {
    case 'none': return pick([`${k} < 0`, `${k} = ${tb.keyHi + 7}`, `${k} IN (-1, -2)`, `${k} > ${tb.keyHi}`]);
    case 'one': return `${k} = ${pick(keys)}`;
    case 'page': {
      const g = pick(keys), w = tb.spec.write.pageRows;
      return `${k} BETWEEN ${g} AND ${g + int(Math.floor(w / 3), 2 * w)}`;
    }
    case 'file': {
      if (tb.spec.sorted) { const [lo, hi] = pick(tb.spec.batches); return `${k} BETWEEN ${lo} AND ${hi - 1}`; }
      return `${k} ${pick(['<', '>='])} ${pick(keys)}`;
    }
    case 'all': return pick([`${k} >= 0`, `${k} IS NOT NULL`, 'true']);
    default: return `${k} ${pick(['<', '<=', '>', '>=', '<>'])} ${pick(keys)}`;
  }
}
function pred(tb, rows, q, depth) {
  const cols = tb.spec.cols;
  const parts = cols.filter((c) => c.part);
  const data = cols.filter((c) => !c.part && !c.key);
  const r = rnd();
  if (depth > 0 && r < 0.22) {
    const op = pick(['AND', 'OR', 'AND', 'NOT']);
    if (op === 'NOT') return `NOT (${pred(tb, rows, q, depth - 1)})`;
    return `(${pred(tb, rows, q, depth - 1)} ${op} ${pred(tb, rows, q, depth - 1)})`;
  }
  if (parts.length && r < 0.4) {
    const pa = atom(tb, pick(parts), rows, q);
    return chance(0.5) ? pa : `${pa} AND ${atom(tb, pick([...data, cols[0]]), rows, q)}`;
  }
  if (r < 0.62) return keyAtom(tb, rows, q, pick(['none', 'one', 'one', 'page', 'page', 'file', 'all', 'range']));
  return atom(tb, pick(data.length ? data : cols), rows, q);
}

// ---- assignments: an expression of the column's own type ----
function valueExpr(c, q) {
  const col = `${q}${c.name}`;
  if (c.key) return `${col} + ${pick([1000000000000, 2000000000000, 5000000000000])}`;
  if (chance(0.1)) return 'NULL';
  switch (c.type) {
    case 'int': return c.part ? pick([`${col} + 1`, '0', '7']) : pick([`${col} + 1`, `${col} - 7`, `-${col}`, '42', `coalesce(${col}, 0) + 1`, `CASE WHEN ${col} > 0 THEN ${col} ELSE 0 END`, `CAST(${q}k % 100 AS INT)`]);
    case 'bigint': return pick([`${col} + 1`, `${col} - 3`, `-${col}`, `${q}k`, '-5']);
    case 'double': return pick([`${col} * 2`, `${col} + 0.5`, `-${col}`, '1.25', `${col} * 0.5`, `CAST(${q}k AS DOUBLE) / 4`]);
    case 'decimal': return pick([`${col} + 1`, `${col} - 1`, `-${col}`, `coalesce(${col}, 0)`, `CAST(3 AS DECIMAL(${c.p},${c.s}))`]);
    case 'string':
      if (c.part) return pick([`'p9'`, `${col} || 'x'`, `'p0'`]);
      return pick([`${col} || 'x'`, `'u' || CAST(${q}k AS STRING)`, `'const'`, `''`,
        ...(c.variant === 'unicode' ? [] : [`substr(${col}, 1, 3)`])]);
    case 'date': return c.part ? pick([`DATE '2024-02-01'`, `${col} + 1`]) : pick([`${col} + 1`, `${col} - 30`, `DATE '2030-06-01'`]);
    case 'timestamp': return pick([`${col} + INTERVAL 1 HOUR`, `${col} + INTERVAL 3 DAYS`, `${col} - INTERVAL 1500 MICROSECONDS`, `TIMESTAMP '2031-01-01 00:00:00'`]);
    default: return pick([`NOT ${col}`, 'true', 'false', `${q}k % 2 = 0`]);
  }
}
function assignments(tb, q, allowKey) {
  const cols = tb.spec.cols.filter((c) => (allowKey || !c.key));
  const n = int(1, Math.min(3, cols.length));
  const chosen = new Set();
  while (chosen.size < n) {
    const c = pick(cols);
    if (c.key && !chance(0.15)) continue;
    chosen.add(c);
  }
  return [...chosen].map((c) => `${c.name} = ${valueExpr(c, q)}`).join(', ');
}

// ---- statements: { kind, dl, duck (array, in one transaction), expectDlError, metric } ----
async function newRowsFile(tb, count) {
  const f = tb.file('new');
  const lo = tb.keyHi;
  tb.keyHi += count;
  // Generated like the build, at row indexes from keyHi, the key is the row index.
  const exprs = tb.spec.cols.map((c) => `${c.key ? 'i' : c.gen} AS ${c.name}`);
  await con.run(`COPY (SELECT ${exprs.join(', ')} FROM range(${lo}, ${lo + count}) r(i)) TO '${f}' (FORMAT parquet)`);
  return f;
}

// A condition with a subquery over a random subset of the rows (DELETE and UPDATE find the
// files to rewrite by a join then, not by skipping).
async function subqueryPred(tb, rows) {
  const f = tb.file('keys');
  await con.run(`COPY (SELECT k FROM t WHERE hash(k, ${int(1, 1 << 30)}) % 1000 < ${pick([1, 10, 100, 500])}) TO '${f}' (FORMAT parquet)`);
  const sub = pick([`k IN (SELECT k FROM read_parquet('${f}'))`, `k NOT IN (SELECT k FROM read_parquet('${f}'))`,
    `EXISTS (SELECT 1 FROM read_parquet('${f}') x WHERE x.k = t.k)`, `NOT EXISTS (SELECT 1 FROM read_parquet('${f}') x WHERE x.k = t.k)`]);
  return chance(0.5) ? sub : `${sub} ${pick(['AND', 'OR'])} ${pred(tb, rows, '', 1)}`;
}
const wherePred = async (tb, rows) => (chance(0.12) ? subqueryPred(tb, rows) : pred(tb, rows, '', 2));

async function genDelete(tb, rows) {
  const w = chance(0.05) ? '' : ` WHERE ${await wherePred(tb, rows)}`;
  const sql = `DELETE FROM t${w}`;
  return { kind: 'DELETE', dl: sql, duck: [sql], metric: 'numDeletedRows' };
}
async function genUpdate(tb, rows) {
  const sql = `UPDATE t SET ${assignments(tb, '', true)}${chance(0.05) ? '' : ` WHERE ${await wherePred(tb, rows)}`}`;
  return { kind: 'UPDATE', dl: sql, duck: [sql], metric: 'numUpdatedRows' };
}
async function genInsert(tb, rows) {
  const form = int(0, 2);
  if (form === 0) { // VALUES
    const n = int(1, 5);
    const vals = [];
    for (let j = 0; j < n; j++) {
      const r = pick(rows);
      vals.push(`(${tb.spec.cols.map((c) => (c.key ? String(tb.keyHi++) : lit(c, chance(0.15) ? null : r[c.name]))).join(', ')})`);
    }
    const sql = `INSERT INTO t VALUES ${vals.join(', ')}`;
    return { kind: 'INSERT VALUES', dl: sql, duck: [sql], metric: 'numOutputRows' };
  }
  if (form === 1) { // SELECT from the table itself, new keys
    const off = tb.keyHi;
    tb.keyHi *= 2;
    const sel = tb.spec.cols.map((c) => (c.key ? `k + ${off}` : chance(0.3) ? valueExpr(c, '') : c.name)).join(', ');
    const sql = `INSERT INTO t SELECT ${sel} FROM t WHERE ${pred(tb, rows, '', 1)}`;
    return { kind: 'INSERT SELECT', dl: sql, duck: [sql], metric: 'numOutputRows' };
  }
  const f = await newRowsFile(tb, pick([1, 10, 1000, 30000]));
  const sql = `INSERT INTO t SELECT * FROM read_parquet('${f}')`;
  return { kind: 'INSERT SELECT', dl: sql, duck: [sql], metric: 'numOutputRows' };
}
async function genOverwrite(tb, rows) {
  if (chance(0.5)) {
    const p = pred(tb, rows, '', 1);
    return { kind: 'INSERT OVERWRITE', dl: `INSERT OVERWRITE t SELECT * FROM t WHERE ${p}`, metric: 'numOutputRows',
      duck: [`CREATE OR REPLACE TEMP TABLE ow AS SELECT * FROM t WHERE ${p}`, 'DELETE FROM t', 'INSERT INTO t SELECT * FROM ow', 'DROP TABLE ow'],
      duckCount: 2 };
  }
  const f = await newRowsFile(tb, pick([1, 100, 25000]));
  return { kind: 'INSERT OVERWRITE', dl: `INSERT OVERWRITE t SELECT * FROM read_parquet('${f}')`, metric: 'numOutputRows',
    duck: ['DELETE FROM t', `INSERT INTO t SELECT * FROM read_parquet('${f}')`], duckCount: 1 };
}
async function genOptimize(tb, rows) {
  const parts = tb.spec.cols.filter((c) => c.part);
  const w = parts.length && chance(0.5) ? ` WHERE ${atom(tb, pick(parts), rows, '')}` : '';
  return { kind: 'OPTIMIZE', dl: `OPTIMIZE t${w}`, duck: [] };
}

// MERGE: the source is a random subset of the target's rows with changed values, plus new keys;
// dup is how duplicate source keys are added: none, 'fail' (an UPDATE clause: Spark refuses),
// 'delete' (a lone unconditional DELETE: allowed), 'insert' (inserts only: allowed).
async function genMerge(tb, rows) {
  const cols = tb.spec.cols;
  const dup = chance(0.08) ? pick(['fail', 'fail', 'delete', 'insert']) : null;
  const salt = int(1, 1 << 30);
  const per10k = pick([0, 1, 10, 100, 1000, 5000]);
  const changed = cols.map((c) => `CAST(${c.key ? 'k' : chance(0.5) ? valueExpr(c, '') : c.name} AS ${c.duckType}) AS ${c.name}`).join(', ');
  const subset = per10k === 0 ? `k = ${pick(rows.map((r) => r.k))}` : `hash(k, ${salt}) % 10000 < ${per10k}`;
  const nNew = pick([0, 0, 1, 10, 1000]);
  const lo = tb.keyHi;
  tb.keyHi += nNew;
  const parts = [`SELECT ${changed} FROM t WHERE ${subset}`];
  if (nNew > 0) parts.push(`SELECT ${cols.map((c) => `${c.key ? 'i' : c.gen} AS ${c.name}`).join(', ')} FROM range(${lo}, ${lo + nNew}) r(i)`);
  if (dup) { // twice: the subset may hold these keys or not
    const d = `SELECT ${changed} FROM t WHERE k IN (${rows.slice(0, 3).map((r) => r.k).join(', ')})`;
    parts.push(d, d);
  }
  const f = tb.file('src');
  await con.run(`COPY (SELECT * FROM (${parts.join(' UNION ALL ')}) ORDER BY hash(k, ${salt + 1})) TO '${f}' (FORMAT parquet)`);
  // An extra target condition in ON (Delta prunes files by it). DuckDB joins such an ON by a
  // nested loop (20 s on 100,000 rows): it gets the same condition as one hashable equality.
  const extra = !dup && chance(0.2) ? atom(tb, pick(cols.filter((c) => !c.key).concat(cols[0])), rows, 't.') : null;
  const on = `t.k = s.k${extra ? ` AND ${extra}` : ''}`;
  const onDuck = extra ? `(CASE WHEN ${extra} THEN t.k END) = s.k` : on;
  const cond = (q, last) => (last && !chance(0.4) ? '' : ` AND ${q === 'st' ? `${pred(tb, rows, 's.', 0)} ${pick(['AND', 'OR'])} ${pred(tb, rows, 't.', 0)}` : pred(tb, rows, q, 1)}`);
  const groups = (n, make) => Array.from({ length: n }, (_, j) => make(j === n - 1));
  const matched = (last) => {
    const a = pick(['set', 'set', 'star', 'delete']);
    const c = cond(pick(['s.', 't.', 'st']), last);
    if (a === 'delete') return `WHEN MATCHED${c} THEN DELETE`;
    if (a === 'star') return `WHEN MATCHED${c} THEN UPDATE SET *`;
    const sets = cols.filter((x) => !x.key && chance(0.5)).map((x) => `${x.name} = ${pick([`s.${x.name}`, valueExpr(x, 's.'), valueExpr(x, 't.')])}`);
    return `WHEN MATCHED${c} THEN UPDATE SET ${sets.length ? sets.join(', ') : `${cols[1].name} = s.${cols[1].name}`}`;
  };
  const notMatched = (last) => {
    const c = cond('s.', last);
    if (chance(0.4)) return `WHEN NOT MATCHED${c} THEN INSERT *`;
    const ins = cols.filter((x) => x.key || chance(0.8));
    return `WHEN NOT MATCHED${chance(0.3) ? ' BY TARGET' : ''}${c} THEN INSERT (${ins.map((x) => x.name).join(', ')}) VALUES (${ins.map((x) => (x.key || chance(0.6) ? `s.${x.name}` : valueExpr(x, 's.'))).join(', ')})`;
  };
  const bySource = (last) => {
    const c = cond('t.', last);
    return chance(0.4) ? `WHEN NOT MATCHED BY SOURCE${c} THEN DELETE` : `WHEN NOT MATCHED BY SOURCE${c} THEN UPDATE SET ${assignments(tb, 't.', false)}`;
  };
  let clauses;
  if (dup === 'fail') clauses = [`WHEN MATCHED THEN UPDATE SET ${cols[1].name} = s.${cols[1].name}`, ...groups(int(0, 1), notMatched)];
  else if (dup === 'delete') clauses = ['WHEN MATCHED THEN DELETE', ...groups(int(0, 1), notMatched), ...groups(int(0, 1), bySource)];
  else if (dup === 'insert') clauses = groups(int(1, 2), notMatched);
  else {
    let [m, n, s] = [int(0, 2), int(0, 2), int(0, 2)];
    if (m + n + s === 0) m = 1;
    clauses = [...groups(m, matched), ...groups(n, notMatched), ...groups(s, bySource)];
  }
  const sql = `MERGE INTO t USING (SELECT * FROM read_parquet('${f}')) s ON ${on} ${clauses.join(' ')}`;
  const duckSql = `MERGE INTO t USING (SELECT * FROM read_parquet('${f}')) s ON ${onDuck} ${clauses.join(' ')}`;
  // Spark (Delta's findTouchedFiles) refuses a MERGE in which a target row meets two source
  // rows by the ON condition, unless it inserts only or its one MATCHED clause is an
  // unconditional DELETE; DuckDB allows it. Target keys repeat after a MERGE with an extra ON
  // condition inserted an existing key, so this is asked of every MERGE, not only of dup.
  const insertOnly = !clauses.some((c) => c.startsWith('WHEN MATCHED') || c.startsWith('WHEN NOT MATCHED BY SOURCE'));
  const matchedCl = clauses.filter((c) => c.startsWith('WHEN MATCHED'));
  const loneDelete = matchedCl.length === 1 && matchedCl[0] === 'WHEN MATCHED THEN DELETE';
  let multi = 0;
  if (!insertOnly && !loneDelete) {
    const r = await duckRows(`SELECT count(*) FROM (SELECT t.rowid FROM t JOIN read_parquet('${f}') s ON ${onDuck} GROUP BY t.rowid HAVING count(*) > 1)`);
    multi = Number(r[0][0]);
  }
  const expectDlError = multi > 0;
  return { kind: dup ? `MERGE dup-${dup}` : expectDlError ? 'MERGE multiple match' : 'MERGE', dl: sql,
    duck: expectDlError ? [] : [duckSql], expectDlError, metric: dup ? null : 'merge' };
}

// ---- checking ----
function parseArrays(out) {
  const res = [];
  for (const chunk of out.split(/^\]$/m)) {
    const s = chunk.trim();
    if (s.startsWith('[')) res.push(JSON.parse(`${s}]`));
  }
  return res;
}
const firstLine = (s) => String(s).trim().split('\n').slice(0, 3).join(' | ');

// null when the queries a and b give the same multiset of rows (names: their columns), else
// what differs. A fingerprint (row count, sum of row hashes) first; EXCEPT ALL both ways
// decides when the fingerprints differ.
async function diffCount(a, b, names) {
  const fp = (q) => `(SELECT count(*)::VARCHAR || ':' || coalesce(sum(hash(${names})::HUGEINT), 0)::VARCHAR FROM (${q}))`;
  const f = await duckRows(`SELECT ${fp(a)}, ${fp(b)}`);
  if (f[0][0] === f[0][1]) return null;
  const r = await duckRows(`SELECT (SELECT count(*) FROM (${a} EXCEPT ALL ${b})), (SELECT count(*) FROM (${b} EXCEPT ALL ${a})), (SELECT count(*) FROM (${a})), (SELECT count(*) FROM (${b}))`);
  const [missing, extra, na, nb] = r[0].map(Number);
  if (missing === 0 && extra === 0) return null;
  const ex = async (x, y) => (await duckRows(`SELECT * FROM (${x} EXCEPT ALL ${y}) LIMIT 3`)).map((row) => JSON.stringify(row)).join('\n      ');
  return `expected ${na} rows, deltalite has ${nb}: ${missing} missing, ${extra} unexpected\n` +
    `    missing e.g.:    ${await ex(a, b)}\n    unexpected e.g.: ${await ex(b, a)}`;
}

// What deltalite runs to read the table back: its last version, its contents and a time travel
// to a random version DuckDB saved.
function checkPlan(tb) {
  // A new name per check: DuckDB must never read an earlier check's file under the same name
  // (a run once failed on a rewritten file with "Snappy decompression failure", then read the
  // same bytes fine; its external file cache is off as well).
  for (const f of tb.checkFiles || []) rmSync(f, { force: true });
  tb.checkN = (tb.checkN || 0) + 1;
  const cur = join(tb.dir, `cur_${tb.checkN}.parquet`), tt = join(tb.dir, `tt_${tb.checkN}.parquet`);
  tb.checkFiles = [cur, tt];
  const vs = [...tb.snaps.keys()].filter((v) => v <= Math.max(tb.version, 0));
  const ttv = vs.length ? pick(vs) : null;
  let sql = `DESCRIBE HISTORY t LIMIT 1; COPY (SELECT ${tb.names} FROM t) TO '${cur}'`;
  if (ttv !== null) sql += `; COPY (SELECT ${tb.names} FROM t VERSION AS OF ${ttv}) TO '${tt}'`;
  return { sql, cur, tt, ttv };
}

// Checks the table after a statement; returns a list of problems. out: what deltalite printed
// running plan (checkPlan) after the statement; without it, the plan is run here.
async function verify(tb, ctx, plan = null, out = null) {
  const problems = [];
  if (!plan) {
    plan = checkPlan(tb);
    const r = tb.dl(plan.sql);
    if (r.rc !== 0) return [`reading the table back failed: ${firstLine(r.err)}\n    (${plan.sql})`];
    out = r.out;
  }
  const { cur, tt, ttv } = plan;
  const arrays = parseArrays(out);
  const hist = arrays[arrays.length - 1][0];
  const v = Number(hist.version);
  ctx.newVersion = v;
  ctx.history = hist;
  if (ctx.mustNotCommit && v !== tb.version) problems.push(`the failed statement committed: version ${tb.version} -> ${v}`);
  else if (v > tb.version + ctx.maxCommits || v < tb.version) problems.push(`version ${tb.version} -> ${v}, expected at most ${ctx.maxCommits} new commit(s)`);
  else if (ctx.mustCommit && v !== tb.version + 1) problems.push(`DuckDB changed ${ctx.duckChanged} rows but deltalite committed no version (still ${v})`);
  // A file of deltalite's DuckDB cannot read is a disagreement of its own, not a crash of the run.
  const compare = async (a, b, file) => {
    try {
      return await diffCount(a, b, tb.names);
    } catch (e) {
      return `DuckDB could not read ${file}: ${firstLine(e.message)}`;
    }
  };
  const d = await compare(`SELECT ${tb.names} FROM t`, `SELECT ${tb.castSel} FROM read_parquet('${cur}')`, cur);
  if (d) problems.push(`contents after the statement differ: ${d}`);
  if (ttv !== null) {
    const d2 = await compare(`SELECT ${tb.names} FROM read_parquet('${tb.snaps.get(ttv)}')`, `SELECT ${tb.castSel} FROM read_parquet('${tt}')`, tt);
    if (d2) problems.push(`time travel to version ${ttv} differs: ${d2}`);
  }
  if (ctx.metric && v === tb.version + 1 && !problems.length) {
    const m = hist.operationMetrics || {};
    const got = ctx.metric === 'merge'
      ? ['numTargetRowsInserted', 'numTargetRowsUpdated', 'numTargetRowsDeleted'].reduce((s, x) => s + Number(m[x] ?? NaN), 0)
      : Number(m[ctx.metric] ?? NaN);
    if (got !== ctx.duckChanged) {
      problems.push(`metric ${ctx.metric === 'merge' ? 'numTargetRowsInserted + Updated + Deleted' : ctx.metric} of the commit is ${got}, DuckDB changed ${ctx.duckChanged} rows (${JSON.stringify(m)})`);
    }
    // With deletion vectors DELETE, UPDATE and MERGE mark rows: a commit that copied rows
    // rewrote a file it should have marked.
    const copied = ctx.metric === 'merge' ? 'numTargetRowsCopied' : 'numCopiedRows';
    if (tb.spec.dv && ['merge', 'numDeletedRows', 'numUpdatedRows'].includes(ctx.metric) && Number(m[copied] ?? 0) !== 0) {
      problems.push(`deletion vectors not used: ${copied} of the commit is ${m[copied]}, expected 0 (${JSON.stringify(m)})`);
    }
  }
  return problems;
}

const replayCmd = (tb, j) => `node tests/sql/dml_diff/dml_diff.mjs --seed ${opt.seed} --first-table ${tb.spec.index} --tables 1 ` +
  `--statements ${j + 1} --min-rows ${opt['min-rows']} --max-rows ${opt['max-rows']}`;

// The kind of a problem, for the run's summary.
function problemClass(p) {
  for (const [re, name] of [[/^contents/, 'contents'], [/^time travel/, 'time travel'], [/^metric/, 'metric'],
    [/deletion vectors/, 'deletion vectors not used'], [/Spark fails/, 'MERGE multiple match not refused'], [/not with Spark's/, 'MERGE multiple match: other error'],
    [/engine failed/, 'error difference'], [/version|committed/, 'versions'], [/reading|building/, 'read back or build failed']]) {
    if (re.test(p)) return name;
  }
  return 'other';
}

async function report(tb, j, st, problems, errInfo) {
  totals.fails++;
  const cls = problemClass(problems[0]);
  totals.classes[cls] = (totals.classes[cls] || 0) + 1;
  const spec = tb.spec;
  await con.run(`COPY (SELECT ${tb.names} FROM t) TO '${join(tb.dir, 'expected.parquet')}' (FORMAT parquet)`);
  writeFileSync(join(tb.dir, 'repro.sql'), `${tb.repro.join('\n')}\nSELECT count(*) FROM t;\n`);
  const text = [
    `DISAGREEMENT seed ${opt.seed} table ${spec.index} statement #${j} (${st.kind})`,
    `  table: ${spec.n} rows, keys ${spec.sorted ? 'sorted' : 'shuffled'}, ${spec.batches.length} INSERT(s), checkpointInterval ${spec.ckpt || 'default'}${spec.dv ? ', deletion vectors' : ''}${spec.cm ? ', column mapping' : ''}`,
    ...(spec.sets.length ? [`  session: ${spec.sets.join('; ')}`] : []),
    `  ${ddlDl(spec)}`,
    `  statement: ${st.dl}`,
    ...(st.duck.length && st.duck.join('; ') !== st.dl ? [`  DuckDB ran: ${st.duck.join('; ')}`] : []),
    ...(errInfo ? [`  ${errInfo}`] : []),
    ...problems.map((p) => `  - ${p}`),
    `  reproduce: rm -rf /tmp/repro_wh && ${opt.deltalite} /tmp/repro_wh -bail -f ${join(tb.dir, 'repro.sql')}`,
    `             (DuckDB's table after the statement: ${join(tb.dir, 'expected.parquet')})`,
    `  replay: ${replayCmd(tb, j)}`,
    '',
  ].join('\n');
  appendFileSync(FAIL, `${text}\n`);
  console.log(text);
}

async function buildTable(tb) {
  const spec = tb.spec;
  await con.run(ddlDuck(spec));
  await con.run('DROP TABLE IF EXISTS ow');
  const stmts = [ddlDl(spec)];
  const files = [];
  for (const [lo, hi] of spec.batches) {
    const f = tb.file('b');
    await con.run(`COPY (SELECT ${spec.cols.map((c) => `${c.gen} AS ${c.name}`).join(', ')} FROM range(${lo}, ${hi}) r(i)) TO '${f}' (FORMAT parquet)`);
    files.push(f);
    stmts.push(`INSERT INTO t SELECT * FROM read_parquet('${f}')`);
  }
  tb.repro.push(...stmts.map((s) => `${s};`));
  const r = tb.dl(stmts.join(';\n'));
  if (r.rc !== 0) return `building the table failed: ${firstLine(r.err)}`;
  await tb.snapshot(0);
  const big = spec.n > 200000;
  for (let j = 0; j < files.length; j++) {
    await con.run(`INSERT INTO t SELECT * FROM read_parquet('${files[j]}')`);
    if (!big || chance(0.3) || j === files.length - 1) await tb.snapshot(j + 1);
  }
  tb.version = 0;
  const ctx = { maxCommits: files.length };
  const problems = await verify(tb, ctx);
  if (!problems.length && ctx.newVersion !== files.length) problems.push(`${files.length} INSERTs made version ${ctx.newVersion}`);
  tb.version = ctx.newVersion;
  return problems.length ? problems.join('\n  - ') : null;
}

async function runStatement(tb, j) {
  const rows = await sampleRows(tb, 4);
  const usable = rows.length > 0;
  const r = rnd();
  let st;
  if (!usable) st = await genInsert(tb, [Object.fromEntries(tb.spec.cols.map((c) => [c.name, null]))]);
  else if (r < 0.24) st = await genDelete(tb, rows);
  else if (r < 0.48) st = await genUpdate(tb, rows);
  else if (r < 0.71) st = await genMerge(tb, rows);
  else if (r < 0.88) st = await genInsert(tb, rows);
  else if (r < 0.93) st = await genOverwrite(tb, rows);
  else st = await genOptimize(tb, rows);
  totals.statements++;
  totals.kinds[st.kind] = (totals.kinds[st.kind] || 0) + 1;
  let duckErr = null, duckChanged = 0;
  const duckT0 = Date.now();
  if (st.duck.length) {
    const tx = st.duck.length > 1;
    try {
      if (tx) await con.run('BEGIN TRANSACTION');
      for (let i = 0; i < st.duck.length; i++) {
        const n = await duckRun(st.duck[i]);
        if (st.duckCount === undefined || i === st.duckCount) duckChanged += n;
      }
      if (tx) await con.run('COMMIT');
    } catch (e) {
      duckErr = firstLine(e.message);
      if (tx) await con.run('ROLLBACK').catch(() => {});
    }
  }
  tb.repro.push(`${st.dl};`);
  if (opt.verbose) console.log(`  #${j} ${st.kind} (DuckDB changed ${duckErr ? `nothing: ${duckErr}` : duckChanged} in ${Date.now() - duckT0} ms): ${st.dl.slice(0, 1000)}`);
  // One run: the statement, a marker, the read-back (checkPlan); without the marker the
  // statement failed (-bail), and the read-back runs on its own.
  const plan = checkPlan(tb);
  const d = tb.dl(`${st.dl};\nSELECT 'dml_diff statement done' AS marker;\n${plan.sql}`);
  const ran = d.out.includes('dml_diff statement done');
  const dlErr = ran ? null : firstLine(d.err) || `exit status ${d.rc}`;
  const problems = [];
  let errInfo = null, fatal = false;
  if (ran && d.rc !== 0) {
    problems.push(`reading the table back failed: ${firstLine(d.err)}\n    (${plan.sql})`);
    fatal = true;
  }
  if (st.expectDlError) {
    totals.expectedErr++;
    if (!dlErr) { problems.push('a target row met by two source rows: Spark fails (DELTA_MULTIPLE_SOURCE_ROW_MATCHING_TARGET_ROW_IN_MERGE), deltalite did not'); fatal = true; }
    else if (!/DELTA_MULTIPLE_SOURCE_ROW_MATCHING_TARGET_ROW_IN_MERGE/.test(dlErr)) problems.push(`duplicate source keys: deltalite failed, but not with Spark's DELTA_MULTIPLE_SOURCE_ROW_MATCHING_TARGET_ROW_IN_MERGE: ${dlErr}`);
  } else if (duckErr && dlErr) {
    totals.bothErr++;
    if (!opt.quiet) console.log(`  both failed (generator?): ${st.dl}\n    duck: ${duckErr}\n    dl: ${dlErr}`);
  } else if (duckErr || dlErr) {
    errInfo = `error difference:\n    duckdb: ${duckErr || 'ok'}\n    deltalite: ${dlErr || 'ok'}`;
    problems.push('one engine failed, the other did not');
    fatal = true;
  }
  const failed = Boolean(dlErr);
  const ctx = { maxCommits: 1, mustNotCommit: failed, duckChanged,
    mustCommit: !failed && duckChanged > 0 && st.kind !== 'OPTIMIZE', metric: failed || duckErr ? null : st.metric };
  if (!fatal) {
    const more = ran ? await verify(tb, ctx, plan, d.out) : await verify(tb, ctx);
    if (more.length) fatal = true;
    problems.push(...more);
  }
  if (problems.length) await report(tb, j, st, problems, errInfo);
  if (!fatal && ctx.newVersion > tb.version) {
    totals.committed++;
    if (tb.spec.n <= 200000 || chance(0.35)) await tb.snapshot(ctx.newVersion);
    tb.version = ctx.newVersion;
  }
  return !fatal;
}

for (let ti = opt['first-table']; ti < opt['first-table'] + opt.tables; ti++) {
  if (opt['time-limit'] > 0 && (Date.now() - t0) / 1000 > opt['time-limit']) {
    console.log(`time limit of ${opt['time-limit']} s reached: stopped before table ${ti}`);
    break;
  }
  seedTable(opt.seed, ti);
  const spec = makeSpec(ti);
  const tb = new Table(spec);
  const tt0 = Date.now();
  totals.tables++;
  let ok = true, done = 0;
  const err = await buildTable(tb);
  if (err) {
    await report(tb, -1, { kind: 'build', dl: tb.repro.join(' '), duck: [] }, [err], null);
    ok = false;
  }
  for (let j = 0; ok && j < opt.statements; j++) {
    ok = await runStatement(tb, j);
    done++;
  }
  const parts = spec.cols.filter((c) => c.part).map((c) => c.name);
  console.log(`table ${ti}: ${spec.n} rows, ${spec.cols.length} columns, keys ${spec.sorted ? 'sorted' : 'shuffled'}, ` +
    `${parts.length ? `partitioned by ${parts.join(', ')}` : 'not partitioned'}, ${spec.batches.length} INSERT(s), ` +
    `checkpointInterval ${spec.ckpt || 'default'}${spec.dv ? ', deletion vectors' : ''}${spec.cm ? ', column mapping' : ''}, pages ${spec.write.pageRows} rows` +
    `${spec.write.blockBytes ? `, row groups ${spec.write.blockBytes} B` : ''}${spec.write.fileRows ? `, files ${spec.write.fileRows} rows` : ''}: ${done} statements ${ok ? 'agree' : 'DISAGREE'} ` +
    `(${((Date.now() - tt0) / 1000).toFixed(1)} s; run so far: ${totals.tables} tables, ${totals.statements} statements, ` +
    `${totals.fails} disagreements, ${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  if (ok) rmSync(tb.dir, { recursive: true, force: true });
  else if (!opt['keep-going']) break;
}
const secs = (Date.now() - t0) / 1000;
console.log(`tables ${totals.tables} statements ${totals.statements} disagreements ${totals.fails} ` +
  `committed ${totals.committed} errors-on-both ${totals.bothErr} expected-errors ${totals.expectedErr} ` +
  `wall ${secs.toFixed(0)} s (deltalite ${(totals.dlMs / 1000).toFixed(0)} s); kinds ${JSON.stringify(totals.kinds)}` +
  `${totals.fails ? `; disagreements by kind ${JSON.stringify(totals.classes)}; see ${FAIL}` : ''}`);
process.exit(totals.fails > 0 ? 1 : 0);
