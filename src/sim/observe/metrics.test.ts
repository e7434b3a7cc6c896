import { describe, expect, it } from 'vitest';
import { cluster } from '../testing/driver';
import type { StartConsumer } from '../model/types';

// Controller 1, brokers 2, 3, 4; orders has 6 partitions; a producer at 50 records/s throughout.
const ordersWithProducer = (seed: number) => {
  const d = cluster({
    seed,
    config: { 'offsets.topic.num.partitions': 3 },
    topics: [{ name: 'orders', partitions: 6, replicationFactor: 3, config: { 'min.insync.replicas': 2 } }],
  }).settle();
  d.do({ type: 'startProducer', producerId: 'p', topic: 'orders', ratePerSec: 50, keyPattern: 'k{n}' });
  return d;
};

const startConsumer = (consumerId: string): StartConsumer => ({
  type: 'startConsumer',
  consumerId,
  groupId: 'g',
  topics: ['orders'],
  config: { 'auto.offset.reset': 'earliest' },
});

describe('consumer lag in the metrics (seed 11)', () => {
  it('rises while the group has stopped consuming and the producer goes on, and falls once it resumes', () => {
    const d = ordersWithProducer(11);
    d.do(startConsumer('c1')).advance(15000);
    const lagOf = () => d.sim.metrics().map((s) => s.consumerLag.g);
    const caughtUp = lagOf().at(-1)!;
    // A consumer with auto-commit every 5 s keeps up with 50 records/s: less than 10 s of records behind.
    expect(caughtUp).toBeLessThan(500);

    // The group's only member leaves (commits, LeaveGroup): the group is Empty, its offsets stay.
    d.do({ type: 'stopConsumer', consumerId: 'c1' }).advance(1000);
    const stoppedAt = d.sim.metrics().length;
    d.advance(20000);
    const whileStopped = lagOf().slice(stoppedAt);
    expect(whileStopped.every((lag) => lag !== undefined)).toBe(true);
    // Nothing commits any more: every second adds the second's records (50) to the lag.
    for (let i = 1; i < whileStopped.length; i++)
      expect(whileStopped[i]!).toBeGreaterThan(whileStopped[i - 1]!);
    const peak = whileStopped.at(-1)!;
    expect(peak - whileStopped[0]!).toBeGreaterThan(900);
    expect(d.sim.snapshot().clients.groups.find((g) => g.groupId === 'g')!.state).toBe('Empty');

    d.do(startConsumer('c2')).advance(30000);
    // The new member starts from the committed offsets and catches up: the lag falls back to a sawtooth.
    const resumed = lagOf().slice(-30);
    expect(Math.min(...resumed.map((lag) => lag ?? NaN))).toBeLessThan(peak / 4);
    expect(resumed.at(-1)!).toBeLessThan(500);
  });

  it('counts as the snapshot does: the sample equals the group total lag taken at the same simulated second', () => {
    const d = ordersWithProducer(12);
    d.do(startConsumer('c1')).advance(10000);
    d.do({ type: 'stopConsumer', consumerId: 'c1' });
    // Advance to just after a sample so no record is acknowledged between the sample and the snapshot.
    d.advance(5000 - (d.sim.nowMs % 1000));
    const last = d.sim.metrics().at(-1)!;
    expect(last.timeMs).toBe(d.sim.nowMs);
    const group = d.sim.snapshot().clients.groups.find((g) => g.groupId === 'g')!;
    expect(last.consumerLag).toEqual({ g: group.totalLag });
    expect(group.totalLag).toBeGreaterThan(0);
  });
});

describe('bytes out (BytesOutPerSec)', () => {
  it('counts what consumers fetch from the leader, as Kafka counts every fetch response', () => {
    // RF 1: broker 2 has no followers, so what it sends is what consumers (and the group's commits) read.
    const d = cluster({
      seed: 13,
      config: { 'offsets.topic.num.partitions': 1 },
      topics: [{ name: 'logs', partitions: 1, replicationFactor: 1, assignment: [[2]] }],
    }).settle();
    const value = 'x'.repeat(1000);
    for (let i = 0; i < 20; i++) d.produce('logs', value, 1);
    d.advance(2000);
    const sentBy2 = () =>
      d.sim.metrics().reduce((n, s) => n + s.brokers.find((b) => b.nodeId === 2)!.bytesOutPerSec, 0);
    const before = sentBy2();
    d.startConsumer('c', 'g', ['logs'], { 'auto.offset.reset': 'earliest' });
    d.until((x) => x.sim.consumedRecords('g').length === 20, 30000).advance(2000);
    expect(sentBy2() - before).toBeGreaterThanOrEqual(20 * (70 + value.length));
  });
});
