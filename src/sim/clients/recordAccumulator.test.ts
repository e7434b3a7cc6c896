import { describe, expect, it } from 'vitest';
import { createSimulation } from '../index';
import { presets } from '../../scenario/presets';
import { drainStats } from './recordAccumulator';

describe('when every broker is down under a steady producer (three-brokers, seed 7)', () => {
  it('the Sender batches only what it can send: the work per second does not grow with the backlog', () => {
    const sim = createSimulation(presets['three-brokers'].scenario);
    sim.advance(15_000);
    sim.apply({ type: 'startProducer', producerId: 'loader', topic: 'demo', ratePerSec: 200 });
    sim.advance(1_000);
    for (const nodeId of [2, 3, 4]) sim.apply({ type: 'crashNode', nodeId });
    const batchedPerSecond: number[] = [];
    for (let s = 0; s < 60; s++) {
      drainStats.batched = 0;
      sim.advance(1_000);
      batchedPerSecond.push(drainStats.batched);
    }
    const producer = sim.snapshot().clients.producers.find((p) => p.id === 'loader')!;
    // The backlog grew by 200 records a second and none of it was acknowledged...
    expect(producer.pending).toBeGreaterThan(11_000);
    // ...yet a second of the last twenty batches no more records than one of seconds 5 to 15 did
    // (before, every drain batched the whole backlog again: 5,321 then 25,778 records a second).
    const early = Math.max(...batchedPerSecond.slice(5, 15));
    const late = Math.max(...batchedPerSecond.slice(40));
    expect(late).toBeLessThanOrEqual(2 * early);
  });
});

describe('when a producer sends at the rate limit in two-regions (seed 7)', () => {
  it('the quick look reads a waiting record a few times, not once a response', () => {
    const sim = createSimulation(presets['two-regions'].scenario);
    sim.advance(15_000);
    sim.apply({ type: 'startProducer', producerId: 'loader', topic: 'orders', ratePerSec: 10_000 });
    sim.advance(1_000);
    drainStats.read = 0;
    sim.advance(2_000);
    // 20,000 records sent in these two seconds (about 110,000 reads); before, every response read
    // the whole backlog again (about 25 million record reads a second).
    expect(drainStats.read).toBeLessThan(10 * 20_000);
  });
});
