// SPDX-License-Identifier: Apache-2.0
// The benchmark runner: prepares the data, builds deltalite's bench programs, runs each
// benchmark's two sides alternately after a warm-up and prints one table. bench/run is the entry.
//
// usage: bench/run [--quick | --full] [--scale S] [--runs N] [--warmup N] [--only A,B]
//                  [--build DIR] [--no-build] [--seed N] [--timeout SECONDS] [--list]
//
// Method. For each benchmark, every side that exists runs `warmup` times, then `runs` rounds,
// each round running both sides one after the other, deltalite first in even rounds and the
// peer first in odd ones, so drift on a shared machine falls on both. Each run is a fresh
// process started under dl_bench_measure (bench/tools/bench_measure.c), which reports wall time
// and peak RSS; the time used is the `RESULT seconds=` the program prints (in-process: the work,
// without process start-up), or the wall time when it prints none. The table shows medians.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, accessSync, constants } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, isAbsolute, resolve } from 'node:path';
import { BENCHMARKS } from './benchmarks.mjs';
import { REPO_DIR, DATA_DIR, parseArgs, die, writeJsonAtomic, scaleName } from './lib/common.mjs';
import { ensureTables } from './gen/gen_tables.mjs';
import { ensureLog } from './gen/gen_log.mjs';

const USAGE = `usage: bench/run [--quick | --full] [--scale S] [--runs N] [--warmup N] [--only A,B]
                 [--build DIR] [--no-build] [--seed N] [--timeout SECONDS] [--list]

  --quick      scale 0.1, 3 runs after 1 warm-up (the default)
  --full       scale 1 (10 M sales rows, 1 M customers, 10,000 commits), 5 runs
  --only A,B   run only these benchmarks or groups (parquet, json, delta, sql)
  --build DIR  the build folder holding deltalite's bench programs (default build/release,
               or $DL_BENCH_BUILD); configured as Release when it does not exist yet
  --no-build   do not configure or build; use the programs already in the build folder
  --list       list the benchmarks and exit
`;

const MODES = { quick: { scale: 0.1, runs: 3, warmup: 1 }, full: { scale: 1, runs: 5, warmup: 1 } };

function options() {
    const a = parseArgs(process.argv.slice(2), {
        quick: false, full: false, scale: 0, runs: 0, warmup: -1, only: '', seed: 42,
        build: process.env.DL_BENCH_BUILD || 'build/release', no_build: false, timeout: 600,
        list: false,
    }, USAGE);
    if (a._.length) {
        die(`bench/run: unexpected argument '${a._[0]}'\n${USAGE}`);
    }
    const mode = a.full ? 'full' : 'quick';
    const o = {
        ...a, mode,
        scale: a.scale || MODES[mode].scale,
        runs: a.runs || MODES[mode].runs,
        warmup: a.warmup >= 0 ? a.warmup : MODES[mode].warmup,
        build: isAbsolute(a.build) ? a.build : resolve(REPO_DIR, a.build),
    };
    if (!(o.runs >= 1 && Number.isInteger(o.runs))) {
        die('bench/run: --runs must be a positive integer');
    }
    return o;
}

function selected(o) {
    if (!o.only) {
        return BENCHMARKS;
    }
    const names = o.only.split(',').map((s) => s.trim()).filter(Boolean);
    const unknown = names.filter((n) => !BENCHMARKS.some((b) => b.name === n || b.group === n));
    if (unknown.length) {
        die(`bench/run: unknown benchmark or group: ${unknown.join(', ')} (see --list)`);
    }
    return BENCHMARKS.filter((b) => names.includes(b.name) || names.includes(b.group));
}

function sh(argv, opts = {}) {
    return spawnSync(argv[0], argv.slice(1), { cwd: REPO_DIR, encoding: 'utf8', ...opts });
}

function isExecutable(path) {
    try {
        accessSync(path, constants.X_OK);
        return true;
    } catch {
        return false;
    }
}

/** Configures (if needed) and builds the `dl_bench` target; a failure is reported, not fatal. */
function buildPrograms(o) {
    if (o.no_build) {
        return;
    }
    const log = (msg) => process.stderr.write(`bench: ${msg}\n`);
    const configured = ['build.ninja', 'Makefile'].some((f) => existsSync(join(o.build, f)));
    if (!configured) {
        log(`configuring ${o.build} (Release)`);
        const gen = sh(['ninja', '--version']).status === 0 ? ['-G', 'Ninja'] : [];
        const r = sh(['cmake', '-S', REPO_DIR, '-B', o.build, ...gen, '-DCMAKE_BUILD_TYPE=Release']);
        if (r.status !== 0) {
            log(`cmake configure failed; deltalite sides will be missing:\n${(r.stderr || '').slice(-2000)}`);
            return;
        }
    }
    log(`building target dl_bench in ${o.build}`);
    // The meter first and on its own, so a half-written part elsewhere cannot take it down.
    sh(['cmake', '--build', o.build, '--target', 'dl_bench_measure', '-j2']);
    const r = sh(['cmake', '--build', o.build, '--target', 'dl_bench', '-j2']);
    if (r.status !== 0) {
        log(`build failed; using whatever programs exist:\n${`${r.stdout || ''}${r.stderr || ''}`.slice(-2000)}`);
    }
}

/**
 * How runs are metered: dl_bench_measure from the build folder; else the same source compiled
 * straight with cc into bench/data/tools (when the project does not configure or build, e.g.
 * while another part is half-written); else GNU time; else wall time only, without peak RSS.
 */
function meter(o) {
    let helper = join(o.build, 'bench/dl_bench_measure');
    if (!isExecutable(helper)) {
        helper = join(DATA_DIR, 'tools/dl_bench_measure');
        const src = join(REPO_DIR, 'bench/tools/bench_measure.c');
        mkdirSync(join(DATA_DIR, 'tools'), { recursive: true });
        sh(['cc', '-std=c11', '-O2', '-D_POSIX_C_SOURCE=200809L', '-o', helper, src]);
    }
    if (isExecutable(helper)) {
        return { name: 'dl_bench_measure', wrap: (report, argv) => [helper, '-o', report, '--', ...argv] };
    }
    if (isExecutable('/usr/bin/time')) {
        const fmt = 'wall_seconds=%e max_rss_kb=%M exit=%x';
        return { name: 'GNU time', wrap: (report, argv) => ['/usr/bin/time', '-o', report, '-f', fmt, '--', ...argv] };
    }
    return { name: 'none (no peak RSS)', wrap: (_report, argv) => argv };
}

function parseKeyValues(text) {
    const out = {};
    for (const m of text.matchAll(/([a-z_]+)=(\S+)/g)) {
        out[m[1]] = m[2];
    }
    return out;
}

/** Runs one command under the meter; returns {seconds, source, rss_kb, result} or {error}. */
function runOnce(o, m, argv, tmp) {
    const report = join(tmp, 'measure.txt');
    rmSync(report, { force: true });
    const cmd = m.wrap(report, argv);
    const t0 = process.hrtime.bigint();
    const r = sh(cmd, { timeout: o.timeout * 1000, maxBuffer: 256 << 20, killSignal: 'SIGTERM' });
    const wall = Number(process.hrtime.bigint() - t0) / 1e9;
    if (r.error || r.status !== 0) {
        const why = r.error?.code === 'ETIMEDOUT' ? `timed out after ${o.timeout} s`
            : r.error ? r.error.message : `exit ${r.status ?? r.signal}`;
        const tail = `${r.stderr || ''}${r.stdout || ''}`.trim().split('\n').slice(-3).join(' / ');
        return { error: `${why}${tail ? `: ${tail}` : ''}` };
    }
    const measured = existsSync(report) ? parseKeyValues(readFileSync(report, 'utf8')) : {};
    const lines = (r.stdout || '').trim().split('\n').filter((l) => l.startsWith('RESULT '));
    const result = lines.length ? parseKeyValues(lines[lines.length - 1]) : {};
    const inProcess = Number(result.seconds);
    return {
        seconds: Number.isFinite(inProcess) ? inProcess : Number(measured.wall_seconds ?? wall),
        source: Number.isFinite(inProcess) ? 'in-process' : 'wall',
        rss_kb: measured.max_rss_kb !== undefined ? Number(measured.max_rss_kb) : null,
        result,
    };
}

// RESULT keys that are timings or rates, never answers to compare between the sides.
const NOT_ANSWERS = /^(seconds|digest)$|_per_s$|_s$|_ms$/;

function median(xs) {
    const s = [...xs].sort((a, b) => a - b);
    const mid = s.length >> 1;
    return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Runs one benchmark: both sides alternately; returns its row for the table. */
function runBenchmark(o, m, b, ctx) {
    const sides = {
        deltalite: { state: 'ok', runs: [] },
        peer: { state: 'ok', runs: [] },
    };
    const dlProgram = join(o.build, b.deltalite.program);
    const argvOf = {
        deltalite: () => [dlProgram, ...b.deltalite.argv(ctx)],
        peer: () => b.peer(ctx),
    };
    if (!isExecutable(dlProgram)) {
        sides.deltalite.state = 'not yet';
        sides.deltalite.why = `${b.deltalite.program} not built`;
    }
    const active = () => Object.keys(sides).filter((s) => sides[s].state === 'ok');
    for (let i = 0; i < o.warmup + o.runs; i++) {
        const order = i % 2 === 0 ? active() : active().reverse();
        for (const side of order) {
            const run = runOnce(o, m, argvOf[side](), ctx.tmp);
            if (run.error) {
                sides[side].state = 'failed';
                sides[side].why = run.error;
                continue;
            }
            if (i >= o.warmup) {
                sides[side].runs.push(run);
            }
        }
    }
    return summarize(b, sides);
}

function summarize(b, sides) {
    const row = { name: b.name, what: b.what, notes: [] };
    for (const [side, s] of Object.entries(sides)) {
        if (s.state !== 'ok' || s.runs.length === 0) {
            row[side] = { state: s.state, why: s.why };
            if (s.state === 'failed') {
                row.notes.push(`${side} failed: ${s.why}`);
            }
            continue;
        }
        const secs = s.runs.map((r) => r.seconds);
        const rss = s.runs.map((r) => r.rss_kb).filter((x) => x !== null);
        row[side] = {
            state: 'ok', median_s: median(secs), min_s: Math.min(...secs), max_s: Math.max(...secs),
            runs_s: secs, peak_rss_mb: rss.length ? Math.max(...rss) / 1024 : null,
            timing: s.runs[0].source, result: s.runs[s.runs.length - 1].result,
        };
        if (s.runs[0].source === 'wall') {
            row.notes.push(`${side}: wall time`);
        }
    }
    if (row.deltalite.state === 'ok' && row.peer.state === 'ok') {
        row.ratio = row.deltalite.median_s / row.peer.median_s;
        const a = row.deltalite.result;
        const p = row.peer.result;
        const keys = b.compare || Object.keys(a).filter((k) => !NOT_ANSWERS.test(k));
        for (const k of keys) {
            if (k in a && k in p && a[k] !== p[k]) {
                row.notes.push(`ANSWERS DIFFER: ${k} ${a[k]} vs ${p[k]}`);
            }
        }
    }
    return row;
}

function fmtSide(s, what) {
    if (s.state !== 'ok') {
        return s.state === 'not yet' ? 'not yet' : s.state;
    }
    if (what === 'time') {
        return s.median_s < 0.1 ? s.median_s.toFixed(4) : s.median_s.toFixed(3);
    }
    return s.peak_rss_mb === null ? 'n/a' : s.peak_rss_mb.toFixed(0);
}

function table(rows) {
    const head = ['benchmark', 'deltalite s', 'peer s', 'ratio', 'deltalite MB', 'peer MB', 'notes'];
    const body = rows.map((r) => [
        r.name, fmtSide(r.deltalite, 'time'), fmtSide(r.peer, 'time'),
        r.ratio !== undefined ? r.ratio.toFixed(2) : '-',
        fmtSide(r.deltalite, 'rss'), fmtSide(r.peer, 'rss'), r.notes.join('; '),
    ]);
    const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
    const line = (cells) => `| ${cells.map((c, i) => (i === 0 || i === 6 ? c.padEnd(widths[i])
        : c.padStart(widths[i]))).join(' | ')} |`;
    const rule = `|${widths.map((w, i) => (i === 0 || i === 6 ? `:${'-'.repeat(w + 1)}`
        : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
    return [line(head), rule, ...body.map(line)].join('\n');
}

/** The build type of the build folder, and a warning when its figures would mislead. */
function buildKind(o) {
    const cache = join(o.build, 'CMakeCache.txt');
    if (!existsSync(cache)) {
        return { type: 'none', warning: null };
    }
    const text = readFileSync(cache, 'utf8');
    const type = /^CMAKE_BUILD_TYPE:\w+=(.*)$/m.exec(text)?.[1] || 'unset';
    const sanitized = /^DL_(SANITIZE|FUZZ|COVERAGE):BOOL=ON$/m.test(text);
    const ok = /^(Release|RelWithDebInfo)$/.test(type) && !sanitized;
    return {
        type: sanitized ? `${type}+instrumented` : type,
        warning: ok ? null : `WARNING: ${o.build} is a ${type}${sanitized ? ' instrumented' : ''} ` +
            'build: deltalite figures from it are not representative (use a Release build)',
    };
}

function machine(o, m) {
    const mem = Math.round(totalmem() / 2 ** 30);
    const duck = JSON.parse(readFileSync(join(REPO_DIR, 'bench/node_modules/@duckdb/node-api/package.json'), 'utf8')).version;
    return {
        date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), cores: cpus().length,
        cpu: cpus()[0]?.model?.trim() ?? 'unknown', memory_gib: mem, node: process.version,
        duckdb_node_api: duck, mode: o.mode, scale: o.scale, seed: o.seed, runs: o.runs,
        warmup: o.warmup, build: o.build, build_type: buildKind(o).type, meter: m.name,
    };
}

/** The JSON log-parse data comes from bench/json's own generator, when it exists. */
function ensureJsonData(o) {
    const gen = join(REPO_DIR, 'bench/json/gen_commit.mjs');
    if (!existsSync(gen)) {
        return { missing: 'bench/json/gen_commit.mjs does not exist yet' };
    }
    const file = join(DATA_DIR, `json_sf${scaleName(o.scale)}_seed${o.seed}`, 'commit.json');
    if (!existsSync(file)) {
        mkdirSync(join(file, '..'), { recursive: true });
        const r = sh(['node', gen, '--out', file, '--scale', String(o.scale), '--seed', String(o.seed)],
                     { stdio: ['ignore', 'ignore', 'pipe'] });
        if (r.status !== 0 || !existsSync(file)) {
            rmSync(file, { force: true });
            return { missing: `gen_commit.mjs failed: ${(r.stderr || '').trim().split('\n').pop()}` };
        }
    }
    return { file };
}

async function main() {
    const o = options();
    const benches = selected(o);
    if (o.list) {
        for (const b of BENCHMARKS) {
            process.stdout.write(`${b.name.padEnd(22)} ${b.group.padEnd(8)} ${b.what}\n`);
        }
        return;
    }
    const t0 = performance.now();
    const loadBefore = loadavg()[0];
    buildPrograms(o);
    const m = meter(o);
    const needs = new Set(benches.flatMap((b) => b.data));
    const ctx = { repo: REPO_DIR, build: o.build, tmp: join(DATA_DIR, 'tmp') };
    mkdirSync(ctx.tmp, { recursive: true });
    if (needs.has('tables')) {
        ctx.tables = (await ensureTables({ scale: o.scale, seed: o.seed })).dir;
    }
    if (needs.has('log')) {
        ctx.log = (await ensureLog({ scale: o.scale, seed: o.seed })).dir;
    }
    let jsonMissing = null;
    if (needs.has('json')) {
        const j = ensureJsonData(o);
        ctx.json = j.file;
        jsonMissing = j.missing;
    }
    const info = { ...machine(o, m), load_before: loadBefore };
    process.stderr.write(`bench: ${info.mode} suite, scale ${o.scale}, ${o.warmup} warm-up + ` +
                         `${o.runs} runs per side, meter ${m.name}\n`);
    const rows = [];
    for (const b of benches) {
        if (b.data.includes('json') && jsonMissing) {
            rows.push({ name: b.name, what: b.what, deltalite: { state: 'not yet' },
                        peer: { state: 'not yet' }, notes: [jsonMissing] });
            continue;
        }
        const row = runBenchmark(o, m, b, ctx);
        rows.push(row);
        process.stderr.write(`bench: ${b.name}: deltalite ${fmtSide(row.deltalite, 'time')}, ` +
                             `peer ${fmtSide(row.peer, 'time')}\n`);
    }
    rmSync(ctx.tmp, { recursive: true, force: true });
    info.total_seconds = Number(((performance.now() - t0) / 1000).toFixed(1));
    info.load_after = loadavg()[0];

    mkdirSync(join(DATA_DIR, 'results'), { recursive: true });
    const stamp = info.date.replace(/[:]/g, '-');
    writeJsonAtomic(join(DATA_DIR, 'results', `${stamp}.json`), { machine: info, rows });
    process.stdout.write(`\ndeltalite benchmarks, ${info.date}: ${info.mode}, scale ${o.scale}, ` +
                         `seed ${o.seed}, median of ${o.runs} runs after ${o.warmup} warm-up\n` +
                         `machine: ${info.cores} cores (${info.cpu}), ${info.memory_gib} GiB; ` +
                         `node ${info.node}; peer DuckDB @duckdb/node-api ${info.duckdb_node_api}\n` +
                         `load average (1 min) ${info.load_before.toFixed(1)} before, ` +
                         `${info.load_after.toFixed(1)} after: above ${info.cores} the machine ` +
                         'was busy with other work and the figures are noisy\n' +
                         'ratio = deltalite / peer (below 1: deltalite is faster); MB = peak RSS\n\n');
    process.stdout.write(`${table(rows)}\n\n`);
    const warning = buildKind(o).warning;
    if (warning) {
        process.stdout.write(`${warning}\n`);
    }
    process.stdout.write(`total ${info.total_seconds} s; results in ` +
                         `${join(DATA_DIR, 'results', `${stamp}.json`)}\n`);
}

await main();
