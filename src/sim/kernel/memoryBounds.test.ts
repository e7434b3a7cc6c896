import { describe, expect, it } from 'vitest';
import { cluster } from '../testing/driver';
import { InvariantMonitor } from '../observe/invariants';
import { EVENTS_KEPT, LEDGER_ACKS0_KEPT, LEDGER_FAILED_KEPT } from './memoryBounds';
import { TRAIL_BUDGET, TRAIL_RING, trailRing } from '../model/trail';

// Controller 1, brokers 2, 3, 4; a producer at 1,000 records/s (short delivery and request
// timeouts, so that with every broker down its records fail within seconds). Seeded.
const scene = (limits?: Parameters<ReturnType<typeof cluster>['memoryLimits']>[0]) => {
  const d = cluster({
    seed: 5,
    topics: [{ name: 'load', partitions: 3, replicationFactor: 3, config: { 'min.insync.replicas': 2 } }],
  }).settle();
  if (limits) d.memoryLimits(limits);
  return d.do({
    type: 'startProducer',
    producerId: 'p',
    topic: 'load',
    ratePerSec: 1000,
    keyPattern: 'k{n}',
    keyCount: 50,
    config: { 'delivery.timeout.ms': 3000, 'request.timeout.ms': 1000, 'linger.ms': 5 },
  });
};
/** Runs 5 s, then every broker down for 20 s: thousands of failed sends, each with its ProduceFailed. */
/** The bounds lifted (the engine before them). */
const UNBOUNDED = { events: Infinity, failedPerProducer: Infinity };
const outage = (d: ReturnType<typeof scene>) => d.advance(5000).crash(2).crash(3).crash(4).advance(20_000);

describe('the memory bounds', () => {
  it('keep the newest events, count the rest, and change no state hash', () => {
    const free = outage(scene(UNBOUNDED));
    const bounded = outage(scene({ ...UNBOUNDED, events: 500 }));
    const m = bounded.sim.recordMemory();
    expect(free.sim.recordMemory().eventsDropped).toBe(0);
    expect(free.sim.events().length).toBeGreaterThan(5000);
    // 500 and its slack, plus those logged since the last metrics sample (never dropped unread): at
    // most a simulated second's, here some 1,000 ProduceFailed.
    expect(m.events).toBeLessThanOrEqual(550 + 1100);
    expect(m.eventsDropped).toBe(free.sim.events().length - m.events);
    expect(bounded.sim.eventCount()).toBe(free.sim.eventCount());
    // The kept events are the newest, as the unbounded run logged them.
    expect(bounded.sim.events()).toEqual(free.sim.events().slice(-m.events));
    expect(bounded.sim.eventsSince(free.sim.eventCount() - 10)).toEqual(free.sim.events().slice(-10));
    // The run is the same: state hash, metrics (they count events by seq), the ledger.
    expect(bounded.sim.stateHash()).toBe(free.sim.stateHash());
    expect(bounded.sim.metrics()).toEqual(free.sim.metrics());
    expect(EVENTS_KEPT).toBe(10_000);
  });

  it('keep the newest failed ledger entries of each producer, and the views say how many are gone', () => {
    const free = outage(scene(UNBOUNDED));
    const bounded = outage(scene({ ...UNBOUNDED, failedPerProducer: 200 }));
    const m = bounded.sim.recordMemory();
    const failedFree = free.sim.recordMemory().failedEntries;
    expect(failedFree).toBeGreaterThan(5000);
    expect(free.sim.recordMemory().failedDropped).toBe(0);
    // 200, and as many more before a pass.
    expect(m.failedEntries).toBeLessThanOrEqual(400);
    expect(m.failedEntries + m.failedDropped).toBe(failedFree);
    expect(bounded.sim.failedDropped()).toEqual(new Map([['p', m.failedDropped]]));
    // Those kept are the unbounded run's, the last to fail (its ProduceFailed events' order).
    const failed = (d: typeof free) => d.sim.ledger().filter((e) => e.status === 'failed');
    const byId = new Map(failed(free).map((e) => [e.recordId, e]));
    const lastToFail = free.sim
      .events()
      .filter((e) => e.type === 'ProduceFailed')
      .map((e) => e.recordId as number)
      .slice(-m.failedEntries);
    expect(failed(bounded)).toEqual(lastToFail.sort((a, b) => a - b).map((id) => byId.get(id)));
    // The same events and outcome otherwise (only the dropped entries leave the state hash).
    expect(bounded.sim.events()).toEqual(free.sim.events());
    expect(bounded.sim.lostAcknowledged()).toEqual(free.sim.lostAcknowledged());
    expect(free.sim.failedDropped().size).toBe(0);
    expect(bounded.sim.clientHistory(0, bounded.sim.nowMs).failedDropped).toBe(m.failedDropped);
    // The run goes on: brokers back, the producer's records acknowledged again.
    bounded.restart(2).restart(3).restart(4).advance(15_000);
    expect(bounded.sim.ledger().at(-100)?.status).toBe('acked');
    expect(LEDGER_FAILED_KEPT).toBe(1000);
  });

  it('keep the newest acks=0 ledger entries of each producer (no offset for retention to prune by)', () => {
    const run = (limits?: { acks0PerProducer: number }) => {
      const d = cluster({
        seed: 5,
        topics: [{ name: 'fire', partitions: 3, replicationFactor: 3 }],
      }).settle();
      if (limits) d.memoryLimits(limits);
      return d
        .do({
          type: 'startProducer',
          producerId: 'f',
          topic: 'fire',
          ratePerSec: 1000,
          acks: 0,
          keyPattern: 'k{n}',
        })
        .advance(10_000);
    };
    const acks0 = (d: ReturnType<typeof run>) => d.sim.ledger().filter((e) => e.acks === 0 && e.offset < 0);
    const free = run({ acks0PerProducer: Infinity });
    const bounded = run();
    const lowered = run({ acks0PerProducer: 300 });
    // 10,000 sent in 10 s: the unbounded ledger keeps each one (3.6 million a simulated hour).
    expect(acks0(free).length).toBeGreaterThan(9_000);
    expect(free.sim.recordMemory().acks0Dropped).toBe(0);
    // The default bound: 1,000 a producer, and as many more before a pass.
    expect(acks0(bounded).length).toBeLessThanOrEqual(2 * LEDGER_ACKS0_KEPT);
    expect(acks0(bounded).length + bounded.sim.recordMemory().acks0Dropped).toBe(acks0(free).length);
    expect(bounded.sim.acks0Dropped()).toEqual(new Map([['f', bounded.sim.recordMemory().acks0Dropped]]));
    // Those kept are the newest, as the unbounded run has them; the cluster's logs and events are the same.
    expect(acks0(lowered)).toEqual(acks0(free).slice(-acks0(lowered).length));
    expect(acks0(lowered).length).toBeLessThanOrEqual(600);
    expect(lowered.sim.events()).toEqual(free.sim.events());
    const hw = (d: ReturnType<typeof run>) => d.sim.snapshot().partitions.map((p) => p.highWatermark);
    expect(hw(lowered)).toEqual(hw(free));
    expect(LEDGER_ACKS0_KEPT).toBe(1000);
  });

  it("share the record trail's budget across partitions", () => {
    expect(trailRing(10)).toBe(TRAIL_RING);
    expect(trailRing(2000)).toBe(Math.floor(TRAIL_BUDGET / 2000));
    const run = (budget?: number) => {
      const d = cluster({
        seed: 7,
        topics: [{ name: 'wide', partitions: 50, replicationFactor: 3 }],
      }).settle();
      if (budget) d.memoryLimits({ trailBudget: budget });
      return d
        .do({
          type: 'startProducer',
          producerId: 'w',
          topic: 'wide',
          ratePerSec: 2000,
          keyPattern: 'k{n}',
          keyCount: 500,
        })
        .advance(40_000);
    };
    const free = run();
    const bounded = run(6400);
    // 50 partitions of `wide` and 3 of __consumer_offsets share 6,400: 120 entries of each kind apiece.
    const partitions = 53;
    expect(free.sim.recordMemory().trailEntries).toBeGreaterThan(4 * 6400);
    expect(bounded.sim.recordMemory().trailEntries).toBeLessThanOrEqual(2 * 2 * 6400);
    expect(bounded.sim.recordMemory().trailEntries).toBeGreaterThan(partitions);
    // A recent record's journey still has every stage.
    const id = bounded.sim.ledger().at(-3000)!.recordId;
    const kinds = (d: typeof free) => d.sim.recordJourney(id)!.stages.map((s) => s.kind);
    expect(kinds(bounded)).toEqual(kinds(free));
    expect(kinds(bounded)).toContain('highWatermark');
    expect(bounded.sim.stateHash()).toBe(free.sim.stateHash());
  });

  it('let the invariant monitor forget the record ids that retention or the ceiling removed', () => {
    const run = (ceiling?: number) => {
      const d = cluster({
        seed: 3,
        config: { 'log.retention.check.interval.ms': 10_000 },
        topics: [{ name: 'load', partitions: 3, replicationFactor: 3, config: { 'retention.ms': 20_000 } }],
      }).settle();
      if (ceiling) d.recordCeiling(ceiling);
      d.do({ type: 'startProducer', producerId: 'p', topic: 'load', ratePerSec: 1000, keyPattern: 'k{n}' });
      const monitor = new InvariantMonitor();
      for (let s = 0; s < 60; s++) {
        d.advance(1000);
        monitor.observe(d.sim);
      }
      return { d, monitor };
    };
    for (const { d, monitor } of [run(), run(9000)]) {
      expect(monitor.violations).toEqual([]);
      // Held: the records of the leaders' logs (a third of every replica's), twice at most (pruned by halves).
      const leaders = d.sim.recordMemory().held / 3;
      expect(monitor.committedIdsHeld).toBeLessThanOrEqual(2 * leaders + 3 * 1024);
      expect(monitor.committedIdsHeld).toBeLessThan(40_000);
    }
  });

  it('a monitor started late on a run whose first events were dropped checks from then on', () => {
    const d = outage(scene({ ...UNBOUNDED, events: 300 }));
    d.restart(2).restart(3).restart(4).advance(10_000);
    const first = d.sim.events()[0]!.seq;
    expect(first).toBe(d.sim.eventsDropped());
    expect(first).toBeGreaterThan(0);
    const monitor = new InvariantMonitor();
    monitor.observe(d.sim);
    d.advance(5000);
    monitor.observe(d.sim);
    expect(monitor.missedEvents).toBe(first);
    expect(monitor.violations).toEqual([]);
  });
});
