import { assert, describe, expect, it } from 'vitest';
import { capacityPlan, SEED_EXAMPLE } from '../scenario';
import type { MetricsSample } from '../sim/types';
import type { PartitionView, Snapshot } from '../sim/types';
import {
  capacityFormOf,
  capacityInputOf,
  capacityView,
  formatBytes,
  selectBudgetRows,
  selectNoToleranceTopics,
  selectViolationRows,
  selectVitalCharts,
} from './vitals';

function sample(second: number, fields: Partial<MetricsSample> = {}): MetricsSample {
  return {
    timeMs: second * 1000,
    offlinePartitions: 0,
    underReplicatedPartitions: 0,
    underMinIsrPartitions: 0,
    reassigningPartitions: 0,
    isrShrinksPerSec: 0,
    isrExpandsPerSec: 0,
    leaderElectionsPerSec: 0,
    controllerElections: 0,
    produceErrors: {},
    produce: {},
    consumerLag: {},
    brokers: [
      { nodeId: 4, bytesInPerSec: 1000, bytesOutPerSec: 2000, metadataLag: 0 },
      { nodeId: 5, bytesInPerSec: 3000, bytesOutPerSec: 500, metadataLag: 2 },
    ],
    ...fields,
  };
}

function partition(
  topic: string,
  index: number,
  isr: number[],
  budget: PartitionView['budget'],
): PartitionView {
  return {
    topic,
    partition: index,
    replicas: [4, 5, 6],
    leader: isr[0] ?? -1,
    leaderEpoch: 0,
    isr,
    elr: [],
    highWatermark: 0,
    replicaLogs: [],
    budget,
  };
}

function snapshotWith(partitions: PartitionView[], topics: Snapshot['topics'] = []): Snapshot {
  return {
    timeMs: 0,
    nodes: [],
    quorum: { leaderId: null, epoch: 0, highWatermark: 0, voters: [] },
    topics,
    partitions,
    network: { latencyMs: 2, cuts: [], inFlight: 0 },
    clients: { producers: [], consumers: [], groups: [], deliveries: [], processors: [] },
  };
}

const budget = (nrr: number, offline: number, noTolerance = false) => ({
  beforeNotEnoughReplicas: nrr,
  beforeOffline: offline,
  noTolerance,
  note: 'words',
});

describe('the vital-sign charts', () => {
  it('have a title and a summary even before the first sample', () => {
    const charts = selectVitalCharts([]);
    expect(charts.map((c) => c.title)).toEqual([
      'Offline partitions',
      'Under-replicated partitions',
      'Under min ISR partitions',
      'ISR shrinks and expands',
      'Produce throughput by acks',
      'Produce latency by acks',
      'Consumer lag',
      'Controller elections',
      'Metadata lag',
      'Bytes in and out',
    ]);
    expect(charts[0]?.summary).toBe('Offline partitions: no samples yet.');
  });

  it('summarise the value now and the maximum over the window', () => {
    const samples = [3, 6, 2].map((n, i) => sample(i + 1, { underReplicatedPartitions: n }));
    const under = selectVitalCharts(samples).find((c) => c.id === 'under-replicated')!;
    expect(under.summary).toBe('Under-replicated partitions: now 2, max 6 over the last 3 s.');
    expect(under.max).toBe(6);
    expect(under.fromMs).toBe(1000);
    expect(under.toMs).toBe(3000);
  });

  it('keep only the last window of samples', () => {
    const samples = Array.from({ length: 200 }, (_, i) =>
      sample(i + 1, { offlinePartitions: i < 100 ? 9 : 1 }),
    );
    const [offline] = selectVitalCharts(samples, 100);
    assert(offline, 'the offline-partitions chart');
    expect(offline.series[0]?.values).toHaveLength(100);
    expect(offline.summary).toBe('Offline partitions: now 1, max 1 over the last 100 s.');
  });

  it('draw a line per acks setting seen, with gaps where nothing was acknowledged', () => {
    const samples = [
      sample(1, { produce: { all: { acked: 10, p50Ms: 4, p99Ms: 9, maxMs: 12 } } }),
      sample(2),
      sample(3, {
        produce: {
          all: { acked: 5, p50Ms: 6, p99Ms: 7, maxMs: 7 },
          1: { acked: 2, p50Ms: 2, p99Ms: 3, maxMs: 3 },
        },
      }),
    ];
    const charts = selectVitalCharts(samples);
    const throughput = charts.find((c) => c.id === 'throughput')!;
    expect(throughput.series.map((s) => s.label)).toEqual(['acks=all', 'acks=1']);
    expect(throughput.series[0]?.values).toEqual([10, 0, 5]);
    const latency = charts.find((c) => c.id === 'latency')!;
    expect(latency.series.map((s) => s.label)).toEqual([
      'acks=all p50',
      'acks=all p99',
      'acks=1 p50',
      'acks=1 p99',
    ]);
    expect(latency.series[1]?.values).toEqual([9, null, 7]);
    expect(latency.summary).toContain('acks=all p99 now 7 ms, max 9 ms');
    // Series differ by dash pattern, not by colour alone.
    expect(new Set(latency.series.map((s) => s.dash)).size).toBe(4);
  });

  it('draw a line per consumer group seen, with gaps where no coordinator held the group', () => {
    const samples = [
      sample(1, { consumerLag: { orders: 40 } }),
      sample(2, { consumerLag: { audit: 7, orders: 90 } }),
      sample(3, { consumerLag: { audit: 3 } }),
    ];
    const lag = selectVitalCharts(samples).find((c) => c.id === 'consumer-lag')!;
    expect(lag.series.map((s) => s.label)).toEqual(['audit', 'orders']);
    expect(lag.series.map((s) => s.values)).toEqual([
      [null, 7, 3],
      [40, 90, null],
    ]);
    expect(lag.summary).toBe('Consumer lag over the last 3 s: audit now 3, max 7; orders now none, max 90.');
    const none = selectVitalCharts([sample(1)]).find((c) => c.id === 'consumer-lag')!;
    expect(none.series).toEqual([]);
    expect(none.emptyText).toBe('No consumer group in this window.');
  });

  it('sum bytes over brokers, take the worst metadata lag and name the busiest broker', () => {
    const charts = selectVitalCharts([sample(1)]);
    const bytes = charts.find((c) => c.id === 'bytes')!;
    expect(bytes.series.map((s) => s.values)).toEqual([[4000], [2500]]);
    expect(bytes.summary).toBe(
      'Bytes in and out over the last 1 s: in now 4 kB/s, max 4 kB/s; out now 2.5 kB/s, max 2.5 kB/s. Busiest broker now: 5, 3 kB/s in, 500 B/s out.',
    );
    expect(charts.find((c) => c.id === 'metadata-lag')!.series[0]?.values).toEqual([2]);
  });
});

describe('the failure budget', () => {
  it('lists the users’ partitions in order, without internal topics', () => {
    const rows = selectBudgetRows(
      snapshotWith([
        partition('orders', 1, [4, 5], budget(0, 1)),
        partition('__consumer_offsets', 0, [4], budget(0, 0)),
        partition('orders', 0, [4, 5, 6], budget(1, 2)),
      ]),
    );
    expect(rows.map((r) => [r.key, r.isr, r.beforeNotEnoughReplicas, r.beforeOffline])).toEqual([
      ['orders-0', 3, 1, 2],
      ['orders-1', 2, 0, 1],
    ]);
  });

  it('warns of topics where min.insync.replicas equals the replication factor', () => {
    const snapshot = snapshotWith(
      [
        partition('payments', 0, [4, 5, 6], budget(0, 2, true)),
        partition('orders', 0, [4, 5, 6], budget(1, 2)),
      ],
      [
        {
          name: 'orders',
          topicId: 'Lz5ahG9qQ1Cq7xRBZgd9jA',
          partitions: 1,
          replicationFactor: 3,
          config: { 'min.insync.replicas': 2 },
        },
        {
          name: 'payments',
          topicId: 'p2dJ0uGwR6u2L8wq0Xh1hw',
          partitions: 1,
          replicationFactor: 3,
          config: { 'min.insync.replicas': 3 },
        },
      ],
    );
    expect(selectNoToleranceTopics(snapshot)).toEqual([
      { topic: 'payments', minInsyncReplicas: 3, replicationFactor: 3 },
    ]);
    expect(selectNoToleranceTopics(null)).toEqual([]);
  });
});

describe('the live invariants', () => {
  it('list violations newest first, with their time and place', () => {
    const rows = selectViolationRows([
      {
        invariant: 'leader-in-isr',
        message: 'leader 4 not in ISR',
        topic: 'orders',
        partition: 0,
        timeMs: 12_000,
      },
      { invariant: 'metadata-applied-in-order', message: 'went back', nodeId: 5, timeMs: 15_500 },
    ]);
    expect(rows.map((r) => [r.time, r.where, r.invariant])).toEqual([
      ['15.5 s', 'node 5', 'metadata-applied-in-order'],
      ['12.0 s', 'orders-0', 'leader-in-isr'],
    ]);
  });
});

describe('the capacity view', () => {
  it('reproduces the seed example: 77.76 TB over six brokers', () => {
    const form = capacityFormOf(SEED_EXAMPLE);
    expect(form).toEqual({
      writeMBPerSec: 100,
      retentionDays: 3,
      replicationFactor: 3,
      consumerGroups: 10,
      brokers: 6,
    });
    const view = capacityView(capacityPlan(capacityInputOf(form)));
    expect(view).toMatchObject({
      storageTotal: '77.76 TB',
      storagePerBroker: '12.96 TB',
      networkInPerBroker: '50 MB/s',
      networkOutPerBroker: '200 MB/s',
    });
    expect(view.explanation[0]).toContain('77.76 TB');
  });

  it('formats bytes in decimal units', () => {
    expect([0, 999, 1500, 2e6, 1.2e9].map(formatBytes)).toEqual(['0 B', '999 B', '1.5 kB', '2 MB', '1.2 GB']);
  });
});
