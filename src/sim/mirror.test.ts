import { describe, expect, it } from 'vitest';
import { createMirroredClusters } from './mirror';
import { clusterScenario } from './testing/driver';

// Primary region: controller 1, brokers 2-4 with `orders`; standby region: its own controller and brokers.
const primary = () =>
  clusterScenario({
    seed: 21,
    topics: [{ name: 'orders', partitions: 2, replicationFactor: 3, config: { 'min.insync.replicas': 2 } }],
  });
const standby = () => clusterScenario({ seed: 22 });

function run(stopAtMs: number) {
  const m = createMirroredClusters(primary(), standby(), {
    topics: ['orders'],
    crossRegionLatencyMs: 80,
    pollIntervalMs: 200,
  });
  m.advance(6000);
  // A steady stream of acks=all writes in the primary, 20 a second, until the region is lost.
  let n = 0;
  while (m.nowMs < stopAtMs) {
    m.primary.apply({ type: 'produce', topic: 'orders', key: `k${n % 7}`, value: `order-${n}`, acks: 'all' });
    n++;
    m.advance(50);
  }
  return m;
}

describe('a standby cluster in another region, fed by MirrorMaker', () => {
  it('receives the mirrored topic with a visible lag', () => {
    const m = run(12000);
    expect(m.events().map((e) => e.type)).toEqual(['MirrorStarted', 'MirrorTopicCreated']);
    const lag = m.lag();
    expect(lag.map((l) => `${l.topic}-${l.partition}`)).toEqual(['orders-0', 'orders-1']);
    const total = lag.reduce((a, l) => a + l.mirrored, 0);
    expect(total).toBeGreaterThan(80);
    // Asynchronous: the standby trails by about a poll interval plus the cross-region latency.
    expect(lag.some((l) => l.lagRecords > 0 || l.lagMs > 0)).toBe(true);
    expect(Math.max(...lag.map((l) => l.lagMs))).toBeLessThan(1000);
    const standbyOrders =
      m.standby.committedRecords('orders', 0).length + m.standby.committedRecords('orders', 1).length;
    expect(standbyOrders).toBe(total);
    // The standby is a cluster of its own: its own controller and metadata.
    expect(m.standby.snapshot().topics.map((t) => t.name)).toEqual(['orders']);
  });

  it('after losing the first region, the records acknowledged there but not yet mirrored are reported missing', () => {
    const m = run(12000);
    m.loseRegion();
    expect(m.primary.snapshot().nodes.every((n) => n.state === 'crashed')).toBe(true);
    m.advance(5000);
    const report = m.failoverReport();
    expect(report.missing.length).toBeGreaterThan(0);
    // Only the last moments before the loss are missing, and they are the newest acknowledged records.
    expect(report.windowMs).toBeLessThan(1000);
    const acked = m.primary.ledger().filter((e) => e.status === 'acked');
    const missingValues = new Set(report.missing.map((r) => r.value));
    const oldestMissing = Math.min(...report.missing.map((r) => r.ackedAtMs));
    for (const e of acked) expect(missingValues.has(e.value)).toBe(e.ackedAtMs! >= oldestMissing);
    expect(report.newestMirroredAckMs).toBeLessThan(report.lostAtMs);
    expect(report.message).toContain('missing');
    // Everything else is in the standby, readable there.
    const inStandby = new Set(
      [0, 1].flatMap((p) => m.standby.committedRecords('orders', p).map((r) => r.value)),
    );
    for (const e of acked) expect(inStandby.has(e.value)).toBe(!missingValues.has(e.value));
  });

  it('replays exactly (seeds 21 and 22)', () => {
    const a = run(9000).loseRegion().advance(2000);
    const b = run(9000).loseRegion().advance(2000);
    expect(a.stateHash()).toBe(b.stateHash());
    expect(JSON.stringify(a.failoverReport())).toBe(JSON.stringify(b.failoverReport()));
  });
});
