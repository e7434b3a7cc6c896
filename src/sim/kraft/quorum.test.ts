import { describe, expect, it } from 'vitest';
import type { Role } from '../model/types';
import { cluster, Driver } from '../testing/driver';

// Controllers 1, 2, 3 (a Raft quorum); brokers 4, 5, 6.
const quorumCluster = (seed = 3) =>
  cluster({
    seed,
    controllers: 3,
    topics: [
      {
        name: 't',
        partitions: 1,
        replicationFactor: 3,
        assignment: [[4, 5, 6]],
        config: { 'min.insync.replicas': 2 },
      },
    ],
  }).settle();

const activeController = (d: Driver) => d.sim.snapshot().quorum.leaderId;

/** Records every (epoch, leader) pair seen while advancing, to check there is never split brain. */
function watchLeaders(d: Driver, ms: number, stepMs = 5): Map<number, Set<number>> {
  const seen = new Map<number, Set<number>>();
  for (let t = 0; t < ms; t += stepMs) {
    d.advance(stepMs);
    for (const v of d.sim.snapshot().quorum.voters) {
      if (v.state !== 'leader') continue;
      if (!seen.has(v.epoch)) seen.set(v.epoch, new Set());
      seen.get(v.epoch)!.add(v.id);
    }
  }
  return seen;
}

describe('the active controller crashes', () => {
  it('a new leader is elected at a higher epoch within a few seconds, and no broker is fenced', () => {
    const d = quorumCluster();
    const old = activeController(d)!;
    const epoch = d.sim.snapshot().quorum.epoch;
    const fencedBefore = d.events('BrokerFenced').length;
    const t0 = d.sim.nowMs;
    d.crash(old).until((x) => {
      const q = x.sim.snapshot().quorum;
      return q.leaderId !== null && q.leaderId !== old && q.epoch > epoch;
    }, 10000);
    expect(d.sim.nowMs - t0).toBeLessThan(6000);
    d.advance(30000);
    expect(d.events('BrokerFenced').length).toBe(fencedBefore);
    expect(d.events('ControllerActivated').at(-1)!.message).toContain('fresh heartbeat session');
    expect(
      d.sim
        .snapshot()
        .nodes.filter((n) => n.roles.includes('broker'))
        .every((n) => !n.fenced),
    ).toBe(true);
  });
});

describe('two of three controllers down (no quorum)', () => {
  it('produce with acks=all still succeeds, but a new topic is not created', () => {
    const d = quorumCluster();
    const [a, b] = [1, 2, 3].filter((c) => c !== activeController(d));
    d.crash(a!).crash(b!).advance(5000);
    expect(d.sim.snapshot().quorum.leaderId).toBeNull();
    d.produce('t', 'still-works', 'all').until((x) => x.entry('still-works').status === 'acked', 5000);
    const r = d.sim.apply({ type: 'createTopic', name: 'fresh', partitions: 1, replicationFactor: 1 });
    expect(r.ok).toBe(false);
    d.advance(20000);
    expect(d.sim.snapshot().topics.map((t) => t.name)).toEqual(['t']);
    // Without a quorum nobody fences anyone, even a broker that stops heartbeating.
    d.crash(6).advance(20000);
    expect(d.node(6).fenced).toBe(false);
  });
});

describe('the active controller is isolated from the other voters', () => {
  it('the majority elects a higher epoch, never two leaders in one epoch, and the old leader follows after healing', () => {
    const d = quorumCluster(5);
    const old = activeController(d)!;
    const others = [1, 2, 3].filter((c) => c !== old);
    const epoch = d.sim.snapshot().quorum.epoch;
    d.split([old], [...others, 4, 5, 6]);
    const seen = watchLeaders(d, 8000);
    d.heal();
    for (const [e, leaders] of watchLeaders(d, 8000))
      seen.set(e, new Set([...(seen.get(e) ?? []), ...leaders]));
    for (const leaders of seen.values()) expect(leaders.size).toBe(1);
    d.expectEvent('ControllerResigned', (e) => e.nodeId === old);
    const q = d.sim.snapshot().quorum;
    expect(q.epoch).toBeGreaterThan(epoch);
    expect(others).toContain(q.leaderId);
    expect(q.voters.find((v) => v.id === old)).toMatchObject({
      state: 'follower',
      epoch: q.epoch,
      leaderId: q.leaderId,
    });
  });
});

describe('a zombie partition leader: broker cut off from the controllers and the other brokers', () => {
  it('keeps serving on stale metadata until fenced; its acks=1 writes are truncated on healing, its acks=all writes time out', () => {
    const d = quorumCluster(7);
    d.expectLeader('t', 0, 4);
    // The producer still reaches broker 4; nothing else does.
    d.split([4], [1, 2, 3, 5, 6]);
    d.produce('t', 'zombie-acks1', 1).produce('t', 'zombie-acksall', 'all');
    d.until((x) => x.entry('zombie-acks1').status === 'acked', 3000);
    expect(d.entry('zombie-acks1').attempts[0]!.brokerId).toBe(4);
    d.until((x) => x.partition('t').leader !== 4, 15000);
    d.expectEvent('BrokerFenced', (e) => e.nodeId === 4);
    expect(d.entry('zombie-acksall').status).toBe('pending');
    d.advance(40000);
    // The zombie could not reach the followers: the HW never covered it, the request timed out.
    expect(d.entry('zombie-acksall').attempts[0]!.error).toBe('REQUEST_TIMED_OUT');
    d.heal().until((x) => x.events('LogTruncated').some((e) => e.nodeId === 4), 30000);
    expect(d.sim.lostAcknowledged().map((e) => e.value)).toContain('zombie-acks1');
    d.until((x) => x.entry('zombie-acksall').status !== 'pending', 120000, 100);
    // Retried on the new leader: the acks=all record is not lost.
    expect(d.entry('zombie-acksall').status).toBe('acked');
    expect(d.sim.lostAcknowledged().map((e) => e.value)).not.toContain('zombie-acksall');
  });
});

describe('eligible leader replicas (KIP-966), min.insync.replicas=2', () => {
  it('broker 3 fails, broker 2 shuts down cleanly, broker 1 crashes: ISR empty, ELR {1, 2}; broker 2 returns and leads with no loss', () => {
    const d = cluster({
      seed: 9,
      controllerIds: [101, 102, 103],
      brokerIds: [1, 2, 3],
      config: { 'eligible.leader.replicas.version': 1 },
      topics: [
        {
          name: 't',
          partitions: 1,
          replicationFactor: 3,
          assignment: [[1, 2, 3]],
          config: { 'min.insync.replicas': 2 },
        },
      ],
    }).settle();
    d.produce('t', 'a', 'all').until((x) => x.entry('a').status === 'acked', 5000);
    d.crash(3).until((x) => !x.partition('t').isr.includes(3), 15000);
    expect(d.partition('t')).toMatchObject({ isr: [1, 2], elr: [] });
    d.produce('t', 'b', 'all').until((x) => x.entry('b').status === 'acked', 5000);
    d.shutdown(2).until((x) => x.node(2).state === 'stopped', 15000);
    expect(d.partition('t')).toMatchObject({ leader: 1, isr: [1], elr: [2] });
    d.crash(1).until((x) => x.partition('t').leader === -1, 15000);
    expect(d.partition('t')).toMatchObject({ isr: [], elr: [1, 2] });
    d.restart(2).until((x) => x.partition('t').leader === 2, 20000);
    expect(d.events('LeaderElected').at(-1)).toMatchObject({ leader: 2, election: 'elr' });
    d.advance(1000);
    expect(d.sim.lostAcknowledged()).toEqual([]);
    // Alone in the ISR, below min.insync.replicas, broker 2 keeps the HW frozen until a second replica joins.
    d.restart(1)
      .until((x) => x.partition('t').isr.length === 2, 30000)
      .advance(1000);
    expect(d.sim.committedRecords('t', 0).map((r) => r.value)).toEqual(['a', 'b']);
  });
});

describe('unclean leader election', () => {
  it('with unclean.leader.election.enable, an out-of-sync survivor leads and the lost acknowledged records are listed', () => {
    const d = cluster({
      seed: 4,
      config: { 'eligible.leader.replicas.version': 0 },
      topics: [
        {
          name: 't',
          partitions: 1,
          replicationFactor: 3,
          assignment: [[2, 3, 4]],
          config: { 'min.insync.replicas': 1, 'unclean.leader.election.enable': true },
        },
      ],
    }).settle();
    d.crash(4).until((x) => !x.partition('t').isr.includes(4), 15000);
    d.produce('t', 'only-on-2-and-3', 'all').until(
      (x) => x.entry('only-on-2-and-3').status === 'acked',
      5000,
    );
    d.crash(3).until((x) => x.partition('t').isr.length === 1, 15000);
    d.crash(2)
      .restart(4)
      .until((x) => x.partition('t').leader === 4, 30000)
      .advance(500);
    expect(d.events('LeaderElected').at(-1)).toMatchObject({ leader: 4, election: 'unclean' });
    expect(d.sim.lostAcknowledged().map((e) => e.value)).toEqual(['only-on-2-and-3']);
    const lost = d.events('AcknowledgedRecordsLost').at(-1)!;
    expect(lost.message).toContain('only-on-2-and-3');
  });

  it('without it, the partition stays offline and waits for an in-sync replica (ELR off)', () => {
    const d = cluster({
      seed: 4,
      config: { 'eligible.leader.replicas.version': 0 },
      topics: [{ name: 't', partitions: 1, replicationFactor: 3, assignment: [[2, 3, 4]] }],
    }).settle();
    d.crash(4).until((x) => !x.partition('t').isr.includes(4), 15000);
    d.crash(3).crash(2).restart(4).advance(30000);
    // Fenced in turn, 2 then 3: the last ISR member (3) stays in the ISR, so that it can lead again.
    expect(d.partition('t')).toMatchObject({ leader: -1, isr: [3] });
    d.do({ type: 'electLeaders', electionType: 'unclean' }).advance(1000);
    d.expectLeader('t', 0, 4);
  });
});

describe('preferred leader election', () => {
  it('electLeaders preferred moves leadership back to the first replica once it is in sync', () => {
    const d = quorumCluster();
    d.crash(4).until((x) => x.partition('t').leader !== 4, 15000);
    d.restart(4).until((x) => x.partition('t').isr.includes(4), 30000);
    expect(d.partition('t').leader).not.toBe(4);
    d.do({ type: 'electLeaders', electionType: 'preferred' }).advance(1000);
    d.expectLeader('t', 0, 4);
    expect(d.events('LeaderElected').at(-1)).toMatchObject({ election: 'preferred' });
  });
});

describe('combined nodes (process.roles=broker,controller)', () => {
  it('three combined nodes form the quorum and host the data; losing the active one moves both roles', () => {
    const d = new Driver({
      version: 1,
      seed: 12,
      nodes: [1, 2, 3].map((id) => ({ id, roles: ['broker', 'controller'] as Role[] })),
      topics: [{ name: 't', partitions: 3, replicationFactor: 3, config: { 'min.insync.replicas': 2 } }],
    }).settle();
    const active = d.sim.snapshot().quorum.leaderId!;
    d.produce('t', 'before', 'all').until((x) => x.entry('before').status === 'acked', 5000);
    d.crash(active).until((x) => {
      const q = x.sim.snapshot().quorum;
      return q.leaderId !== null && q.leaderId !== active;
    }, 10000);
    // The broker half of the crashed node is fenced by the new active controller, and leads nothing.
    d.until(
      (x) => x.node(active).fenced && x.sim.snapshot().partitions.every((p) => p.leader !== active),
      20000,
    );
    d.produce('t', 'after', 'all').until((x) => x.entry('after').status === 'acked', 10000);
    expect(d.sim.lostAcknowledged()).toEqual([]);
  });
});

describe('auto.leader.rebalance.enable', () => {
  it('the periodic check moves leadership back to the preferred replica once it is in sync', () => {
    const d = cluster({
      seed: 3,
      controllers: 3,
      config: { 'leader.imbalance.check.interval.seconds': 10 },
      topics: [{ name: 't', partitions: 1, replicationFactor: 3, assignment: [[4, 5, 6]] }],
    }).settle();
    d.crash(4).until((x) => x.partition('t').leader !== 4, 15000);
    d.restart(4).until((x) => x.partition('t').isr.includes(4), 30000);
    d.until((x) => x.partition('t').leader === 4, 15000);
    expect(d.events('LeaderElected').at(-1)).toMatchObject({ leader: 4, election: 'preferred' });
  });

  it('with it off, leadership stays where the failover put it', () => {
    const d = cluster({
      seed: 3,
      controllers: 3,
      config: { 'leader.imbalance.check.interval.seconds': 10, 'auto.leader.rebalance.enable': false },
      topics: [{ name: 't', partitions: 1, replicationFactor: 3, assignment: [[4, 5, 6]] }],
    }).settle();
    d.crash(4).until((x) => x.partition('t').leader !== 4, 15000);
    d.restart(4)
      .until((x) => x.partition('t').isr.includes(4), 30000)
      .advance(30000);
    expect(d.partition('t').leader).not.toBe(4);
  });
});

describe('unclean election enabled while a partition is offline', () => {
  it('waits for the periodic check (unclean.leader.election.interval.ms), then elects the survivor', () => {
    const d = cluster({
      seed: 4,
      config: { 'eligible.leader.replicas.version': 0, 'unclean.leader.election.interval.ms': 60000 },
      topics: [{ name: 't', partitions: 1, replicationFactor: 3, assignment: [[2, 3, 4]] }],
    }).settle();
    d.crash(4).until((x) => !x.partition('t').isr.includes(4), 15000);
    d.crash(3)
      .crash(2)
      .restart(4)
      .until((x) => x.partition('t').leader === -1, 20000)
      .advance(5000);
    d.do({
      type: 'alterConfig',
      resourceType: 'topic',
      resourceName: 't',
      configs: { 'unclean.leader.election.enable': true },
    });
    d.advance(5000);
    d.expectLeader('t', 0, -1);
    d.until((x) => x.partition('t').leader === 4, 70000, 100);
    expect(d.events('LeaderElected').at(-1)).toMatchObject({ leader: 4, election: 'unclean' });
    expect(d.events('LeaderElected').at(-1)!.message).toContain('UNCLEAN');
  });
});
