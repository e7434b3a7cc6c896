import { describe, expect, it } from 'vitest';
import { partitionForKey } from './partitioner';
import type { Driver } from '../testing/driver';
import { cluster } from '../testing/driver';
import { groupChaos } from '../testing/groupChaos';
import type { Command } from '../model/types';
import type { ConsumedRecordView } from '../model/views';
import { validateScenario } from '../validate';
import { offsetsPartitionFor } from '../groups/offsetsTopic';

// Controller 1, brokers 2, 3, 4. __consumer_offsets small (3 partitions, RF 3) so it can be drawn.
const orders = (seed = 5, extra: Record<string, number> = {}) =>
  cluster({
    seed,
    config: { 'offsets.topic.num.partitions': 3, ...extra },
    topics: [{ name: 'orders', partitions: 6, replicationFactor: 3, config: { 'min.insync.replicas': 2 } }],
  }).settle();

const startConsumer = (
  d: Driver,
  consumerId: string,
  config: Record<string, string | number | boolean> = {},
) => d.startConsumer(consumerId, 'g', ['orders'], { 'auto.offset.reset': 'earliest', ...config });

const group = (d: Driver, id = 'g') => d.sim.snapshot().clients.groups.find((g) => g.groupId === id)!;
const consumer = (d: Driver, id: string) => d.sim.snapshot().clients.consumers.find((c) => c.id === id)!;
const producer = (d: Driver, id: string) => d.sim.snapshot().clients.producers.find((p) => p.id === id)!;
const stable = (d: Driver, members: number) => {
  const g = group(d);
  return !!g && g.state === 'Stable' && g.members.length === members;
};

/** Per key, the values in the order they were consumed, first delivery of each only. */
function firstDeliveries(trace: readonly ConsumedRecordView[]): Map<string, number[]> {
  const seen = new Set<number>();
  const byKey = new Map<string, number[]>();
  for (const r of trace) {
    if (seen.has(r.recordId)) continue;
    seen.add(r.recordId);
    const n = Number(r.value.split('-').at(-1));
    byKey.set(r.key!, [...(byKey.get(r.key!) ?? []), n]);
  }
  return byKey;
}

describe('partitioning', () => {
  it('a key always goes to the partition murmur2 picks, and one key is consumed in the order produced across a leader failover', () => {
    const d = orders();
    d.do({
      type: 'startProducer',
      producerId: 'p1',
      topic: 'orders',
      ratePerSec: 50,
      keyPattern: 'customer-{n}',
      keyCount: 8,
    });
    startConsumer(d, 'c1');
    d.advance(10000);
    const leader = d.partition('orders', partitionForKey('customer-3', 6)).leader;
    d.crash(leader).advance(30000).do({ type: 'stopProducer', producerId: 'p1' }).advance(20000);
    const ledger = d.sim.ledger().filter((e) => e.producerId === 'p1');
    expect(ledger.length).toBeGreaterThan(1500);
    for (const e of ledger) expect(e.partition).toBe(partitionForKey(e.key!, 6));
    expect(ledger.every((e) => e.status === 'acked')).toBe(true);
    expect(d.sim.lostAcknowledged()).toEqual([]);
    const byKey = firstDeliveries(d.sim.consumedRecords('g'));
    expect(byKey.size).toBe(8);
    for (const [key, values] of byKey) {
      expect(values).toEqual([...values].sort((a, b) => a - b));
      expect(values.length).toBe(ledger.filter((e) => e.key === key).length);
    }
  });
});

describe('the producer follows a leader change', () => {
  it('a continuous acks=all producer retries to the new leader and loses no acknowledged record', () => {
    const d = orders();
    d.do({ type: 'startProducer', producerId: 'p1', topic: 'orders', ratePerSec: 100, acks: 'all' });
    d.advance(5000);
    const victim = d.partition('orders', 0).leader;
    d.crash(victim);
    const crashAt = d.sim.nowMs;
    d.advance(30000);
    const p = producer(d, 'p1');
    expect(p.failed).toEqual({});
    expect(p.retries).toBeGreaterThan(0);
    expect(p.latencyP50Ms).toBeGreaterThan(0);
    expect(p.latencyP99Ms!).toBeGreaterThanOrEqual(p.latencyP50Ms!);
    expect(p.idempotent).toBe(true);
    // Some records were acknowledged by the new leaders after the crash.
    const moved = d.sim
      .ledger()
      .filter((e) => e.ackedAtMs! > crashAt && e.attempts.some((a) => a.brokerId === victim));
    expect(moved.length).toBeGreaterThan(0);
    for (const e of moved) expect(e.attempts.at(-1)!.brokerId).not.toBe(victim);
    expect(d.sim.lostAcknowledged()).toEqual([]);
  });
});

describe('a produce response is lost, then the network heals', () => {
  const run = (idempotence: boolean) => {
    const d = cluster({
      topics: [{ name: 't', partitions: 1, replicationFactor: 3, assignment: [[2, 3, 4]] }],
    }).settle();
    d.do({
      type: 'startProducer',
      producerId: 'producer-1',
      topic: 't',
      ratePerSec: 0,
      config: { 'enable.idempotence': idempotence, 'request.timeout.ms': 5000 },
    });
    d.advance(1000);
    d.cut(2, 'producer-1', { oneWay: true });
    d.produce('t', 'once', 'all', { producerId: 'producer-1' }).advance(3000);
    expect(d.entry('once').status).toBe('pending');
    d.heal();
    d.until((x) => x.entry('once').status !== 'pending', 20000);
    expect(d.entry('once').status).toBe('acked');
    expect(d.entry('once').attempts.length).toBe(2);
    d.advance(1000);
    return d.sim.committedRecords('t', 0).filter((r) => r.value === 'once').length;
  };

  it('with idempotence (the default) the broker keeps exactly one copy', () => {
    expect(run(true)).toBe(1);
  });

  it('with enable.idempotence=false the retry writes a duplicate', () => {
    expect(run(false)).toBe(2);
  });
});

describe('producer configuration', () => {
  it('acks=1 turns idempotence off silently, unless enable.idempotence=true is set: then ConfigException', () => {
    const d = orders();
    d.do({ type: 'startProducer', producerId: 'a', topic: 'orders', ratePerSec: 0, acks: 1 });
    expect(producer(d, 'a').idempotent).toBe(false);
    const r = d.sim.apply({
      type: 'startProducer',
      producerId: 'b',
      topic: 'orders',
      ratePerSec: 1,
      acks: 1,
      config: { 'enable.idempotence': true },
    });
    expect(r).toEqual({
      ok: false,
      error:
        'command.config: ConfigException: Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence.',
    });
  });

  it('the snapshot shows every producer config with Kafka defaults', () => {
    const d = orders();
    d.do({
      type: 'startProducer',
      producerId: 'a',
      topic: 'orders',
      ratePerSec: 5,
      config: { 'linger.ms': 20 },
    });
    expect(producer(d, 'a').config).toMatchObject({
      acks: 'all',
      'enable.idempotence': true,
      'linger.ms': 20,
      'batch.size': 16384,
      'delivery.timeout.ms': 120000,
      'max.block.ms': 60000,
    });
  });
});

describe('every bootstrap broker is down', () => {
  it('the producer reports it, records fail after max.block.ms, and it recovers when one returns', () => {
    const d = cluster({
      topics: [
        {
          name: 't',
          partitions: 1,
          replicationFactor: 3,
          assignment: [[4, 2, 3]],
          config: { 'min.insync.replicas': 1 },
        },
      ],
    }).settle();
    d.crash(2).crash(3).advance(1000);
    d.do({
      type: 'startProducer',
      producerId: 'p',
      topic: 't',
      ratePerSec: 1,
      config: { 'bootstrap.servers': '2,3' },
    });
    d.until((x) => x.events('ProducerNoMetadata').length > 0, 5000);
    expect(d.events('ProducerNoMetadata')[0]!.message).toContain(
      'p cannot reach any bootstrap server (2, 3): no metadata',
    );
    d.advance(65000);
    expect(producer(d, 'p').failed).toEqual({ TimeoutException: 1 });
    expect(d.events('ProduceFailed')[0]!.message).toContain('Topic t not present in metadata after 60000 ms');
    d.restart(3).until((x) => x.events('ProducerMetadataRecovered').length > 0, 30000);
    d.advance(10000);
    expect(producer(d, 'p').acknowledged).toBeGreaterThan(5);
    expect(producer(d, 'p').metadataFrom).toBe(3);
  });
});

describe('a consumer group of three on six partitions (range assignor)', () => {
  it('each member gets two partitions; a crashed member loses its partitions after the session timeout, and its uncommitted records are consumed again', () => {
    const d = orders();
    d.do({
      type: 'startProducer',
      producerId: 'p1',
      topic: 'orders',
      ratePerSec: 30,
      keyPattern: 'k{n}',
      keyCount: 30,
    });
    for (const id of ['c1', 'c2', 'c3']) startConsumer(d, id, { 'enable.auto.commit': false });
    d.until((x) => stable(x, 3), 20000);
    const g = group(d);
    expect(g.protocol).toBe('range');
    expect(g.coordinator).toBe(d.partition('__consumer_offsets', offsetsPartitionFor('g', 3)).leader);
    const byConsumer = Object.fromEntries(
      g.members.map((m) => [m.consumerId, m.assignment.map((a) => a.partition)]),
    );
    expect(byConsumer).toEqual({ c1: [0, 1], c2: [2, 3], c3: [4, 5] });

    d.advance(5000);
    for (const id of ['c1', 'c2', 'c3']) d.do({ type: 'commitOffsets', consumerId: id });
    d.advance(1000);
    const committed = new Map(group(d).offsets.map((o) => [o.partition, o.committed]));
    expect(committed.get(2)).toBeGreaterThan(0);
    d.advance(4000); // c2 consumes more, without committing
    const before = d.sim
      .consumedRecords('g')
      .filter((r) => r.consumerId === 'c2' && r.offset >= committed.get(r.partition)!);
    expect(before.length).toBeGreaterThan(0);
    d.do({ type: 'stopConsumer', consumerId: 'c2', graceful: false });
    const crashAt = d.sim.nowMs;
    d.advance(40000);
    expect(group(d).members.map((m) => m.consumerId)).toContain('c2'); // not yet: session.timeout.ms is 45 s
    d.until((x) => stable(x, 2), 20000);
    const removed = d.expectEvent('MemberRemoved', (e) => e.consumerId === 'c2');
    // session.timeout.ms counts from its last heartbeat, at most heartbeat.interval.ms (3 s) before the crash.
    expect(removed.timeMs - crashAt).toBeGreaterThan(45000 - 3000);
    expect(removed.timeMs - crashAt).toBeLessThanOrEqual(45000);
    const after = group(d)
      .members.flatMap((m) => m.assignment.map((a) => a.partition))
      .sort();
    expect(after).toEqual([0, 1, 2, 3, 4, 5]);
    d.advance(5000);
    // Everything c2 had consumed after its commit is delivered again, to its partitions' new owners.
    const again = d.sim.consumedRecords('g').filter((r) => r.consumerId !== 'c2');
    for (const r of before)
      expect(
        again.some((x) => x.partition === r.partition && x.offset === r.offset && x.recordId === r.recordId),
      ).toBe(true);
  });

  it('a member that leaves gracefully is gone at once (LeaveGroup), and the lag is HW minus committed', () => {
    const d = orders();
    d.do({
      type: 'startProducer',
      producerId: 'p1',
      topic: 'orders',
      ratePerSec: 20,
      keyPattern: 'k{n}',
      keyCount: 12,
    });
    for (const id of ['c1', 'c2']) startConsumer(d, id);
    d.until((x) => stable(x, 2), 20000).advance(12000);
    d.do({ type: 'stopConsumer', consumerId: 'c1' });
    d.until((x) => stable(x, 1), 6000);
    expect(d.events('MemberLeft').map((e) => e.consumerId)).toEqual(['c1']);
    d.do({ type: 'stopProducer', producerId: 'p1' }).advance(12000);
    const g = group(d);
    expect(g.offsets).toHaveLength(6);
    for (const o of g.offsets) {
      expect(o.lag).toBe(o.highWatermark - o.committed);
      expect(o.lag).toBe(0); // auto-commit caught up once the producer stopped
    }
  });
});

describe('the group coordinator fails over', () => {
  it('the new leader of the __consumer_offsets partition loads the committed offsets and the group; nothing is consumed twice', () => {
    const d = orders();
    d.do({
      type: 'startProducer',
      producerId: 'p1',
      topic: 'orders',
      ratePerSec: 20,
      keyPattern: 'k{n}',
      keyCount: 12,
    });
    for (const id of ['c1', 'c2']) startConsumer(d, id);
    d.until((x) => stable(x, 2), 20000).advance(11000);
    const g = group(d);
    const committed = g.offsets.map((o) => o.committed);
    d.crash(g.coordinator);
    d.until((x) => group(x).coordinator >= 0 && group(x).coordinator !== g.coordinator, 20000);
    d.advance(15000);
    const after = group(d);
    expect(d.events('GroupLoaded').at(-1)).toMatchObject({ nodeId: after.coordinator, groupId: 'g' });
    expect(after.state).toBe('Stable');
    expect(after.generation).toBe(g.generation);
    after.offsets.forEach((o, i) => expect(o.committed).toBeGreaterThanOrEqual(committed[i]!));
    expect(consumer(d, 'c1').coordinator).toBe(after.coordinator);
    // The crashed broker also led some `orders` partitions: consumption carried on from their new leaders.
    const trace = d.sim.consumedRecords('g');
    expect(new Set(trace.map((r) => r.recordId)).size).toBe(trace.length);
  });
});

describe('cooperative-sticky', () => {
  it('a third member joins in two rebalances; members keep the partitions they had where they can', () => {
    const d = orders();
    const cfg = { 'partition.assignment.strategy': 'cooperative-sticky' };
    startConsumer(d, 'c1', cfg);
    startConsumer(d, 'c2', cfg);
    d.until((x) => stable(x, 2), 20000);
    const first = new Map(group(d).members.map((m) => [m.consumerId, m.assignment.map((a) => a.partition)]));
    startConsumer(d, 'c3', cfg);
    d.until((x) => stable(x, 3) && group(x).members.every((m) => m.assignment.length === 2), 30000);
    const g = group(d);
    expect(g.protocol).toBe('cooperative-sticky');
    for (const m of g.members.filter((x) => x.consumerId !== 'c3'))
      for (const a of m.assignment) expect(first.get(m.consumerId)).toContain(a.partition);
    expect(d.events('GroupRebalance').length).toBeGreaterThanOrEqual(3);
  });
});

describe('scenarios with clients', () => {
  const base = {
    version: 1,
    seed: 1,
    nodes: [
      { id: 1, roles: ['controller'] },
      { id: 2, roles: ['broker'] },
    ],
    topics: [{ name: 'orders', partitions: 2, replicationFactor: 1 }],
  };
  const step = (command: Command) => ({ ...base, script: [{ atMs: 0, command }] });

  it('accepts startProducer and startConsumer at atMs 0 on a topic the scenario creates, and refuses an unknown one', () => {
    expect(
      validateScenario(step({ type: 'startProducer', producerId: 'p', topic: 'orders', ratePerSec: 5 })),
    ).toEqual([]);
    expect(
      validateScenario(step({ type: 'startConsumer', consumerId: 'c', groupId: 'g', topics: ['ordrs'] })),
    ).toEqual([
      {
        path: 'script[0].command.topics[0]',
        message: 'no topic "ordrs": create it in "topics" or with a createTopic step first',
      },
    ]);
  });

  it('a producer and a consumer started at 0 ms wait for the topic, then flow (RF 1 offsets topic)', () => {
    const d = cluster({
      config: { 'offsets.topic.replication.factor': 1, 'offsets.topic.num.partitions': 1 },
      topics: [{ name: 'orders', partitions: 2, replicationFactor: 1 }],
    });
    d.do({ type: 'startProducer', producerId: 'p', topic: 'orders', ratePerSec: 5 });
    d.do({ type: 'startConsumer', consumerId: 'c', groupId: 'g', topics: ['orders'] });
    d.advance(30000);
    expect(producer(d, 'p').failed).toEqual({});
    expect(producer(d, 'p').acknowledged).toBeGreaterThan(100);
    expect(group(d).state).toBe('Stable');
    expect(consumer(d, 'c').recordsConsumed).toBeGreaterThan(50);
  });

  it('a checkpoint taken while clients run continues exactly as the original', () => {
    const d = orders(3);
    d.do({ type: 'startProducer', producerId: 'p', topic: 'orders', ratePerSec: 40, keyPattern: 'k{n}' });
    startConsumer(d, 'c1');
    startConsumer(d, 'c2');
    d.advance(12000);
    const copy = d.sim.clone();
    d.crash(2).advance(20000);
    copy.apply({ type: 'crashNode', nodeId: 2 });
    copy.advance(20000);
    expect(copy.stateHash()).toBe(d.sim.stateHash());
    expect(copy.consumedRecords('g')).toEqual(d.sim.consumedRecords('g'));
  });

  it('the same seed gives the same stateHash with producers and consumers (seed 9)', () => {
    const run = () => {
      const d = orders(9);
      d.do({ type: 'startProducer', producerId: 'p', topic: 'orders', ratePerSec: 40, keyPattern: 'k{n}' });
      startConsumer(d, 'c1');
      startConsumer(d, 'c2');
      d.advance(20000).crash(3).advance(20000);
      return d.sim.stateHash();
    };
    expect(run()).toBe(run());
  });
});

describe('the log is truncated below a consumer position (KIP-320)', () => {
  it('after an unclean election the consumer detects the divergence, seeks back to it, and reads the new records', () => {
    const d = cluster({
      config: { 'offsets.topic.num.partitions': 1 },
      topics: [{ name: 't', partitions: 1, replicationFactor: 3, assignment: [[2, 3, 4]] }],
    }).settle();
    d.startConsumer('c', 'g', ['t'], { 'auto.offset.reset': 'earliest' });
    d.produce('t', 'kept').advance(10000);
    d.crash(4).advance(15000); // broker 4 leaves the ISR with only 'kept'
    for (const v of ['a', 'b', 'c']) d.produce('t', v);
    d.until((x) => consumer(x, 'c').positions[0]?.offset === 4, 10000);
    d.crash(2).crash(3).advance(15000).restart(4).advance(15000);
    d.do({ type: 'electLeaders', electionType: 'unclean' }).advance(5000);
    d.expectLeader('t', 0, 4);
    d.until((x) => x.events('ConsumerLogTruncationDetected').length > 0, 30000);
    expect(d.events('ConsumerLogTruncationDetected')[0]).toMatchObject({ from: 4, to: 1, partition: 0 });
    // The producer's next sequence number no longer follows the truncated log: that record fails
    // with OUT_OF_ORDER_SEQUENCE_NUMBER and the producer bumps its epoch (KIP-360).
    d.produce('t', 'refused').until((x) => x.entry('refused').status === 'failed', 20000);
    expect(d.entry('refused').error).toBe('OUT_OF_ORDER_SEQUENCE_NUMBER');
    d.produce('t', 'after');
    d.until((x) => x.sim.consumedRecords('g').some((r) => r.value === 'after'), 20000);
    const trace = d.sim.consumedRecords('g').map((r) => `${r.offset}:${r.value}`);
    expect(trace).toEqual(['0:kept', '1:a', '2:b', '3:c', '1:after']);
    expect(d.events('ProducerEpochBumped')).toHaveLength(1);
  });
});

describe('at-least-once under broker failures', () => {
  it.each([1, 2, 3])(
    'every acknowledged record reaches the group at least once, in order per key (seed %i)',
    (seed) => {
      const d = orders(seed);
      d.do({
        type: 'startProducer',
        producerId: 'p',
        topic: 'orders',
        ratePerSec: 50,
        keyPattern: 'k{n}',
        keyCount: 24,
      });
      for (const id of ['c1', 'c2', 'c3']) startConsumer(d, id);
      const brokers = [2, 3, 4];
      const first = brokers[seed % 3]!;
      const second = brokers[(seed + 1) % 3]!;
      d.advance(20000).crash(first).advance(40000).restart(first).advance(30000);
      d.crash(second).advance(40000).restart(second).advance(20000);
      d.do({ type: 'stopProducer', producerId: 'p' }).advance(90000);
      const acked = d.sim.ledger().filter((e) => e.status === 'acked');
      expect(acked.length).toBeGreaterThan(5000);
      expect(d.sim.lostAcknowledged()).toEqual([]);
      const trace = d.sim.consumedRecords('g');
      const seen = new Set(trace.map((r) => r.recordId));
      expect(acked.filter((e) => !seen.has(e.recordId))).toEqual([]);
      for (const values of firstDeliveries(trace).values())
        expect(values).toEqual([...values].sort((a, b) => a - b));
      expect(group(d).state).toBe('Stable');
      expect(group(d).totalLag).toBe(0);
    },
  );
});

describe('a group through a coordinator crash, a member crash and a member cut from its coordinator', () => {
  it.each([
    [4, 'range'],
    [7, 'cooperative-sticky'],
  ])(
    'nothing acknowledged is missed, and the group ends Stable with no lag (seed %i, %s)',
    (seed, strategy) => {
      const cfg = { 'partition.assignment.strategy': strategy };
      const d = groupChaos(seed, (x, id) => startConsumer(x, id, cfg));
      const seen = new Set(d.sim.consumedRecords('g').map((r) => r.recordId));
      const acked = d.sim.ledger().filter((e) => e.status === 'acked');
      expect(acked.length).toBe(6001);
      expect(acked.filter((e) => !seen.has(e.recordId))).toEqual([]);
      const g = group(d);
      expect(g.state).toBe('Stable');
      expect(g.members.map((m) => m.consumerId).sort()).toEqual(['c1', 'c2', 'c3']);
      expect(g.totalLag).toBe(0);
    },
  );
});

describe('offsets.topic.replication.factor above the number of brokers', () => {
  it('consumers get COORDINATOR_NOT_AVAILABLE until a third broker joins, then the group forms', () => {
    const d = cluster({
      brokers: 2,
      topics: [{ name: 'orders', partitions: 2, replicationFactor: 2 }],
    }).settle();
    d.do({ type: 'startConsumer', consumerId: 'c', groupId: 'g', topics: ['orders'] });
    d.advance(20000);
    expect(d.events('OffsetsTopicNotCreated')[0]!.message).toContain(
      "Number of alive brokers '2' does not meet the required replication factor '3' for the offsets topic",
    );
    expect(group(d).state).toBe('Dead');
    expect(d.sim.snapshot().topics.map((t) => t.name)).toEqual(['orders']);
    d.do({ type: 'addNode', nodeId: 9, roles: ['broker'] });
    d.until((x) => group(x)?.state === 'Stable', 30000);
    expect(d.sim.snapshot().topics.find((t) => t.name === '__consumer_offsets')).toMatchObject({
      partitions: 50,
      replicationFactor: 3,
    });
  });
});
