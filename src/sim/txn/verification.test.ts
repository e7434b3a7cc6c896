// KIP-890 part 1: transaction.partition.verification.enable. A produce that reaches its partition
// leader after its transaction was aborted must not open a transaction no marker will close.

import { describe, expect, test } from 'vitest';
import { cluster, type Driver } from '../testing/driver';
import type { ConfigValue } from '../model/types';

const TOPIC = 'orders';

/** Short timeouts by default: a slow write fails, and its transaction is aborted, within seconds. */
const SHORT_TIMEOUTS = { 'request.timeout.ms': 2000, 'delivery.timeout.ms': 3000 };

function startTransactional(
  config: Record<string, ConfigValue>,
  producerConfig: Record<string, ConfigValue> = SHORT_TIMEOUTS,
): Driver {
  const d = cluster({ brokers: 3, config, topics: [{ name: TOPIC, partitions: 3, replicationFactor: 3 }] })
    .settle()
    .advance(500);
  d.do({
    type: 'startProducer',
    producerId: 'tx',
    topic: TOPIC,
    ratePerSec: 0,
    config: { 'transactional.id': 'payments', ...producerConfig },
  });
  return d.until((x) => x.transactionOf('tx')?.state === 'READY', 20000);
}

/**
 * The hanging transaction of KIP-890: the producer's batch to a partition is held up on the
 * network; the producer gives up on it (delivery.timeout.ms) and aborts; the coordinator writes
 * the ABORT marker there; then the old batch arrives at the leader, after the marker.
 */
function lateProduceAfterAbort(config: Record<string, ConfigValue>) {
  const d = startTransactional(config);
  const coordinator = d.coordinatorState('payments')!.nodeId;
  // A partition led by another broker than the coordinator: only the produce is slowed.
  const partition = [0, 1, 2].find((p) => d.leaderOf(TOPIC, p) !== coordinator)!;
  const leader = d.leaderOf(TOPIC, partition);
  d.do({ type: 'beginTransaction', producerId: 'tx' });
  d.tamper((w) => w.network.linkLatency.set(`tx>${leader}`, 20000));
  d.do({ type: 'produce', producerId: 'tx', topic: TOPIC, value: 'late', key: null, partition });
  d.until((x) => x.entry('late').status === 'failed', 10000);
  d.do({ type: 'abortTransaction', producerId: 'tx' });
  d.until((x) => x.events('TransactionAborted').length > 0, 10000);
  d.tamper((w) => w.network.linkLatency.delete(`tx>${leader}`));
  expect(d.leaderLog(TOPIC, partition).map((r) => r.control ?? r.value)).toEqual(['ABORT']);
  // The slow batch (and its retry) reach the leader; then long past transaction.timeout.ms (60 s).
  d.advance(25000);
  return { d, partition, leader, coordinator };
}

describe('a produce that arrives after its transaction was aborted (KIP-890 part 1)', () => {
  test('is refused with INVALID_TXN_STATE when the leader verifies with the coordinator', () => {
    const { d, partition, leader, coordinator } = lateProduceAfterAbort({});
    expect(d.leaderLog(TOPIC, partition).map((r) => r.control ?? r.value)).toEqual(['ABORT']);
    // The coordinator's transaction is CompleteAbort, its partitions gone with the marker:
    // TRANSACTION_ABORTABLE, which the leader gives the producer as INVALID_TXN_STATE.
    expect(d.coordinatorState('payments')).toMatchObject({ nodeId: coordinator, state: 'CompleteAbort' });
    const refused = d.expectEvent(
      'TransactionVerificationFailed',
      (e) => e.nodeId === leader && e.partition === partition,
    );
    expect(refused.error).toBe('INVALID_TXN_STATE');
    d.advance(70000);
    const offsets = d.stableOffsets(TOPIC, partition);
    expect(offsets.ongoing).toEqual([]);
    expect(offsets.lastStableOffset).toBe(offsets.highWatermark);
  });

  test('lands after the ABORT marker and leaves a hanging transaction when verification is off', () => {
    const { d, partition } = lateProduceAfterAbort({ 'transaction.partition.verification.enable': false });
    expect(d.leaderLog(TOPIC, partition).map((r) => r.control ?? r.value)).toEqual(['ABORT', 'late']);
    d.expectNoEvent('TransactionVerificationFailed');
    // No coordinator knows this transaction: it is never aborted, and it pins the LSO at offset 1.
    d.advance(70000);
    expect(d.stableOffsets(TOPIC, partition)).toEqual({
      highWatermark: 2,
      lastStableOffset: 1,
      ongoing: [1],
    });
  });
});

describe('with verification on', () => {
  test("a transaction's first batch to each partition waits for AddPartitionsToTxn verifyOnly, and commits as before", () => {
    const d = startTransactional({});
    const beganMs = d.sim.nowMs;
    d.do({ type: 'beginTransaction', producerId: 'tx' });
    for (const partition of [0, 1]) {
      d.do({ type: 'produce', producerId: 'tx', topic: TOPIC, value: `a${partition}`, key: null, partition });
      d.do({ type: 'produce', producerId: 'tx', topic: TOPIC, value: `b${partition}`, key: null, partition });
    }
    d.advance(1000);
    const verifications = d.sim
      .messageDiagram({ fromMs: beganMs, toMs: d.sim.nowMs, categories: ['transaction'] })
      .messages.filter((m) => m.kind === 'AddPartitionsToTxn' && typeof m.from === 'number');
    expect(verifications.length).toBe(2);
    d.do({ type: 'commitTransaction', producerId: 'tx' });
    d.until((x) => x.events('TransactionCommitted').length > 0, 5000).advance(2000);
    for (const partition of [0, 1])
      expect(d.leaderLog(TOPIC, partition).map((r) => r.control ?? r.value)).toEqual([
        `a${partition}`,
        `b${partition}`,
        'COMMIT',
      ]);
    d.expectNoEvent('TransactionVerificationFailed');
  });
});

describe('when the transaction coordinator crashes during a verification', () => {
  test('the batch is answered NOT_ENOUGH_REPLICAS, retried, and appended once the new coordinator verifies it', () => {
    // Kafka's timeouts (delivery.timeout.ms 120 s): the retries outlast the coordinator's failover.
    const d = startTransactional({}, {});
    const coordinator = d.coordinatorState('payments')!.nodeId;
    const partition = [0, 1, 2].find((p) => d.leaderOf(TOPIC, p) !== coordinator)!;
    const leader = d.leaderOf(TOPIC, partition);
    const beganMs = d.sim.nowMs;
    d.do({ type: 'beginTransaction', producerId: 'tx' });
    d.do({ type: 'produce', producerId: 'tx', topic: TOPIC, value: 'payment', key: null, partition });
    const verifying = (x: Driver) =>
      x.sim
        .messageDiagram({ fromMs: beganMs, toMs: x.sim.nowMs, categories: ['transaction'] })
        .messages.some((m) => m.kind === 'AddPartitionsToTxn' && m.from === leader && m.inFlight);
    d.until(verifying, 5000, 1).crash(coordinator);
    // The connection reset reaches the leader: the verification fails.
    d.until((x) => x.events('TransactionVerificationFailed').length > 0, 5000, 1);
    const refused = d.expectEvent('TransactionVerificationFailed', (e) => e.nodeId === leader);
    expect(refused.error).toBe('NOT_ENOUGH_REPLICAS');
    // The producer retries; the next leader of the __transaction_state partition loads the
    // transaction (Ongoing, with this partition) and confirms it.
    d.until((x) => x.entry('payment').status === 'acked', 60000);
    d.do({ type: 'commitTransaction', producerId: 'tx' });
    d.until((x) => x.events('TransactionCommitted').length > 0, 30000).advance(2000);
    expect(d.leaderLog(TOPIC, partition).map((r) => r.control ?? r.value)).toEqual(['payment', 'COMMIT']);
    expect(d.coordinatorState('payments')?.nodeId).not.toBe(coordinator);
  });
});

describe("a transactional record's journey", () => {
  const kinds = (d: Driver, value: string) =>
    d.sim.recordJourney(d.entry(value).recordId)!.stages.map((s) => s.kind);
  const stage = (d: Driver, value: string, kind: string) =>
    d.sim.recordJourney(d.entry(value).recordId)!.stages.filter((s) => s.kind === kind);

  test('shows the leader asking the coordinator, the answer, then the append', () => {
    const d = startTransactional({});
    const coordinator = d.coordinatorState('payments')!.nodeId;
    d.do({ type: 'beginTransaction', producerId: 'tx' });
    d.do({ type: 'produce', producerId: 'tx', topic: TOPIC, value: 'first', key: null, partition: 0 });
    d.until((x) => x.entry('first').status === 'acked', 5000);
    const leader = d.leaderOf(TOPIC, 0);
    const k = kinds(d, 'first');
    expect(k.indexOf('verify')).toBeGreaterThan(k.indexOf('produce'));
    expect(k.filter((x) => x === 'verify').length).toBe(2);
    expect(k.lastIndexOf('verify')).toBeLessThan(k.indexOf('append'));
    const [asked, verified] = stage(d, 'first', 'verify');
    expect(asked!.text).toBe(
      `leader broker ${leader} asks transaction coordinator broker ${coordinator} whether orders-0 is in payments's ongoing transaction (AddPartitionsToTxn verifyOnly, KIP-890); the batch waits`,
    );
    expect(verified!.text).toContain(`verified with the transaction coordinator (broker ${coordinator})`);
    expect(verified!.atMs).toBeGreaterThan(asked!.atMs);
    // The second batch of the transaction to the same partition is not verified again.
    d.do({ type: 'produce', producerId: 'tx', topic: TOPIC, value: 'second', key: null, partition: 0 });
    d.until((x) => x.entry('second').status === 'acked', 5000);
    expect(kinds(d, 'second')).not.toContain('verify');
  });

  test('shows a late write refused with INVALID_TXN_STATE after its transaction was aborted', () => {
    const { d, leader } = lateProduceAfterAbort({});
    const refusals = stage(d, 'late', 'error').filter((s) => s.text.includes('INVALID_TXN_STATE'));
    expect(refusals.length).toBeGreaterThan(0);
    expect(refusals[0]!.text).toBe(
      `refused by leader broker ${leader} after the coordinator's answer: INVALID_TXN_STATE`,
    );
    expect(kinds(d, 'late')).not.toContain('append');
  });

  test('shows a check still waiting while the coordinator has not answered', () => {
    const d = startTransactional({});
    const coordinator = d.coordinatorState('payments')!.nodeId;
    const partition = [0, 1, 2].find((p) => d.leaderOf(TOPIC, p) !== coordinator)!;
    const leader = d.leaderOf(TOPIC, partition);
    const beganMs = d.sim.nowMs;
    d.do({ type: 'beginTransaction', producerId: 'tx' });
    d.do({ type: 'produce', producerId: 'tx', topic: TOPIC, value: 'waiting', key: null, partition });
    d.until(
      (x) =>
        x.sim
          .messageDiagram({ fromMs: beganMs, toMs: x.sim.nowMs, categories: ['transaction'] })
          .messages.some((m) => m.kind === 'AddPartitionsToTxn' && m.from === leader && m.inFlight),
      5000,
      1,
    );
    expect(kinds(d, 'waiting').slice(-2)).toEqual(['produce', 'verify']);
    expect(stage(d, 'waiting', 'verify')[0]!.text).toContain(`leader broker ${leader} asks`);
    expect(kinds(d, 'waiting')).not.toContain('append');
  });
});
