// SPDX-License-Identifier: Apache-2.0
// Shared pieces of the benchmark suite: paths, the deterministic hash the data generators are
// built on, argument parsing, manifests and file digests. Plain node, no dependencies.
//
// Determinism. Every generated value is a function of (seed, column, row number) only, so the
// same seed and scale give the same data on every run, in any order and on any thread count.
// The mixing function is "lowbias32" (a 32-bit integer hash: xorshift-multiply twice, then a final
// xorshift; constants 0x7feb352d and 0x846ca68b), written here in JS for keys and checks and in
// SQL (gen/gen_tables.mjs) for the rows, where every product of a 32-bit value and a 32-bit
// constant fits in UBIGINT, so DuckDB computes it exactly with no overflow and no floating point.

import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_DIR = resolve(BENCH_DIR, '..');
export const DATA_DIR = process.env.DL_BENCH_DATA || join(BENCH_DIR, 'data');

// Bumped whenever a generator changes what it writes, so cached data sets are regenerated.
export const GENERATOR_VERSION = 1;

/** lowbias32 on a uint32 (JS numbers); returns a uint32. */
export function lb32(x) {
    x >>>= 0;
    x = Math.imul(x ^ (x >>> 16), 0x7feb352d) >>> 0;
    x = Math.imul(x ^ (x >>> 15), 0x846ca68b) >>> 0;
    return (x ^ (x >>> 16)) >>> 0;
}

/**
 * The two 32-bit keys of one column under one seed. A column's value for row r is
 * lb32(lb32(r ^ k1) ^ k2): two rounds so that columns hashed from the same row with different
 * keys do not correlate.
 */
export function columnKeys(seed, column) {
    const k1 = lb32((Math.imul(seed >>> 0, 0x9e3779b1) + Math.imul(column + 1, 0x85ebca77)) >>> 0);
    const k2 = lb32((k1 ^ 0x5bd1e995) >>> 0);
    return [k1, k2];
}

/** The hash of row `row` (0 <= row < 2^32) in a column with keys [k1, k2], in JS. */
export function rowHash(row, keys) {
    return lb32((lb32((row ^ keys[0]) >>> 0) ^ keys[1]) >>> 0);
}

/** Parses `--name value` and `--flag` arguments against a spec {name: default}. */
export function parseArgs(argv, spec, usage) {
    const out = { ...spec, _: [] };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if (a === '-h' || a === '--help') {
            process.stdout.write(usage);
            process.exit(0);
        }
        if (!a.startsWith('--')) {
            out._.push(a);
            continue;
        }
        const eq = a.indexOf('=');
        const name = (eq < 0 ? a.slice(2) : a.slice(2, eq)).replace(/-/g, '_');
        if (!(name in spec)) {
            die(`unknown option ${a}\n${usage}`);
        }
        if (typeof spec[name] === 'boolean') {
            out[name] = true;
        } else {
            const v = eq >= 0 ? a.slice(eq + 1) : argv[++i];
            if (v === undefined) {
                die(`option ${a} needs a value\n${usage}`);
            }
            out[name] = typeof spec[name] === 'number' ? Number(v) : v;
            if (typeof spec[name] === 'number' && !Number.isFinite(out[name])) {
                die(`option ${a}: '${v}' is not a number`);
            }
        }
    }
    return out;
}

export function die(msg) {
    process.stderr.write(`${msg.endsWith('\n') ? msg : msg + '\n'}`);
    process.exit(2);
}

/** Formats a scale factor for folder names: 0.1 -> "0.1", 1 -> "1". */
export function scaleName(scale) {
    return String(Number(scale.toPrecision(6)));
}

/** The folder of the sales/customers data set for a scale and seed. */
export function tablesDir(scale, seed) {
    return join(DATA_DIR, `tables_sf${scaleName(scale)}_seed${seed}`);
}

/** The folder of the generated Delta log for the snapshot-load benchmark. */
export function logDir(scale, seed) {
    return join(DATA_DIR, `log_sf${scaleName(scale)}_seed${seed}`);
}

export function readJson(path) {
    return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null;
}

/** Writes JSON through a temporary file and a rename, so a crash never leaves half a manifest. */
export function writeJsonAtomic(path, value) {
    writeFileSync(`${path}.tmp`, JSON.stringify(value, null, 2) + '\n');
    renameSync(`${path}.tmp`, path);
}

/** SHA-256 of a file's bytes, hex. */
export function sha256File(path) {
    return new Promise((res, rej) => {
        const h = createHash('sha256');
        createReadStream(path)
            .on('data', (d) => h.update(d))
            .on('end', () => res(h.digest('hex')))
            .on('error', rej);
    });
}
