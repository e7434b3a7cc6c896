// How a producer's records end (FutureRecordMetadata, the send callback): acknowledged or failed
// for good, with the send-to-ack latency; and the delivery.timeout.ms timer that fails them.

import { emit, setClientTimer } from '../kernel/kernel';
import { noteAcks0, noteFailed } from '../kernel/memoryBounds';
import type { ProducerClient, World } from '../model/world';
import type { LedgerEntry } from '../model/types';

/** Ack latencies kept per producer for its percentiles (a ring: bounded, deterministic). */
const LATENCY_RING = 1024;

export function num(p: ProducerClient, name: string): number {
  return Number(p.config[name]);
}

/** One timer per producer, at the oldest unsettled record's delivery deadline. */
export function armDeliveryTimer(w: World, p: ProducerClient): void {
  for (const r of p.records.values()) {
    if (r.inFlight) continue;
    const due = Math.max(w.nowMs, r.deadlineMs);
    // Keep the armed timer if it fires no later: no pile of stale timers in the queue.
    if (p.deliveryDueMs >= w.nowMs && p.deliveryDueMs <= due) return;
    p.deliveryDueMs = due;
    p.deliveryToken = setClientTimer(w, p.id, due - w.nowMs, 'deliveryTimeout');
    return;
  }
}

export function settle(
  w: World,
  p: ProducerClient,
  entry: LedgerEntry,
  status: 'acked' | 'failed',
  error?: string,
  detail?: string,
): void {
  entry.status = status;
  if (status === 'acked') {
    entry.ackedAtMs = w.nowMs;
    p.counters.acknowledged++;
    if (p.latencies.length < LATENCY_RING) p.latencies.push(w.nowMs - entry.sentAtMs);
    else p.latencies[p.latencyNext] = w.nowMs - entry.sentAtMs;
    p.latencyNext = (p.latencyNext + 1) % LATENCY_RING;
    if (entry.offset < 0 && entry.acks === 0) noteAcks0(w, entry);
  } else {
    entry.error = error;
    // A failed record leaves its transaction abortable only (or, fenced, the producer dead).
    if (p.txn) {
      p.txn.failedRecords++;
      p.txn.lastError = error ?? null;
    }
    p.counters.failed[error!] = (p.counters.failed[error!] ?? 0) + 1;
    noteFailed(w, entry);
    emit(
      w,
      'ProduceFailed',
      `${p.id}: record ${entry.key ?? 'null'}=${entry.value} to ${entry.topic} failed: ${error}${detail ? ` (${detail})` : ''}.`,
      {
        topic: entry.topic,
        partition: entry.partition,
        producerId: p.id,
        error,
        recordId: entry.recordId,
      },
    );
  }
}
