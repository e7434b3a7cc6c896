// The producer's Sender: one Produce request per ready batch to the partition's leader, and what
// the answer does to each record (acknowledged, retried with exponential backoff, failed for good).

import { armClientDeadline, nextReqId, send } from '../kernel/kernel';
import { tpKey } from '../model/metadata';
import { trailBatch } from '../model/trail';
import type { ProducerClient, ProducerRecordState, World } from '../model/world';
import type { Acks, LedgerEntry, NodeId } from '../model/types';
import type { LogRecord } from '../model/messages';
import { bumpEpoch, failAndBumpEpoch, isNextSequence } from './idempotence';
import { armDeliveryTimer, num, settle } from './producerDelivery';
import { clientTimerMs } from '../model/clientConfig';
import { insertWaiting, insertWaitingRun } from './accumulatorQueues';
import { connectionTried, exponentialBackoffMs } from './connectionBackoff';

const RETRIABLE = new Set([
  'NOT_LEADER_OR_FOLLOWER',
  'NOT_ENOUGH_REPLICAS',
  'NOT_ENOUGH_REPLICAS_AFTER_APPEND',
  'REQUEST_TIMED_OUT',
  'NETWORK_EXCEPTION',
  'LEADER_NOT_AVAILABLE',
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
  'UNKNOWN_TOPIC_OR_PARTITION',
]);

export interface Batch {
  leader: NodeId;
  topic: string;
  partition: number;
  acks: Acks;
  records: ProducerRecordState[];
  entries: LedgerEntry[];
  bytes: number;
  /** The next record did not fit batch.size: the batch was closed full. */
  full: boolean;
}

export function sendBatch(w: World, p: ProducerClient, b: Batch): void {
  // Idempotence is off for acks 0 and 1 (ProducerConfig), and when a conflicting config turned it off.
  const idempotent = b.acks === 'all' && p.idempotent;
  const tp = tpKey(b.topic, b.partition);
  const sticky = p.sticky.get(b.topic);
  // The sticky partition's open batch is sent: nothing holds back a partition switch (RecordAccumulator.allBatchesFull).
  if (sticky && sticky.partition === b.partition) sticky.open = 0;
  const batchId = b.records[0]!.batchId >= 0 ? b.records[0]!.batchId : b.records[0]!.recordId;
  // The batch's record ids, in order: read by the trail and the request in flight, changed by neither.
  const recordIds = new Array<number>(b.records.length);
  for (let i = 0; i < b.records.length; i++) recordIds[i] = b.records[i]!.recordId;
  if (b.records[0]!.batchId < 0)
    trailBatch(w.trail, {
      batchId,
      producerId: p.id,
      topic: b.topic,
      partition: b.partition,
      leader: b.leader,
      atMs: w.nowMs,
      recordIds,
      bytes: b.bytes,
      closedBy: b.full ? 'batch.size' : 'linger.ms',
      lingerMs: num(p, 'linger.ms'),
      batchSize: num(p, 'batch.size'),
    });
  for (const r of b.records) {
    r.batchId = batchId;
    if (idempotent && r.seq < 0) {
      r.pid = p.pid;
      r.seq = p.nextSeq.get(tp) ?? 0;
      p.nextSeq.set(tp, r.seq + 1);
    }
    r.attempts++;
    if (r.attempts > 1) p.counters.retries++;
  }
  // One attempt for the batch, shared by its records' ledger entries: what later happens to it (its
  // error) happens to the whole request (finishAttempt, failAndBumpEpoch), and it is never changed
  // per record, so one object stands for all (a retried batch of 1,000 records made 1,000).
  const attempt = { atMs: w.nowMs, brokerId: b.leader };
  for (const e of b.entries) {
    // The ledger keeps every entry: a first attempt gets an array of its size, not push()'s spare room.
    if (e.attempts.length === 0) e.attempts = [attempt];
    else e.attempts.push(attempt);
  }
  // acks=0 expects no answer, so it does not stand for a connection attempt.
  if (b.acks !== 0) connectionTried(w, p.connections, b.leader);
  const reqId = nextReqId(w);
  send(
    w,
    p.id,
    b.leader,
    {
      kind: 'Produce',
      topic: b.topic,
      partition: b.partition,
      acks: b.acks,
      timeoutMs: num(p, 'request.timeout.ms'),
      ...(p.txn ? { transactionalId: p.txn.transactionalId } : {}),
      records: b.records.map((r, i) => {
        const e = b.entries[i]!;
        const record: LogRecord = {
          id: e.recordId,
          epoch: -1,
          key: e.key,
          value: e.value,
          producerId: p.id,
          pid: idempotent ? r.pid : -1,
          seq: idempotent ? r.seq : -1,
          timestampMs: e.sentAtMs,
        };
        // (Set after, not spread in: a spread makes an object per record, and most producers have no transaction.)
        if (p.txn) {
          record.producerEpoch = p.txn.producerEpoch;
          record.transactional = true;
        }
        return record;
      }),
    },
    reqId,
  );
  if (b.acks === 0) {
    // acks=0: no response; the client counts the records as sent with offset -1.
    for (const e of b.entries) {
      p.records.delete(e.recordId);
      settle(w, p, e, 'acked');
    }
    return;
  }
  for (const r of b.records) r.inFlight = true;
  p.inFlightPerBroker.set(b.leader, (p.inFlightPerBroker.get(b.leader) ?? 0) + 1);
  p.inFlight.set(reqId, {
    reqId,
    recordIds,
    brokerId: b.leader,
    topic: b.topic,
    partition: b.partition,
    sentAtMs: w.nowMs,
  });
  armClientDeadline(
    w,
    p.id,
    p.requestTimer,
    w.nowMs + clientTimerMs(num(p, 'request.timeout.ms')),
    'requestTimeout',
  );
}

export function finishAttempt(
  w: World,
  p: ProducerClient,
  reqId: number,
  error: string | undefined,
  baseOffset: number,
): void {
  const req = p.inFlight.get(reqId);
  if (!req) return;
  p.inFlight.delete(reqId);
  p.inFlightPerBroker.set(req.brokerId, (p.inFlightPerBroker.get(req.brokerId) ?? 1) - 1);
  if (error === 'OUT_OF_ORDER_SEQUENCE_NUMBER' && isNextSequence(w, p, req.recordIds)) {
    failAndBumpEpoch(w, p, req.recordIds);
    return;
  }
  let retried = false;
  let requeued: LedgerEntry[] | null = null; // the batch's records going back, in send order
  let bump: string | null = null;
  // The batch backs off as one (RecordAccumulator.shouldBackoff reads the batch's attempts): one
  // jittered backoff for its records, drawn once per attempts count (a batch's records share it).
  let backoffAttempts = -1;
  let batchBackoffMs = 0;
  for (let i = 0; i < req.recordIds.length; i++) {
    const recordId = req.recordIds[i]!;
    const r = p.records.get(recordId);
    const entry = w.ledgerIndex.get(recordId);
    if (!r || !entry) continue;
    r.inFlight = false;
    const attempt = entry.attempts[entry.attempts.length - 1];
    if (attempt && error) attempt.error = error;
    if (!error) {
      entry.offset = baseOffset + i;
      p.records.delete(recordId);
      settle(w, p, entry, 'acked');
      continue;
    }
    entry.error = error;
    if (r.attempts !== backoffAttempts) {
      backoffAttempts = r.attempts;
      batchBackoffMs = retryBackoffMs(w, p, r.attempts);
    }
    const backoffMs = batchBackoffMs;
    if (!RETRIABLE.has(error) || r.attempts > num(p, 'retries') || w.nowMs + backoffMs >= r.deadlineMs) {
      p.records.delete(recordId);
      settle(w, p, entry, 'failed', error);
      // Sender.completeBatch: a batch the broker refused for good (retries not used up) leaves a gap
      // in the sequence numbers, so the idempotent producer bumps its epoch at once
      // (TransactionManager.handleFailedBatch → requestEpochBumpForPartition).
      if (!RETRIABLE.has(error) && r.pid === p.pid && r.attempts <= num(p, 'retries')) bump = error;
      continue;
    }
    r.readyAtMs = w.nowMs + backoffMs;
    // Retried records go back in send order, ahead of newer ones (RecordAccumulator.reenqueue).
    if (r.partition === req.partition) (requeued ??= []).push(entry);
    else insertWaiting(p, entry, r.partition);
    retried = true;
  }
  if (requeued) insertWaitingRun(p, requeued, req.partition);
  if (retried) {
    // Records back in the accumulator count toward delivery.timeout.ms again (in flight they do not).
    armDeliveryTimer(w, p);
  }
  if (bump)
    bumpEpoch(
      w,
      p,
      `a batch was refused with ${bump}, which leaves a gap in its sequence numbers; the producer`,
    );
}

/**
 * retry.backoff.ms doubling up to retry.backoff.max.ms, with ±20% jitter, never above the maximum
 * (KIP-580; RecordAccumulator's ExponentialBackoff at the batch's attempts - 1).
 */
function retryBackoffMs(w: World, p: ProducerClient, attempts: number): number {
  return exponentialBackoffMs(
    w,
    num(p, 'retry.backoff.ms'),
    num(p, 'retry.backoff.max.ms'),
    Math.max(0, attempts - 1),
  );
}
