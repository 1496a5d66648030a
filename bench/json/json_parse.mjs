// SPDX-License-Identifier: Apache-2.0
// The node peer of dl_bench_json: the same replay with JSON.parse per line. The file is read
// into a string once (not timed); each timed pass splits it into lines, parses every line and
// touches each `add` action's path, size and stats (with --parse-stats, also JSON.parse of the
// stats string and its numRecords). The median pass time is reported, with the best alongside.
//
// Usage: node bench/json/json_parse.mjs <commit.json> [repeats=5] [--parse-stats]
// Last line: RESULT seconds=<median> mb_per_s=<..> actions_per_s=<..> actions=<lines parsed>
// adds=<add actions> sum_size=<sum of add.size> [records=<sum of numRecords>]
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const parseStats = args.includes('--parse-stats');
const positional = args.filter((a) => !a.startsWith('--'));
const path = positional[0];
const repeats = Number(positional[1] ?? 5);
if (!path || !(repeats >= 1)) {
  console.error('usage: node json_parse.mjs <commit.json> [repeats] [--parse-stats]');
  process.exit(2);
}

const bytes = readFileSync(path);
const text = bytes.toString('utf8');

function replay() {
  const t = { lines: 0, adds: 0, sumSize: 0, sumRecords: 0, sumLens: 0 };
  const lines = text.split('\n');
  for (const line of lines) {
    if (line.length === 0) continue;
    const action = JSON.parse(line);
    t.lines++;
    const add = action.add;
    if (add !== undefined) {
      const { path: p, size, stats } = add;
      if (typeof p !== 'string' || typeof size !== 'number' || typeof stats !== 'string') {
        throw new Error(`line ${t.lines}: malformed add`);
      }
      t.adds++;
      t.sumSize += size;
      t.sumLens += p.length + stats.length + p.charCodeAt(p.length - 1);
      if (parseStats) {
        t.sumRecords += JSON.parse(stats).numRecords;
      }
    }
  }
  return t;
}

const times = [];
let t;
for (let r = 0; r < repeats; r++) {
  const t0 = process.hrtime.bigint();
  t = replay();
  times.push(Number(process.hrtime.bigint() - t0) / 1e9);
}
times.sort((a, b) => a - b);
const median = times[Math.floor(repeats / 2)];
const mb = bytes.length / 1e6;
console.log(`file ${path}: ${bytes.length} bytes, ${t.lines} lines, ${t.adds} adds, ` +
  `sum(size)=${t.sumSize}, sum(numRecords)=${t.sumRecords}, check=${t.sumLens}`);
console.log(`mode ${parseStats ? 'parse+stats' : 'parse'}, ${repeats} passes: ` +
  `best ${times[0].toFixed(4)} s, median ${median.toFixed(4)} s`);
console.log(`RESULT seconds=${median.toFixed(4)} mb_per_s=${(mb / median).toFixed(1)} ` +
  `actions_per_s=${(t.lines / median).toFixed(0)} actions=${t.lines} adds=${t.adds} ` +
  `sum_size=${t.sumSize}` + (parseStats ? ` records=${t.sumRecords}` : ''));
