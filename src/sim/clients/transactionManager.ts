// The transactional producer's TransactionManager (KafkaProducer with transactional.id, KIP-98):
// initTransactions (FindCoordinator with key type TRANSACTION, then InitProducerId for a producer
// id and epoch), beginTransaction, each new partition added with AddPartitionsToTxn before its
// first batch is sent, and commitTransaction / abortTransaction through EndTxn once every record
// sent in the transaction is settled. One transaction request is in flight at a time, as in Kafka.
// A batch that fails leaves the transaction abortable only; after the abort the producer bumps its
// epoch with InitProducerId (KIP-360). PRODUCER_FENCED and INVALID_PRODUCER_EPOCH are fatal.

import { bootstrapBrokers, clientTimerMs } from '../model/clientConfig';
import { emit, nextReqId, send, setClientTimer } from '../kernel/kernel';
import { tpKey } from '../model/metadata';
import type { Body, CommittedOffset, MessageOf } from '../model/messages';
import type { ProducerClient, TransactionState, World } from '../model/world';
import type { NodeId } from '../model/types';
import { armDeliveryTimer, num, settle } from './producerDelivery';
import { filterWaiting } from './accumulatorQueues';

/** Kafka Streams' commit.interval.ms under exactly-once: how often a transactional loop commits by default. */
export const DEFAULT_TRANSACTION_MS = 100;

/** Errors that end the producer (a newer instance with the same transactional.id took over). */
const FENCED = new Set(['PRODUCER_FENCED', 'INVALID_PRODUCER_EPOCH', 'INVALID_PRODUCER_ID_MAPPING']);
const COORDINATOR_MOVED = new Set([
  'NOT_COORDINATOR',
  'COORDINATOR_NOT_AVAILABLE',
  'COORDINATOR_LOAD_IN_PROGRESS',
]);

/** What a stream processor (clients/streamProcessor.ts) hears of its producer's transactions. */
export type TransactionListener = (
  w: World,
  p: ProducerClient,
  what: 'ready' | 'ended' | 'abortable' | 'fatal',
  committed: boolean,
) => void;

let listener: TransactionListener | null = null;

/** Installed by dispatch.ts: a processor's producer reports its transactions' outcomes. */
export function setTransactionListener(l: TransactionListener): void {
  listener = l;
}

function tell(
  w: World,
  p: ProducerClient,
  what: Parameters<TransactionListener>[2],
  committed = false,
): void {
  if (p.processorId && listener) listener(w, p, what, committed);
}

/**
 * sendOffsetsToTransaction(offsets, groupMetadata) (KIP-447): the consumer's positions are committed
 * in the open transaction. AddOffsetsToTxn puts the group's __consumer_offsets partition into the
 * transaction, then TxnOffsetCommit gives the offsets to the group coordinator; commitTransaction()
 * waits for both, and the offsets become the group's when the COMMIT marker reaches that partition.
 */
export function sendOffsetsToTransaction(
  w: World,
  p: ProducerClient,
  group: { groupId: string; memberId: string; generation: number },
  offsets: CommittedOffset[],
): void {
  const t = p.txn!;
  t.offsets = { ...group, offsets, added: false, coordinator: -1 };
  txnStep(w, p);
}

/** initTransactions(): the producer finds its coordinator and gets its producer id and epoch. */
export function initTransactions(w: World, p: ProducerClient): void {
  p.txn = {
    transactionalId: String(p.config['transactional.id']),
    timeoutMs: num(p, 'transaction.timeout.ms'),
    state: 'INITIALIZING',
    coordinator: -1,
    producerEpoch: -1,
    partitions: [],
    inFlight: null,
    retryAtMs: 0,
    token: 0,
    timerDueMs: -1,
    beginQueued: false,
    beganAtMs: -1,
    failedRecords: 0,
    recordIds: [],
    lastError: null,
    committed: 0,
    aborted: 0,
  };
  // The producer id comes from the coordinator; none is used before.
  p.pid = -1;
  txnStep(w, p);
}

/** Why an application call cannot run in the transaction's state (Kafka's IllegalStateException / KafkaException), or null. */
export function checkTransactionCall(
  p: ProducerClient | undefined,
  call: 'beginTransaction' | 'commitTransaction' | 'abortTransaction' | 'send',
  id: string,
): string | null {
  if (!p) return `producer ${id} does not exist: start it with startProducer and a transactional.id`;
  const t = p.txn;
  if (!t) return `IllegalStateException: Transactional method invoked on a non-transactional producer.`;
  if (t.state === 'FATAL_ERROR')
    return `KafkaException: Cannot execute transactional method because we are in an error state (${t.lastError ?? 'fatal error'})`;
  const open = t.state === 'IN_TRANSACTION' || (t.state === 'INITIALIZING' && t.beginQueued);
  switch (call) {
    case 'beginTransaction':
      if (t.state === 'READY' || (t.state === 'INITIALIZING' && !t.beginQueued)) return null;
      return `IllegalStateException: TransactionalId ${t.transactionalId}: Invalid transition attempted from state ${t.state} to state IN_TRANSACTION`;
    case 'send':
      if (open) return null;
      return `IllegalStateException: Cannot add partition to transaction while in state  ${t.state}`;
    case 'commitTransaction':
      if (open) return null;
      return `IllegalStateException: TransactionalId ${t.transactionalId}: Invalid transition attempted from state ${t.state} to state COMMITTING_TRANSACTION`;
    case 'abortTransaction':
      if (open || t.state === 'ABORTABLE_ERROR') return null;
      return `IllegalStateException: TransactionalId ${t.transactionalId}: Invalid transition attempted from state ${t.state} to state ABORTING_TRANSACTION`;
  }
}

export function beginTransaction(w: World, p: ProducerClient): void {
  const t = p.txn!;
  if (t.state === 'INITIALIZING') {
    // initTransactions() has not returned yet: the application's beginTransaction() follows it.
    t.beginQueued = true;
    return;
  }
  begin(w, p, t);
}

function begin(w: World, p: ProducerClient, t: TransactionState): void {
  t.state = 'IN_TRANSACTION';
  t.beginQueued = false;
  t.beganAtMs = w.nowMs;
  armTxnTimer(w, p);
}

/** commitTransaction(): EndTxn(commit) once every record of the transaction is acknowledged. */
export function commitTransaction(w: World, p: ProducerClient): void {
  const t = p.txn!;
  if (t.state === 'INITIALIZING') begin(w, p, t);
  t.state = 'COMMITTING_TRANSACTION';
  txnStep(w, p);
}

/** abortTransaction(): records not yet sent fail; EndTxn(abort) once those in flight are settled. */
export function abortTransaction(w: World, p: ProducerClient): void {
  const t = p.txn!;
  if (t.state === 'INITIALIZING') begin(w, p, t);
  t.state = 'ABORTING_TRANSACTION';
  delete t.offsets;
  for (const r of [...p.records.values()]) {
    if (r.inFlight) continue;
    const entry = w.ledgerIndex.get(r.recordId);
    p.records.delete(r.recordId);
    if (entry) settle(w, p, entry, 'failed', 'TransactionAbortedException', 'the transaction was aborted');
  }
  filterWaiting(w, p, (id) => p.records.has(id));
  // The records failed by the abort itself do not make the next transaction bump the epoch.
  t.failedRecords = 0;
  armDeliveryTimer(w, p);
  txnStep(w, p);
}

/** Whether the Sender may send a batch to this partition now (TransactionManager.isSendToPartitionAllowed). */
export function sendAllowed(t: TransactionState, topic: string, partition: number): boolean {
  if (
    t.state !== 'IN_TRANSACTION' &&
    t.state !== 'COMMITTING_TRANSACTION' &&
    t.state !== 'ABORTING_TRANSACTION'
  )
    return false;
  return t.partitions.includes(tpKey(topic, partition));
}

/** The partitions of waiting records that are not in the transaction yet (the next AddPartitionsToTxn). */
function partitionsToAdd(
  w: World,
  p: ProducerClient,
  t: TransactionState,
): { topic: string; partition: number }[] {
  const out = new Map<string, { topic: string; partition: number }>();
  for (const r of p.records.values()) {
    if (r.partition < 0) continue;
    const topic = w.ledgerIndex.get(r.recordId)!.topic;
    const k = tpKey(topic, r.partition);
    if (!t.partitions.includes(k) && !out.has(k)) out.set(k, { topic, partition: r.partition });
  }
  return [...out.values()].sort((a, b) =>
    a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1,
  );
}

/** Sends the next transaction request the state needs, if none is in flight (TransactionManager.nextRequest). */
export function txnStep(w: World, p: ProducerClient): void {
  const t = p.txn;
  if (!t || t.inFlight || t.state === 'FATAL_ERROR' || t.state === 'READY') return;
  if (t.failedRecords > 0 && fencedBy(t)) return fatal(w, p, t, t.lastError!);
  if (w.nowMs < t.retryAtMs) {
    armTxnTimer(w, p);
    return;
  }
  if (t.state === 'INITIALIZING') {
    if (t.coordinator < 0) return findCoordinator(w, p, t);
    return request(w, p, t, 'init', {
      kind: 'InitProducerId',
      transactionalId: t.transactionalId,
      transactionTimeoutMs: t.timeoutMs,
    });
  }
  if (t.state === 'ABORTABLE_ERROR') return;
  const add = t.state === 'ABORTING_TRANSACTION' ? [] : partitionsToAdd(w, p, t);
  if (add.length) {
    if (t.coordinator < 0) return findCoordinator(w, p, t);
    return request(w, p, t, 'add', {
      kind: 'AddPartitionsToTxn',
      transactionalId: t.transactionalId,
      producerId: p.pid,
      producerEpoch: t.producerEpoch,
      partitions: add,
    });
  }
  const o = t.offsets;
  if (o && t.state !== 'ABORTING_TRANSACTION') {
    if (t.coordinator < 0) return findCoordinator(w, p, t);
    if (!o.added)
      return request(w, p, t, 'addOffsets', {
        kind: 'AddOffsetsToTxn',
        transactionalId: t.transactionalId,
        producerId: p.pid,
        producerEpoch: t.producerEpoch,
        groupId: o.groupId,
      });
    // TxnOffsetCommitHandler: the group's coordinator (FindCoordinator key type GROUP).
    if (o.coordinator < 0)
      return request(w, p, t, 'findGroup', { kind: 'FindCoordinator', groupId: o.groupId }, anyBroker(w, p));
    return request(
      w,
      p,
      t,
      'txnOffsets',
      {
        kind: 'TxnOffsetCommit',
        groupId: o.groupId,
        transactionalId: t.transactionalId,
        producerId: p.pid,
        producerEpoch: t.producerEpoch,
        memberId: o.memberId,
        generation: o.generation,
        offsets: o.offsets,
      },
      o.coordinator,
    );
  }
  if (t.state !== 'COMMITTING_TRANSACTION' && t.state !== 'ABORTING_TRANSACTION') return;
  // commitTransaction() flushes: EndTxn waits until every record of the transaction is settled.
  if (p.records.size > 0) return;
  const committed = t.state === 'COMMITTING_TRANSACTION';
  if (committed && t.failedRecords > 0) {
    // A failed batch: the transaction can only be aborted (TransactionManager.maybeFailWithError).
    t.state = 'ABORTABLE_ERROR';
    emit(
      w,
      'TransactionAbortableError',
      `${p.id}: commitTransaction() fails: ${t.failedRecords} record(s) of the transaction failed (${t.lastError ?? 'error'}). The transaction can only be aborted${p.loop ? '; the producer aborts it' : ' (abortTransaction)'}.`,
      { producerId: p.id, transactionalId: t.transactionalId, error: t.lastError },
    );
    if (p.loop) {
      const failed = t.failedRecords;
      abortTransaction(w, p);
      t.failedRecords = failed;
    }
    tell(w, p, 'abortable');
    return;
  }
  // A transaction that added no partition ends in the client alone (nothing to tell the coordinator).
  if (t.partitions.length === 0) return ended(w, p, t, committed);
  if (t.coordinator < 0) return findCoordinator(w, p, t);
  request(w, p, t, 'end', {
    kind: 'EndTxn',
    transactionalId: t.transactionalId,
    producerId: p.pid,
    producerEpoch: t.producerEpoch,
    committed,
  });
}

function fencedBy(t: TransactionState): boolean {
  return t.lastError !== null && FENCED.has(t.lastError);
}

function anyBroker(w: World, p: ProducerClient): NodeId {
  const brokers = p.knownBrokers.length ? p.knownBrokers : bootstrapBrokers(w, p.bootstrap);
  return brokers[p.bootstrapIdx % brokers.length]!;
}

function findCoordinator(w: World, p: ProducerClient, t: TransactionState): void {
  const to = anyBroker(w, p);
  request(
    w,
    p,
    t,
    'find',
    { kind: 'FindCoordinator', groupId: t.transactionalId, keyType: 'transaction' },
    to,
  );
}

function request(
  w: World,
  p: ProducerClient,
  t: TransactionState,
  purpose: NonNullable<TransactionState['inFlight']>['purpose'],
  body: Body,
  to: NodeId = t.coordinator,
): void {
  const reqId = nextReqId(w);
  t.inFlight = { purpose, reqId, sentAtMs: w.nowMs };
  send(w, p.id, to, body, reqId);
  armTxnTimer(w, p);
}

/**
 * One timer for the transaction manager, at its next deadline: the request in flight times out,
 * a retry backoff ends, or the loop's transaction.ms is up.
 */
function armTxnTimer(w: World, p: ProducerClient): void {
  const t = p.txn!;
  let due = Infinity;
  if (t.inFlight) due = t.inFlight.sentAtMs + clientTimerMs(num(p, 'request.timeout.ms'));
  else if (t.retryAtMs > w.nowMs) due = t.retryAtMs;
  if (p.loop?.transactionMs && t.state === 'IN_TRANSACTION')
    due = Math.min(due, t.beganAtMs + p.loop.transactionMs);
  if (due === Infinity || due === t.timerDueMs) return;
  t.timerDueMs = due;
  t.token = setClientTimer(w, p.id, Math.max(0, due - w.nowMs), 'transaction');
}

/** The transaction timer: a request timed out, a retry backoff ended, or the loop's transaction.ms is up. */
export function onTransactionTimer(w: World, p: ProducerClient, token: number): void {
  const t = p.txn;
  if (!t || token !== t.token) return;
  t.timerDueMs = -1;
  const f = t.inFlight;
  if (f && w.nowMs - f.sentAtMs >= clientTimerMs(num(p, 'request.timeout.ms'))) {
    t.inFlight = null;
    retry(w, p, t, 'REQUEST_TIMED_OUT', true);
  }
  const loop = p.loop;
  if (loop?.transactionMs && t.state === 'IN_TRANSACTION' && w.nowMs >= t.beganAtMs + loop.transactionMs)
    commitTransaction(w, p);
  txnStep(w, p);
  armTxnTimer(w, p);
}

/** A retriable answer: back off retry.backoff.ms, and look for the coordinator again if it moved. */
function retry(w: World, p: ProducerClient, t: TransactionState, error: string, rediscover: boolean): void {
  if (rediscover) {
    t.coordinator = -1;
    if (t.offsets) t.offsets.coordinator = -1;
    p.bootstrapIdx++;
  }
  t.retryAtMs = w.nowMs + num(p, 'retry.backoff.ms');
  t.lastError = error;
  armTxnTimer(w, p);
}

/** A transaction request found its broker down (connection refused): look for the coordinator again. */
export function onTransactionRequestDisconnected(w: World, p: ProducerClient, reqId: number): boolean {
  const t = p.txn;
  if (!t?.inFlight || t.inFlight.reqId !== reqId) return false;
  t.inFlight = null;
  retry(w, p, t, 'NETWORK_EXCEPTION', true);
  return true;
}

/** Takes the request this answer is for, or false when it is stale. */
function answered(t: TransactionState | undefined, reqId: number, purpose: string): t is TransactionState {
  if (!t?.inFlight || t.inFlight.reqId !== reqId || t.inFlight.purpose !== purpose) return false;
  t.inFlight = null;
  return true;
}

export function onProducerFindCoordinatorResponse(
  w: World,
  p: ProducerClient,
  msg: MessageOf<'FindCoordinatorResponse'>,
): void {
  const t = p.txn;
  if (t?.offsets && answered(t, msg.reqId, 'findGroup')) {
    if (msg.body.error) return retry(w, p, t, msg.body.error, false);
    t.offsets.coordinator = msg.body.nodeId;
    return txnStep(w, p);
  }
  if (!answered(t, msg.reqId, 'find')) return;
  const b = msg.body;
  if (b.error) return retry(w, p, t, b.error, true);
  if (t.coordinator !== b.nodeId)
    emit(
      w,
      'TransactionCoordinatorFound',
      `${p.id} found the transaction coordinator of transactional.id ${t.transactionalId}: broker ${b.nodeId}.`,
      { producerId: p.id, transactionalId: t.transactionalId, nodeId: b.nodeId },
    );
  t.coordinator = b.nodeId;
  txnStep(w, p);
}

export function onInitProducerIdResponse(
  w: World,
  p: ProducerClient,
  msg: MessageOf<'InitProducerIdResponse'>,
): void {
  const t = p.txn;
  if (!answered(t, msg.reqId, 'init')) return;
  const b = msg.body;
  if (b.error) {
    if (COORDINATOR_MOVED.has(b.error)) return retry(w, p, t, b.error, true);
    // The coordinator is still aborting or completing the previous transaction: ask again.
    if (b.error === 'CONCURRENT_TRANSACTIONS') return retry(w, p, t, b.error, false);
    return fatal(w, p, t, b.error);
  }
  p.pid = b.producerId;
  t.producerEpoch = b.producerEpoch;
  // A new epoch starts every partition's sequence numbers at 0.
  p.nextSeq.clear();
  t.lastError = null;
  t.state = 'READY';
  emit(
    w,
    'TransactionsInitialized',
    `${p.id} completed initTransactions(): transactional.id ${t.transactionalId} has producer id ${b.producerId}, epoch ${b.producerEpoch}.`,
    { producerId: p.id, transactionalId: t.transactionalId, pid: b.producerId, epoch: b.producerEpoch },
  );
  if (t.beginQueued || p.loop?.ratePerSec) begin(w, p, t);
  tell(w, p, 'ready');
}

export function onAddPartitionsToTxnResponse(
  w: World,
  p: ProducerClient,
  msg: MessageOf<'AddPartitionsToTxnResponse'>,
): void {
  const t = p.txn;
  if (!answered(t, msg.reqId, 'add')) return;
  const b = msg.body;
  if (b.error) {
    if (COORDINATOR_MOVED.has(b.error)) return retry(w, p, t, b.error, true);
    if (b.error === 'CONCURRENT_TRANSACTIONS') return retry(w, p, t, b.error, false);
    return fatal(w, p, t, b.error);
  }
  for (const tp of b.partitions) {
    const k = tpKey(tp.topic, tp.partition);
    if (!t.partitions.includes(k)) t.partitions.push(k);
  }
}

export function onAddOffsetsToTxnResponse(
  w: World,
  p: ProducerClient,
  msg: MessageOf<'AddOffsetsToTxnResponse'>,
): void {
  const t = p.txn;
  if (!answered(t, msg.reqId, 'addOffsets')) return;
  const b = msg.body;
  if (b.error) {
    if (COORDINATOR_MOVED.has(b.error)) return retry(w, p, t, b.error, true);
    if (b.error === 'CONCURRENT_TRANSACTIONS') return retry(w, p, t, b.error, false);
    return fatal(w, p, t, b.error);
  }
  if (!t.offsets) return;
  t.offsets.added = true;
  // The group's offsets partition is in the transaction: EndTxn is needed even with no record sent.
  const k = `__consumer_offsets:${b.groupId}`;
  if (!t.partitions.includes(k)) t.partitions.push(k);
  txnStep(w, p);
}

/** Errors of TxnOffsetCommit that end the transaction as abortable (CommitFailedException). */
const GROUP_MOVED_ON = new Set([
  'UNKNOWN_MEMBER_ID',
  'ILLEGAL_GENERATION',
  'REBALANCE_IN_PROGRESS',
  'FENCED_MEMBER_EPOCH',
  'STALE_MEMBER_EPOCH',
  'FENCED_INSTANCE_ID',
]);

/** TxnOffsetCommitHandler.handleResponse. */
export function onTxnOffsetCommitResponse(
  w: World,
  p: ProducerClient,
  msg: MessageOf<'TxnOffsetCommitResponse'>,
): void {
  const t = p.txn;
  if (!answered(t, msg.reqId, 'txnOffsets') || !t.offsets) return;
  const e = msg.body.error;
  if (!e) {
    delete t.offsets;
    return txnStep(w, p);
  }
  if (FENCED.has(e)) return fatal(w, p, t, e);
  if (GROUP_MOVED_ON.has(e)) {
    // The group moved on (a rebalance gave the partitions away): the transaction can only abort.
    delete t.offsets;
    t.failedRecords++;
    t.lastError = `CommitFailedException (${e})`;
    return txnStep(w, p);
  }
  if (COORDINATOR_MOVED.has(e) || e === 'COORDINATOR_LOAD_IN_PROGRESS') t.offsets.coordinator = -1;
  retry(w, p, t, e, false);
}

export function onEndTxnResponse(w: World, p: ProducerClient, msg: MessageOf<'EndTxnResponse'>): void {
  const t = p.txn;
  if (!answered(t, msg.reqId, 'end')) return;
  const b = msg.body;
  if (b.error) {
    if (COORDINATOR_MOVED.has(b.error)) return retry(w, p, t, b.error, true);
    if (b.error === 'CONCURRENT_TRANSACTIONS') return retry(w, p, t, b.error, false);
    return fatal(w, p, t, b.error);
  }
  ended(w, p, t, b.committed);
}

/** The transaction is over for the application (EndTxn answered): the next may begin. */
function ended(w: World, p: ProducerClient, t: TransactionState, committed: boolean): void {
  for (const id of t.recordIds) {
    const e = w.ledgerIndex.get(id);
    if (e && e.status === 'acked') e.transaction = committed ? 'committed' : 'aborted';
  }
  if (committed) t.committed++;
  else t.aborted++;
  const bump = !committed && t.failedRecords > 0;
  t.partitions = [];
  t.recordIds = [];
  t.failedRecords = 0;
  delete t.offsets;
  if (bump) {
    // KIP-360: after an abortable error the producer bumps its epoch (InitProducerId again).
    t.state = 'INITIALIZING';
    t.beginQueued = false;
    txnStep(w, p);
    tell(w, p, 'ended', committed);
    return;
  }
  t.state = 'READY';
  if (p.loop?.ratePerSec) begin(w, p, t);
  tell(w, p, 'ended', committed);
}

/** PRODUCER_FENCED and the like: the producer can do nothing more (ProducerFencedException). */
function fatal(w: World, p: ProducerClient, t: TransactionState, error: string): void {
  t.state = 'FATAL_ERROR';
  t.lastError = error;
  t.inFlight = null;
  const fenced = FENCED.has(error);
  emit(
    w,
    fenced ? 'ProducerFenced' : 'TransactionFailed',
    fenced
      ? `${p.id} is fenced (${error}): another producer with transactional.id ${t.transactionalId} has a newer epoch, or the coordinator aborted its transaction and bumped the epoch. This instance can only be closed (ProducerFencedException).`
      : `${p.id}: the transaction coordinator refused with ${error}; the producer is in a fatal error state.`,
    { producerId: p.id, transactionalId: t.transactionalId, error },
  );
  p.loop = null;
  for (const r of [...p.records.values()]) {
    if (r.inFlight) continue;
    const entry = w.ledgerIndex.get(r.recordId);
    p.records.delete(r.recordId);
    if (entry) settle(w, p, entry, 'failed', fenced ? 'ProducerFencedException' : error);
  }
  filterWaiting(w, p, (id) => p.records.has(id));
  tell(w, p, 'fatal');
}

/** send() in a transaction: the record's ledger id is kept for the outcome. */
export function noteTransactionalSend(p: ProducerClient, recordId: number): void {
  p.txn?.recordIds.push(recordId);
}
