// The transaction coordinator (TransactionCoordinator, KIP-98): the leader of a transactional.id's
// __transaction_state partition answers FindCoordinator for it, gives its producer an id and an epoch
// (InitProducerId: a new instance fences the old one and aborts its open transaction), records the
// partitions of the open transaction (AddPartitionsToTxn), and ends it in two phases (EndTxn:
// PrepareCommit / PrepareAbort written, then the markers, then CompleteCommit / CompleteAbort). A
// transaction open longer than transaction.timeout.ms is aborted with a bumped epoch.

import { armNodeDeadline, emit, reply } from '../kernel/kernel';
import type { Message, MessageOf, TxnRequest } from '../model/messages';
import { tpKey } from '../model/metadata';
import type { SimNode, TxnCoordinatorMem, TxnMetadata, TxnState, World } from '../model/world';
import {
  TRANSACTION_STATE_TOPIC,
  groupOffsetsTp,
  maybeCreateTransactionStateTopic,
  txnStateTp,
} from './transactionLog';
import { onMarkerTimer, sendMarkers } from './transactionMarkerChannel';
import { appendTxnState, syncLoadedPartitions, takeAppend, txnAt, txnMem } from './transactionStateManager';

/** The completed transactions kept for the invariants and views. */
const COMPLETED_TXNS_MAX = 1000;

export function onFindTransactionCoordinator(
  w: World,
  node: SimNode,
  msg: MessageOf<'FindCoordinator'>,
): void {
  const b = msg.body;
  const img = node.raft!.image;
  const answer = (error: string | undefined, nodeId: number) =>
    reply(w, msg, {
      kind: 'FindCoordinatorResponse',
      groupId: b.groupId,
      keyType: 'transaction',
      error,
      nodeId,
    });
  if (!img.topics.has(TRANSACTION_STATE_TOPIC)) {
    // Kafka creates __transaction_state on the first FindCoordinator of a transactional.id.
    maybeCreateTransactionStateTopic(w, node, txnMem(w, node));
    return answer('COORDINATOR_NOT_AVAILABLE', -1);
  }
  const state = img.partitions.get(txnStateTp(w, node, b.groupId));
  if (!state || state.leader < 0) return answer('COORDINATOR_NOT_AVAILABLE', -1);
  answer(undefined, state.leader);
}

function refuseInit(w: World, msg: Message, error: string): void {
  reply(w, msg, { kind: 'InitProducerIdResponse', error, producerId: -1, producerEpoch: -1 });
}

/** TransactionCoordinator.handleInitProducerId. */
export function onInitProducerId(w: World, node: SimNode, msg: MessageOf<'InitProducerId'>): void {
  const b = msg.body;
  const at = txnAt(w, node, b.transactionalId);
  if (!at) return refuseInit(w, msg, 'NOT_COORDINATOR');
  // TransactionStateManager.validateTransactionTimeoutMs: 0 < timeout <= transaction.max.timeout.ms.
  const max = Number(w.config['transaction.max.timeout.ms']);
  if (b.transactionTimeoutMs <= 0 || b.transactionTimeoutMs > max)
    return refuseInit(w, msg, 'INVALID_TRANSACTION_TIMEOUT');
  const { mem, partition } = at;
  let m = at.meta;
  if (!m) {
    m = {
      transactionalId: b.transactionalId,
      statePartition: partition,
      producerId: w.nextPid++,
      // The first InitProducerId bumps the epoch from -1 to 0 (TransactionMetadata.prepareIncrementProducerEpoch).
      producerEpoch: -1,
      timeoutMs: b.transactionTimeoutMs,
      state: 'Empty',
      partitions: [],
      startMs: -1,
      pending: null,
      markersPending: [],
      markerInFlight: {},
      markerOffsets: {},
    };
    mem.txns.set(b.transactionalId, m);
  }
  if (m.pending || m.state === 'PrepareCommit' || m.state === 'PrepareAbort')
    return refuseInit(w, msg, 'CONCURRENT_TRANSACTIONS');
  if (m.state === 'Ongoing') {
    // A new instance: the old one's transaction is aborted with a bumped epoch, which fences it
    // (TransactionCoordinator.prepareAbortOrFenceOnInit, PrepareEpochFence); the caller retries.
    emit(
      w,
      'TransactionFencedOnInit',
      `A new producer with transactional.id ${b.transactionalId} called initTransactions: coordinator ${node.id} fences the old instance (epoch ${m.producerEpoch} → ${m.producerEpoch + 1}) and aborts its open transaction; the new one retries (CONCURRENT_TRANSACTIONS) until the abort completes.`,
      { nodeId: node.id, transactionalId: b.transactionalId },
    );
    prepareAbort(w, node, mem, m, m.producerEpoch + 1, null);
    return refuseInit(w, msg, 'CONCURRENT_TRANSACTIONS');
  }
  appendTxnState(w, node, mem, m, {
    transactionalId: m.transactionalId,
    target: 'Empty',
    record: {
      producerId: m.producerId,
      producerEpoch: m.producerEpoch + 1,
      timeoutMs: b.transactionTimeoutMs,
      partitions: [],
      startMs: -1,
    },
    request: msg,
  });
}

/** A request naming a transaction: the producer id must match and the epoch be the current one. */
function checkProducer(
  m: TxnMetadata | undefined,
  b: { producerId: number; producerEpoch: number },
): string | null {
  if (!m || m.producerId !== b.producerId) return 'INVALID_PRODUCER_ID_MAPPING';
  // KIP-588: an older epoch is a fenced producer.
  if (b.producerEpoch !== m.producerEpoch) return 'PRODUCER_FENCED';
  if (m.pending || m.state === 'PrepareCommit' || m.state === 'PrepareAbort')
    return 'CONCURRENT_TRANSACTIONS';
  return null;
}

/** TransactionCoordinator.handleAddPartitionsToTransaction. */
export function onAddPartitionsToTxn(w: World, node: SimNode, msg: MessageOf<'AddPartitionsToTxn'>): void {
  const b = msg.body;
  const refuse = (error: string) =>
    reply(w, msg, { kind: 'AddPartitionsToTxnResponse', error, partitions: b.partitions });
  const at = txnAt(w, node, b.transactionalId);
  if (!at) return refuse('NOT_COORDINATOR');
  const m = at.meta;
  if (b.verifyOnly) return verifyPartitions(w, msg, m);
  const error = checkProducer(m, b);
  if (error) return refuse(error);
  const added = b.partitions.map((p) => tpKey(p.topic, p.partition));
  const partitions = [...new Set([...m!.partitions, ...added])].sort();
  if (m!.state === 'Ongoing' && partitions.length === m!.partitions.length)
    return reply(w, msg, { kind: 'AddPartitionsToTxnResponse', partitions: b.partitions });
  appendTxnState(w, node, at.mem, m!, {
    transactionalId: m!.transactionalId,
    target: 'Ongoing',
    record: {
      producerId: m!.producerId,
      producerEpoch: m!.producerEpoch,
      timeoutMs: m!.timeoutMs,
      partitions,
      // The transaction starts with its first partition (txnStartTimestamp).
      startMs: m!.state === 'Ongoing' ? m!.startMs : w.nowMs,
    },
    request: msg,
  });
}

/**
 * TransactionCoordinator.handleVerifyPartitionsInTransaction (KIP-890, a partition leader's
 * AddPartitionsToTxn with verifyOnly): nothing is written; a partition that is not in the
 * ongoing transaction is TRANSACTION_ABORTABLE. A pending transition is not checked (the append
 * to the log makes the final check); PrepareCommit and PrepareAbort are CONCURRENT_TRANSACTIONS.
 */
function verifyPartitions(w: World, msg: MessageOf<'AddPartitionsToTxn'>, m: TxnMetadata | undefined): void {
  const b = msg.body;
  const answer = (error?: string) =>
    reply(w, msg, {
      kind: 'AddPartitionsToTxnResponse',
      ...(error ? { error } : {}),
      partitions: b.partitions,
    });
  if (!m || m.producerId !== b.producerId) return answer('INVALID_PRODUCER_ID_MAPPING');
  if (m.producerEpoch !== b.producerEpoch) return answer('PRODUCER_FENCED');
  if (m.state === 'PrepareCommit' || m.state === 'PrepareAbort') return answer('CONCURRENT_TRANSACTIONS');
  // Partitions are in the metadata once AddPartitionsToTxn is written, and leave with the end marker.
  const missing = b.partitions.some((p) => !m.partitions.includes(tpKey(p.topic, p.partition)));
  answer(missing ? 'TRANSACTION_ABORTABLE' : undefined);
}

/**
 * TransactionCoordinator.handleAddPartitionsToTransaction for AddOffsetsToTxn (KafkaApis
 * handleAddOffsetsToTxnRequest): the partition of __consumer_offsets that holds the group joins the
 * transaction, so its marker will be written there too (and make the offsets visible).
 */
export function onAddOffsetsToTxn(w: World, node: SimNode, msg: MessageOf<'AddOffsetsToTxn'>): void {
  const b = msg.body;
  const refuse = (error: string) =>
    reply(w, msg, { kind: 'AddOffsetsToTxnResponse', error, groupId: b.groupId });
  const at = txnAt(w, node, b.transactionalId);
  if (!at) return refuse('NOT_COORDINATOR');
  const m = at.meta;
  const error = checkProducer(m, b);
  if (error) return refuse(error);
  const offsets = groupOffsetsTp(w, node, b.groupId);
  if (m!.state === 'Ongoing' && m!.partitions.includes(offsets))
    return reply(w, msg, { kind: 'AddOffsetsToTxnResponse', groupId: b.groupId });
  appendTxnState(w, node, at.mem, m!, {
    transactionalId: m!.transactionalId,
    target: 'Ongoing',
    record: {
      producerId: m!.producerId,
      producerEpoch: m!.producerEpoch,
      timeoutMs: m!.timeoutMs,
      partitions: [...new Set([...m!.partitions, offsets])].sort(),
      startMs: m!.state === 'Ongoing' ? m!.startMs : w.nowMs,
    },
    request: msg,
  });
}

/** TransactionCoordinator.handleEndTransaction: the first phase (Prepare*) is written, then the markers go out. */
export function onEndTxn(w: World, node: SimNode, msg: MessageOf<'EndTxn'>): void {
  const b = msg.body;
  const answer = (error?: string) =>
    reply(w, msg, { kind: 'EndTxnResponse', committed: b.committed, ...(error ? { error } : {}) });
  const at = txnAt(w, node, b.transactionalId);
  if (!at) return answer('NOT_COORDINATOR');
  const m = at.meta;
  const error = checkProducer(m, b);
  if (error) return answer(error);
  const done: TxnState = b.committed ? 'CompleteCommit' : 'CompleteAbort';
  // A retried EndTxn of a transaction already completed the same way succeeds again.
  if (m!.state === done) return answer();
  if (m!.state !== 'Ongoing') return answer('INVALID_TXN_STATE');
  if (b.committed)
    appendTxnState(w, node, at.mem, m!, {
      transactionalId: m!.transactionalId,
      target: 'PrepareCommit',
      record: { ...m! },
      request: msg,
    });
  else prepareAbort(w, node, at.mem, m!, m!.producerEpoch, msg);
}

function prepareAbort(
  w: World,
  node: SimNode,
  mem: TxnCoordinatorMem,
  m: TxnMetadata,
  epoch: number,
  request: Message | null,
): void {
  appendTxnState(w, node, mem, m, {
    transactionalId: m.transactionalId,
    target: 'PrepareAbort',
    record: { ...m, producerEpoch: epoch },
    request,
  });
}

/** The coordinator's append to __transaction_state completed (or failed): the transition takes effect. */
export function onTxnLogAppendResponse(w: World, node: SimNode, msg: MessageOf<'ProduceResponse'>): void {
  const taken = takeAppend(w, node, msg);
  if (!taken) return;
  const { mem, append } = taken;
  const m = mem.txns.get(append.transactionalId);
  const error = msg.body.error
    ? msg.body.error === 'NOT_LEADER_OR_FOLLOWER'
      ? 'NOT_COORDINATOR'
      : 'COORDINATOR_NOT_AVAILABLE'
    : undefined;
  if (!m) {
    if (append.request) answerRequest(w, append.request, error ?? 'NOT_COORDINATOR', -1, -1);
    return;
  }
  m.pending = null;
  if (error) {
    // TransactionStateManager: the transition is dropped; the client retries, the coordinator's own steps retry on their timers.
    if (append.request) answerRequest(w, append.request, error, -1, -1);
    if (append.target === 'CompleteCommit' || append.target === 'CompleteAbort')
      armNodeDeadline(w, node, mem.markerTimer, w.nowMs + 100, 'txnMarkers');
    return;
  }
  Object.assign(m, append.record);
  m.state = append.target;
  switch (append.target) {
    case 'Empty':
      answerRequest(w, append.request!, undefined, m.producerId, m.producerEpoch);
      emit(
        w,
        'ProducerIdInitialized',
        `Transaction coordinator ${node.id} gives transactional.id ${m.transactionalId} producer id ${m.producerId}, epoch ${m.producerEpoch} (InitProducerId${m.producerEpoch > 0 ? ': any older instance is now fenced' : ''}).`,
        { nodeId: node.id, transactionalId: m.transactionalId, producerId: m.producerId },
      );
      return;
    case 'Ongoing':
      if (append.request) answerRequest(w, append.request, undefined, m.producerId, m.producerEpoch);
      armAbortTimer(w, node, mem);
      return;
    case 'PrepareCommit':
    case 'PrepareAbort':
      if (append.request) answerRequest(w, append.request, undefined, m.producerId, m.producerEpoch);
      m.markersPending = [...m.partitions];
      m.markerInFlight = {};
      m.markerOffsets = {};
      sendMarkers(w, node, mem, m);
      return;
    case 'CompleteCommit':
    case 'CompleteAbort': {
      const committed = append.target === 'CompleteCommit';
      const markers = m.markerOffsets;
      const completed = (w.completedTxns ??= []);
      completed.push({
        transactionalId: m.transactionalId,
        producerId: m.producerId,
        producerEpoch: m.producerEpoch,
        committed,
        atMs: w.nowMs,
        markers,
      });
      if (completed.length > 2 * COMPLETED_TXNS_MAX)
        completed.splice(0, completed.length - COMPLETED_TXNS_MAX);
      m.markerOffsets = {};
      const where = Object.entries(markers)
        .map(([tp, off]) => `${tp}@${off}`)
        .join(', ');
      emit(
        w,
        committed ? 'TransactionCommitted' : 'TransactionAborted',
        `Transaction of ${m.transactionalId} (producer id ${m.producerId}, epoch ${m.producerEpoch}) ${committed ? 'committed' : 'aborted'}: every partition has its ${committed ? 'COMMIT' : 'ABORT'} marker (${where || 'no partitions'}) and the coordinator wrote ${append.target}. ${committed ? 'read_committed consumers now read its records.' : 'read_committed consumers skip its records.'}`,
        { nodeId: node.id, transactionalId: m.transactionalId, producerId: m.producerId, committed },
      );
      return;
    }
    case 'PrepareEpochFence':
      return;
  }
}

/** The answer of the client request that an append completes, in the request's own response kind. */
function answerRequest(
  w: World,
  request: Message,
  error: string | undefined,
  producerId: number,
  producerEpoch: number,
): void {
  const b = request.body as TxnRequest;
  const e = error ? { error } : {};
  if (b.kind === 'InitProducerId')
    reply(w, request, { kind: 'InitProducerIdResponse', ...e, producerId, producerEpoch });
  else if (b.kind === 'AddPartitionsToTxn')
    reply(w, request, { kind: 'AddPartitionsToTxnResponse', ...e, partitions: b.partitions });
  else if (b.kind === 'EndTxn') reply(w, request, { kind: 'EndTxnResponse', ...e, committed: b.committed });
  else if (b.kind === 'AddOffsetsToTxn')
    reply(w, request, { kind: 'AddOffsetsToTxnResponse', ...e, groupId: b.groupId });
}

function armAbortTimer(w: World, node: SimNode, mem: TxnCoordinatorMem): void {
  const interval = Number(w.config['transaction.abort.timed.out.transaction.cleanup.interval.ms']);
  armNodeDeadline(w, node, mem.abortTimer, w.nowMs + interval, 'txnAbortTimedOut');
}

/**
 * TransactionCoordinator.abortTimedOutTransactions, every
 * transaction.abort.timed.out.transaction.cleanup.interval.ms: a transaction open longer than its
 * transaction.timeout.ms is aborted with the producer's epoch bumped, so that the producer, if it
 * still lives, is fenced.
 */
export function onAbortTimedOutTransactions(w: World, node: SimNode, token: number): void {
  const mem = w.transactions?.get(node.id);
  if (!mem || mem.abortTimer.token !== token) return;
  mem.abortTimer.token = 0;
  let open = false;
  for (const m of mem.txns.values()) {
    if (m.state !== 'Ongoing') continue;
    open = true;
    if (m.pending || m.startMs + m.timeoutMs > w.nowMs) continue;
    emit(
      w,
      'TransactionTimedOut',
      `The transaction of ${m.transactionalId} has been open for ${w.nowMs - m.startMs} ms, longer than its transaction.timeout.ms (${m.timeoutMs} ms): coordinator ${node.id} aborts it and bumps the producer's epoch to ${m.producerEpoch + 1}, fencing it.`,
      { nodeId: node.id, transactionalId: m.transactionalId, producerId: m.producerId },
    );
    prepareAbort(w, node, mem, m, m.producerEpoch + 1, null);
  }
  if (open) armAbortTimer(w, node, mem);
}

export function onTxnMarkerTimer(w: World, node: SimNode, token: number): void {
  onMarkerTimer(w, node, token);
}

/**
 * The broker's metadata changed: partitions of __transaction_state it now leads are loaded, and a
 * transaction a failover left in PrepareCommit or PrepareAbort is completed by the new coordinator
 * (TransactionStateManager.loadTransactionsForTxnTopicPartition → sendTxnMarkersCallback).
 */
export function onTxnMetadataApplied(w: World, node: SimNode): void {
  if (!node.raft?.image.topics.has(TRANSACTION_STATE_TOPIC)) return;
  const fresh = syncLoadedPartitions(w, node);
  if (fresh.length === 0) return;
  const mem = txnMem(w, node);
  for (const m of fresh) {
    if (m.state === 'PrepareCommit' || m.state === 'PrepareAbort') {
      m.markersPending = [...m.partitions];
      emit(
        w,
        'TransactionRecovered',
        `Broker ${node.id} took over as transaction coordinator of ${m.transactionalId}, found it in ${m.state}, and completes it: it writes the ${m.state === 'PrepareCommit' ? 'COMMIT' : 'ABORT'} markers again.`,
        { nodeId: node.id, transactionalId: m.transactionalId, producerId: m.producerId },
      );
      sendMarkers(w, node, mem, m);
    } else if (m.state === 'Ongoing') armAbortTimer(w, node, mem);
  }
}
