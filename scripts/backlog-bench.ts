// npm run bench:backlog (tsx): what a producer's backlog that cannot move costs the engine, in CPU time
// (process.cpuUsage: the machine is shared) per simulated minute. Prints numbers; asserts nothing.
//   down         three-brokers, a startProducer of 200 records/s, then every broker crashed: the
//                first 2 minutes (delivery.timeout.ms, 2 minutes, then caps the backlog at 24,000 records)
//   down-acks1   the same with a producer without idempotence (acks=1), whose retried batches keep their
//                own batch keys: what the reconnect backoff (clients/connectionBackoff.ts) keeps flat
//   two-regions  the two-regions preset with a startProducer at the rate limit (10,000 records/s): 1 minute
// Options: --only down|down-acks1|two-regions  --minutes N (down)  --engine PATH (another checkout's src/sim/index.ts, to compare)

import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Sim from '../src/sim/index';
import { presets } from '../src/scenario/presets';

const args = process.argv.slice(2);
const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const only = opt('--only');
const enginePath = opt('--engine');
const engine = (await import(
  enginePath ? pathToFileURL(resolve(enginePath)).href : '../src/sim/index'
)) as typeof Sim;

const cpuMs = (since: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};

/** CPU ms of each simulated minute of `minutes`, after `setup` (not counted). */
function perMinute(sim: Sim.Simulation, minutes: number): number[] {
  const out: number[] = [];
  for (let m = 0; m < minutes; m++) {
    const t0 = process.cpuUsage();
    for (let s = 0; s < 60; s++) sim.advance(1000);
    out.push(cpuMs(t0));
  }
  return out;
}

function allBrokersDown(config?: Record<string, string | number | boolean>): number[] {
  const sim = engine.createSimulation(presets['three-brokers'].scenario);
  sim.advance(15_000);
  sim.apply({
    type: 'startProducer',
    producerId: 'loader',
    topic: 'demo',
    ratePerSec: 200,
    ...(config ? { config } : {}),
  });
  sim.advance(1_000);
  for (const nodeId of [2, 3, 4]) sim.apply({ type: 'crashNode', nodeId });
  return perMinute(sim, Number(opt('--minutes') ?? 2));
}

function twoRegionsAtTheLimit(): number[] {
  const sim = engine.createSimulation(presets['two-regions'].scenario);
  sim.advance(15_000);
  sim.apply({ type: 'startProducer', producerId: 'loader', topic: 'orders', ratePerSec: 10_000 });
  return perMinute(sim, 1);
}

const fmt = (xs: number[]) => xs.map((x) => `${x.toFixed(0)} ms`).join(', ');
if (!only || only === 'down')
  console.log(`down: CPU per simulated minute, minute by minute: ${fmt(allBrokersDown())}`);
if (!only || only === 'down-acks1')
  console.log(
    `down, acks=1 (no idempotence): CPU per simulated minute, minute by minute: ${fmt(allBrokersDown({ acks: '1' }))}`,
  );
if (!only || only === 'two-regions')
  console.log(`two-regions at 10,000 records/s: CPU for the first minute: ${fmt(twoRegionsAtTheLimit())}`);
