// A Produce request on the leader (ReplicaManager.appendRecords, Partition.appendRecordsToLeader):
// authorization, the idempotent producer's sequence check, the append, and acks. And a transaction
// marker from the transaction coordinator (KafkaApis.handleWriteTxnMarkersRequest): a control record
// appended with acks=all, answered once it is below the high watermark.

import { authorizationError } from './acl';
import { recordSizeBytes } from '../model/messages';
import { countBytes } from '../model/traffic';
import { armNodeDeadline } from '../kernel/kernel';
import { append, logEndOffset } from '../model/log';
import type { LogRecord, MessageOf } from '../model/messages';
import { tpKey } from '../model/metadata';
import { trailAppend } from '../model/trail';
import type { DelayedProduce, SimNode, World } from '../model/world';
import { effMinIsr } from './brokerConfig';
import { completeDelayed, respondProduce } from './delayedProduce';
import { diskOf } from './logManager';
import { maybeIncrementHighWatermark } from './partition';
import { epochError, offsetOfSeq, sameEpoch, trackProducer } from './producerState';
import { completeParkedFetch } from './replicaManager';
import { clearVerificationGuard, holdForVerification, takeVerification } from './transactionVerification';
import { itemAt } from '../model/arrays';

/** A Produce on this broker; `verified`: KIP-890's verification of its transaction already passed. */
export function onProduceRequest(w: World, node: SimNode, msg: MessageOf<'Produce'>, verified = false): void {
  const body = msg.body;
  let bytes = 0;
  for (const r of body.records) bytes += recordSizeBytes(r);
  countBytes(w, node.id, bytes, 0);
  // KafkaApis.handleProduceRequest authorizes WRITE on the topic before anything else.
  const denied =
    typeof msg.from === 'string' ? authorizationError(w, msg.from, 'Write', 'topic', body.topic) : null;
  if (denied) {
    if (body.acks !== 0) respondProduce(w, msg, body, denied, -1);
    return;
  }
  const tp = tpKey(body.topic, body.partition);
  const mem = node.broker!.replicas.get(tp);
  if (!mem || mem.role !== 'leader') {
    const p = node.raft!.image.partitions.get(tp);
    if (body.acks !== 0)
      respondProduce(
        w,
        msg,
        body,
        'NOT_LEADER_OR_FOLLOWER',
        -1,
        p && p.leader !== -1 && p.leader !== node.id
          ? { leaderId: p.leader, leaderEpoch: p.leaderEpoch }
          : undefined,
      );
    return;
  }
  // KIP-890: ReplicaManager.handleProduceAppend verifies before appendRecords.
  if (!verified && holdForVerification(w, node, mem, msg)) return;
  const minIsr = effMinIsr(w, node, mem);
  if (body.acks === 'all' && mem.isr.length < minIsr) {
    respondProduce(w, msg, body, 'NOT_ENOUGH_REPLICAS', -1);
    return;
  }
  const disk = diskOf(node, tp);
  // The sender never sends an empty batch.
  const first = itemAt(body.records, 0);
  let baseOffset: number;
  const known = first.pid >= 0 ? mem.producerState.get(first.pid) : undefined;
  const fenced = epochError(known, first);
  if (fenced) {
    if (body.acks !== 0) respondProduce(w, msg, body, fenced, -1);
    return;
  }
  // A coordinator's append (a TxnOffsetCommit) has no sequence numbers to check (AppendOrigin.COORDINATOR).
  const state =
    body.origin !== 'coordinator' && known && sameEpoch(known, first) && known.offsets.length > 0
      ? known
      : undefined;
  // ProducerStateEntry.findDuplicateBatch: a duplicate is the same batch, first to last sequence.
  const last = itemAt(body.records, body.records.length - 1);
  const dupFirst = state ? offsetOfSeq(state, first.seq) : undefined;
  const dupLast = state ? offsetOfSeq(state, last.seq) : undefined;
  const dup = dupFirst !== undefined && dupLast === dupFirst + body.records.length - 1 ? dupFirst : undefined;
  if (dup !== undefined) {
    baseOffset = dup; // idempotence: a retried batch is not written twice
  } else {
    if (state) {
      if (first.seq !== state.lastSeq + 1) {
        if (body.acks !== 0) respondProduce(w, msg, body, 'OUT_OF_ORDER_SEQUENCE_NUMBER', -1);
        return;
      }
    }
    baseOffset = logEndOffset(disk.log);
    for (const rec of body.records) {
      rec.epoch = mem.leaderEpoch; // the request's record becomes the log's (it is not sent again)
      const offset = append(disk.log, rec);
      trackProducer(mem, rec, offset);
    }
    trailAppend(w.trail, tp, node.id, baseOffset, logEndOffset(disk.log), w.nowMs, true);
    for (const f of mem.replicas) if (f !== node.id) completeParkedFetch(w, node, f);
  }
  const lastOffset = baseOffset + body.records.length - 1;
  if (body.acks === 0) {
    maybeIncrementHighWatermark(w, node, mem, disk);
    return;
  }
  if (body.acks === 1) {
    respondProduce(w, msg, body, undefined, baseOffset);
    maybeIncrementHighWatermark(w, node, mem, disk);
    return;
  }
  const delayed: DelayedProduce = {
    requiredOffset: lastOffset + 1,
    baseOffset,
    msg,
    deadlineMs: w.nowMs + body.timeoutMs,
  };
  mem.delayed.push(delayed);
  armNodeDeadline(w, node, mem.delayedTimer, delayed.deadlineMs, 'delayedProduceExpire', tp);
  maybeIncrementHighWatermark(w, node, mem, disk);
  completeDelayed(w, node, mem, disk);
}

/**
 * WriteTxnMarkers for one partition: the COMMIT or ABORT control record of the producer's
 * transaction is appended at the leader, taking an offset like any record, and answered (as a
 * produce with acks=all would be) once the high watermark passes it.
 */
export function onWriteTxnMarkers(w: World, node: SimNode, msg: MessageOf<'WriteTxnMarkers'>): void {
  const b = msg.body;
  const tp = tpKey(b.topic, b.partition);
  const mem = node.broker!.replicas.get(tp);
  // respondProduce answers a WriteTxnMarkers as it does when a marker waited for acks=all.
  const answer = (error: string | undefined, offset: number) => respondProduce(w, msg, b, error, offset);
  if (!mem || mem.role !== 'leader') return answer('NOT_LEADER_OR_FOLLOWER', -1);
  if (mem.isr.length < effMinIsr(w, node, mem)) return answer('NOT_ENOUGH_REPLICAS', -1);
  const known = mem.producerState.get(b.producerId);
  // ProducerAppendInfo.checkProducerEpoch: a marker older than the producer's epoch here is stale.
  if (known?.epoch !== undefined && b.producerEpoch < known.epoch)
    return answer('INVALID_PRODUCER_EPOCH', -1);
  const disk = diskOf(node, tp);
  const rec: LogRecord = {
    id: w.nextRecordId++,
    epoch: mem.leaderEpoch,
    key: null,
    value: b.committed ? 'COMMIT' : 'ABORT',
    producerId: b.transactionalId,
    pid: b.producerId,
    seq: -1,
    timestampMs: w.nowMs,
    producerEpoch: b.producerEpoch,
    // A control batch is a transactional batch (RecordBatch.isTransactional and isControlBatch).
    transactional: true,
    control: b.committed ? 'COMMIT' : 'ABORT',
  };
  const offset = append(disk.log, rec);
  trackProducer(mem, rec, offset);
  clearVerificationGuard(mem, b.producerId);
  for (const f of mem.replicas) if (f !== node.id) completeParkedFetch(w, node, f);
  const delayed: DelayedProduce = {
    requiredOffset: offset + 1,
    baseOffset: offset,
    msg,
    deadlineMs: w.nowMs + MARKER_APPEND_TIMEOUT_MS,
  };
  mem.delayed.push(delayed);
  armNodeDeadline(w, node, mem.delayedTimer, delayed.deadlineMs, 'delayedProduceExpire', tp);
  maybeIncrementHighWatermark(w, node, mem, disk);
  completeDelayed(w, node, mem, disk);
}

/** The coordinator answered a verification (KIP-890): the produces it held are appended now, or were refused. */
export function onVerifyPartitionsResponse(
  w: World,
  node: SimNode,
  msg: MessageOf<'AddPartitionsToTxnResponse'>,
): void {
  for (const request of takeVerification(w, node, msg.reqId, msg.body.error))
    onProduceRequest(w, node, request as MessageOf<'Produce'>, true);
}

/** The marker's wait for the ISR (the coordinator's request.timeout.ms). */
const MARKER_APPEND_TIMEOUT_MS = 30000;
