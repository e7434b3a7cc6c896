// Seek time over a 10-minute run (the target: at most 200 ms). Run: npx tsx scripts/seek-bench.ts
// The default scenario under a steady load with a crash and a restart every two minutes; the
// timeline checkpoints as the worker's does, then seeks to 40 seeded times across the run.
import { defaultScenario } from '../src/scenario/presets';
import { Timeline } from '../src/worker/timeline';

const RUN_MS = 10 * 60_000;
const timeline = new Timeline(defaultScenario);
const started = performance.now();
for (let t = 1_000; t <= RUN_MS; t += 1_000) {
  timeline.advanceTo(t);
  timeline.apply({
    type: 'produce',
    topic: 'orders',
    key: `k${t % 7}`,
    value: `v${t}`,
    acks: 'all',
    count: 20,
  });
  if (t % 120_000 === 30_000) timeline.apply({ type: 'crashNode', nodeId: 4 + ((t / 120_000) | 0) });
  if (t % 120_000 === 90_000) timeline.apply({ type: 'restartNode', nodeId: 4 + ((t / 120_000) | 0) });
}
const runWallMs = performance.now() - started;

let seed = 6;
const next = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed / 0x7fffffff);
const times: number[] = [];
const cpuTimes: number[] = [];
for (let i = 0; i < 40; i++) {
  const target = Math.floor(next() * RUN_MS);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  timeline.seek(target);
  const cpu = process.cpuUsage(cpu0);
  times.push(performance.now() - t0);
  // CPU time, so that a busy machine does not inflate the figure; GC threads count too.
  cpuTimes.push((cpu.user + cpu.system) / 1000);
}
times.sort((a, b) => a - b);
cpuTimes.sort((a, b) => a - b);
// NaN when there are no samples (the loop above takes 40).
const nth = (sorted: readonly number[], i: number): number => sorted[i] ?? NaN;
const p50 = nth(times, Math.floor(times.length / 2));
const max = times.at(-1) ?? NaN;
const p95 = nth(times, Math.floor(times.length * 0.95));
console.log(
  `seek over a ${RUN_MS / 60_000}-minute run: wall p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${max.toFixed(1)} ms; ` +
    `CPU p50 ${nth(cpuTimes, Math.floor(cpuTimes.length / 2)).toFixed(1)} ms, max ${(cpuTimes.at(-1) ?? NaN).toFixed(1)} ms ` +
    `(${timeline.checkpointCount} checkpoints; the run itself took ${(runWallMs / 1000).toFixed(1)} s)`,
);
console.log(`heap used ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB`);
if (max > 200) process.exitCode = 1;
