// Exactly-once consume-transform-produce under random faults (KIP-98, KIP-447): whatever happens to
// the brokers and to the processor (crashes, restarts, at any moment of a transaction), once the
// cluster heals and the processor runs again, every input record appears exactly once in the output
// for a read_committed reader, and the group's committed offsets reach the end of the input.
// Replay a failure: PROPERTY_SEED=<seed> npx vitest run src/sim/txn/processor.properties.test.ts
// (EOS_PROPERTY_RUNS changes the count).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Driver } from '../testing/driver';
import { cluster } from '../testing/driver';

const FC_SEED = Number(process.env.PROPERTY_SEED ?? 20261202);
const RUNS = Number(process.env.EOS_PROPERTY_RUNS ?? 200);
const BROKERS = [2, 3, 4];

type Fault =
  | { type: 'crashBroker'; pick: number }
  | { type: 'restartBroker'; pick: number }
  | { type: 'crashProcessor' }
  | { type: 'startProcessor' };

const fault: fc.Arbitrary<Fault> = fc.oneof(
  fc.record({ type: fc.constant('crashBroker' as const), pick: fc.nat(2) }),
  fc.record({ type: fc.constant('restartBroker' as const), pick: fc.nat(2) }),
  fc.record({ type: fc.constant('crashProcessor' as const) }),
  fc.record({ type: fc.constant('startProcessor' as const) }),
);

const schedules = fc.array(fc.record({ fault, afterMs: fc.integer({ min: 1, max: 3000 }) }), {
  minLength: 1,
  maxLength: 5,
});

function startProcessor(d: Driver): void {
  d.sim.apply({
    type: 'startProcessor',
    processorId: 'app',
    groupId: 'shipper',
    inputTopic: 'orders',
    outputTopic: 'shipments',
    processingGuarantee: 'exactly_once_v2',
    commitIntervalMs: 1000,
    config: { 'session.timeout.ms': 6000, 'heartbeat.interval.ms': 1000 },
  });
}

const processor = (d: Driver) => d.sim.snapshot().clients.processors.find((p) => p.processorId === 'app')!;
const running = (d: Driver) => ['running', 'stopping'].includes(processor(d).state);

function apply(d: Driver, f: Fault): void {
  if (f.type === 'crashProcessor') {
    if (running(d)) d.sim.apply({ type: 'stopProcessor', processorId: 'app', graceful: false });
  } else if (f.type === 'startProcessor') {
    if (!running(d)) startProcessor(d);
  } else {
    const node = BROKERS[f.pick]!;
    const up = d.node(node)?.state === 'running';
    if (f.type === 'crashBroker' && up) d.crash(node);
    if (f.type === 'restartBroker' && !up) d.restart(node);
  }
}

/** A small settled scene, forked for every schedule: a source at 10 records/s and the processor caught up. */
function baseScene(): Driver {
  const d = cluster({
    brokers: 3,
    config: { 'offsets.topic.num.partitions': 1, 'transaction.state.log.num.partitions': 1 },
    topics: [
      { name: 'orders', partitions: 2, replicationFactor: 3 },
      { name: 'shipments', partitions: 2, replicationFactor: 3 },
    ],
  })
    .settle()
    .advance(500);
  d.do({ type: 'startProducer', producerId: 'src', topic: 'orders', ratePerSec: 10, keyPattern: 'k{n}' });
  startProcessor(d);
  return d.advance(6000);
}

describe('an exactly_once_v2 processor under random broker and processor crashes', () => {
  const base = baseScene();
  it(`writes every input exactly once for read_committed (${RUNS} schedules, seed ${FC_SEED})`, () => {
    fc.assert(
      fc.property(schedules, (steps) => {
        const d = base.fork();
        for (const { fault: f, afterMs } of steps) {
          apply(d, f);
          d.advance(afterMs);
        }
        // Heal: every broker up, the source stopped, the processor running again.
        d.sim.apply({ type: 'stopProducer', producerId: 'src' });
        for (const b of BROKERS) if (d.node(b)?.state !== 'running') d.restart(b);
        d.advance(2000);
        if (!running(d)) startProcessor(d);
        d.advance(40000);
        const view = processor(d);
        const group = d.sim.snapshot().clients.groups.find((g) => g.groupId === 'shipper')!;
        const story = `schedule ${JSON.stringify(steps)}`;
        // The group committed to the end of the input, and each input has one committed output.
        expect(group.totalLag, story).toBe(0);
        expect(view.outputExactlyOnce.none, story).toBe(0);
        expect(view.outputExactlyOnce.duplicated, story).toBe(0);
        expect(view.outputExactlyOnce.inputs, story).toBe(view.outputExactlyOnce.exactlyOnce);
        expect(view.outputExactlyOnce.inputs, story).toBeGreaterThan(0);
      }),
      { seed: FC_SEED, numRuns: RUNS, endOnFailure: true },
    );
  });
});
