// SPDX-License-Identifier: Apache-2.0
// Writes a Delta commit file (_delta_log/NNNNNNNNNNNNNNNNNNNN.json shape) for the JSON
// benchmark: commitInfo, protocol and metaData lines, then N `add` actions as Spark writes
// them (path part-XXXXX-<uuid>-c000.snappy.parquet under a date partition, partitionValues,
// size, modificationTime, dataChange, stats as an escaped JSON string with numRecords /
// minValues / maxValues / nullCount over six columns, tags). Deterministic: the same
// arguments give the same bytes.
//
// Usage: node bench/json/gen_commit.mjs [--out PATH] [--adds N | --scale S] [--seed N]
//   defaults: --out ./00000000000000000000.json, 100,000 adds (--scale S gives 100,000 x S),
//   --seed 42. bench/run calls it with --out, --scale and --seed.
import { writeFileSync } from 'node:fs';

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}
const outPath = option('out', '00000000000000000000.json');
const nAdds = option('adds', null) !== null
  ? Number(option('adds'))
  : Math.max(1, Math.round(100000 * Number(option('scale', '1'))));
const seedArg = Number(option('seed', '42'));
if (!Number.isInteger(nAdds) || nAdds < 1 || !Number.isFinite(seedArg)) {
  console.error('usage: node gen_commit.mjs [--out PATH] [--adds N | --scale S] [--seed N]');
  process.exit(2);
}

// mulberry32: a small deterministic PRNG.
let seed = (0x5eed1234 ^ Math.imul(seedArg | 0, 0x9e3779b1)) >>> 0;
function rand() {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const randInt = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
const hex = (n) => Array.from({ length: n }, () => '0123456789abcdef'[randInt(0, 15)]).join('');
const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[randInt(0, 3)]}${hex(3)}-${hex(12)}`;
const pad = (n, w) => String(n).padStart(w, '0');

const names = ['Alice', 'Bob', 'Chloé', 'Dmitri', 'Eve "the admin"', 'François', 'Grace',
  'Heinrich', 'Ines', 'Jürgen', 'Kenji', 'Zoë'];
const categories = ['books', 'electronics', 'garden', 'grocery', 'toys', 'tools\\hardware'];

const t0 = Date.UTC(2024, 0, 15, 10, 0, 0);
const lines = [];

lines.push(JSON.stringify({
  commitInfo: {
    timestamp: t0,
    userId: '4242424242424242',
    userName: 'bench@example.com',
    operation: 'WRITE',
    operationParameters: { mode: 'Append', statsOnLoad: 'false', partitionBy: '["date"]' },
    notebook: { notebookId: '1234567890' },
    clusterId: '0115-101010-abcdefgh',
    readVersion: 41,
    isolationLevel: 'WriteSerializable',
    isBlindAppend: true,
    operationMetrics: {
      numFiles: String(nAdds), numOutputRows: String(nAdds * 1000),
      numOutputBytes: String(nAdds * 123456),
    },
    engineInfo: 'Apache-Spark/3.5.0 Delta-Lake/3.1.0',
    txnId: uuid(),
  },
}));
lines.push(JSON.stringify({ protocol: { minReaderVersion: 1, minWriterVersion: 2 } }));
const schema = {
  type: 'struct',
  fields: [
    { name: 'id', type: 'long', nullable: false, metadata: {} },
    { name: 'customer_name', type: 'string', nullable: true, metadata: {} },
    { name: 'amount', type: 'double', nullable: true, metadata: {} },
    { name: 'event_ts', type: 'timestamp', nullable: true, metadata: {} },
    { name: 'category', type: 'string', nullable: true, metadata: {} },
    { name: 'quantity', type: 'integer', nullable: true, metadata: {} },
    { name: 'date', type: 'date', nullable: true, metadata: {} },
  ],
};
lines.push(JSON.stringify({
  metaData: {
    id: uuid(),
    format: { provider: 'parquet', options: {} },
    schemaString: JSON.stringify(schema),
    partitionColumns: ['date'],
    configuration: { 'delta.checkpointInterval': '10' },
    createdTime: t0 - 86400000,
  },
}));

const isoTs = (ms) => new Date(ms).toISOString();
for (let i = 0; i < nAdds; i++) {
  const day = `2024-${pad(1 + (i % 12), 2)}-${pad(1 + (Math.floor(i / 12) % 28), 2)}`;
  const numRecords = randInt(1000, 2000000);
  const idMin = randInt(0, 1e12);
  const tsMin = t0 + randInt(0, 1e9);
  const nameA = names[randInt(0, names.length - 1)];
  const nameB = names[randInt(0, names.length - 1)];
  const catA = categories[randInt(0, 2)];
  const catB = categories[randInt(3, 5)];
  const amountMin = Math.round(rand() * -1e6) / 100;
  const amountMax = rand() * 1e7; // full-precision doubles, like Spark's stats
  const stats = {
    numRecords,
    minValues: {
      id: idMin, customer_name: nameA < nameB ? nameA : nameB, amount: amountMin,
      event_ts: isoTs(tsMin), category: catA, quantity: randInt(0, 10),
    },
    maxValues: {
      id: idMin + numRecords, customer_name: nameA < nameB ? nameB : nameA, amount: amountMax,
      event_ts: isoTs(tsMin + randInt(0, 86400000)), category: catB, quantity: randInt(100, 1000),
    },
    nullCount: {
      id: 0, customer_name: randInt(0, 50), amount: randInt(0, 5), event_ts: 0,
      category: randInt(0, 3), quantity: randInt(0, 100),
    },
  };
  const add = {
    path: `date=${day}/part-${pad(i % 100000, 5)}-${uuid()}.c000.snappy.parquet`,
    partitionValues: { date: day },
    size: randInt(1 << 20, 256 << 20),
    modificationTime: t0 + i * 37,
    dataChange: true,
    stats: JSON.stringify(stats),
    tags: {
      INSERTION_TIME: String((t0 + i * 37) * 1000),
      MIN_INSERTION_TIME: String((t0 + i * 37) * 1000),
      MAX_INSERTION_TIME: String((t0 + i * 37) * 1000 + 999),
      OPTIMIZE_TARGET_SIZE: '268435456',
    },
  };
  lines.push(JSON.stringify({ add }));
}

const text = lines.join('\n') + '\n';
writeFileSync(outPath, text);
console.log(`wrote ${outPath}: ${lines.length} lines, ${Buffer.byteLength(text)} bytes`);
