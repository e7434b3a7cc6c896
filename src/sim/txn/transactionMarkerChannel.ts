// TransactionMarkerChannelManager: once a transaction is PrepareCommit or PrepareAbort, its
// coordinator sends WriteTxnMarkers to the leader of every partition the transaction touched (one
// request per partition here), retries those that fail or go unanswered, and when every marker is
// written appends CompleteCommit or CompleteAbort to __transaction_state.

import { armNodeDeadline, emit, nextReqId, send } from '../kernel/kernel';
import type { MessageOf } from '../model/messages';
import type { SimNode, TxnCoordinatorMem, TxnMetadata, World } from '../model/world';
import { appendTxnState } from './transactionStateManager';

/** How soon a failed marker is sent again (the channel retries when metadata names the new leader). */
const MARKER_RETRY_MS = 100;
/** request.timeout.ms of the inter-broker channel: an unanswered marker request is sent again. */
const MARKER_REQUEST_TIMEOUT_MS = 30000;

const split = (tp: string): { topic: string; partition: number } => {
  const i = tp.lastIndexOf('-');
  return { topic: tp.slice(0, i), partition: Number(tp.slice(i + 1)) };
};

/** Sends the markers not yet written (and not in flight) to each partition's leader, as this broker's metadata names it. */
export function sendMarkers(w: World, node: SimNode, mem: TxnCoordinatorMem, m: TxnMetadata): void {
  if (m.state !== 'PrepareCommit' && m.state !== 'PrepareAbort') return;
  if (m.markersPending.length === 0) {
    writeComplete(w, node, mem, m);
    return;
  }
  const coordinatorEpoch = mem.loaded.get(m.statePartition) ?? -1;
  let next = Infinity;
  for (const tp of m.markersPending) {
    const inFlight = m.markerInFlight[tp];
    if (inFlight && w.nowMs - inFlight.sentAtMs < MARKER_REQUEST_TIMEOUT_MS) {
      next = Math.min(next, inFlight.sentAtMs + MARKER_REQUEST_TIMEOUT_MS);
      continue;
    }
    const state = node.raft!.image.partitions.get(tp);
    // A partition without a leader waits for one (the marker stays pending).
    if (!state || state.leader < 0) {
      next = Math.min(next, w.nowMs + MARKER_RETRY_MS);
      continue;
    }
    next = Math.min(next, w.nowMs + MARKER_REQUEST_TIMEOUT_MS);
    const reqId = nextReqId(w);
    m.markerInFlight[tp] = { reqId, sentAtMs: w.nowMs };
    send(
      w,
      node.id,
      state.leader,
      {
        kind: 'WriteTxnMarkers',
        transactionalId: m.transactionalId,
        producerId: m.producerId,
        producerEpoch: m.producerEpoch,
        coordinatorEpoch,
        committed: m.state === 'PrepareCommit',
        ...split(tp),
      },
      reqId,
    );
  }
  armNodeDeadline(w, node, mem.markerTimer, next, 'txnMarkers');
}

/** Every marker is written: CompleteCommit or CompleteAbort is appended (TransactionMetadata.prepareComplete). */
function writeComplete(w: World, node: SimNode, mem: TxnCoordinatorMem, m: TxnMetadata): void {
  if (m.pending) return;
  appendTxnState(w, node, mem, m, {
    transactionalId: m.transactionalId,
    target: m.state === 'PrepareCommit' ? 'CompleteCommit' : 'CompleteAbort',
    record: { ...m, partitions: [] },
    request: null,
  });
}

export function onWriteTxnMarkersResponse(
  w: World,
  node: SimNode,
  msg: MessageOf<'WriteTxnMarkersResponse'>,
): void {
  const b = msg.body;
  const mem = w.transactions?.get(node.id);
  const m = mem?.txns.get(b.transactionalId);
  if (!mem || !m || m.producerId !== b.producerId) return;
  const tp = `${b.topic}-${b.partition}`;
  if (m.markerInFlight[tp]?.reqId !== msg.reqId) return;
  delete m.markerInFlight[tp];
  if (b.error) {
    // NOT_LEADER_OR_FOLLOWER, NOT_ENOUGH_REPLICAS, ...: the marker is sent again to the partition's leader.
    emit(
      w,
      'TxnMarkerRetry',
      `Broker ${node.id}: the ${m.state === 'PrepareCommit' ? 'COMMIT' : 'ABORT'} marker of ${m.transactionalId} to ${tp} failed with ${b.error}; the transaction coordinator sends it again.`,
      { nodeId: node.id, topic: b.topic, partition: b.partition, error: b.error },
    );
    armNodeDeadline(w, node, mem.markerTimer, w.nowMs + MARKER_RETRY_MS, 'txnMarkers');
    return;
  }
  m.markersPending = m.markersPending.filter((x) => x !== tp);
  m.markerOffsets[tp] = b.offset;
  if (m.markersPending.length === 0) writeComplete(w, node, mem, m);
}

/** A marker request found its broker down: it is sent again on the channel's next retry. */
export function onWriteTxnMarkersDisconnected(w: World, node: SimNode, reqId: number): void {
  const mem = w.transactions?.get(node.id);
  if (!mem) return;
  for (const m of mem.txns.values())
    for (const [tp, f] of Object.entries(m.markerInFlight))
      if (f.reqId === reqId) {
        delete m.markerInFlight[tp];
        armNodeDeadline(w, node, mem.markerTimer, w.nowMs + MARKER_RETRY_MS, 'txnMarkers');
      }
}

/** The channel's retry: markers failed or unanswered are sent again; a Complete* append that failed is written again. */
export function onMarkerTimer(w: World, node: SimNode, token: number): void {
  const mem = w.transactions?.get(node.id);
  if (!mem || mem.markerTimer.token !== token) return;
  mem.markerTimer.token = 0;
  for (const m of mem.txns.values()) if (!m.pending) sendMarkers(w, node, mem, m);
}
