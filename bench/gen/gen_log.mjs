// SPDX-License-Identifier: Apache-2.0
// Generates the Delta log for the snapshot-load benchmark, deterministically from a seed:
// 10,000 x S commits of 100 `add` actions each (1,000,000 x S files at scale S), as Spark and
// delta-rs write them (path, partitionValues, size, modificationTime, dataChange, stats JSON with
// numRecords/minValues/maxValues/nullCount) plus a commitInfo per commit; commit 0 also holds the
// protocol and the metaData (the sales schema, partitioned by region). Every 100th commit also
// removes 10 files added 50 commits earlier, so replay has removes to reconcile.
//
// usage: node bench/gen/gen_log.mjs [--scale S] [--seed N] [--force]
//
// Output: bench/data/log_sf<S>_seed<N>/_delta_log/NNNNNNNNNNNNNNNNNNNN.json and manifest.json
// with the counts a correct replay must find (live files and their total size).
// Only JSON commits are written: no checkpoint (a checkpointed variant can come once
// deltalite writes checkpoints; deltalite's side must then load the same table both ways).

import { mkdirSync, writeFileSync, rmSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import {
    GENERATOR_VERSION, lb32, parseArgs, die, logDir, readJson, writeJsonAtomic,
} from '../lib/common.mjs';

const USAGE = 'usage: node bench/gen/gen_log.mjs [--scale S] [--seed N] [--force]\n';
const COMMITS_AT_SCALE_1 = 10000;
const ADDS_PER_COMMIT = 100;
const REMOVE_EVERY = 100;
const REMOVES = 10;
const REMOVE_LAG = 50;
const T0_MS = 1704067200000; // 2024-01-01 00:00:00 UTC
const REGIONS = ['north', 'south', 'east', 'west', 'central'];

const SCHEMA = JSON.stringify({
    type: 'struct',
    fields: [
        ['id', 'long'], ['category', 'string'], ['region', 'string'], ['amount', 'double'],
        ['qty', 'integer'], ['ts', 'timestamp'], ['customer_id', 'long'],
    ].map(([name, type]) => ({ name, type, nullable: true, metadata: {} })),
});

/** A deterministic stream of uint32s from (seed, a, b). */
function rnd(seed, a, b) {
    return lb32((lb32((a * 0x9e3779b1 + seed) >>> 0) ^ Math.imul(b + 1, 0x85ebca77)) >>> 0);
}

function hex8(x) {
    return x.toString(16).padStart(8, '0');
}

function uuid(seed, a, b) {
    const w = [0, 1, 2, 3].map((i) => hex8(rnd(seed, a, b * 4 + i)));
    return `${w[0]}-${w[1].slice(0, 4)}-4${w[1].slice(5)}-a${w[2].slice(1, 4)}-${w[2].slice(4)}${w[3]}`;
}

/** The file of add number `i` (0-based) of commit `v`. */
function fileOf(seed, v, i) {
    const n = v * ADDS_PER_COMMIT + i;
    const region = REGIONS[rnd(seed, n, 1) % REGIONS.length];
    return {
        path: `region=${region}/part-${String(i).padStart(5, '0')}-${uuid(seed, n, 2)}.c000.snappy.parquet`,
        region,
        size: 100000 + (rnd(seed, n, 3) % 900000),
        records: 1000 + (rnd(seed, n, 4) % 9000),
        n,
    };
}

function addAction(seed, v, f) {
    const lo = f.n * 10000 + 1;
    const day = (x) => new Date(T0_MS + (x % 366) * 86400000).toISOString();
    const stats = {
        numRecords: f.records,
        minValues: {
            id: lo, category: 'automotive', amount: (rnd(seed, f.n, 5) % 100) / 100, qty: 1,
            ts: day(rnd(seed, f.n, 6)), customer_id: 1 + (rnd(seed, f.n, 7) % 1000),
        },
        maxValues: {
            id: lo + f.records - 1, category: 'toys', amount: 9900 + (rnd(seed, f.n, 8) % 10000) / 100,
            qty: 20, ts: day(rnd(seed, f.n, 6) + 1), customer_id: 999000 + (rnd(seed, f.n, 9) % 1000),
        },
        nullCount: { id: 0, category: 0, amount: rnd(seed, f.n, 10) % 3, qty: 0, ts: 0, customer_id: 0 },
    };
    return {
        add: {
            path: f.path, partitionValues: { region: f.region }, size: f.size,
            modificationTime: T0_MS + v * 60000 + (f.n % ADDS_PER_COMMIT), dataChange: true,
            stats: JSON.stringify(stats),
        },
    };
}

function commitInfo(seed, v, metrics) {
    return {
        commitInfo: {
            timestamp: T0_MS + v * 60000 + 999, operation: 'WRITE',
            operationParameters: { mode: 'Append', partitionBy: '["region"]' },
            readVersion: v > 0 ? v - 1 : undefined, isolationLevel: 'Serializable',
            isBlindAppend: true, operationMetrics: metrics,
            engineInfo: 'deltalite-bench gen_log', txnId: uuid(seed, v, 999),
        },
    };
}

function commitLines(seed, v, state) {
    const lines = [];
    if (v === 0) {
        lines.push({ protocol: { minReaderVersion: 1, minWriterVersion: 2 } });
        lines.push({
            metaData: {
                id: uuid(seed, 0, 1000), format: { provider: 'parquet', options: {} },
                schemaString: SCHEMA, partitionColumns: ['region'], configuration: {},
                createdTime: T0_MS,
            },
        });
    }
    let rows = 0;
    let bytes = 0;
    for (let i = 0; i < ADDS_PER_COMMIT; i++) {
        const f = fileOf(seed, v, i);
        lines.push(addAction(seed, v, f));
        state.live.set(f.path, f.size);
        rows += f.records;
        bytes += f.size;
    }
    state.adds += ADDS_PER_COMMIT;
    if (v % REMOVE_EVERY === REMOVE_EVERY - 1 && v >= REMOVE_LAG) {
        for (let i = 0; i < REMOVES; i++) {
            const f = fileOf(seed, v - REMOVE_LAG, i * 7);
            lines.push({
                remove: {
                    path: f.path, deletionTimestamp: T0_MS + v * 60000 + 500, dataChange: true,
                    extendedFileMetadata: true, partitionValues: { region: f.region }, size: f.size,
                },
            });
            state.live.delete(f.path);
            state.removes += 1;
        }
    }
    lines.unshift(commitInfo(seed, v, {
        numFiles: String(ADDS_PER_COMMIT), numOutputRows: String(rows), numOutputBytes: String(bytes),
    }));
    return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

/** Makes sure the log exists (generating it if needed); returns its folder and manifest. */
export async function ensureLog({ scale, seed, force = false }) {
    const commits = Math.max(1, Math.round(COMMITS_AT_SCALE_1 * scale));
    const dir = logDir(scale, seed);
    const old = readJson(join(dir, 'manifest.json'));
    if (!force && old && old.generator_version === GENERATOR_VERSION && old.commits === commits) {
        return { dir, manifest: old };
    }
    const t0 = performance.now();
    const tmp = `${dir}.tmp`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(join(tmp, '_delta_log'), { recursive: true });
    const state = { live: new Map(), adds: 0, removes: 0 };
    for (let v = 0; v < commits; v++) {
        const name = `${String(v).padStart(20, '0')}.json`;
        writeFileSync(join(tmp, '_delta_log', name), commitLines(seed, v, state));
    }
    let liveBytes = 0;
    for (const size of state.live.values()) {
        liveBytes += size;
    }
    const manifest = {
        generator_version: GENERATOR_VERSION, scale, seed, commits, adds: state.adds,
        removes: state.removes, live_files: state.live.size, live_bytes: liveBytes,
    };
    writeJsonAtomic(join(tmp, 'manifest.json'), manifest);
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
    process.stderr.write(`gen_log: ${commits} commits, ${state.adds} adds, ${state.removes} ` +
                         `removes in ${((performance.now() - t0) / 1000).toFixed(2)} s\n`);
    return { dir, manifest };
}

async function main() {
    const args = parseArgs(process.argv.slice(2), { scale: 0.1, seed: 42, force: false }, USAGE);
    if (!(args.scale > 0 && args.scale <= 100)) {
        die(`gen_log: --scale must be in (0, 100], got ${args.scale}`);
    }
    const { dir } = await ensureLog(args);
    process.stdout.write(`${dir}\n`);
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
    await main();
}
