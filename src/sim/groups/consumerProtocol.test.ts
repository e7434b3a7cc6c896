import { describe, expect, it } from 'vitest';
import type { Driver } from '../testing/driver';
import { cluster } from '../testing/driver';
import { groupChaos } from '../testing/groupChaos';
import type { ConfigValue } from '../model/types';

// Controller 1, brokers 2, 3, 4; __consumer_offsets with 3 partitions; orders with 6.
const orders = (seed = 5) =>
  cluster({
    seed,
    config: { 'offsets.topic.num.partitions': 3 },
    topics: [{ name: 'orders', partitions: 6, replicationFactor: 3, config: { 'min.insync.replicas': 2 } }],
  }).settle();

const start = (d: Driver, consumerId: string, config: Record<string, ConfigValue> = {}) =>
  d.sim.apply({
    type: 'startConsumer',
    consumerId,
    groupId: 'g',
    topics: ['orders'],
    config: { 'auto.offset.reset': 'earliest', 'group.protocol': 'consumer', ...config },
  });

const produce = (d: Driver) =>
  d.do({
    type: 'startProducer',
    producerId: 'p1',
    topic: 'orders',
    ratePerSec: 30,
    keyPattern: 'k{n}',
    keyCount: 30,
  });

const group = (d: Driver) => d.sim.snapshot().clients.groups.find((g) => g.groupId === 'g')!;
const stable = (d: Driver, members: number) => {
  const g = group(d);
  return !!g && g.state === 'Stable' && g.members.length === members;
};
const partitionsOf = (d: Driver) =>
  Object.fromEntries(group(d).members.map((m) => [m.consumerId, m.assignment.map((a) => a.partition)]));
const positions = (d: Driver, id: string) =>
  Object.fromEntries(
    d.sim
      .snapshot()
      .clients.consumers.find((c) => c.id === id)!
      .positions.map((p) => [p.partition, p.offset]),
  );

describe('group.protocol=consumer (KIP-848): three members on six partitions', () => {
  it('the uniform assignor gives two partitions each; group and member epochs as the coordinator counts them', () => {
    const d = orders();
    produce(d);
    for (const id of ['c1', 'c2', 'c3']) expect(start(d, id)).toEqual({ ok: true });
    d.until((x) => stable(x, 3), 30000);
    const g = group(d);
    expect(g.groupProtocol).toBe('consumer');
    expect(g.protocol).toBe('uniform');
    // One bump per join: epochs 1, 2, 3; every member ends at the group epoch.
    expect(g.groupEpoch).toBe(3);
    expect(g.assignmentEpoch).toBe(3);
    for (const m of g.members) {
      expect(m.memberEpoch).toBe(3);
      expect(m.memberState).toBe('stable');
      expect(m.assignment).toHaveLength(2);
    }
    expect(g.members.flatMap((m) => m.assignment.map((a) => a.partition)).sort((a, b) => a - b)).toEqual([
      0, 1, 2, 3, 4, 5,
    ]);
    const consumers = d.sim.snapshot().clients.consumers;
    for (const c of consumers) {
      expect(c.groupProtocol).toBe('consumer');
      expect(c.generation).toBe(3);
      expect(c.memberId).toMatch(/^[A-Za-z0-9_-]{22}$/); // KIP-1082: the client's own UUID
    }
    expect(d.events('GroupTargetAssignmentComputed').map((e) => e.groupEpoch)).toEqual([1, 2, 3]);
    expect(d.events('JoinGroup')).toHaveLength(0);
    expect(d.events('GroupRebalance')).toHaveLength(0);
  });

  it('a fourth member joins: moved partitions are revoked by their owner before they are assigned, and the others never stop consuming', () => {
    const d = orders();
    produce(d);
    for (const id of ['c1', 'c2', 'c3']) start(d, id);
    d.until((x) => stable(x, 3), 30000).advance(5000);
    const before = partitionsOf(d);
    const t0 = d.sim.nowMs;
    start(d, 'c4');
    // Sample the three members' positions while the group is not Stable (Assigning, Reconciling).
    const kept: Record<string, number[]> = {};
    const ids = ['c1', 'c2', 'c3'];
    let first: Record<string, Record<number, number>> | null = null;
    let last: Record<string, Record<number, number>> = {};
    d.until((x) => {
      const reconciling = group(x).state !== 'Stable';
      if (reconciling) {
        last = Object.fromEntries(ids.map((id) => [id, positions(x, id)]));
        first ??= last;
      }
      return first !== null && !reconciling && stable(x, 4);
    }, 30000);
    const after = partitionsOf(d);
    expect(group(d).groupEpoch).toBe(4);
    // Six partitions on four members: quota 1, two members keep one more.
    expect(
      Object.values(after)
        .map((ps) => ps.length)
        .sort(),
    ).toEqual([1, 1, 2, 2]);
    expect(after.c4!.length).toBeGreaterThan(0);
    for (const id of ['c1', 'c2', 'c3']) {
      // Sticky: each keeps partitions it had; nobody gets a partition another member had without a revocation.
      kept[id] = after[id]!.filter((p) => before[id]!.includes(p));
      expect(kept[id]).toEqual(after[id]);
    }
    const revoked = d.events('MemberPartitionsRevoked').filter((e) => e.timeMs >= t0);
    const assigned = d
      .events('MemberPartitionsAssigned')
      .filter((e) => e.timeMs >= t0 && e.consumerId === 'c4');
    expect(revoked.length).toBeGreaterThan(0);
    expect(assigned.length).toBeGreaterThan(0);
    // Each partition c4 gets was revoked by its previous owner first.
    for (const p of after.c4!) {
      const owner = Object.keys(before).find((id) => before[id]!.includes(p))!;
      const rev = revoked.find((e) => e.consumerId === owner && String(e.message).includes(`orders-${p}`))!;
      const got = assigned.find((e) => String(e.message).includes(`orders-${p}`))!;
      expect(rev).toBeDefined();
      expect(got).toBeDefined();
      expect(rev.timeMs).toBeLessThan(got.timeMs);
    }
    // The kept partitions advanced while the group reconciled: no stop-the-world.
    for (const id of ids) for (const p of kept[id]!) expect(last[id]![p]!).toBeGreaterThan(first![id]![p]!);
    // Under the classic protocol every member rejoins; here nobody does.
    expect(d.events('GroupRebalance')).toHaveLength(0);
  });

  it('a crashed member: after the broker session timeout (45 s) its partitions move and its uncommitted records are consumed again', () => {
    const d = orders();
    produce(d);
    for (const id of ['c1', 'c2', 'c3']) start(d, id, { 'enable.auto.commit': false });
    d.until((x) => stable(x, 3), 30000).advance(5000);
    for (const id of ['c1', 'c2', 'c3']) d.do({ type: 'commitOffsets', consumerId: id });
    d.advance(1000);
    const committed = new Map(group(d).offsets.map((o) => [o.partition, o.committed]));
    d.advance(4000);
    const c2parts = partitionsOf(d).c2!;
    const uncommitted = d.sim
      .consumedRecords('g')
      .filter((r) => r.consumerId === 'c2' && r.offset >= committed.get(r.partition)!);
    expect(uncommitted.length).toBeGreaterThan(0);
    d.do({ type: 'stopConsumer', consumerId: 'c2', graceful: false });
    const crashAt = d.sim.nowMs;
    d.advance(39000);
    expect(group(d).members.map((m) => m.consumerId)).toContain('c2');
    d.until((x) => stable(x, 2), 20000);
    const removed = d.expectEvent('MemberRemoved', (e) => e.consumerId === 'c2');
    // group.consumer.session.timeout.ms from its last heartbeat, at most 5 s (the broker's interval) before the crash.
    expect(removed.timeMs - crashAt).toBeGreaterThan(45000 - 5000);
    expect(removed.timeMs - crashAt).toBeLessThanOrEqual(45000);
    const after = partitionsOf(d);
    expect(Object.values(after).flat().sort()).toEqual([0, 1, 2, 3, 4, 5]);
    for (const p of c2parts) expect(after.c1!.includes(p) || after.c3!.includes(p)).toBe(true);
    d.advance(5000);
    const again = d.sim.consumedRecords('g').filter((r) => r.consumerId !== 'c2');
    for (const r of uncommitted)
      expect(
        again.some((x) => x.partition === r.partition && x.offset === r.offset && x.recordId === r.recordId),
      ).toBe(true);
  });

  it('a graceful close leaves with member epoch -1 and its partitions move at once', () => {
    const d = orders();
    for (const id of ['c1', 'c2']) start(d, id);
    d.until((x) => stable(x, 2), 30000);
    d.do({ type: 'stopConsumer', consumerId: 'c1' });
    d.until((x) => stable(x, 1), 8000);
    expect(d.events('MemberLeft').map((e) => e.consumerId)).toEqual(['c1']);
    expect(partitionsOf(d).c2).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe('a group speaks one protocol', () => {
  it('a classic member cannot join a non-empty consumer-protocol group: INCONSISTENT_GROUP_PROTOCOL', () => {
    const d = orders();
    start(d, 'c1');
    d.until((x) => stable(x, 1), 30000);
    start(d, 'old', { 'group.protocol': 'classic' });
    d.advance(3000);
    const failed = d.expectEvent('ConsumerFailed', (e) => e.consumerId === 'old');
    expect(failed.error).toBe('INCONSISTENT_GROUP_PROTOCOL');
    expect(d.sim.snapshot().clients.consumers.find((c) => c.id === 'old')!.state).toBe('stopped');
    expect(group(d).members.map((m) => m.consumerId)).toEqual(['c1']);
  });

  it('a consumer-protocol member cannot join a non-empty classic group: GROUP_ID_NOT_FOUND', () => {
    const d = orders();
    start(d, 'c1', { 'group.protocol': 'classic' });
    d.until((x) => stable(x, 1), 30000);
    start(d, 'new');
    d.advance(3000);
    const failed = d.expectEvent('ConsumerFailed', (e) => e.consumerId === 'new');
    expect(failed.error).toBe('GROUP_ID_NOT_FOUND');
    expect(failed.message).toContain('Cannot upgrade classic group g to consumer group');
    expect(group(d).groupProtocol).toBe('classic');
  });

  it('an empty group changes protocol and keeps its committed offsets', () => {
    const d = orders();
    produce(d);
    start(d, 'c1', { 'group.protocol': 'classic' });
    d.until((x) => stable(x, 1), 30000).advance(8000);
    d.do({ type: 'stopConsumer', consumerId: 'c1' }).advance(2000);
    const committed = group(d).offsets.map((o) => o.committed);
    expect(committed.every((o) => o > 0)).toBe(true);
    start(d, 'c2');
    d.until((x) => stable(x, 1), 30000);
    expect(group(d).groupProtocol).toBe('consumer');
    const first = d.sim.consumedRecords('g').filter((r) => r.consumerId === 'c2');
    for (const o of group(d).offsets) {
      const firstOffset = first.find((r) => r.partition === o.partition)?.offset;
      if (firstOffset !== undefined) expect(firstOffset).toBe(committed[o.partition]);
    }
  });
});

describe('consumer configuration with group.protocol=consumer', () => {
  it('refuses the classic-only settings as ConsumerConfig does', () => {
    const d = orders();
    const r = start(d, 'c1', { 'session.timeout.ms': 10000, 'partition.assignment.strategy': 'range' });
    expect(r).toEqual({
      ok: false,
      error: expect.stringContaining(
        'partition.assignment.strategy, session.timeout.ms cannot be set when group.protocol=CONSUMER',
      ),
    });
    const r2 = start(d, 'c1', { 'group.protocol': 'classic', 'group.remote.assignor': 'uniform' });
    expect(r2.ok).toBe(false);
    expect(start(d, 'c1', { 'group.protocol': 'other' })).toEqual({
      ok: false,
      error: expect.stringContaining('String must be one of (case insensitive): CLASSIC, CONSUMER'),
    });
    expect(start(d, 'c1', { 'group.protocol': 'CONSUMER', 'group.remote.assignor': 'range' })).toEqual({
      ok: true,
    });
  });
});

describe('determinism', () => {
  it('a checkpoint taken while the group reconciles continues exactly as the original', () => {
    const d = orders(3);
    produce(d);
    for (const id of ['c1', 'c2', 'c3']) start(d, id);
    d.until((x) => stable(x, 3), 30000);
    start(d, 'c4');
    d.until((x) => group(x).state === 'Reconciling', 10000);
    const copy = d.sim.clone();
    d.crash(2).advance(20000);
    copy.apply({ type: 'crashNode', nodeId: 2 });
    copy.advance(20000);
    expect(copy.stateHash()).toBe(d.sim.stateHash());
    expect(copy.consumedRecords('g')).toEqual(d.sim.consumedRecords('g'));
  });

  it('the same run twice gives the same stateHash (seed 11)', () => {
    const run = () => {
      const d = orders(11);
      produce(d);
      for (const id of ['c1', 'c2', 'c3']) start(d, id);
      d.advance(20000);
      start(d, 'c4');
      d.advance(15000);
      d.do({ type: 'stopConsumer', consumerId: 'c2', graceful: false }).advance(60000);
      return { hash: d.sim.stateHash(), events: JSON.stringify(d.sim.events()) };
    };
    const a = run();
    const b = run();
    expect(a.hash).toBe(b.hash);
    expect(a.events).toBe(b.events);
  });
});

describe('the coordinator of a KIP-848 group fails over', () => {
  it('the next leader of the __consumer_offsets partition loads the group with its epochs; nothing is consumed twice', () => {
    const d = orders();
    produce(d);
    for (const id of ['c1', 'c2', 'c3']) start(d, id);
    d.until((x) => stable(x, 3), 30000).advance(5000);
    const before = group(d);
    d.crash(before.coordinator).advance(30000);
    const after = group(d);
    expect(after.coordinator).not.toBe(before.coordinator);
    expect(d.events('GroupLoaded').length).toBeGreaterThan(0);
    expect(after.groupProtocol).toBe('consumer');
    expect(after.state).toBe('Stable');
    expect(after.groupEpoch).toBe(before.groupEpoch);
    expect(after.members.map((m) => [m.consumerId, m.memberEpoch, m.assignment])).toEqual(
      before.members.map((m) => [m.consumerId, m.memberEpoch, m.assignment]),
    );
    const seen = new Set<string>();
    for (const r of d.sim.consumedRecords('g')) {
      const k = `${r.partition}:${r.offset}`;
      expect(seen.has(k)).toBe(false);
      seen.add(k);
    }
  });
});

describe('a KIP-848 group through a coordinator crash, a member crash and a member cut from its coordinator', () => {
  it.each([4, 7])(
    'nothing acknowledged is missed, and the group ends Stable with no lag (seed %i)',
    (seed) => {
      const d = groupChaos(seed, (x, id) => start(x, id));
      const seen = new Set(d.sim.consumedRecords('g').map((r) => r.recordId));
      const acked = d.sim.ledger().filter((e) => e.status === 'acked');
      expect(acked.length).toBeGreaterThan(5000);
      expect(acked.filter((e) => !seen.has(e.recordId))).toEqual([]);
      const g = group(d);
      expect(g.state).toBe('Stable');
      expect(g.members.map((m) => m.consumerId).sort()).toEqual(['c1', 'c2', 'c3']);
      for (const m of g.members) expect(m.memberEpoch).toBe(g.groupEpoch);
      expect(g.totalLag).toBe(0);
      // Cut off for longer than the session timeout, c3 was removed: its next heartbeat was fenced
      // (UNKNOWN_MEMBER_ID) and it rejoined at member epoch 0.
      d.expectEvent('MemberFenced', (e) => e.consumerId === 'c3');
    },
  );
});

describe('the same fourth member under the classic protocol', () => {
  it('with the eager range assignor every member gives up all its partitions until the rebalance completes', () => {
    const d = orders();
    produce(d);
    for (const id of ['c1', 'c2', 'c3']) start(d, id, { 'group.protocol': 'classic' });
    d.until((x) => stable(x, 3), 30000).advance(5000);
    start(d, 'c4', { 'group.protocol': 'classic' });
    let everyoneStopped = false;
    d.until((x) => {
      const cs = x.sim.snapshot().clients.consumers.filter((c) => c.id !== 'c4');
      if (cs.every((c) => c.assignment.length === 0)) everyoneStopped = true;
      return everyoneStopped && stable(x, 4);
    }, 30000);
    expect(everyoneStopped).toBe(true);
    expect(d.events('GroupRebalance').length).toBeGreaterThan(0);
  });
});
