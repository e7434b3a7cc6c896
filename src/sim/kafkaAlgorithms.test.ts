import { describe, expect, it } from 'vitest';
import { cooperativeStickyAssign } from './assignors/cooperativeStickyAssignor';
import { uniformAssign } from './assignors/uniformAssignor';
import { partitionChangeRecord, mergeChange, type BuilderInput } from './kraft/partitionChange';
import type { PartitionState } from './model/metadata';
import { utf8 } from './clients/partitioner';
import { cluster } from './testing/driver';

// Stories for the places where the simulator answered differently from Kafka: each fails on the
// engine before 0.4.0. (The random comparisons with Kafka's own code are in the *.golden.test.ts files.)

const tp = (s: string) => ({
  topic: s.slice(0, s.lastIndexOf('-')),
  partition: Number(s.slice(s.lastIndexOf('-') + 1)),
});
const names = (tps: { topic: string; partition: number }[]) => tps.map((x) => `${x.topic}-${x.partition}`);

describe('cooperative-sticky, as AbstractStickyAssignor', () => {
  it('over quota, a member keeps its partitions lowest number first (t-3 before t-10), topic second', () => {
    // c1 owns t-3 and t-10 of 11 partitions over 11 members: it keeps one, the lowest partition number.
    const members = Array.from({ length: 11 }, (_, i) => ({
      memberId: `c${String(i).padStart(2, '0')}`,
      subscription: {
        topics: ['t'],
        ownedPartitions: i === 1 ? [tp('t-10'), tp('t-3')] : [],
        generationId: 4,
      },
    }));
    const a = cooperativeStickyAssign(members, { t: 11 });
    expect(names(a.get('c01')!)).toEqual(['t-3']);
  });

  it('deals unowned partitions round-robin over the members below quota, then the extra slot first come', () => {
    // 7 partitions over a, b, c; b owns t-0. Kafka (asked with these inputs): a t-1 t-4, b t-0 t-2 t-6, c t-3 t-5.
    const members = [
      { memberId: 'a', subscription: { topics: ['t'], ownedPartitions: [], generationId: 1 } },
      { memberId: 'b', subscription: { topics: ['t'], ownedPartitions: [tp('t-0')], generationId: 1 } },
      { memberId: 'c', subscription: { topics: ['t'], ownedPartitions: [], generationId: 1 } },
    ];
    const a = cooperativeStickyAssign(members, { t: 7 });
    expect(Object.fromEntries([...a].map(([id, tps]) => [id, names(tps)]))).toEqual({
      a: ['t-1', 't-4'],
      b: ['t-0', 't-2', 't-6'],
      c: ['t-3', 't-5'],
    });
  });

  it('gives a partition claimed by two members to the claim with the higher generation', () => {
    const members = [
      { memberId: 'a', subscription: { topics: ['t'], ownedPartitions: [tp('t-0')], generationId: 3 } },
      {
        memberId: 'b',
        subscription: { topics: ['t'], ownedPartitions: [tp('t-0'), tp('t-1')], generationId: 5 },
      },
    ];
    const a = cooperativeStickyAssign(members, { t: 2 });
    expect(names(a.get('b')!)).toContain('t-0');
    expect(names(a.get('a')!)).toEqual([]); // t-1 must first be revoked by b (KIP-429), so a waits
  });

  it('with different subscriptions, balances as the GeneralAssignmentBuilder does', () => {
    // a: x (9 partitions); b: y (6) and x. Kafka (asked with these inputs) gives b all of y and x-7.
    const members = [
      { memberId: 'a', subscription: { topics: ['x'], ownedPartitions: [] } },
      { memberId: 'b', subscription: { topics: ['y', 'x'], ownedPartitions: [] } },
    ];
    const a = cooperativeStickyAssign(members, { x: 9, y: 6 });
    expect(names(a.get('a')!)).toEqual(['x-0', 'x-1', 'x-2', 'x-3', 'x-4', 'x-5', 'x-6', 'x-8']);
    expect(names(a.get('b')!)).toEqual(['x-7', 'y-0', 'y-1', 'y-2', 'y-3', 'y-4', 'y-5']);
  });
});

describe('the uniform assignor, as UniformHomogeneousAssignmentBuilder', () => {
  const T = 'AAAAAAAAAAAAAAAAAAAAAw';
  it('assigns the one partition of a topic to one of two new members', () => {
    const a = uniformAssign(
      ['m1', 'm2'].map((memberId) => ({ memberId, topicIds: [T], previous: [] })),
      { [T]: 1 },
    );
    expect([...a.values()].flat()).toEqual([{ topicId: T, partition: 0 }]);
  });

  it('leaves no partition of five unassigned over three members, two owning one each', () => {
    const a = uniformAssign(
      [
        { memberId: 'm1', topicIds: [T], previous: [{ topicId: T, partitions: [0] }] },
        { memberId: 'm2', topicIds: [T], previous: [{ topicId: T, partitions: [1] }] },
        { memberId: 'm3', topicIds: [T], previous: [] },
      ],
      { [T]: 5 },
    );
    expect(
      [...a.values()]
        .flat()
        .map((x) => x.partition)
        .sort(),
    ).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('leader election with ELR, as PartitionChangeBuilder (KIP-966)', () => {
  const state = (s: Partial<PartitionState>): PartitionState => ({
    topic: 't',
    partition: 0,
    replicas: [1, 2, 3],
    isr: [1, 2, 3],
    elr: [],
    leader: 1,
    leaderEpoch: 0,
    partitionEpoch: 0,
    adding: [],
    removing: [],
    ...s,
  });
  const next = (i: BuilderInput) => {
    const r = partitionChangeRecord(i);
    return r ? mergeChange(i.partition, r.record) : i.partition;
  };
  const base = { minIsr: 2, elrEnabled: true, election: 'ONLINE' as const };

  it('keeps the other ELR members after electing one of them', () => {
    const p = next({
      ...base,
      partition: state({ isr: [], elr: [2, 3], leader: -1 }),
      acceptable: (r) => r === 2,
    });
    expect(p.leader).toBe(2);
    expect(p.isr).toEqual([2]);
    expect(p.elr).toEqual([3]);
  });

  it('elects the last known ELR member when the ISR and the ELR are empty, unclean election off', () => {
    const p = next({
      ...base,
      partition: state({ isr: [], elr: [], lastKnownElr: [1], leader: -1 }),
      acceptable: (r) => r === 1,
    });
    expect(p.leader).toBe(1);
    expect(p.isr).toEqual([1]);
  });

  it('does not elect from the ELR while the ISR still holds a (fenced) broker', () => {
    const p = next({
      ...base,
      partition: state({ isr: [1], elr: [2], leader: -1 }),
      acceptable: (r) => r === 2,
    });
    expect(p.leader).toBe(-1);
  });
});

describe('a returning broker and leaderless partitions (handleBrokerUnfenced)', () => {
  it('is elected at once, uncleanly, where the topic allows it, though it was in neither the ISR nor the ELR', () => {
    const d = cluster({
      seed: 3,
      topics: [
        {
          name: 'u',
          partitions: 1,
          replicationFactor: 2,
          config: { 'unclean.leader.election.enable': true },
        },
      ],
    }).settle();
    const [first, second] = d.partition('u').replicas;
    d.crash(second!).advance(15000); // the follower leaves the ISR
    d.crash(first!).advance(15000); // the leader goes: the ISR is [first], no leader
    expect(d.partition('u').leader).toBe(-1);
    d.restart(second!).until((x) => x.partition('u').leader !== -1, 30000);
    expect(d.partition('u').leader).toBe(second);
  });
});

describe('the sticky partitioner (KIP-794, BuiltInPartitioner)', () => {
  it('moves a burst of 600 keyless records to another partition after batch.size bytes', () => {
    const d = cluster({ seed: 9, topics: [{ name: 's', partitions: 6, replicationFactor: 1 }] }).settle();
    d.produce('s', 'v', 'all', { partition: undefined, count: 600 }).advance(5000);
    const used = new Set(
      d.sim
        .ledger()
        .filter((e) => e.topic === 's')
        .map((e) => e.partition),
    );
    expect(used.size).toBeGreaterThan(1);
  });
});

describe('utf8()', () => {
  it('returns the bytes of a string longer than the scratch buffer, not the old buffer', () => {
    const long = 'é'.repeat(200); // 400 bytes: more than the first 256-byte buffer
    expect(utf8(long)).toEqual(new Uint8Array(new Array(200).fill([0xc3, 0xa9]).flat()));
  });
});
