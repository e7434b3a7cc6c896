import { describe, expect, it } from 'vitest';
import type { MirrorView, Snapshot } from '../sim/types';
import { selectRegions } from './regions';

const mirror: MirrorView = {
  primaryRegion: 'eu-west-1',
  standbyRegion: 'eu-central-1',
  topics: ['orders'],
  crossRegionLatencyMs: 60,
  pollIntervalMs: 500,
  acks: 'all',
  standby: {
    nodes: [
      { id: 11, roles: ['controller'], rack: null, alive: true, fenced: false },
      { id: 12, roles: ['broker'], rack: 'zone-a', alive: true, fenced: false },
    ],
    controllerId: 11,
    partitions: [{ topic: 'orders', partition: 0, replicas: [12], leader: 12, isr: [12], highWatermark: 9 }],
  },
  lag: [
    { topic: 'orders', partition: 0, sourceCommitted: 12, read: 10, mirrored: 9, lagRecords: 3, lagMs: 420 },
  ],
  regionLost: true,
  failover: {
    lostAtMs: 12_345,
    missingCount: 2,
    byStage: { 'not-read': 1, 'in-transit': 0, 'not-acknowledged-by-standby': 1 },
    missing: [
      {
        topic: 'orders',
        partition: 0,
        offset: 9,
        key: null,
        value: 'a',
        ackedAtMs: 12_000,
        stage: 'not-acknowledged-by-standby',
      },
      {
        topic: 'orders',
        partition: 0,
        offset: 10,
        key: 'k',
        value: 'b',
        ackedAtMs: 12_300,
        stage: 'not-read',
      },
    ],
    newestMirroredAckMs: -1,
    windowMs: 345,
    message: 'missing',
  },
};

const snapshot = {
  timeMs: 13_000,
  nodes: [{ id: 1, roles: ['broker', 'controller'], rack: null, state: 'crashed' }],
  mirror,
} as unknown as Snapshot;

describe('the Regions tab model', () => {
  it('is null without a mirror', () => {
    expect(selectRegions(null)).toBeNull();
    expect(selectRegions({ ...snapshot, mirror: undefined })).toBeNull();
  });

  it('shows both regions, the lag and the failover report in words', () => {
    const model = selectRegions(snapshot)!;
    expect(model.primary).toEqual({
      name: 'eu-west-1',
      role: 'primary',
      up: false,
      nodes: [{ id: 1, roles: 'broker + controller', rack: null, alive: false }],
    });
    expect(model.standby.nodes.map((n) => n.alive)).toEqual([true, true]);
    expect(model.totalLagRecords).toBe(3);
    expect(model.maxLagMs).toBe(420);
    expect(model.standbyPartitions[0]).toMatchObject({ label: 'orders-0', leader: '12', isr: '12' });
    expect(model.failover).toMatchObject({
      lostAt: '12.3 s',
      missingCount: 2,
      newestMirroredAck: null,
      stages: [
        { stage: 'not yet read by MirrorMaker', count: 1 },
        { stage: 'sent to the standby, not acknowledged there', count: 1 },
      ],
    });
    expect(model.failover!.records.map((r) => [r.recordKey, r.ackedAt])).toEqual([
      ['null', '12.0 s'],
      ['k', '12.3 s'],
    ]);
  });
});
