import { describe, expect, it } from 'vitest';
import { createSimulation } from '../index';
import { presets } from '../../scenario/presets';
import { Driver } from '../testing/driver';

// The default preset: producer-1 writes 5 keyed records/s (20 keys) to orders, RF 3, on 9 brokers.
describe('when every replica of a partition is down under a keyed producer (default preset, seed 42)', () => {
  function offline(): { d: Driver; replicas: number[] } {
    const d = new Driver(createSimulation(presets.default.scenario)).advance(15_000);
    const replicas = d.partition('orders', 0).replicas;
    for (const id of replicas) d.crash(id);
    d.advance(12_000); // fenced (broker.session.timeout.ms): the partition has no leader
    expect(d.partition('orders', 0).leader).toBe(-1);
    return { d, replicas };
  }

  it('the producer asks for metadata about once a second, not once a round trip (Metadata.timeToAllowUpdate)', () => {
    const { d } = offline();
    // Each answer still names no leader, so the next request backs off further: retry.backoff.ms
    // 100 doubling to retry.backoff.max.ms 1,000 (before: about 200 requests a simulated second).
    const requests = d.countSent('Metadata', 'producer-1', 10_000);
    expect(requests).toBeGreaterThanOrEqual(8);
    expect(requests).toBeLessThanOrEqual(13);
  });

  it('so does a consumer fetching the partition (the same Metadata class in Kafka)', () => {
    const { d } = offline();
    // Before: every retry.backoff.ms, 100 requests in 10 s.
    const requests =
      d.countSent('Metadata', 'consumer-1', 10_000) + d.countSent('Metadata', 'consumer-2', 10_000);
    expect(requests).toBeGreaterThanOrEqual(16);
    expect(requests).toBeLessThanOrEqual(26);
  });

  it('the replicas back, the producer learns the new leader within about a second', () => {
    const { d, replicas } = offline();
    for (const id of replicas) d.restart(id);
    d.until((x) => x.partition('orders', 0).leader >= 0, 30_000);
    const electedAt = d.sim.nowMs;
    const leader = d.partition('orders', 0).leader;
    d.advance(3_000);
    // Records for partition 0 waited in the accumulator; they go to the new leader soon after.
    const sends = d.sim
      .ledger()
      .flatMap((e) => (e.partition === 0 ? e.attempts : []))
      .filter((a) => a.brokerId === leader && a.atMs >= electedAt)
      .map((a) => a.atMs);
    expect(sends.length).toBeGreaterThan(0);
    expect(Math.min(...sends) - electedAt).toBeLessThan(1_300);
  });
});
