import { describe, expect, it } from 'vitest';
import { cluster } from '../testing/driver';
import { CEILING_CHECK_EVERY } from './recordCeiling';

// Controller 1, brokers 2, 3, 4; `load` has 3 partitions of RF 3; a producer at 1,000 records/s and
// a group reading at the head. Seeded: every run is the same.
const CEILING = 9_000;
const scene = (ceiling?: number) => {
  const d = cluster({
    seed: 3,
    config: { 'log.retention.check.interval.ms': 10_000 },
    topics: [
      {
        name: 'load',
        partitions: 3,
        replicationFactor: 3,
        config: { 'min.insync.replicas': 2, 'retention.ms': 40_000 },
      },
    ],
  }).settle();
  if (ceiling) d.recordCeiling(ceiling);
  return d
    .do({
      type: 'startProducer',
      producerId: 'p',
      topic: 'load',
      ratePerSec: 1000,
      keyPattern: 'k{n}',
      keyCount: 50,
    })
    .do({ type: 'startConsumer', consumerId: 'c', groupId: 'g', topics: ['load'] });
};
const offsets = (d: ReturnType<typeof scene>) =>
  d.sim.snapshot().partitions.map((p) => ({
    tp: `${p.topic}-${p.partition}`,
    hw: p.highWatermark,
    logs: p.replicaLogs.map((r) => [r.brokerId, r.logEndOffset, r.highWatermark]),
  }));
const logStarts = (d: ReturnType<typeof scene>) =>
  [0, 1, 2].map((p) => d.sim.partitionLog('load', p, 0, 1)!.replicas.map((r) => r.logStartOffset));
// The event log without the ceiling's own events, and without seq (they shift the numbering).
const story = (d: ReturnType<typeof scene>) =>
  d.sim
    .events()
    .filter((e) => e.type !== 'RecordCeilingNear' && e.type !== 'RecordsForgotten')
    .map((e) => `${e.timeMs} ${e.type} ${e.message}`);

describe('when a long run at a high rate reaches the record ceiling', () => {
  const bounded = scene(CEILING).advance(60_000);
  const unbounded = scene().advance(60_000);

  it('holds no more records than the ceiling allows, and prunes the ledger with them', () => {
    const m = bounded.sim.recordMemory();
    const free = unbounded.sim.recordMemory();
    // retention.ms 40 s at 1,000 records/s on three replicas: some 120,000 records held without a ceiling.
    expect(free.held).toBeGreaterThan(100_000);
    expect(free.forgotten).toBe(0);
    // With one: at most the records sent between two checks over it (each on three replicas).
    expect(m.held).toBeLessThanOrEqual(CEILING + 3 * CEILING_CHECK_EVERY);
    expect(m.forgotten).toBeGreaterThan(100_000);
    expect(m.ledgerEntries).toBeLessThan(CEILING);
    expect(free.ledgerEntries).toBeGreaterThan(30_000);
  });

  it('says so: a warning near the ceiling, then each forgetting pass with its counts', () => {
    const near = bounded.sim.events().filter((e) => e.type === 'RecordCeilingNear');
    expect(near).toHaveLength(1);
    expect(near[0]!.message).toContain(`near its ceiling of ${CEILING}`);
    const passes = bounded.sim.events().filter((e) => e.type === 'RecordsForgotten');
    expect(passes.length).toBe(bounded.sim.recordMemory().passes);
    expect(passes[0]!.message).toMatch(/forgot \d+ of the oldest, below the high watermark, in 3 partitions/);
    expect(passes[0]!.timeMs).toBeGreaterThanOrEqual(near[0]!.timeMs);
    expect(passes[0]!.seq).toBeGreaterThan(near[0]!.seq);
  });

  it('answers offsets, HW, LEO and retention as before, and tells the same story', () => {
    expect(offsets(bounded)).toEqual(offsets(unbounded));
    expect(story(bounded)).toEqual(story(unbounded));
    expect(bounded.sim.lostAcknowledged()).toEqual([]);
    // Retention goes on deleting: by segment among the forgotten records (each a pass's share).
    const starts = logStarts(bounded);
    const before = logStarts(unbounded);
    starts.forEach((replicas, p) =>
      replicas.forEach((start, i) => {
        expect(start).toBeGreaterThan(0);
        expect(start).toBeLessThanOrEqual(before[p]![i]!);
      }),
    );
    const group = (d: ReturnType<typeof scene>) =>
      d.sim.snapshot().clients.groups.find((g) => g.groupId === 'g')!;
    expect(group(bounded).recordsConsumed).toBe(group(unbounded).recordsConsumed);
  });

  it('shows the forgotten offsets in the partition log, and a late reader skips to the first record held', () => {
    const view = bounded.sim.partitionLog('load', 0, 0, 10)!;
    for (const r of view.replicas) {
      expect(r.forgottenBelow).toBeGreaterThan(r.logStartOffset);
      expect(r.records).toEqual([]);
    }
    const first = view.replicas[0]!.forgottenBelow!;
    const at = bounded.sim.partitionLog('load', 0, first, 3)!;
    expect(at.replicas[0]!.records.map((r) => r.offset)).toEqual([first, first + 1, first + 2]);

    const late = bounded.fork();
    late
      .do({ type: 'stopProducer', producerId: 'p' })
      .do({
        type: 'startConsumer',
        consumerId: 'late',
        groupId: 'late',
        topics: ['load'],
        config: { 'auto.offset.reset': 'earliest' },
      })
      .advance(15_000);
    const g = late.sim.snapshot().clients.groups.find((x) => x.groupId === 'late')!;
    const hw = late.sim.snapshot().partitions.filter((p) => p.topic === 'load');
    expect(g.recordsConsumed).toBeGreaterThan(0);
    // It read to the end of each partition, without the forgotten records.
    expect(g.totalLag).toBe(0);
    const held = hw.map((p) => {
      const leader = late.sim
        .partitionLog('load', p.partition, 0, 1)!
        .replicas.find((r) => r.role === 'leader')!;
      return p.highWatermark - (leader.forgottenBelow ?? leader.logStartOffset);
    });
    expect(g.recordsConsumed).toBe(held.reduce((n, x) => n + x, 0));
  });
});

describe('when a broker stopped for a while restarts behind the records its leaders forgot', () => {
  it('skips them too, catches up and rejoins the ISR', () => {
    const d = scene(CEILING).advance(5_000).shutdown(4).advance(15_000);
    const leaderStart = (p: number) =>
      d.sim.partitionLog('load', p, 0, 1)!.replicas.find((r) => r.role === 'leader')!.forgottenBelow!;
    const behind = d.sim
      .snapshot()
      .partitions.filter((p) => p.topic === 'load')
      .filter((p) => p.replicaLogs.find((r) => r.brokerId === 4)!.logEndOffset < leaderStart(p.partition));
    expect(behind.length).toBeGreaterThan(0);
    d.restart(4).advance(20_000);
    for (const p of d.sim.snapshot().partitions.filter((x) => x.topic === 'load')) {
      expect(p.isr).toContain(4);
      const leo = p.replicaLogs.map((r) => r.logEndOffset);
      expect(new Set(leo).size).toBe(1);
    }
    expect(d.sim.lostAcknowledged()).toEqual([]);
  });
});
