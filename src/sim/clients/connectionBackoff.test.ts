import { describe, expect, it } from 'vitest';
import { createSimulation } from '../index';
import { presets } from '../../scenario/presets';
import { Driver } from '../testing/driver';
import { seedRng } from '../kernel/rng';
import type { World } from '../model/world';
import { exponentialBackoffBoundMs, exponentialBackoffMs } from './connectionBackoff';

describe('ExponentialBackoff as Kafka computes it (reconnect.backoff.ms 50, reconnect.backoff.max.ms 1000)', () => {
  for (const seed of [1, 2, 3]) {
    it(`doubles from 50 ms, ±20%, and never goes above the maximum (seed ${seed})`, () => {
      const w = { rng: seedRng(seed) } as unknown as World;
      const nominal = [50, 100, 200, 400, 800, 1000, 1000, 1000];
      for (const [attempts, n] of nominal.entries()) {
        for (let i = 0; i < 200; i++) {
          const ms = exponentialBackoffMs(w, 50, 1000, attempts);
          expect(Number.isInteger(ms)).toBe(true);
          expect(ms).toBeGreaterThanOrEqual(Math.floor(n * 0.8));
          expect(ms).toBeLessThanOrEqual(Math.min(1000, n * 1.2));
          expect(ms).toBeLessThanOrEqual(exponentialBackoffBoundMs(50, 1000, attempts));
        }
      }
    });
  }

  it('is the initial backoff, without jitter, when the maximum is not above it', () => {
    const w = { rng: seedRng(1) } as unknown as World;
    expect(exponentialBackoffMs(w, 100, 100, 5)).toBe(100);
    expect(exponentialBackoffMs(w, 500, 200, 0)).toBe(200);
  });
});

/** Three-brokers (seed 7), settled, with a producer of acks=1 at 200 records a second. */
function loaded(): Driver {
  const d = new Driver(createSimulation(presets['three-brokers'].scenario)).advance(15_000);
  d.do({ type: 'startProducer', producerId: 'loader', topic: 'demo', ratePerSec: 200, acks: 1 });
  return d.advance(1_000);
}

/** The instants the producer sent a batch to `brokerId` from `fromMs` on, in order. */
function sendsTo(d: Driver, brokerId: number, fromMs: number): number[] {
  const at = new Set<number>();
  for (const e of d.sim.ledger())
    for (const a of e.attempts) if (a.brokerId === brokerId && a.atMs >= fromMs) at.add(a.atMs);
  return [...at].sort((a, b) => a - b);
}

describe('when a partition leader crashes under a producer (three-brokers, seed 7)', () => {
  it('the producer tries it again after 50, 100, 200, 400, 800 ms, then about once a second, not at every retry', () => {
    const d = loaded();
    const crashAt = d.sim.nowMs;
    d.crash(3);
    // Until the controller fences broker 3 (broker.session.timeout.ms, 9 s), the producer's metadata
    // still names it the leader of its partitions.
    d.advance(8_000);
    const sends = sendsTo(d, 3, crashAt + 1);
    const gaps = sends.slice(1).map((t, i) => t - sends[i]!);
    // One request at a time, each after the last one's Disconnected answer and the backoff (a few
    // ms of round trip on top); before the backoff, it got 3,159 requests in these 8 s.
    expect(sends.length).toBeLessThan(16);
    expect(gaps.slice(0, 4).every((g, i) => g >= 0.8 * 50 * 2 ** i)).toBe(true);
    expect(gaps.slice(0, 4).every((g, i) => g <= 1.2 * 50 * 2 ** i + 20)).toBe(true);
    for (const g of gaps.slice(5)) {
      expect(g).toBeGreaterThanOrEqual(800);
      expect(g).toBeLessThanOrEqual(1000 + 20);
    }
  });

  it('the broker that comes back is used again: its backoff is forgotten at its first answer and the waiting records are acknowledged', () => {
    const d = loaded();
    d.crash(3);
    d.advance(3_000);
    expect(d.connectionBackoff('loader', 3)?.failures).toBeGreaterThan(3);
    const restartAt = d.sim.nowMs;
    d.restart(3);
    d.advance(10_000);
    expect(d.connectionBackoff('loader', 3)).toBeNull();
    const fromBroker3 = d.sim
      .ledger()
      .filter((e) => e.attempts.some((a) => a.brokerId === 3 && a.atMs > restartAt));
    expect(fromBroker3.length).toBeGreaterThan(0);
    expect(fromBroker3.every((e) => e.status === 'acked')).toBe(true);
  });
});

describe('when every broker is down under a producer with acks=1 for 90 s (three-brokers, seed 7)', () => {
  it('the cost of a simulated second does not grow with the backlog: few requests, reads per partition', () => {
    const d = loaded();
    for (const nodeId of [2, 3, 4]) d.crash(nodeId);
    d.senderWork(true);
    const reads: number[] = [];
    const scheduled: number[] = [];
    for (let window = 0; window < 9; window++) {
      const before = d.scheduled();
      d.advance(10_000);
      scheduled.push(d.scheduled() - before);
      reads.push(d.senderWork(true).read);
    }
    // The backlog grows by 200 records a second (18,000 waiting at the end)...
    expect(d.sim.snapshot().clients.producers.find((p) => p.id === 'loader')!.pending).toBeGreaterThan(
      17_000,
    );
    // ...while messages and timers stay at a few hundred a second (41,000 to 73,500 per 10 s before
    // the reconnect backoff, each retried batch one Produce and its Disconnected answer)...
    for (const [i, n] of scheduled.entries())
      expect(n, `simulated seconds ${i * 10}-${i * 10 + 10}`).toBeLessThan(8_000);
    // ...and the Sender reads a waiting record a few times a window, not hundreds (26 million reads
    // in the first 10 s before, 171 million in the ninth; 62,000-84,000 since a batch backs off as
    // one, so that its records are retried together).
    expect(Math.max(...reads)).toBeLessThan(5 * 18_000);
    expect(Math.max(...reads.slice(5))).toBeLessThan(3 * reads[1]!);
  });
});
