// Story tests of Kafka's transactions (KIP-98): what a Kafka expert would check with a
// transactional producer, a read_committed and a read_uncommitted consumer.

import { describe, expect, test } from 'vitest';
import { cluster, type Driver } from '../testing/driver';
import type { ConfigValue } from '../model/types';

const TOPIC = 'orders';

function txnCluster(config: Record<string, ConfigValue> = {}): Driver {
  return cluster({ brokers: 3, config, topics: [{ name: TOPIC, partitions: 2, replicationFactor: 3 }] })
    .settle()
    .advance(500);
}

function startTransactional(
  d: Driver,
  producerId: string,
  transactionalId: string,
  config: Record<string, ConfigValue> = {},
): Driver {
  d.do({
    type: 'startProducer',
    producerId,
    topic: TOPIC,
    ratePerSec: 0,
    config: { 'transactional.id': transactionalId, ...config },
  });
  return d.until((x) => x.transactionOf(producerId)?.state === 'READY', 20000);
}

function send(d: Driver, producerId: string, value: string, partition = 0): Driver {
  return d.do({ type: 'produce', producerId, topic: TOPIC, value, key: null, partition });
}

/** The values a group has returned from a partition, in order. */
function valuesRead(d: Driver, groupId: string, partition = 0): string[] {
  return d.sim
    .consumedRecords(groupId)
    .filter((r) => r.partition === partition)
    .map((r) => r.value);
}

/** The group's lag on partition 0 of the topic, as its coordinator reports it. */
function lagOf(d: Driver, groupId: string): number | undefined {
  const g = d.sim.snapshot().clients.groups.find((x) => x.groupId === groupId);
  return g?.offsets.find((o) => o.topic === TOPIC && o.partition === 0)?.lag;
}

function startReaders(d: Driver): Driver {
  d.startConsumer('committed-reader', 'rc', [TOPIC], {
    'isolation.level': 'read_committed',
    'auto.offset.reset': 'earliest',
  });
  d.startConsumer('uncommitted-reader', 'ru', [TOPIC], { 'auto.offset.reset': 'earliest' });
  return d.advance(8000);
}

describe('a committed transaction', () => {
  test('is visible to read_committed consumers only after its COMMIT markers are written', () => {
    const d = startReaders(startTransactional(txnCluster(), 'tx', 'payments'));
    d.do({ type: 'beginTransaction', producerId: 'tx' });
    send(d, 'tx', 'debit', 0);
    send(d, 'tx', 'credit', 1);
    d.advance(2000);
    // The records are written and replicated (below the HW), but the transaction is open.
    expect(d.stableOffsets(TOPIC, 0)).toEqual({ highWatermark: 1, lastStableOffset: 0, ongoing: [0] });
    expect(valuesRead(d, 'ru', 0)).toEqual(['debit']);
    expect(valuesRead(d, 'rc', 0)).toEqual([]);

    d.do({ type: 'commitTransaction', producerId: 'tx' });
    // PrepareCommit is durable in __transaction_state before any marker exists.
    d.until((x) => x.coordinatorState('payments')?.state === 'PrepareCommit', 5000, 1);
    expect(d.leaderLog(TOPIC, 0).some((r) => r.control)).toBe(false);
    expect(valuesRead(d, 'rc', 0)).toEqual([]);

    d.until((x) => x.events('TransactionCommitted').length > 0, 5000, 1).advance(2000);
    // The marker takes offset 1; the LSO catches up with the HW once the marker is replicated.
    expect(d.leaderLog(TOPIC, 0).map((r) => [r.offset, r.value, r.control ?? null])).toEqual([
      [0, 'debit', null],
      [1, 'COMMIT', 'COMMIT'],
    ]);
    expect(d.stableOffsets(TOPIC, 0)).toEqual({ highWatermark: 2, lastStableOffset: 2, ongoing: [] });
    expect(valuesRead(d, 'rc', 0)).toEqual(['debit']);
    expect(valuesRead(d, 'rc', 1)).toEqual(['credit']);
    // No consumer returns the control record, read_uncommitted neither.
    expect(valuesRead(d, 'ru', 0)).toEqual(['debit']);
    expect(d.entry('debit').transaction).toBe('committed');
    const committed = d.expectEvent('TransactionCommitted');
    expect(committed.message).toContain('orders-0@1, orders-1@1');
  });
});

describe('an aborted transaction', () => {
  test('is never returned to read_committed consumers; read_uncommitted ones see its records', () => {
    const d = startReaders(startTransactional(txnCluster(), 'tx', 'payments'));
    d.do({ type: 'beginTransaction', producerId: 'tx' });
    send(d, 'tx', 'oops-1');
    send(d, 'tx', 'oops-2');
    d.advance(1000);
    d.do({ type: 'abortTransaction', producerId: 'tx' });
    d.until((x) => x.events('TransactionAborted').length > 0, 5000);
    d.do({ type: 'beginTransaction', producerId: 'tx' });
    send(d, 'tx', 'good');
    d.do({ type: 'commitTransaction', producerId: 'tx' });
    d.until((x) => x.events('TransactionCommitted').length > 0, 5000).advance(3000);

    expect(d.leaderLog(TOPIC, 0).map((r) => r.control ?? r.value)).toEqual([
      'oops-1',
      'oops-2',
      'ABORT',
      'good',
      'COMMIT',
    ]);
    expect(valuesRead(d, 'rc')).toEqual(['good']);
    expect(valuesRead(d, 'ru')).toEqual(['oops-1', 'oops-2', 'good']);
    expect(d.entry('oops-1').transaction).toBe('aborted');
    expect(d.entry('good').transaction).toBe('committed');
    // The read_committed consumer's position is past both markers: offset 5, after the last data record at 3.
    const member = d.sim.snapshot().clients.consumers.find((c) => c.id === 'committed-reader');
    expect(member?.positions.find((p) => p.partition === 0)?.offset).toBe(5);
  });
});

describe('an open transaction', () => {
  test('pins the last stable offset while others write past it, and read_committed lag grows', () => {
    const d = startReaders(startTransactional(txnCluster(), 'tx', 'payments'));
    send(d, 'plain', 'before');
    d.advance(1000);
    d.do({ type: 'beginTransaction', producerId: 'tx' });
    send(d, 'tx', 'pending');
    d.advance(1000);
    for (let i = 0; i < 5; i++) send(d, 'plain', `after-${i}`);
    d.advance(2000);
    // HW 7 (before, pending, five after), LSO 1: the open transaction's first offset.
    expect(d.stableOffsets(TOPIC, 0)).toEqual({ highWatermark: 7, lastStableOffset: 1, ongoing: [1] });
    expect(valuesRead(d, 'rc')).toEqual(['before']);
    expect(valuesRead(d, 'ru')).toHaveLength(7);
    // The groups' lag (HW − committed offset, as kafka-consumer-groups shows it) once both auto-committed.
    d.advance(5000);
    expect(lagOf(d, 'rc')).toBe(6);
    expect(lagOf(d, 'ru')).toBe(0);

    d.do({ type: 'commitTransaction', producerId: 'tx' });
    d.until((x) => x.events('TransactionCommitted').length > 0, 5000).advance(2000);
    expect(d.stableOffsets(TOPIC, 0).lastStableOffset).toBe(8);
    expect(valuesRead(d, 'rc')).toEqual([
      'before',
      'pending',
      'after-0',
      'after-1',
      'after-2',
      'after-3',
      'after-4',
    ]);
    d.advance(5000);
    expect(lagOf(d, 'rc')).toBe(0);
  });
});

describe('a zombie producer', () => {
  test('is fenced when a new instance with the same transactional.id calls initTransactions', () => {
    const d = startReaders(startTransactional(txnCluster(), 'instance-a', 'payments'));
    d.do({ type: 'beginTransaction', producerId: 'instance-a' });
    send(d, 'instance-a', 'from-a');
    d.advance(1000);
    expect(d.transactionOf('instance-a')).toMatchObject({ state: 'IN_TRANSACTION', epoch: 0 });

    // A second instance starts: the coordinator aborts the open transaction with epoch 1, then gives the new one epoch 2.
    startTransactional(d, 'instance-b', 'payments');
    d.expectEvent('TransactionFencedOnInit');
    expect(d.transactionOf('instance-b')).toMatchObject({
      state: 'READY',
      epoch: 2,
      producerId: d.transactionOf('instance-a')!.producerId,
    });
    expect(d.leaderLog(TOPIC, 0).map((r) => r.control ?? r.value)).toEqual(['from-a', 'ABORT']);

    // The zombie still believes in its transaction: its next batch is refused by the partition leader.
    send(d, 'instance-a', 'zombie-write');
    d.until((x) => x.events('ProducerFenced').length > 0, 5000);
    expect(d.entry('zombie-write')).toMatchObject({ status: 'failed', error: 'INVALID_PRODUCER_EPOCH' });
    expect(d.transactionOf('instance-a')?.state).toBe('FATAL_ERROR');
    expect(d.sim.apply({ type: 'commitTransaction', producerId: 'instance-a' })).toMatchObject({ ok: false });

    d.do({ type: 'beginTransaction', producerId: 'instance-b' });
    send(d, 'instance-b', 'from-b');
    d.do({ type: 'commitTransaction', producerId: 'instance-b' });
    d.until((x) => x.events('TransactionCommitted').length > 0, 5000).advance(2000);
    expect(valuesRead(d, 'rc')).toEqual(['from-b']);
  });

  test('that commits after the new instance took over gets PRODUCER_FENCED from the coordinator', () => {
    const d = startTransactional(txnCluster(), 'instance-a', 'payments');
    d.do({ type: 'beginTransaction', producerId: 'instance-a' });
    send(d, 'instance-a', 'from-a');
    d.advance(1000);
    startTransactional(d, 'instance-b', 'payments');
    d.do({ type: 'commitTransaction', producerId: 'instance-a' });
    const fenced = d.until((x) => x.events('ProducerFenced').length > 0, 5000).expectEvent('ProducerFenced');
    expect(fenced.error).toBe('PRODUCER_FENCED');
    expect(d.events('TransactionCommitted')).toHaveLength(0);
  });
});

describe('the transaction coordinator fails over', () => {
  test('the new leader of the __transaction_state partition completes a prepared commit', () => {
    const d = startReaders(startTransactional(txnCluster(), 'tx', 'payments'));
    d.do({ type: 'beginTransaction', producerId: 'tx' });
    send(d, 'tx', 'debit', 0);
    send(d, 'tx', 'credit', 1);
    d.advance(1000);
    const coordinator = d.coordinatorState('payments')!.nodeId;
    // Cut the coordinator off before it can send its markers, then crash it with PrepareCommit written.
    d.do({ type: 'commitTransaction', producerId: 'tx' });
    d.until((x) => x.coordinatorState('payments')?.state === 'PrepareCommit', 5000, 1);
    for (const other of [2, 3, 4].filter((n) => n !== coordinator))
      d.cut(coordinator, other, { oneWay: true });
    d.crash(coordinator).heal();

    d.until((x) => x.events('TransactionCommitted').length > 0, 30000);
    const recovered = d.expectEvent('TransactionRecovered');
    expect(recovered.nodeId).not.toBe(coordinator);
    expect(d.expectEvent('TransactionCommitted').nodeId).toBe(recovered.nodeId);
    d.advance(3000);
    expect(valuesRead(d, 'rc', 0)).toEqual(['debit']);
    expect(valuesRead(d, 'rc', 1)).toEqual(['credit']);
    for (const p of [0, 1]) {
      expect(d.leaderLog(TOPIC, p).filter((r) => r.control === 'COMMIT').length).toBeGreaterThanOrEqual(1);
      const { highWatermark, lastStableOffset } = d.stableOffsets(TOPIC, p);
      expect(lastStableOffset).toBe(highWatermark);
    }
  });
});

describe('transaction.timeout.ms', () => {
  test('the coordinator aborts a transaction whose producer crashed, and bumps the epoch', () => {
    const d = startReaders(
      startTransactional(txnCluster(), 'tx', 'payments', { 'transaction.timeout.ms': 5000 }),
    );
    d.do({ type: 'beginTransaction', producerId: 'tx' });
    send(d, 'tx', 'lost');
    d.advance(1000);
    d.do({ type: 'stopProducer', producerId: 'tx', graceful: false });
    d.expectEvent('ProducerCrashed');
    expect(d.stableOffsets(TOPIC, 0).lastStableOffset).toBe(0);
    // The check runs every transaction.abort.timed.out.transaction.cleanup.interval.ms (10 s).
    d.until((x) => x.events('TransactionAborted').length > 0, 20000);
    const timedOut = d.expectEvent('TransactionTimedOut');
    expect(timedOut.message).toContain('transaction.timeout.ms (5000 ms)');
    expect(d.coordinatorState('payments')).toMatchObject({ state: 'CompleteAbort', epoch: 1 });
    d.advance(2000);
    expect(d.leaderLog(TOPIC, 0).map((r) => r.control ?? r.value)).toEqual(['lost', 'ABORT']);
    expect(d.stableOffsets(TOPIC, 0)).toEqual({ highWatermark: 2, lastStableOffset: 2, ongoing: [] });
    expect(valuesRead(d, 'rc')).toEqual([]);
  });
});

describe('configuration', () => {
  test('a transactional producer needs idempotence (and so acks=all)', () => {
    const d = txnCluster();
    const r = d.sim.apply({
      type: 'startProducer',
      producerId: 'tx',
      topic: TOPIC,
      ratePerSec: 0,
      acks: 1,
      config: { 'transactional.id': 'payments' },
    });
    expect(r).toEqual({
      ok: false,
      error: expect.stringContaining(
        'ConfigException: Cannot set a transactional.id without also enabling idempotence.',
      ),
    });
  });

  test('a transaction.timeout.ms above transaction.max.timeout.ms is refused with INVALID_TRANSACTION_TIMEOUT', () => {
    const d = txnCluster();
    d.do({
      type: 'startProducer',
      producerId: 'tx',
      topic: TOPIC,
      ratePerSec: 0,
      config: { 'transactional.id': 'payments', 'transaction.timeout.ms': 900001 },
    });
    d.until((x) => x.transactionOf('tx')?.state === 'FATAL_ERROR', 20000);
    expect(d.expectEvent('TransactionFailed').error).toBe('INVALID_TRANSACTION_TIMEOUT');
  });

  test('commitTransaction without beginTransaction is an IllegalStateException', () => {
    const d = startTransactional(txnCluster(), 'tx', 'payments');
    const r = d.sim.apply({ type: 'commitTransaction', producerId: 'tx' });
    expect(r).toMatchObject({ ok: false, error: expect.stringContaining('IllegalStateException') });
    const s = d.sim.apply({ type: 'produce', producerId: 'tx', topic: TOPIC, value: 'x' });
    expect(s).toMatchObject({
      ok: false,
      error: expect.stringContaining('Cannot add partition to transaction while in state  READY'),
    });
  });

  test('__transaction_state is created on the first FindCoordinator, with Kafka defaults', () => {
    const d = startTransactional(txnCluster(), 'tx', 'payments');
    const t = d.sim.snapshot().topics.find((x) => x.name === '__transaction_state');
    expect(t).toMatchObject({ partitions: 50, replicationFactor: 3 });
    // abs("payments".hashCode()) % 50 is the partition whose leader coordinates it.
    const coordinator = d.coordinatorState('payments')!.nodeId;
    const hash = [...'payments'].reduce((h, ch) => (Math.imul(h, 31) + ch.charCodeAt(0)) | 0, 0);
    expect(d.leaderOf('__transaction_state', Math.abs(hash) % 50)).toBe(coordinator);
  });
});

describe('a transactional loop', () => {
  test('commits every transactionMs; read_committed readers see only committed records, invariants hold', () => {
    const d = txnCluster();
    d.sim.watchInvariants();
    startReaders(d);
    d.do({
      type: 'startProducer',
      producerId: 'tx',
      topic: TOPIC,
      ratePerSec: 200,
      transactionMs: 200,
      config: { 'transactional.id': 'payments' },
    });
    d.advance(10000);
    d.crash(d.leaderOf(TOPIC, 0)).advance(10000);
    d.do({ type: 'stopProducer', producerId: 'tx' }).advance(5000);
    expect(d.sim.violations()).toEqual([]);
    const commits = d.events('TransactionCommitted').length;
    expect(commits).toBeGreaterThan(20);
    const committedValues = new Set(
      d.sim
        .ledger()
        .filter((e) => e.transaction === 'committed')
        .map((e) => e.value),
    );
    const read = d.sim.consumedRecords('rc').map((r) => r.value);
    expect(read.length).toBeGreaterThan(1000);
    for (const v of read) expect(committedValues.has(v)).toBe(true);
    // Every committed record was read once.
    expect(new Set(read).size).toBe(read.length);
    expect(read.length).toBe(committedValues.size);
  });
});

describe('a commit whose records cannot be written', () => {
  const BROKER_DOWN = 3;
  test('fails once delivery.timeout.ms expires the records, even those held behind a retried batch', () => {
    const d = startTransactional(txnCluster(), 'tx', 'payments', {
      'delivery.timeout.ms': 6000,
      'request.timeout.ms': 2000,
    });
    // Every produce to the topic is refused (NOT_ENOUGH_REPLICAS): a broker is down and fenced, out
    // of every ISR, and min.insync.replicas asks for all three replicas.
    d.crash(BROKER_DOWN).advance(12_000);
    d.do({
      type: 'alterConfig',
      resourceType: 'topic',
      resourceName: TOPIC,
      configs: { 'min.insync.replicas': 3 },
    }).advance(1000);
    d.do({ type: 'beginTransaction', producerId: 'tx' });
    send(d, 'tx', 'first');
    d.advance(300); // the first batch is refused and backs off; what is sent next waits behind it
    send(d, 'tx', 'second');
    d.do({ type: 'commitTransaction', producerId: 'tx' });
    d.advance(10_000);
    // Both records expired (the second one waiting in the accumulator, never sent)...
    const ledger = d.sim.ledger().filter((e) => e.producerId === 'tx');
    expect(ledger.map((e) => [e.value, e.status])).toEqual([
      ['first', 'failed'],
      ['second', 'failed'],
    ]);
    // ...and the commit did not wait for ever: it failed, and the producer's loop aborted the
    // transaction and asked for a new epoch.
    expect(d.expectEvent('TransactionAbortableError').message).toContain('commitTransaction() fails');
    expect(d.transactionOf('tx')?.state).not.toBe('COMMITTING_TRANSACTION');
  });
});
