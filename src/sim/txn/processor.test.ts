// Story tests of the consume-transform-produce processor (Kafka Streams' processing.guarantee):
// what a Kafka expert would check of exactly_once_v2 and at_least_once under crashes.

import { describe, expect, test } from 'vitest';
import { cluster, type Driver } from '../testing/driver';
import type { StartProcessor } from '../model/types';

const INPUT = 'orders';
const OUTPUT = 'shipments';

function scene(): Driver {
  return cluster({
    brokers: 3,
    topics: [
      { name: INPUT, partitions: 2, replicationFactor: 3 },
      { name: OUTPUT, partitions: 2, replicationFactor: 3 },
    ],
  })
    .settle()
    .advance(500);
}

function startApp(d: Driver, over: Partial<StartProcessor> = {}): Driver {
  return d.do({
    type: 'startProcessor',
    processorId: 'app',
    groupId: 'shipper',
    inputTopic: INPUT,
    outputTopic: OUTPUT,
    processingGuarantee: 'exactly_once_v2',
    // A restarted member replaces the crashed one sooner than Kafka's 45 s.
    config: { 'session.timeout.ms': 10000 },
    ...over,
  });
}

function view(d: Driver) {
  return d.sim.snapshot().clients.processors.find((p) => p.processorId === 'app')!;
}

function delivery(d: Driver, groupId = 'shipper') {
  return d.sim.snapshot().clients.deliveries.find((x) => x.groupId === groupId)!;
}

/** Input records sent so far, all acknowledged. */
function feed(d: Driver, n: number): Driver {
  d.do({ type: 'produce', producerId: 'src', topic: INPUT, value: 'order', key: 'k', count: n });
  return d.until(
    (x) => x.sim.ledger().filter((e) => e.topic === INPUT && e.status === 'acked').length >= n,
    20000,
  );
}

describe('an exactly_once_v2 processor', () => {
  test('writes every input once to the output for read_committed readers, offsets in the same transactions', () => {
    const d = startApp(scene());
    feed(d, 50).advance(10000);
    const v = view(d);
    expect(v.transactionalId).toBe('shipper-app');
    expect(v.outputExactlyOnce).toMatchObject({ inputs: 50, exactlyOnce: 50, none: 0, duplicated: 0 });
    // The offsets became the group's only when the COMMIT marker reached __consumer_offsets.
    d.expectEvent('TxnOffsetsCommitted', (e) => e.groupId === 'shipper');
    // The output carries the input's key and a transformed value.
    const out = d.sim.ledger().filter((e) => e.topic === OUTPUT);
    expect(out[0]!.key).toBe('k');
    expect(out[0]!.value).toBe('→order-0');
  });

  test('a crash mid-transaction: the restarted instance fences the zombie, aborts its transaction, and no input is written twice', () => {
    const d = startApp(scene(), { commitIntervalMs: 5000 });
    feed(d, 20).advance(8000);
    feed(d, 20);
    // Records are processed into an open transaction that will never commit.
    d.until((x) => view(x).processed >= 40, 10000).advance(50);
    d.do({ type: 'stopProcessor', processorId: 'app', graceful: false });
    d.expectEvent('ProcessorCrashed');
    startApp(d, { commitIntervalMs: 5000 });
    d.until((x) => x.events('TransactionFencedOnInit').length > 0, 20000);
    d.advance(40000);
    // The zombie's transaction was aborted with a bumped epoch: its outputs are never read_committed.
    d.expectEvent('TransactionAborted', (e) => e.transactionalId === 'shipper-app');
    expect(d.transactionOf('app-producer')!.epoch).toBe(2);
    expect(view(d).outputExactlyOnce).toMatchObject({ inputs: 40, exactlyOnce: 40, none: 0, duplicated: 0 });
    // The group saw the records of the aborted transaction twice (processed, then again): duplicates
    // for a read_uncommitted reader, not for a read_committed one.
    expect(delivery(d).duplicates).toBeGreaterThan(0);
  });
});

describe('when the transaction coordinator crashes in the middle of a commit', () => {
  test('the next leader of its __transaction_state partition completes it: each input once, offsets included', () => {
    const d = startApp(scene(), { commitIntervalMs: 2000 });
    feed(d, 30).advance(6000);
    feed(d, 30);
    // Catch a commit after PrepareCommit is written, before its markers are all out.
    d.until((x) => x.coordinatorState('shipper-app')?.state === 'PrepareCommit', 20000, 1);
    const coordinator = d.coordinatorState('shipper-app')!.nodeId;
    d.crash(coordinator);
    d.advance(30000).restart(coordinator).advance(30000);
    d.expectEvent('TransactionRecovered', (e) => e.transactionalId === 'shipper-app');
    expect(view(d).outputExactlyOnce).toMatchObject({ inputs: 60, exactlyOnce: 60, none: 0, duplicated: 0 });
  });
});

describe('an at_least_once processor', () => {
  test('a crash after processing and before the commit writes those inputs twice', () => {
    const d = startApp(scene(), { processingGuarantee: 'at_least_once', commitIntervalMs: 30000 });
    feed(d, 30).advance(8000);
    d.do({ type: 'stopProcessor', processorId: 'app', graceful: false });
    startApp(d, { processingGuarantee: 'at_least_once', commitIntervalMs: 1000 });
    d.advance(40000);
    const v = view(d);
    expect(v.outputExactlyOnce.inputs).toBe(30);
    expect(v.outputExactlyOnce.duplicated).toBe(30);
    expect(delivery(d).duplicates).toBe(30);
  });
});

describe('a plain consumer', () => {
  function committed(d: Driver, groupId: string): number {
    const g = d.sim.snapshot().clients.groups.find((x) => x.groupId === groupId);
    return (g?.offsets ?? []).reduce((s, o) => s + Math.max(0, o.committed), 0);
  }

  test('that commits, then processes (at most once) loses the batch it was processing when it crashed', () => {
    const d = scene();
    feed(d, 20);
    d.do({
      type: 'startConsumer',
      consumerId: 'reader-1',
      groupId: 'billing',
      topics: [INPUT],
      config: { 'auto.offset.reset': 'earliest' },
      commitBeforeProcess: true,
      processMs: 5000,
    });
    // The fetched position is committed before the batch is processed: crash in the middle of it.
    d.until((x) => committed(x, 'billing') > 0, 20000).advance(1000);
    d.do({ type: 'stopConsumer', consumerId: 'reader-1', graceful: false });
    d.do({
      type: 'startConsumer',
      consumerId: 'reader-2',
      groupId: 'billing',
      topics: [INPUT],
      config: { 'auto.offset.reset': 'earliest' },
    });
    d.advance(60000);
    const v = delivery(d, 'billing');
    expect(v.missed).toBeGreaterThan(0);
    expect(v.duplicates).toBe(0);
    expect(v.processed + v.missed).toBe(20);
  });

  test('that processes, then commits (at least once) processes again what it did after its last commit', () => {
    const d = scene();
    feed(d, 20);
    d.startConsumer('reader-1', 'billing', [INPUT], {
      'auto.offset.reset': 'earliest',
      'auto.commit.interval.ms': 60000,
    });
    d.until((x) => (delivery(x, 'billing')?.processed ?? 0) === 20, 20000);
    d.do({ type: 'stopConsumer', consumerId: 'reader-1', graceful: false });
    d.startConsumer('reader-2', 'billing', [INPUT], { 'auto.offset.reset': 'earliest' });
    d.advance(60000);
    expect(delivery(d, 'billing')).toMatchObject({ processed: 20, duplicates: 20, missed: 0 });
  });
});
