// Consumer groups under random faults, with either protocol: whatever happens to brokers, links and
// members, once the faults heal and the members run again the group settles and reads every
// acknowledged record at least once (at-least-once delivery; Kafka's default consumer semantics).
// acks=all with min.insync.replicas=2 and clean elections: no acknowledged record is lost.
// Replay a failure: PROPERTY_SEED=<seed> npx vitest run src/sim/groups.properties.test.ts
// (GROUP_PROPERTY_RUNS changes the count).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Driver } from '../testing/driver';
import { cluster } from '../testing/driver';

const FC_SEED = Number(process.env.PROPERTY_SEED ?? 20251130);
const RUNS = Number(process.env.GROUP_PROPERTY_RUNS ?? 24);
const MEMBERS = ['c1', 'c2', 'c3'];
const BROKERS = [2, 3, 4];

type Fault =
  | { type: 'crashBroker'; pick: number }
  | { type: 'restartBroker'; pick: number }
  | { type: 'cutMember'; pick: number }
  | { type: 'heal' }
  | { type: 'crashMember'; pick: number }
  | { type: 'startMember'; pick: number };

const fault: fc.Arbitrary<Fault> = fc.oneof(
  fc.record({ type: fc.constant('crashBroker' as const), pick: fc.nat(2) }),
  fc.record({ type: fc.constant('restartBroker' as const), pick: fc.nat(2) }),
  fc.record({ type: fc.constant('cutMember' as const), pick: fc.nat(2) }),
  fc.record({ type: fc.constant('heal' as const) }),
  fc.record({ type: fc.constant('crashMember' as const), pick: fc.nat(2) }),
  fc.record({ type: fc.constant('startMember' as const), pick: fc.nat(2) }),
);

const runs = fc.record({
  seed: fc.nat(1_000_000),
  protocol: fc.constantFrom('classic', 'consumer'),
  steps: fc.array(fc.record({ fault, afterMs: fc.integer({ min: 100, max: 20_000 }) }), {
    minLength: 1,
    maxLength: 8,
  }),
});

function startMember(d: Driver, id: string, protocol: string): void {
  d.sim.apply({
    type: 'startConsumer',
    consumerId: id,
    groupId: 'g',
    topics: ['orders'],
    config: { 'auto.offset.reset': 'earliest', 'group.protocol': protocol },
  });
}

const running = (d: Driver, id: string) => {
  const c = d.sim.snapshot().clients.consumers.find((x) => x.id === id);
  return !!c && c.state !== 'stopped' && c.state !== 'crashed';
};

function apply(d: Driver, f: Fault, protocol: string): void {
  const broker = BROKERS[f.type === 'heal' ? 0 : f.pick]!;
  const member = MEMBERS[f.type === 'heal' ? 0 : f.pick]!;
  switch (f.type) {
    case 'crashBroker':
      d.sim.apply({ type: 'crashNode', nodeId: broker });
      return;
    case 'restartBroker':
      d.sim.apply({ type: 'restartNode', nodeId: broker });
      return;
    case 'cutMember': {
      const g = d.sim.snapshot().clients.groups.find((x) => x.groupId === 'g');
      if (g && g.coordinator >= 0) d.sim.apply({ type: 'cutLink', from: member, to: g.coordinator });
      return;
    }
    case 'heal':
      d.sim.apply({ type: 'healNetwork' });
      return;
    case 'crashMember':
      d.sim.apply({ type: 'stopConsumer', consumerId: member, graceful: false });
      return;
    case 'startMember':
      if (!running(d, member)) startMember(d, member, protocol);
  }
}

describe(`consumer groups under random faults (fast-check seed ${FC_SEED})`, () => {
  it(`${RUNS} runs of either protocol: after recovery the group is Stable and read every acknowledged record`, () => {
    fc.assert(
      fc.property(runs, ({ seed, protocol, steps }) => {
        const d = cluster({
          seed,
          jitterMs: 2,
          // Without ELR: with it, a partition whose every replica crashed stays offline until an
          // unclean election (KIP-966), which recovery here does not make.
          config: { 'offsets.topic.num.partitions': 3, 'eligible.leader.replicas.version': 0 },
          topics: [
            { name: 'orders', partitions: 6, replicationFactor: 3, config: { 'min.insync.replicas': 2 } },
          ],
        }).settle();
        d.do({
          type: 'startProducer',
          producerId: 'p',
          topic: 'orders',
          ratePerSec: 20,
          keyPattern: 'k{n}',
          keyCount: 12,
        });
        for (const id of MEMBERS) startMember(d, id, protocol);
        d.advance(10_000);
        for (const s of steps) {
          apply(d, s.fault, protocol);
          d.advance(s.afterMs);
        }
        // Recovery: the network heals, every broker and member runs again, the producer stops. A
        // request lost on a cut link is only given up at its timeout, as over a silent TCP connection:
        // for a classic JoinGroup that is max.poll.interval.ms + 5 s (AbstractCoordinator), 305 s.
        d.sim.apply({ type: 'healNetwork' });
        for (const b of BROKERS) d.sim.apply({ type: 'restartNode', nodeId: b });
        for (const id of MEMBERS) if (!running(d, id)) startMember(d, id, protocol);
        d.advance(330_000).do({ type: 'stopProducer', producerId: 'p' }).advance(120_000);

        const g = d.sim.snapshot().clients.groups.find((x) => x.groupId === 'g')!;
        const consumed = new Set(d.sim.consumedRecords('g').map((r) => r.recordId));
        const acked = d.sim.ledger().filter((e) => e.status === 'acked' && e.topic === 'orders');
        const missed = acked.filter((e) => !consumed.has(e.recordId)).map((e) => e.value);
        expect({
          missed: missed.slice(0, 5),
          state: g.state,
          members: g.members.length,
          lag: g.totalLag,
        }).toEqual({
          missed: [],
          state: 'Stable',
          members: 3,
          lag: 0,
        });
      }),
      { seed: FC_SEED, numRuns: RUNS },
    );
  });
});
