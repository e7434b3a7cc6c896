import { describe, expect, it } from 'vitest';
import type { PartitionView, SimEvent, Snapshot } from '../sim/types';
import { formatSimTime, selectPartitionRows, selectRecentEvents } from './selectors';

function partition(topic: string, index: number, leader: number, highWatermark = 0): PartitionView {
  return {
    topic,
    partition: index,
    replicas: [4, 5, 6],
    leader,
    leaderEpoch: 0,
    isr: leader === -1 ? [] : [4, 5],
    elr: [],
    highWatermark,
    replicaLogs: [],
  };
}

function snapshotWith(partitions: PartitionView[]): Snapshot {
  return {
    timeMs: 0,
    nodes: [],
    quorum: { leaderId: null, epoch: 0, highWatermark: 0, voters: [] },
    topics: [],
    partitions,
    network: { latencyMs: 2, cuts: [], inFlight: 0 },
    clients: { producers: [], consumers: [], groups: [] },
  };
}

describe('selectPartitionRows', () => {
  it('has no rows before the first snapshot', () => {
    expect(selectPartitionRows(null)).toEqual([]);
  });

  it('orders rows by topic then partition and lists brokers', () => {
    const rows = selectPartitionRows(
      snapshotWith([partition('orders', 1, 5, 7), partition('audit', 0, 4), partition('orders', 0, 4, 3)]),
    );
    expect(rows.map((row) => row.key)).toEqual(['audit-0', 'orders-0', 'orders-1']);
    expect(rows[2]).toEqual({
      key: 'orders-1',
      topic: 'orders',
      partition: 1,
      leader: '5',
      offline: false,
      replicas: '4, 5, 6',
      isr: '4, 5',
      highWatermark: 7,
    });
  });

  it('shows a partition without a leader as offline', () => {
    const [row] = selectPartitionRows(snapshotWith([partition('orders', 0, -1)]));
    expect(row.leader).toBe('none (offline)');
    expect(row.offline).toBe(true);
    expect(row.isr).toBe('');
  });
});

describe('selectRecentEvents', () => {
  const events: SimEvent[] = Array.from({ length: 30 }, (_, seq) => ({
    seq,
    timeMs: seq * 1000,
    type: 'LeaderElected',
    message: `event ${seq}`,
  }));

  it('keeps the latest events, newest first', () => {
    const rows = selectRecentEvents(events);
    expect(rows).toHaveLength(20);
    expect(rows[0]).toEqual({ seq: 29, time: '29.0 s', type: 'LeaderElected', message: 'event 29' });
    expect(rows[19].seq).toBe(10);
  });
});

describe('formatSimTime', () => {
  it('shows seconds with one decimal, never ahead of the clock', () => {
    expect(formatSimTime(0)).toBe('0.0 s');
    expect(formatSimTime(12_345)).toBe('12.3 s');
    expect(formatSimTime(12_399)).toBe('12.3 s');
  });
});
