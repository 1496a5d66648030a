// SPDX-License-Identifier: Apache-2.0
// Differential test of the SQL engine against DuckDB (issue 7, "Differential testing"): random
// queries over two random Parquet tables, run by `deltalite -json -c` and by DuckDB (npm
// @duckdb/node-api, the version bench/ pins) over the same files, results compared as
// multisets (as lists under a total ORDER BY), doubles to 9 significant digits.
//
// usage: node tests/sql/engine/diff_duckdb.mjs [--seed N] [--queries N] [--deltalite PATH]
//                                              [--dir DIR] [--rows N] [--row-group N]
//                                              [--modules DIR]
//   --rows: rows of t1 (default 5000; t2 has 300); --row-group: Parquet row-group size of t1
//   (default DuckDB's), small values give multi-row-group files that parallel scans split.
//   --modules: the node_modules holding @duckdb/node-api (default bench/node_modules; bench/run
//   installs it, or `npm install` in bench/). tests/sql/engine/diff_run.sh is the ctest wrapper.
//   Writes DIR/t1.parquet, DIR/t2.parquet and DIR/failures.txt; exits 1 on any difference.
//
// The generator keeps to the SQL both engines agree on. Where Spark and DuckDB differ it
// avoids the construct (and deltalite follows Spark): '\\' is LIKE's default escape in Spark
// only; GROUP BY ROLLUP over no rows is no row in Spark, one in DuckDB; integer overflow,
// division by zero, NULL ordering defaults (always written out here), double-to-string casts
// and outer expressions matched against GROUP BY expressions (Spark allows, DuckDB refuses).
// Not part of the build; not needed by ctest.

import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const opt = {
  seed: 1, queries: 500, deltalite: join(REPO, 'build/release/deltalite'), dir: null, rows: 5000,
  'row-group': 0, modules: join(REPO, 'bench/node_modules'),
};
const NUMERIC = new Set(['seed', 'queries', 'rows', 'row-group']);
for (let i = 2; i < process.argv.length; i += 2) {
  const k = process.argv[i].replace(/^--/, '');
  if (!(k in opt)) { console.error(`unknown option ${process.argv[i]}`); process.exit(2); }
  opt[k] = NUMERIC.has(k) ? Number(process.argv[i + 1]) : process.argv[i + 1];
}
const D = opt.dir || mkdtempSync(join(tmpdir(), 'dl_diff_'));
mkdirSync(D, { recursive: true });
const { DuckDBInstance } = await import(join(resolve(opt.modules), '@duckdb/node-api/lib/index.js'));

let seed = opt.seed;
function rnd() { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; }
const pick = (a) => a[Math.floor(rnd() * a.length)];
const T1 = `read_parquet('${D}/t1.parquet')`, T2 = `read_parquet('${D}/t2.parquet')`;

function intE(d, q) {
  const cols = q === 't1' ? ['a', 'k', 'b'] : q === 'j' ? ['t1.a', 't1.k', 't2.v', 't2.k'] : ['v', 'k', 'id'];
  if (d <= 0 || rnd() < 0.35) return rnd() < 0.75 ? pick(cols) : String(Math.floor(rnd() * 21) - 10);
  switch (Math.floor(rnd() * 9)) {
    case 0: return `(${intE(d - 1, q)} + ${intE(d - 1, q)})`;
    case 1: return `(${intE(d - 1, q)} - ${intE(d - 1, q)})`;
    case 2: return `(${intE(d - 1, q)} * ${pick(['2', '3', '-1'])})`;
    case 3: return `abs(${intE(d - 1, q)})`;
    case 4: return `CASE WHEN ${boolE(d - 1, q)} THEN ${intE(d - 1, q)} ELSE ${intE(d - 1, q)} END`;
    case 5: return `coalesce(${intE(d - 1, q)}, ${intE(d - 1, q)})`;
    case 6: return `(- ${intE(d - 1, q)})`;
    case 7: return `(${intE(d - 1, q)} % ${pick(['3', '5', '7'])})`;
    default: return `nullif(${intE(d - 1, q)}, ${pick(['0', '1', '2'])})`;
  }
}
function strE(d, q) {
  const cols = q === 't1' ? ['s'] : q === 'j' ? ['t1.s', 't2.s'] : ['s'];
  if (d <= 0 || rnd() < 0.4) return rnd() < 0.8 ? pick(cols) : pick(["'ab'", "'b'", "''", "'zz'"]);
  switch (Math.floor(rnd() * 5)) {
    case 0: return `upper(${strE(d - 1, q)})`;
    case 1: return `(${strE(d - 1, q)} || ${strE(d - 1, q)})`;
    case 2: return `substr(${strE(d - 1, q)}, ${pick(['1', '2'])}, ${pick(['1', '2', '3'])})`;
    case 3: return `coalesce(${strE(d - 1, q)}, 'nil')`;
    default: return `lower(${strE(d - 1, q)})`;
  }
}
function boolE(d, q) {
  if (d <= 0 || rnd() < 0.3) {
    switch (Math.floor(rnd() * 6)) {
      case 0: return `${intE(0, q)} ${pick(['=', '<>', '<', '<=', '>', '>='])} ${intE(0, q)}`;
      case 1: return `${intE(0, q)} IS ${pick(['', 'NOT '])}NULL`;
      case 2: return `${strE(0, q)} ${pick(['=', '<>', '<', '>='])} ${pick(["'ab'", "'b'", "'c'"])}`;
      case 3: return `${strE(0, q)} LIKE ${pick(["'a%'", "'%b%'", "'_'"])}`;
      case 4: return `${intE(0, q)} ${pick(['', 'NOT '])}IN (${pick(['1, 2, 3', '-5, 0, NULL', '4'])})`;
      default: return `${intE(0, q)} BETWEEN ${pick(['-5', '0'])} AND ${pick(['3', '10'])}`;
    }
  }
  switch (Math.floor(rnd() * 6)) {
    case 0: return `(${boolE(d - 1, q)} AND ${boolE(d - 1, q)})`;
    case 1: return `(${boolE(d - 1, q)} OR ${boolE(d - 1, q)})`;
    case 2: return `NOT (${boolE(d - 1, q)})`;
    case 3: return `(${intE(d - 1, q)} ${pick(['=', '<', '>='])} ${intE(d - 1, q)})`;
    case 4: return q === 't1' ? `k ${pick(['', 'NOT '])}IN (SELECT k FROM ${T2} WHERE ${boolE(0, 't2')})` : `(${boolE(d - 1, q)})`;
    default: return q === 't1' ? `${pick(['', 'NOT '])}EXISTS (SELECT 1 FROM ${T2} x WHERE x.k = t1.k AND ${boolE(0, 't2').replace(/\b(v|s|id)\b/g, 'x.$1')})` : `(${boolE(d - 1, q)})`;
  }
}
function anyE(d, q) { return rnd() < 0.7 ? intE(d, q) : strE(d, q); }

function query() {
  const shape = Math.floor(rnd() * 21);
  const w = rnd() < 0.7 ? ` WHERE ${boolE(2, 't1')}` : '';
  switch (shape) {
    case 0: { // projection
      const n = 1 + Math.floor(rnd() * 3);
      const items = Array.from({ length: n }, (_, i) => `${anyE(2, 't1')} AS c${i}`);
      return { sql: `SELECT ${items.join(', ')} FROM ${T1} t1${w}`, ordered: false };
    }
    case 1: { // group by
      const g = pick(['k', 'a % 3', 's', 'upper(s)', 'k, s']);
      const aggs = [`count(*)`, `sum(${intE(1, 't1')})`, `min(${anyE(1, 't1')})`, `max(${anyE(1, 't1')})`, `count(${anyE(1, 't1')})`, `count(DISTINCT ${anyE(1, 't1')})`, `avg(${intE(1, 't1')})`, `sum(c)`];
      const n = 1 + Math.floor(rnd() * 3);
      const items = Array.from({ length: n }, (_, i) => `${pick(aggs)} AS c${i}`);
      const h = rnd() < 0.3 ? ` HAVING count(*) > ${pick(['1', '5', '20'])}` : '';
      const gc = g.split(', ').map((x, i) => `${x} AS g${i}`);
      return { sql: `SELECT ${gc.join(', ')}, ${items.join(', ')} FROM ${T1} t1${w} GROUP BY ${g}${h}`, ordered: false };
    }
    case 2: { // join
      if (rnd() < 0.1) { // three comma-joined tables, the first two linked only through the third
        const w3 = pick(['t1.k = t3.k AND t2.id = t3.id', `t3.id = t2.id AND t1.k = t3.k AND ${boolE(0, 'j')}`,
          't1.k = t3.k AND t2.k = t3.k AND t2.id < 20', 't2.id = t3.id AND t1.a IS NOT DISTINCT FROM t3.v']);
        return { sql: `SELECT t1.b AS c0, t2.id AS c1, t3.v AS c2 FROM ${T1} t1, ${T2} t2, ${T2} t3 WHERE ${w3}`, ordered: false };
      }
      if (rnd() < 0.3) { // comma joins: equalities in WHERE, also common to every OR branch
        const wc = pick(['t1.k = t2.k', `t2.k = t1.k AND ${boolE(1, 'j')}`,
          `(t1.k = t2.k AND ${boolE(0, 'j')}) OR (t2.k = t1.k AND ${boolE(0, 'j')})`,
          `t1.k = t2.k AND t1.a IS NOT DISTINCT FROM t2.v`, `t1.k + 1 = t2.k OR t1.k = t2.k`]);
        return { sql: `SELECT t1.b AS c0, t2.id AS c1, ${anyE(1, 'j')} AS c2 FROM ${T1} t1, ${T2} t2 WHERE ${wc}`, ordered: false };
      }
      const jt = pick(['JOIN', 'LEFT JOIN', 'RIGHT JOIN', 'FULL JOIN']);
      const on = rnd() < 0.7 ? 't1.k = t2.k' : `t1.k = t2.k AND ${boolE(0, 'j')}`;
      const wj = rnd() < 0.5 ? ` WHERE ${boolE(1, 'j')}` : '';
      return { sql: `SELECT t1.b AS c0, t2.id AS c1, ${anyE(1, 'j')} AS c2 FROM ${T1} t1 ${jt} ${T2} t2 ON ${on}${wj}`, ordered: false };
    }
    case 3: { // order by limit
      const e = intE(1, 't1');
      const dir = pick(['ASC', 'DESC']), nulls = pick(['NULLS FIRST', 'NULLS LAST']);
      return { sql: `SELECT ${e} AS c0, b AS c1 FROM ${T1} t1${w} ORDER BY c0 ${dir} ${nulls}, b LIMIT ${pick([1, 5, 17, 100])}${rnd() < 0.3 ? ' OFFSET 3' : ''}`, ordered: true };
    }
    case 4: { // distinct
      return { sql: `SELECT DISTINCT ${anyE(1, 't1')} AS c0 FROM ${T1} t1${w}`, ordered: false };
    }
    case 5: { // set ops
      const op = pick(['UNION', 'UNION ALL', 'INTERSECT', 'EXCEPT', 'INTERSECT ALL', 'EXCEPT ALL']);
      return { sql: `SELECT k AS c0, s AS c1 FROM ${T1} t1${w} ${op} SELECT k, s FROM ${T2} t2 WHERE ${boolE(1, 't2')}`, ordered: false };
    }
    case 6: { // window
      const f = pick(['row_number() OVER (PARTITION BY k ORDER BY b)', 'sum(a) OVER (PARTITION BY k)', 'rank() OVER (ORDER BY a NULLS FIRST)', 'lag(a) OVER (PARTITION BY k ORDER BY b)', 'count(*) OVER (PARTITION BY s)', 'sum(a) OVER (ORDER BY b ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)', 'max(a) OVER (PARTITION BY k ORDER BY b)', 'dense_rank() OVER (PARTITION BY k ORDER BY a DESC NULLS LAST)']);
      return { sql: `SELECT b AS c0, ${f} AS c1 FROM ${T1} t1${w}`, ordered: false };
    }
    case 8: return { sql: `WITH x AS (SELECT k, sum(a) AS sa, count(*) AS n FROM ${T1} t1${w} GROUP BY k) SELECT t2.id AS c0, x.sa AS c1, x.n AS c2 FROM ${T2} t2 ${pick(['LEFT JOIN', 'JOIN', 'FULL JOIN'])} x ON t2.k = x.k`, ordered: false };
    case 9: {
      const agg = pick(['sum(t1.a)', 'count(*)', 'max(t2.v)', 'count(DISTINCT t1.s)', 'min(t1.s)', 'avg(t2.v)', 'sum(DISTINCT t1.a)', 'count(*) FILTER (WHERE t1.a > 0)', 'stddev(t1.a)', 'bool_and(t1.a > 0)']);
      return { sql: `SELECT t2.s AS g0, ${agg} AS c0 FROM ${T1} t1 ${pick(['JOIN', 'LEFT JOIN'])} ${T2} t2 ON t1.k = t2.k${rnd() < 0.5 ? ` WHERE ${boolE(1, 'j')}` : ''} GROUP BY t2.s${rnd() < 0.4 ? ' HAVING count(*) > 3' : ''}`, ordered: false };
    }
    case 10: {
      const f = pick(['sum(a) OVER (PARTITION BY k ORDER BY a RANGE BETWEEN 2 PRECEDING AND 1 FOLLOWING)', 'first_value(a) OVER (PARTITION BY k ORDER BY b)', 'lead(a, 2, 0) OVER (PARTITION BY k ORDER BY b)', 'ntile(3) OVER (ORDER BY b)', 'percent_rank() OVER (PARTITION BY k ORDER BY b)', 'cume_dist() OVER (ORDER BY a NULLS LAST)', 'avg(a) OVER (PARTITION BY s ORDER BY b ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING)', 'count(a) OVER (ORDER BY a NULLS FIRST)', 'last_value(a) OVER (PARTITION BY k ORDER BY b ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)', 'min(s) OVER (PARTITION BY k)']);
      return { sql: `SELECT b AS c0, ${f} AS c1 FROM ${T1} t1${w}`, ordered: false };
    }
    case 11: {
      const c = pick([`a > (SELECT avg(v) FROM ${T2})`, `a > (SELECT min(v) FROM ${T2} x WHERE x.k = t1.k)`, `a IN (SELECT v FROM ${T2} x WHERE x.k = t1.k)`, `a NOT IN (SELECT v FROM ${T2} x WHERE x.k = t1.k)`, `s IN (SELECT s FROM ${T2})`, `s NOT IN (SELECT s FROM ${T2} WHERE s IS NOT NULL)`, `(SELECT count(*) FROM ${T2} x WHERE x.k = t1.k) > 3`]);
      return { sql: `SELECT b AS c0, a AS c1 FROM ${T1} t1 WHERE ${c}${rnd() < 0.5 ? ` AND ${boolE(1, 't1')}` : ''}`, ordered: false };
    }
    case 12: {
      const items = [pick(['length(s)', "replace(s, 'b', 'X')", "concat_ws('-', s, upper(s))", "lpad(s, 4, '*')", "left(s, 1)", 'year(d)', 'month(d)', 'dayofmonth(d)', "d > DATE '2020-02-01'", '(a / 4)', 'trim(s)', "instr(s, 'b')"])];
      return { sql: `SELECT b AS c0, ${items[0]} AS c1 FROM ${T1} t1${w}`, ordered: false };
    }
    case 13: {
      const g = pick(['CUBE (k, s)', 'GROUPING SETS ((k), (s), ())', 'ROLLUP (s, k)']);
      return { sql: `SELECT k AS g0, s AS g1, grouping(k) AS g2, count(*) AS c0, max(a) AS c1 FROM ${T1} t1 GROUP BY ${g}`, ordered: false };
    }
    case 14: return { sql: `SELECT c0, c1 FROM (SELECT b AS c0, ${intE(1, 't1')} AS c1 FROM ${T1} t1 ORDER BY b DESC LIMIT 30) q WHERE c1 IS NOT NULL ORDER BY c1 NULLS FIRST, c0 LIMIT 10`, ordered: true };
    case 15: return { sql: `SELECT t1.b AS c0, t2.id AS c1, t3.id AS c2 FROM ${T1} t1 JOIN ${T2} t2 ON t1.k = t2.k ${pick(['JOIN', 'LEFT JOIN'])} ${T2} t3 ON t3.v = t1.a${rnd() < 0.5 ? ' AND t3.s = t2.s' : ''} WHERE ${boolE(1, 'j')}`, ordered: false };
    case 16: {
      const g = 'k';
      const sub = pick([`(SELECT count(*) FROM ${T2} x WHERE x.k = ${g === 'k' ? 't1.k' : 't1.a % 3'})`, `(SELECT max(v) FROM ${T2} x WHERE x.k % 4 = ${g === 'k' ? 't1.k' : 't1.a % 3'} AND x.v > 0)`, `(SELECT sum(v) FROM ${T2} x WHERE x.v % 5 = ${g === 'k' ? 't1.k' : 't1.a % 3'})`]);
      const having = rnd() < 0.4 ? ` HAVING count(*) > ${sub}` : '';
      return { sql: `SELECT ${g} AS g0, count(*) AS c0, ${sub} AS c1 FROM ${T1} t1 GROUP BY ${g}${having}`, ordered: false };
    }
    case 17: return correlatedAggregate();
    case 18: return subqueryPolarity();
    case 19: return cteTwice();
    case 20: return commaJoins();
    default: { // rollup / scalar subquery
      if (rnd() < 0.5) return { sql: `SELECT k AS g0, a % 2 AS g1, count(*) AS c0, sum(a) AS c1 FROM ${T1} t1 GROUP BY ROLLUP (k, a % 2)`, ordered: false };
      return { sql: `SELECT b AS c0, (SELECT max(v) FROM ${T2} x WHERE x.k = t1.k) AS c1, (SELECT count(*) FROM ${T2} x WHERE x.k = t1.k) AS c2 FROM ${T1} t1${w}`, ordered: false };
    }
  }
}

// A T2 condition over alias x (its columns v, s, id, k qualified).
const t2Cond = (x) => boolE(0, 't2').replace(/\b(v|s|id|k)\b/g, `${x}.$1`);

// Correlated scalar subqueries with aggregates (TPC-H q17/q20's shape: the outer side filtered,
// the aggregate grouped by the correlation), COUNT's 0 over no rows included, and aggregates
// joined on their GROUP BY keys (= and <=>), with NULL keys on both sides.
function correlatedAggregate() {
  const agg = pick(['avg(x.a)', '0.5 * avg(x.a)', 'count(*)', 'count(x.a)', 'sum(x.a)', 'min(x.a)', 'max(x.s)', 'count(DISTINCT x.s)']);
  const corr = pick(['x.k = t2.k', 'x.k = t2.k AND x.a % 3 = t2.v % 3', 'x.k = t2.id % 9', 'x.k IS NOT DISTINCT FROM t2.k']);
  const inner = rnd() < 0.4 ? ` AND ${boolE(0, 't1').replace(/\b(a|k|b|s|c|d)\b/g, 'x.$1')}` : '';
  const sub = `(SELECT ${agg} FROM ${T1} x WHERE ${corr}${inner})`;
  const f = t2Cond('t2');
  switch (Math.floor(rnd() * 4)) {
    case 0: { // q17: lineitem, part WHERE p = l AND part filter AND l.x < (SELECT f(agg) ... = p)
      const cmp = agg === 'max(x.s)' ? `t1.s ${pick(['<', '>=', '='])} ${sub}` : `t1.a ${pick(['<', '>=', '<>'])} ${sub}`;
      return { sql: `SELECT t1.b AS c0, t2.id AS c1 FROM ${T1} t1, ${T2} t2 WHERE t1.k = t2.k AND ${f} AND ${cmp}`, ordered: false };
    }
    case 1: // the subquery's value per filtered outer row (NULL or 0 when no group)
      return { sql: `SELECT t2.id AS c0, ${sub} AS c1 FROM ${T2} t2 WHERE ${f}`, ordered: false };
    case 2: { // a derived aggregate joined on its keys
      const on = pick(['g.k = t2.k', 'g.k IS NOT DISTINCT FROM t2.k', 'g.k = t2.k AND g.n > 1']);
      return { sql: `SELECT t2.id AS c0, g.n AS c1, g.sa AS c2 FROM ${T2} t2 ${pick(['JOIN', 'LEFT JOIN'])} (SELECT k, count(*) AS n, sum(a) AS sa FROM ${T1} t1 GROUP BY k) g ON ${on} WHERE ${f}`, ordered: false };
    }
    default: // COUNT compared, as in `(SELECT count(*) ...) = 0`
      return { sql: `SELECT t2.id AS c0, t2.k AS c1 FROM ${T2} t2 WHERE ${f} AND (SELECT count(*) FROM ${T1} x WHERE ${corr}${inner}) ${pick(['= 0', '> 100', '< 700'])}`, ordered: false };
  }
}

// EXISTS / NOT EXISTS / IN / NOT IN, correlated or not, as WHERE conjuncts, under OR and NOT,
// and in the SELECT list, over columns with NULLs on both sides.
function subqueryPolarity() {
  const not = pick(['', 'NOT ']);
  const sub = pick([
    `${not}EXISTS (SELECT 1 FROM ${T1} x WHERE x.k = t2.k AND ${boolE(0, 't1').replace(/\b(a|k|b|s|c|d)\b/g, 'x.$1')})`,
    `${not}EXISTS (SELECT 1 FROM ${T1} x WHERE x.a = t2.v)`,
    `t2.v ${not}IN (SELECT a FROM ${T1} x WHERE x.k = t2.k)`,
    `t2.v ${not}IN (SELECT a FROM ${T1} x WHERE x.s = t2.s AND x.a IS NOT NULL)`,
    `t2.k ${not}IN (SELECT k FROM ${T1} x WHERE ${boolE(0, 't1').replace(/\b(a|k|b|s|c|d)\b/g, 'x.$1')})`,
    `t2.s ${not}IN (SELECT s FROM ${T1} x WHERE x.k = t2.k AND x.a > t2.v)`,
  ]);
  const f = t2Cond('t2');
  switch (Math.floor(rnd() * 4)) {
    case 0: return { sql: `SELECT t2.id AS c0 FROM ${T2} t2 WHERE ${f} AND ${sub}`, ordered: false };
    case 1: return { sql: `SELECT t2.id AS c0 FROM ${T2} t2 WHERE ${sub} OR ${f}`, ordered: false };
    case 2: return { sql: `SELECT t2.id AS c0, ${sub} AS c1 FROM ${T2} t2`, ordered: false };
    default: return { sql: `SELECT t2.id AS c0 FROM ${T2} t2 WHERE NOT (${sub})`, ordered: false };
  }
}

// A CTE referenced twice (TPC-H q15's shape and self-joins of an aggregate).
function cteTwice() {
  const w1 = rnd() < 0.6 ? ` WHERE ${boolE(1, 't1')}` : '';
  const cte = `WITH r AS (SELECT k, sum(a) AS sa, count(*) AS n FROM ${T1} t1${w1} GROUP BY k)`;
  switch (Math.floor(rnd() * 3)) {
    case 0: return { sql: `${cte} SELECT t2.id AS c0, r.sa AS c1 FROM ${T2} t2, r WHERE t2.k = r.k AND r.sa = (SELECT ${pick(['max', 'min'])}(sa) FROM r)`, ordered: false };
    case 1: return { sql: `${cte} SELECT a.k AS c0, b.k AS c1, a.n + b.n AS c2 FROM r a ${pick(['JOIN', 'LEFT JOIN', 'FULL JOIN'])} r b ON a.k = b.k + ${pick(['0', '1', '2'])}`, ordered: false };
    default: return { sql: `${cte} SELECT k AS c0, n AS c1 FROM r WHERE n > (SELECT avg(n) FROM r) UNION ALL SELECT k, sa FROM r WHERE k IS NULL`, ordered: false };
  }
}

// 3 to 6 tables joined with comma syntax: a spanning tree of equalities, filters on some
// tables, aggregated so that the result stays small. The FROM list is in a random order in
// which every table after the first shares an equality with one before it: orders where two
// neighbours share none still build cross products (no cost-based join order yet, issue 20),
// which takes minutes for 6 tables.
function commaJoins() {
  const n = 3 + Math.floor(rnd() * 6);
  const names = Array.from({ length: n }, (_, i) => `t${i + 1}`);
  const conds = [];
  const parent = [-1];
  let kJoins = 0;
  for (let j = 1; j < n; j++) {
    const i = Math.floor(rnd() * j);
    parent.push(i);
    const a = names[i], b = names[j];
    if (a === 't1') conds.push(rnd() < 0.8 || kJoins > 0 ? `${pick(['t1.b', 't1.a + 50'])} = ${b}.id` : (kJoins++, `t1.k = ${b}.k`));
    else conds.push(rnd() < 0.7 || kJoins > 0 ? `${a}.${pick(['id', 'v'])} = ${b}.id` : (kJoins++, `${a}.k = ${b}.k`));
  }
  for (let j = 1; j < n; j++) if (rnd() < 0.4) conds.push(t2Cond(names[j]));
  if (rnd() < 0.3) conds.push(boolE(0, 't1').replace(/\b(a|k|b|s|c|d)\b/g, 't1.$1'));
  for (let i = conds.length - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); [conds[i], conds[j]] = [conds[j], conds[i]]; }
  // The FROM order is any permutation: the optimizer orders the joins (no cross product in
  // between tables that an equality links, whatever the order written).
  const order = names.map((_, j) => j);
  for (let i = n - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); [order[i], order[j]] = [order[j], order[i]]; }
  const from = order.map((j) => `${names[j] === 't1' ? T1 : T2} ${names[j]}`);
  const last = names[n - 1];
  const aggs = `count(*) AS c0, sum(${last}.v) AS c1, max(t2.s) AS c2, min(t1.a) AS c3`;
  if (rnd() < 0.4) { // grouped by a column of one table, aggregates of others: positions checked
    const g = `${pick(names)}.${pick(['k', 'v'])}`.replace(/^t1\.v$/, 't1.k');
    return { sql: `SELECT ${g} AS g0, ${aggs}, sum(${pick(names.slice(1))}.id) AS c4 FROM ${from.join(', ')} WHERE ${conds.join(' AND ')} GROUP BY ${g}`, ordered: false };
  }
  return { sql: `SELECT ${aggs} FROM ${from.join(', ')} WHERE ${conds.join(' AND ')}`, ordered: false };
}

function norm(v) {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number' || typeof v === 'bigint') {
    const n = Number(v);
    if (Number.isInteger(n)) return String(n);
    return Number(n.toPrecision(9)).toString();
  }
  return String(v);
}
const rowsKey = (rows, ordered) => { const r = rows.map((row) => row.map(norm).join('|')); if (!ordered) r.sort(); return r.join('\n'); };

const inst = await DuckDBInstance.create(':memory:');
const con = await inst.connect();
await con.run(`COPY (SELECT i::BIGINT AS b,
  CASE WHEN hash(i*7) % 9 = 0 THEN NULL ELSE (hash(i) % 41)::INT - 20 END AS a,
  CASE WHEN hash(i*3) % 11 = 0 THEN NULL ELSE ((hash(i*5) % 2000)::DOUBLE - 1000) / 8 END AS c,
  CASE WHEN hash(i*13) % 8 = 0 THEN NULL ELSE ['ab','abc','b','Bx','c','','x_y','zz'][(hash(i*17) % 8)::INT + 1] END AS s,
  CASE WHEN hash(i*19) % 10 = 0 THEN NULL ELSE (hash(i*23) % 7)::INT END AS k,
  DATE '2020-01-01' + (hash(i*29) % 60)::INT AS d
  FROM range(${opt.rows}) r(i)) TO '${D}/t1.parquet'
  (FORMAT parquet${opt['row-group'] > 0 ? `, ROW_GROUP_SIZE ${opt['row-group']}` : ''})`);
await con.run(`COPY (SELECT i::BIGINT AS id,
  CASE WHEN hash(i*31) % 10 = 0 THEN NULL ELSE (hash(i*37) % 9)::INT END AS k,
  CASE WHEN hash(i*41) % 7 = 0 THEN NULL ELSE (hash(i*43) % 100)::INT - 50 END AS v,
  CASE WHEN hash(i*47) % 6 = 0 THEN NULL ELSE ['ab','b','c','zz','q'][(hash(i*53) % 5)::INT + 1] END AS s
  FROM range(300) r(i)) TO '${D}/t2.parquet' (FORMAT parquet)`);
const FAIL = join(D, 'failures.txt');
writeFileSync(FAIL, '');
let fails = 0, errs = 0, both = 0;
const slowest = []; // deltalite's three slowest queries, printed at the end
for (let i = 0; i < opt.queries; i++) {
  const q = query();
  let duck, duckErr = null;
  try { const r = await con.runAndReadAll(q.sql); duck = r.getRowsJson(); } catch (e) { duckErr = String(e.message).split('\n')[0]; }
  let dl, dlErr = null;
  const t0 = process.hrtime.bigint();
  try {
    const out = execFileSync(opt.deltalite, ['-json', '-c', q.sql], { maxBuffer: 1 << 30, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const objs = out.trim() === '' ? [] : JSON.parse(out);
    dl = objs.map((o) => Object.values(o));
  } catch (e) { dlErr = String(e.stderr || e.message).split('\n')[0]; }
  slowest.push({ ms: Number(process.hrtime.bigint() - t0) / 1e6, sql: q.sql });
  slowest.sort((x, y) => y.ms - x.ms);
  slowest.length = Math.min(slowest.length, 3);
  if (duckErr && dlErr) { both++; continue; }
  if (duckErr || dlErr) {
    errs++;
    appendFileSync(FAIL, `ERRDIFF seed ${opt.seed} #${i}\n${q.sql}\n duck: ${duckErr}\n dl: ${dlErr}\n\n`);
    continue;
  }
  const a = rowsKey(duck, q.ordered), b = rowsKey(dl, q.ordered);
  if (a !== b) {
    fails++;
    appendFileSync(FAIL, `MISMATCH seed ${opt.seed} #${i}\n${q.sql}\n duck(${duck.length}): ${a.split('\n').slice(0, 6).join(' ; ')}\n dl(${dl.length}):   ${b.split('\n').slice(0, 6).join(' ; ')}\n\n`);
  }
}
console.log(`queries ${opt.queries} mismatches ${fails} error-differences ${errs} ` +
            `errors-on-both ${both}${fails + errs > 0 ? `; see ${FAIL}` : ''}`);
for (const q of slowest) console.log(`slow: ${q.ms.toFixed(0)} ms: ${q.sql}`);
if (fails + errs > 0) {
  console.log(readFileSync(FAIL, 'utf8').split('\n').slice(0, 60).join('\n'));
}
process.exit(fails + errs > 0 ? 1 : 0);
