// A broker that stops leading a partition completes at once what waits on it
// (ReplicaManager.completeDelayedFetchOrProduceRequests): parked consumer and follower fetches answer
// with NOT_LEADER_OR_FOLLOWER instead of waiting out fetch.max.wait.ms / replica.fetch.wait.max.ms.
import { describe, expect, it } from 'vitest';
import { cluster } from '../testing/driver';

describe('delayed fetches when leadership moves', () => {
  it('a preferred election answers the fetches parked at the old leader at once', () => {
    const d = cluster({
      seed: 3,
      config: { 'offsets.topic.num.partitions': 1 },
      topics: [{ name: 't', partitions: 1, replicationFactor: 3, assignment: [[2, 3, 4]] }],
    }).settle();
    d.startConsumer('c', 'g', ['t'], { 'auto.offset.reset': 'earliest' });
    d.produce('t', 'a').until((x) => x.sim.consumedRecords('g').length === 1, 20000);
    // Broker 2 (the preferred leader) crashes: 3 leads; it returns and catches up.
    d.crash(2).until((x) => x.partition('t').leader === 3, 20000);
    d.produce('t', 'b').until((x) => x.sim.consumedRecords('g').length === 2, 20000);
    d.restart(2).until((x) => x.partition('t').isr.includes(2), 30000);
    d.advance(2000); // idle: the consumer's fetch and broker 4's fetch wait at broker 3
    expect(d.parkedConsumerFetches(3)).toBe(1);
    expect(d.parkedReplicaFetches(3)).toContain(4);

    d.do({ type: 'electLeaders', electionType: 'preferred' });
    let steps = 0;
    while (d.replicaRole(3, 't') === 'leader' && steps++ < 10000) d.sim.step();
    expect(d.replicaRole(3, 't')).toBe('follower');
    // The same instant broker 3 applied the change, nothing waits there any more.
    expect(d.parkedConsumerFetches(3)).toBe(0);
    expect(d.parkedReplicaFetches(3)).not.toContain(4);

    d.produce('t', 'c').until((x) => x.sim.consumedRecords('g').length === 3, 20000);
    d.expectLeader('t', 0, 2);
  });
});
