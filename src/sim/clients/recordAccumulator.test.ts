import { describe, expect, it } from 'vitest';
import { createSimulation } from '../index';
import { presets } from '../../scenario/presets';
import { drainStats } from './recordAccumulator';
import { Driver } from '../testing/driver';

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

describe('when every broker is down under a steady producer for 5 minutes (three-brokers, seed 7)', () => {
  it('the Sender reads about as many records a second with 24,000 waiting as with 1,000: per partition, not per record', () => {
    const d = new Driver(createSimulation(presets['three-brokers'].scenario)).advance(15_000);
    d.do({ type: 'startProducer', producerId: 'loader', topic: 'demo', ratePerSec: 200 }).advance(1_000);
    for (const nodeId of [2, 3, 4]) d.crash(nodeId);
    d.senderWork(true);
    const readPer10s: number[] = [];
    for (let window = 0; window < 30; window++) {
      d.advance(10_000);
      const { read } = d.senderWork(true);
      readPer10s.push(read);
      // Fewer reads than one per waiting record a second, at every point (before the per-partition
      // queues the Sender read the whole backlog several hundred times a second: about 4 million
      // reads in the first 10 s, 30 million in the tenth).
      expect(read, `simulated seconds ${window * 10}-${window * 10 + 10}`).toBeLessThan(10 * 24_000);
    }
    const producer = d.sim.snapshot().clients.producers.find((p) => p.id === 'loader')!;
    // The backlog grew by 200 records a second until delivery.timeout.ms (2 minutes) capped it...
    expect(producer.pending).toBeGreaterThan(23_000);
    // ...and the reads did not grow with it: minutes 3 to 5 (about 24,000 waiting) read at most a few
    // times what the first minute did (1,000 to 12,000 waiting; records failing from minute 2 add some).
    const firstMinute = Math.max(...readPer10s.slice(0, 6));
    expect(Math.max(...readPer10s.slice(12))).toBeLessThan(4 * firstMinute);
  });
});

describe('when min.insync.replicas is out of reach under an acks=all producer (three-brokers, seed 7)', () => {
  it('a batch refused with NOT_ENOUGH_REPLICAS is retried as one: its records are sent again together, at one backoff', () => {
    const d = new Driver(createSimulation(presets['three-brokers'].scenario)).advance(15_000);
    d.crash(4).advance(10_000); // fenced: out of every ISR (broker.session.timeout.ms)
    d.do({
      type: 'alterConfig',
      resourceType: 'topic',
      resourceName: 'demo',
      configs: { 'min.insync.replicas': 3 },
    });
    d.do({ type: 'startProducer', producerId: 'loader', topic: 'demo', ratePerSec: 200, acks: 'all' });
    d.advance(10_000);
    // The records of one request: same partition, same broker, same instant of their first attempt.
    const batches = new Map<string, string[]>();
    for (const e of d.sim.ledger()) {
      if (e.producerId !== 'loader' || e.attempts.length < 3) continue;
      const first = e.attempts[0]!;
      const key = `${e.partition}@${first.brokerId}@${first.atMs}`;
      const list = batches.get(key) ?? [];
      list.push(e.attempts.map((a) => a.atMs).join(','));
      batches.set(key, list);
    }
    const multi = [...batches.values()].filter((l) => l.length > 1);
    // Retries happened, in batches of several records...
    expect(multi.length).toBeGreaterThan(0);
    expect(d.sim.ledger().some((e) => e.attempts.some((a) => a.error === 'NOT_ENOUGH_REPLICAS'))).toBe(true);
    // ...and every record of a batch has the same attempts (before, each record drew its own
    // jittered backoff, so a batch came apart on its first retry).
    for (const list of multi) expect(new Set(list).size).toBe(1);
  });
});

describe('when min.insync.replicas is out of reach under an idempotent producer (three-brokers, seed 7)', () => {
  it('the producer has at most one retried batch of a partition on the wire at a time', () => {
    const d = new Driver(createSimulation(presets['three-brokers'].scenario)).advance(15_000);
    d.crash(4).advance(10_000); // fenced: out of every ISR (broker.session.timeout.ms)
    d.do({
      type: 'alterConfig',
      resourceType: 'topic',
      resourceName: 'demo',
      configs: { 'min.insync.replicas': 3 },
    });
    d.do({ type: 'startProducer', producerId: 'loader', topic: 'demo', ratePerSec: 200, acks: 'all' });
    d.advance(10_000);
    // Every Produce request the producer sends from now on, in order: its partition, and whether it
    // carries records sent before (a retry).
    const sentBefore = new Set<number>();
    for (const e of d.sim.ledger())
      if (e.producerId === 'loader' && e.attempts.length > 0) sentBefore.add(e.recordId);
    const seen = new Set<number>();
    let retries = 0;
    let mostRetriesOnWire = 0;
    const end = d.sim.nowMs + 10_000;
    while (d.sim.nowMs < end) {
      d.sim.step();
      const retriesOnWire = new Map<number, number>();
      for (const m of d.onWire('Produce')) {
        if (m.from !== 'loader') continue;
        const retry = m.body.records.every((r) => sentBefore.has(r.id));
        if (!seen.has(m.reqId)) {
          seen.add(m.reqId);
          for (const r of m.body.records) sentBefore.add(r.id);
          if (retry) retries++;
        }
        if (retry) retriesOnWire.set(m.body.partition, (retriesOnWire.get(m.body.partition) ?? 0) + 1);
      }
      for (const n of retriesOnWire.values()) mostRetriesOnWire = Math.max(mostRetriesOnWire, n);
    }
    // Retried batches went out all along (a backoff of up to retry.backoff.max.ms, 1 s)...
    expect(retries).toBeGreaterThan(10);
    // ...but never two of one partition at once (RecordAccumulator.shouldStopDrainBatchesForPartition:
    // a retried batch goes only as the partition's first batch not done). Before, a partition sent up
    // to max.in.flight.requests.per.connection (5) of its retried batches together.
    expect(mostRetriesOnWire).toBe(1);
  });
});
