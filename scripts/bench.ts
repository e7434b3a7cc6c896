// npm run bench (bundled with esbuild, as the browser runs it, then run by node): how fast the engine runs, in simulated seconds per wall-clock second, and its
// peak heap, with a steady 1,000 records/s produced with acks=all across all partitions.
// Prints numbers; asserts nothing (timed assertions flake on a busy machine). Each line is the
// median of --runs runs after warm-up runs that are not counted (at least one, and at least
// WARM_UP_MS of wall time: see warmUp).
// Also: the large cluster idle with a quorum of 5 controllers (size quorum: heartbeats and the
// controller's periodic work only), and the large load with 5 controllers (large+5c).
// And the huge size, 200 brokers and 20,000 partitions, idle and under the same load (--only huge).
// Options: --only small|medium|large|quorum|large+5c|huge|clients|txn|memory  --runs N  --soak (the 10-minute memory run of the large size)
// --only memory: heap growth per simulated hour of the large and default presets under a steady producer, with the
// record ceiling (kernel/recordCeiling.ts) and without it (`--minutes M` scales the runs' simulated minutes, 12 by default).

import { performance } from 'node:perf_hooks';
import { createSimulation } from '../src/sim/index';
import type { Scenario, Simulation } from '../src/sim/index';
import { presets } from '../src/scenario/presets';

interface Size {
  name: string;
  brokers: number;
  racks: number;
  partitions: number;
  controllers: number;
  target: number;
  measureSimMs: number;
  /** No produce load: only what an idle cluster does (heartbeats, metadata, timers). */
  idle?: boolean;
  /** What the line measures, when it is not the usual produce load. */
  note?: string;
}

const SIZES: Size[] = [
  { name: 'small', brokers: 3, racks: 0, partitions: 6, controllers: 1, target: 1000, measureSimMs: 60_000 },
  {
    name: 'medium',
    brokers: 12,
    racks: 3,
    partitions: 200,
    controllers: 3,
    target: 100,
    measureSimMs: 30_000,
  },
  {
    name: 'large',
    brokers: 48,
    racks: 4,
    partitions: 2000,
    controllers: 3,
    target: 10,
    measureSimMs: 20_000,
  },
  // After the large size, so SIZES[1] and SIZES[2] stay medium and large.
  {
    name: 'quorum',
    brokers: 48,
    racks: 4,
    partitions: 2000,
    controllers: 5,
    target: 10,
    measureSimMs: 60_000,
    idle: true,
    note: 'idle: a quorum of 5 controllers with 48 brokers heartbeating',
  },
  {
    name: 'large+5c',
    brokers: 48,
    racks: 4,
    partitions: 2000,
    controllers: 5,
    target: 10,
    measureSimMs: 20_000,
    note: 'the large load with 5 controllers',
  },
  // A real mid-sized cluster, at the simulator's limits' scale (200 brokers, 20,000 partitions).
  {
    name: 'huge',
    brokers: 200,
    racks: 4,
    partitions: 20_000,
    controllers: 3,
    target: 1,
    measureSimMs: 10_000,
    idle: true,
    note: 'idle: 200 brokers heartbeating, 20,000 partitions',
  },
  {
    name: 'huge',
    brokers: 200,
    racks: 4,
    partitions: 20_000,
    controllers: 3,
    target: 1,
    measureSimMs: 10_000,
    note: '200 brokers, 20,000 partitions, 1,000 records/s',
  },
];

const RATE_PER_S = 1000;
const TICK_MS = 10;

function scenario(size: Size, retentionMs?: number): Scenario {
  const controllers = Array.from({ length: size.controllers }, (_, i) => ({
    id: i + 1,
    roles: ['controller' as const],
    ...(size.racks ? { rack: `zone-${i % size.racks}` } : {}),
  }));
  const brokers = Array.from({ length: size.brokers }, (_, i) => ({
    id: 100 + i,
    roles: ['broker' as const],
    ...(size.racks ? { rack: `zone-${i % size.racks}` } : {}),
  }));
  return {
    version: 1,
    seed: 42,
    nodes: [...controllers, ...brokers],
    // With retention, check it every minute (Kafka's default is 5), so the heap's sawtooth is short.
    ...(retentionMs ? { config: { 'log.retention.check.interval.ms': 60_000 } } : {}),
    network: { latencyMs: 1, jitterMs: 1 },
    topics: [
      {
        name: 'load',
        partitions: size.partitions,
        replicationFactor: 3,
        config: { 'min.insync.replicas': 2, ...(retentionMs ? { 'retention.ms': retentionMs } : {}) },
      },
    ],
  };
}

/** Boots the cluster, then runs `simMs` of steady load; returns wall ms spent on the loaded part. */
function run(size: Size, simMs: number, onMinute?: (simS: number) => void, retentionMs?: number) {
  const bootStart = performance.now();
  const sim = createSimulation(scenario(size, retentionMs));
  sim.advance(15_000); // boot: quorum, registrations, topic creation
  const bootWallMs = performance.now() - bootStart;
  if (sim.snapshot().partitions.some((p) => p.leader < 0))
    throw new Error(`${size.name}: cluster did not boot`);
  let next = 0;
  const perTick = size.idle ? 0 : (RATE_PER_S * TICK_MS) / 1000;
  let peakHeap = 0;
  const start = performance.now();
  for (let t = 0; t < simMs; t += TICK_MS) {
    for (let i = 0; i < perTick; i++) {
      sim.apply({
        type: 'produce',
        topic: 'load',
        partition: next,
        key: null,
        value: `r${t}-${i}`,
        acks: 'all',
        producerId: `bench-${next % 5}`,
      });
      next = (next + 1) % size.partitions;
    }
    sim.advance(TICK_MS);
    if (t % 5000 === 0) peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    if (onMinute && t > 0 && t % 60_000 === 0) onMinute(t / 1000);
  }
  const wallMs = performance.now() - start;
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  const acked = sim.ledger().filter((e) => e.status === 'acked').length;
  return { wallMs, peakHeap, acked, sim, bootWallMs };
}

/**
 * Warm-up, not counted: V8 needs a second or two of wall time to optimise the hot paths, and a long
 * session in the browser runs warm (as JMH warms up before it measures). One warm-up run of 20
 * simulated seconds took 0.1 to 0.3 s on the small and medium sizes, so their first measured runs
 * were still cold (medium: 50x, then 75x, 93x, 99x in a row); the warm-up repeats until WARM_UP_MS.
 */
const WARM_UP_MS = 2_000;
function warmUp(once: () => void): void {
  const start = performance.now();
  do once();
  while (performance.now() - start < WARM_UP_MS);
  // The warm-up's simulations are garbage now: collected, so the heap figures are the measured runs'.
  (globalThis as { gc?: () => void }).gc?.();
}

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const runs = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : 3;

console.log(
  `Engine speed with ${RATE_PER_S} records/s, acks=all, RF 3, min.insync.replicas=2 (median of ${runs} runs after ${WARM_UP_MS / 1000} s of warm-up runs)`,
);
console.log('size      controllers  brokers  partitions  sim-s/wall-s  target  peak heap  acked');
for (const size of SIZES) {
  if (only && only !== size.name) continue;
  if (only === 'memory') break;
  const speeds: number[] = [];
  let peak = 0;
  let acked = 0;
  let bootWallMs = 0;
  warmUp(() => run(size, Math.min(size.measureSimMs, 20_000)));
  for (let i = 0; i < runs; i++) {
    const r = run(size, size.measureSimMs);
    speeds.push(size.measureSimMs / r.wallMs);
    peak = Math.max(peak, r.peakHeap);
    acked = r.acked;
    bootWallMs = r.bootWallMs;
  }
  const speed = median(speeds);
  console.log(
    `${size.name.padEnd(9)} ${String(size.controllers).padStart(11)}  ${String(size.brokers).padStart(7)}  ${String(size.partitions).padStart(10)}  ${speed.toFixed(speed < 10 ? 2 : 0).padStart(11)}×  ${String(size.target).padStart(5)}×  ${mb(peak).padStart(9)}  ${acked}${size.note ? `  (${size.note})` : ''}${size.partitions >= 10_000 ? `, boot (15 simulated s) in ${(bootWallMs / 1000).toFixed(1)} s wall` : ''}`,
  );
}

/**
 * The medium cluster driven by its clients instead of produce commands: five startProducer loops of
 * 200 records/s each (acks=all, keyed) and two consumer groups of three consumers.
 */
function runClients(simMs: number) {
  const size = SIZES[1]!;
  const sim = createSimulation(scenario(size));
  sim.advance(15_000);
  for (let i = 0; i < 5; i++)
    sim.apply({
      type: 'startProducer',
      producerId: `producer-${i}`,
      topic: 'load',
      ratePerSec: 200,
      keyPattern: `p${i}-key-{n}`,
      keyCount: 1000,
    });
  for (const group of ['billing', 'shipping'])
    for (let c = 0; c < 3; c++)
      sim.apply({ type: 'startConsumer', consumerId: `${group}-${c}`, groupId: group, topics: ['load'] });
  sim.advance(10_000); // groups form
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  for (let t = 0; t < simMs; t += 1000) sim.advance(1000);
  const wallMs = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const snap = sim.snapshot();
  const consumed = snap.clients.groups.map((g) => `${g.groupId} ${g.recordsConsumed}`).join(', ');
  const acked = snap.clients.producers.reduce((n, p) => n + p.acknowledged, 0);
  return { wallMs, cpuMs, acked, consumed, heap: process.memoryUsage().heapUsed };
}

if (!only || only === 'clients') {
  const simMs = 30_000;
  const speeds: number[] = [];
  let last: ReturnType<typeof runClients> | null = null;
  warmUp(() => runClients(10_000));
  for (let i = 0; i < runs; i++) {
    last = runClients(simMs);
    speeds.push(simMs / last.wallMs);
  }
  console.log(
    `clients  medium cluster, 5 producers × 200 records/s (startProducer), 2 groups × 3 consumers: ` +
      `${median(speeds).toFixed(0)}× sim-s/wall-s ` +
      `(${(simMs / last!.cpuMs).toFixed(0)}× per CPU-s, steadier on a busy machine), heap ${mb(last!.heap)}, ` +
      `acked ${last!.acked}, consumed ${last!.consumed}`,
  );
}

/**
 * A transactional consume-transform-produce workload on the small cluster: a source at 500
 * records/s into `load`, and two exactly_once_v2 processors (commit.interval.ms 100) in one group
 * reading it and writing `out`, every input in a transaction with its offsets.
 */
function runTxn(simMs: number) {
  const size = SIZES[0]!;
  const base = scenario(size);
  const sim = createSimulation({
    ...base,
    topics: [...(base.topics ?? []), { name: 'out', partitions: size.partitions, replicationFactor: 3 }],
  });
  sim.advance(15_000);
  sim.apply({
    type: 'startProducer',
    producerId: 'source',
    topic: 'load',
    ratePerSec: 500,
    keyPattern: 'k{n}',
  });
  for (const id of ['app-1', 'app-2'])
    sim.apply({
      type: 'startProcessor',
      processorId: id,
      groupId: 'app',
      inputTopic: 'load',
      outputTopic: 'out',
      processingGuarantee: 'exactly_once_v2',
    });
  sim.advance(15_000); // the group forms, the transactions begin
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  for (let t = 0; t < simMs; t += 1000) sim.advance(1000);
  const wallMs = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  const processors = sim.snapshot().clients.processors;
  return {
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    processed: processors.reduce((n, p) => n + p.processed, 0),
    commits: processors.reduce((n, p) => n + p.commits, 0),
    heap: process.memoryUsage().heapUsed,
  };
}

if (only === 'txn' || !only) {
  const simMs = 30_000;
  const speeds: number[] = [];
  let last: ReturnType<typeof runTxn> | null = null;
  warmUp(() => runTxn(10_000));
  for (let i = 0; i < runs; i++) {
    last = runTxn(simMs);
    speeds.push(simMs / last.wallMs);
  }
  console.log(
    `txn      small cluster, 500 records/s through 2 exactly_once_v2 processors (commit.interval.ms 100): ` +
      `${median(speeds).toFixed(0)}× sim-s/wall-s (${(simMs / last!.cpuMs).toFixed(0)}× per CPU-s), heap ${mb(last!.heap)}, ` +
      `processed ${last!.processed}, transactions committed ${last!.commits}`,
  );
}

if (args.includes('--soak')) {
  const large = SIZES[2]!;
  console.log(
    '\nLarge size, 10 simulated minutes, retention.ms=60000, log.retention.check.interval.ms=60000: heap after GC, each minute',
  );
  const r = run(
    large,
    600_000,
    (s) => {
      globalThis.gc?.();
      console.log(`  ${String(s).padStart(4)} s  heap ${mb(process.memoryUsage().heapUsed)}`);
    },
    60_000,
  );
  console.log(`  done: ${(600_000 / r.wallMs).toFixed(1)}× real time, peak ${mb(r.peakHeap)}`);
}

/**
 * Heap per simulated hour: a preset with a startProducer at `ratePerSec` (keyed, acks=all) for `minutes`
 * simulated minutes; the heap after GC each minute. The slope is taken over the last half of the run
 * (past the ceiling, when it is reached) and scaled to an hour. `ceiling: false` lifts the record
 * ceiling (the engine before it): every record stays held for the week of default retention.
 */
function runMemory(preset: 'large' | 'default', ratePerSec: number, minutes: number, ceiling: boolean) {
  const scene = presets[preset].scenario;
  const sim: Simulation = createSimulation(scene);
  if (!ceiling) sim.world.recordCeiling = { ceiling: Infinity, forgotten: 0, passes: 0 };
  sim.advance(15_000);
  sim.apply({
    type: 'startProducer',
    producerId: 'memory-bench',
    topic: scene.topics![0]!.name,
    ratePerSec,
    keyPattern: 'key-{n}',
    keyCount: 1000,
  });
  const heap = () => {
    globalThis.gc?.();
    globalThis.gc?.();
    return process.memoryUsage().heapUsed;
  };
  const samples: number[] = [heap()];
  for (let m = 1; m <= minutes; m++) {
    for (let s = 0; s < 60; s++) sim.advance(1000);
    samples.push(heap());
  }
  const half = Math.floor(minutes / 2);
  const perHour = ((samples[minutes]! - samples[half]!) / (minutes - half)) * 60;
  return { perHour, last: samples[minutes]!, memory: sim.recordMemory() };
}

if (only === 'memory') {
  if (!globalThis.gc) throw new Error('--only memory needs node --expose-gc (npm run bench does it)');
  // Simulated minutes a run: past the ceiling with it (the large preset reaches it at about 5.5
  // simulated minutes, the default one at about 11), and long enough for a slope without it.
  const scale = args.includes('--minutes') ? Number(args[args.indexOf('--minutes') + 1]) / 12 : 1;
  console.log(
    `\nHeap growth per simulated hour (after GC; the slope of each run's second half, scaled to an hour; median and range of ${runs} runs)`,
  );
  const cases = [
    {
      preset: 'large' as const,
      rate: 1000,
      minutes: [6, 12],
      label: 'large preset, a producer at 1,000 records/s',
    },
    {
      preset: 'default' as const,
      rate: 500,
      minutes: [12, 24],
      label: 'default preset, a producer at 500 records/s (its own 5 records/s × 100)',
    },
  ];
  // --cases large-before,large-ceiling,default-before,default-ceiling: only those (default: all four).
  const picked = args.includes('--cases') ? args[args.indexOf('--cases') + 1]!.split(',') : null;
  for (const c of cases)
    for (const ceiling of [false, true]) {
      if (picked && !picked.includes(`${c.preset}-${ceiling ? 'ceiling' : 'before'}`)) continue;
      const minutes = Math.max(2, Math.round(c.minutes[ceiling ? 1 : 0]! * scale));
      const rs = Array.from({ length: runs }, () => runMemory(c.preset, c.rate, minutes, ceiling));
      const per = rs.map((r) => r.perHour).sort((a, b) => a - b);
      const m = rs[0]!.memory;
      console.log(
        `${c.label}, ${ceiling ? `record ceiling ${m.ceiling.toLocaleString('en')}` : 'no ceiling (before)'}, ${minutes} simulated minutes: ` +
          `${mb(median(per))}/h (${mb(per[0]!)} to ${mb(per.at(-1)!)}), heap at the end ${mb(median(rs.map((r) => r.last)))}, ` +
          `records held ${m.held.toLocaleString('en')}, forgotten ${m.forgotten.toLocaleString('en')}, ledger ${m.ledgerEntries.toLocaleString('en')}` +
          // The memory bounds' counts (kernel/memoryBounds.ts, model/trail.ts).
          `, trail ${m.trailEntries.toLocaleString('en')} entries, events ${m.events.toLocaleString('en')} (${m.eventsDropped.toLocaleString('en')} dropped)`,
      );
    }
}
