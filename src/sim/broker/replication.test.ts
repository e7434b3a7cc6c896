import { describe, expect, it } from 'vitest';
import { cluster } from '../testing/driver';

// Controller 1, brokers 2, 3, 4; one partition of `t` on [2, 3, 4] (2 is the preferred leader).
const threeBrokers = (minIsr: number, extra: Record<string, number | boolean> = {}) =>
  cluster({
    topics: [
      {
        name: 't',
        partitions: 1,
        replicationFactor: 3,
        assignment: [[2, 3, 4]],
        config: { 'min.insync.replicas': minIsr, ...extra },
      },
    ],
  }).settle();

describe('a follower crashes (RF 3, min.insync.replicas=2, acks=all)', () => {
  it('the write waits until the broker is fenced, then succeeds, and nothing acknowledged is lost', () => {
    const d = threeBrokers(2);
    expect(d.partition('t').isr).toEqual([2, 3, 4]);
    d.crash(4).produce('t', 'v1', 'all').advance(2000);
    // The follower still counts in the ISR: the HW cannot pass the record.
    expect(d.entry('v1').status).toBe('pending');
    d.until((x) => x.entry('v1').status !== 'pending', 30000);
    const fenced = d.expectEvent('BrokerFenced', (e) => e.nodeId === 4);
    expect(fenced).toBeDefined();
    expect(d.entry('v1')).toMatchObject({ status: 'acked', offset: 0 });
    expect(d.entry('v1').ackedAtMs!).toBeGreaterThanOrEqual(fenced.timeMs);
    expect(d.partition('t').isr).toEqual([2, 3]);
    expect(d.sim.lostAcknowledged()).toEqual([]);
  });
});

describe('the leader crashes', () => {
  it('an in-sync follower leads at the next leader epoch, the retry succeeds, nothing is lost', () => {
    const d = threeBrokers(2);
    d.produce('t', 'before', 'all').until((x) => x.entry('before').status === 'acked', 5000);
    const epoch = d.partition('t').leaderEpoch;
    d.expectLeader('t', 0, 2);
    d.crash(2).produce('t', 'during', 'all');
    d.until((x) => x.entry('during').status !== 'pending', 60000);
    const p = d.partition('t');
    expect([3, 4]).toContain(p.leader);
    expect(p.leaderEpoch).toBe(epoch + 1);
    expect(d.entry('during')).toMatchObject({ status: 'acked', offset: 1 });
    expect(d.entry('during').attempts.length).toBeGreaterThan(1);
    expect(d.events('LeaderElected').at(-1)).toMatchObject({ leader: p.leader, election: 'clean' });
    expect(d.sim.lostAcknowledged()).toEqual([]);
    expect(d.sim.committedRecords('t', 0).map((r) => r.value)).toEqual(['before', 'during']);
  });
});

describe('two of three brokers down with min.insync.replicas=2', () => {
  it('acks=all gets NOT_ENOUGH_REPLICAS; acks=1 is accepted but the HW does not move', () => {
    const d = threeBrokers(2);
    d.crash(3).crash(4);
    d.until((x) => x.partition('t').isr.length === 1, 30000);
    d.produce('t', 'safe', 'all').produce('t', 'fast', 1);
    d.until((x) => x.entry('fast').status === 'acked', 5000);
    d.advance(2000);
    const safe = d.entry('safe');
    expect(safe.attempts[0]!.error).toBe('NOT_ENOUGH_REPLICAS');
    expect(d.entry('fast').offset).toBe(0);
    expect(d.partition('t').highWatermark).toBe(0);
    expect(d.sim.committedRecords('t', 0)).toEqual([]);
    // The producer keeps retrying until delivery.timeout.ms, then reports the error.
    d.until((x) => x.entry('safe').status === 'failed', 130000, 1000);
    expect(d.entry('safe').error).toBe('NOT_ENOUGH_REPLICAS');
  });
});

describe('acks=1: the leader appends and crashes before any follower fetched', () => {
  it('the acknowledged record is lost, lostAcknowledged names it, and the old leader truncates when it returns', () => {
    const d = threeBrokers(1);
    d.produce('t', 'kept', 1).until((x) => x.partition('t').highWatermark === 1, 5000);
    // The followers' fetches can no longer reach the leader: they will not see the next record.
    d.cut(3, 2).cut(4, 2);
    d.produce('t', 'doomed', 1).until((x) => x.entry('doomed').status === 'acked', 5000);
    expect(d.entry('doomed').offset).toBe(1);
    d.crash(2).heal();
    d.until((x) => [3, 4].includes(x.partition('t').leader), 20000).advance(100);
    expect(d.sim.lostAcknowledged().map((e) => e.value)).toEqual(['doomed']);
    expect(d.events('AcknowledgedRecordsLost')).toHaveLength(1);
    d.restart(2).until((x) => x.events('LogTruncated').some((e) => e.nodeId === 2), 20000);
    const p = d.partition('t');
    expect(p.replicaLogs.find((r) => r.brokerId === 2)!.logEndOffset).toBe(
      p.replicaLogs.find((r) => r.brokerId === p.leader)!.logEndOffset,
    );
  });
});

describe('creating topics', () => {
  it('refuses replication factor 4 on 3 brokers with Kafka message', () => {
    const d = threeBrokers(1);
    const r = d.sim.apply({ type: 'createTopic', name: 'big', partitions: 1, replicationFactor: 4 });
    expect(r).toEqual({
      ok: false,
      error:
        'INVALID_REPLICATION_FACTOR: The target replication factor of 4 cannot be reached because only 3 broker(s) are registered.',
    });
    d.advance(1000);
    expect(d.sim.snapshot().topics.map((t) => t.name)).toEqual(['t']);
  });

  it('places three racks of two brokers with one replica per rack and balanced leaderships', () => {
    const racks = ['a', 'a', 'b', 'b', 'c', 'c'];
    const d = cluster({
      brokerRacks: racks,
      topics: [{ name: 'o', partitions: 6, replicationFactor: 3 }],
    }).settle();
    const rackOf = (id: number) => racks[id - 2];
    const parts = d.sim.snapshot().partitions;
    for (const p of parts) expect(new Set(p.replicas.map(rackOf)).size).toBe(3);
    expect(parts.map((p) => p.leader).sort()).toEqual([2, 3, 4, 5, 6, 7]);
  });
});

describe('determinism', () => {
  it('the same scenario and commands give the same stateHash and events (seed 11)', () => {
    const run = () => {
      const d = cluster({
        seed: 11,
        jitterMs: 3,
        topics: [{ name: 't', partitions: 3, replicationFactor: 3 }],
      }).settle();
      d.produce('t', 'a', 'all')
        .crash(3)
        .advance(15000)
        .produce('t', 'b', 1, { partition: 1 })
        .restart(3)
        .advance(20000);
      return { hash: d.sim.stateHash(), events: JSON.stringify(d.sim.events()) };
    };
    const a = run();
    const b = run();
    expect(a.hash).toBe(b.hash);
    expect(a.events).toBe(b.events);
  });
});

describe('checkpoints', () => {
  it('a clone continues exactly as the original, and neither affects the other', () => {
    const d = threeBrokers(2);
    d.produce('t', 'x', 'all').advance(3000);
    const copy = d.sim.clone();
    d.crash(3).produce('t', 'y', 1).advance(20000);
    copy.apply({ type: 'crashNode', nodeId: 3 });
    copy.apply({ type: 'produce', topic: 't', value: 'y', acks: 1, key: null, partition: 0 });
    copy.advance(20000);
    expect(copy.stateHash()).toBe(d.sim.stateHash());
    copy.apply({ type: 'restartNode', nodeId: 3 });
    copy.advance(1000);
    expect(copy.stateHash()).not.toBe(d.sim.stateHash());
    expect(d.node(3).state).toBe('crashed');
  });
});
