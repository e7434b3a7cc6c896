// The idempotent producer's sequence numbers (TransactionManager, KIP-98, KIP-360): a batch's
// expected sequence, and bumping the epoch after an unresolved sequence error.

import { emit } from '../kernel/kernel';
import type { ProducerClient, World } from '../model/world';
import { armDeliveryTimer, settle } from './producerDelivery';

/**
 * Sender.canRetry: OUT_OF_ORDER_SEQUENCE_NUMBER is retriable while an earlier batch of the partition
 * is unsettled; for the earliest one the gap is permanent (its predecessor is gone from the log).
 */
export function isNextSequence(w: World, p: ProducerClient, recordIds: number[]): boolean {
  const first = p.records.get(recordIds[0]!);
  if (!first || first.seq < 0) return false;
  const topic = w.ledgerIndex.get(first.recordId)!.topic;
  for (const r of p.records.values())
    if (
      r.pid === first.pid &&
      r.partition === first.partition &&
      r.seq >= 0 &&
      r.seq < first.seq &&
      w.ledgerIndex.get(r.recordId)?.topic === topic
    )
      return false;
  return true;
}

/**
 * KIP-360: the batch fails with OutOfOrderSequenceException, and the idempotent producer bumps its
 * epoch, which restarts every partition's sequence at 0 (a new producer id stands for the new epoch).
 */
export function failAndBumpEpoch(w: World, p: ProducerClient, recordIds: number[]): void {
  for (const recordId of recordIds) {
    const r = p.records.get(recordId);
    const entry = w.ledgerIndex.get(recordId);
    if (!r || !entry) continue;
    r.inFlight = false;
    const attempt = entry.attempts[entry.attempts.length - 1];
    if (attempt) attempt.error = 'OUT_OF_ORDER_SEQUENCE_NUMBER';
    p.records.delete(recordId);
    settle(w, p, entry, 'failed', 'OUT_OF_ORDER_SEQUENCE_NUMBER');
  }
  bumpEpoch(
    w,
    p,
    'a batch was refused with OUT_OF_ORDER_SEQUENCE_NUMBER, its predecessor is gone from the log; the producer fails it and',
  );
}

/**
 * KIP-360: the idempotent producer restarts every partition's sequence at 0 with a new epoch (a new
 * producer id stands for it); records not yet acknowledged get new sequence numbers when sent again.
 */
export function bumpEpoch(w: World, p: ProducerClient, why: string): void {
  // A transactional producer's epoch belongs to its coordinator: it aborts, then bumps it with
  // InitProducerId (clients/transactionManager.ts).
  if (p.txn) return;
  const old = p.pid;
  p.pid = w.nextPid++;
  p.nextSeq.clear();
  for (const r of p.records.values()) {
    r.pid = -1;
    r.seq = -1;
    r.batchId = -1;
  }
  emit(
    w,
    'ProducerEpochBumped',
    `${p.id}: ${why} restarts its sequence numbers with a new epoch (producer id ${old} → ${p.pid}, KIP-360).`,
    { producerId: p.id },
  );
  armDeliveryTimer(w, p);
}
