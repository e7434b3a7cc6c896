// A client history coloured by outcome, as Maelstrom draws one: each record a producer sent, in a
// time span, as acknowledged, failed, or indefinite (its request timed out or its connection
// broke, so the producer cannot know whether the broker wrote it), with where it landed when it
// did. Observe-only: reading it changes nothing.

import { clusterImage } from '../model/image';
import { failedDropped as failedDroppedBy } from '../kernel/memoryBounds';
import { entryAt, logEndOffset } from '../model/log';
import { tpKey } from '../model/metadata';
import type { World } from '../model/world';
import type { LedgerEntry } from '../model/types';

/**
 * acknowledged: the broker answered without error. failed: a definite error (nothing was
 * written). indefinite: it failed, but an attempt ended without an answer (REQUEST_TIMED_OUT,
 * NETWORK_EXCEPTION), so it may have been written. pending: not settled yet.
 */
export type SendOutcome = 'acknowledged' | 'failed' | 'indefinite' | 'pending';

/** The errors after which a producer cannot tell whether its request was written (the NetworkClient saw no answer). */
const NO_ANSWER = new Set(['REQUEST_TIMED_OUT', 'NETWORK_EXCEPTION']);

export interface ClientSendView {
  recordId: number;
  topic: string;
  partition: number;
  key: string | null;
  value: string;
  sentMs: number;
  /** When it was acknowledged, or its last attempt ended (-1: none yet). */
  settledMs: number;
  outcome: SendOutcome;
  error?: string;
  attempts: number;
  /** The offset it holds in the current leader's log, or -1: shows that an indefinite send did land. */
  landedOffset: number;
}

export interface ClientHistoryView {
  fromMs: number;
  toMs: number;
  producers: { producerId: string; sends: ClientSendView[] }[];
  counts: Record<SendOutcome, number>;
  /** Sends in the span beyond CLIENT_HISTORY_MAX (the oldest acknowledged ones are left out). */
  omitted: number;
  /**
   * Failed sends the ledger no longer keeps, of any time (each producer keeps its newest
   * LEDGER_FAILED_KEPT, kernel/memoryBounds.ts): not in the counts. Absent when none.
   */
  failedDropped?: number;
}

export const CLIENT_HISTORY_MAX = 600;
/** How far back from the log's end a failed send is looked for (the history shows recent sends). */
const LANDED_SCAN = 20_000;

export function sendOutcome(e: LedgerEntry): SendOutcome {
  if (e.status === 'acked') return 'acknowledged';
  if (e.status === 'pending') return 'pending';
  return e.attempts.some((a) => a.error !== undefined && NO_ANSWER.has(a.error)) ? 'indefinite' : 'failed';
}

/** The offset of record `recordId` in the leader's log of topic-partition (-1: not there). */
function offsetInLeaderLog(w: World, topic: string, partition: number, recordId: number): number {
  const tp = tpKey(topic, partition);
  const p = clusterImage(w).partitions.get(tp);
  const log = p && p.leader >= 0 ? w.nodes.get(p.leader)?.disk.partitions.get(tp)?.log : undefined;
  if (!log) return -1;
  const stop = Math.max(log.logStartOffset, logEndOffset(log) - LANDED_SCAN);
  for (let off = logEndOffset(log) - 1; off >= stop; off--)
    if (entryAt(log, off)?.id === recordId) return off;
  return -1;
}

/**
 * The sends of [fromMs, toMs], per producer, at most CLIENT_HISTORY_MAX. A full span keeps every
 * send that did not end acknowledged (those are what the history is read for) and leaves out the
 * oldest acknowledged ones; the counts are over the whole span.
 */
export function clientHistory(w: World, fromMs: number, toMs: number): ClientHistoryView {
  const counts: Record<SendOutcome, number> = { acknowledged: 0, failed: 0, indefinite: 0, pending: 0 };
  // Ledger indexes, newest first.
  const notable: number[] = [];
  const acked: number[] = [];
  let inWindow = 0;
  for (let i = w.ledger.length - 1; i >= 0; i--) {
    const e = w.ledger[i]!;
    // The ledger is in the order of send(): nothing older follows.
    if (e.sentAtMs < fromMs) break;
    if (e.sentAtMs > toMs) continue;
    inWindow++;
    const outcome = sendOutcome(e);
    counts[outcome]++;
    if (outcome === 'acknowledged') {
      if (acked.length < CLIENT_HISTORY_MAX) acked.push(i);
    } else if (notable.length < CLIENT_HISTORY_MAX) notable.push(i);
  }
  const keptAcked = acked.slice(0, Math.max(0, CLIENT_HISTORY_MAX - notable.length));
  const picked = [...notable, ...keptAcked].sort((a, b) => a - b).map((i) => w.ledger[i]!);
  const omitted = inWindow - picked.length;
  const byProducer = new Map<string, ClientSendView[]>();
  for (const e of picked) {
    const outcome = sendOutcome(e);
    const last = e.attempts[e.attempts.length - 1];
    const send: ClientSendView = {
      recordId: e.recordId,
      topic: e.topic,
      partition: e.partition,
      key: e.key,
      value: e.value,
      sentMs: e.sentAtMs,
      settledMs: e.ackedAtMs ?? (outcome === 'pending' ? -1 : (last?.atMs ?? e.sentAtMs)),
      outcome,
      attempts: e.attempts.length,
      landedOffset:
        outcome === 'acknowledged'
          ? e.offset
          : outcome === 'pending'
            ? -1
            : offsetInLeaderLog(w, e.topic, e.partition, e.recordId),
    };
    if (e.error !== undefined) send.error = e.error;
    let list = byProducer.get(e.producerId);
    if (!list) byProducer.set(e.producerId, (list = []));
    list.push(send);
  }
  const producers = [...byProducer.entries()]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([producerId, sends]) => ({ producerId, sends }));
  let failedDropped = 0;
  for (const n of failedDroppedBy(w).values()) failedDropped += n;
  return { fromMs, toMs, producers, counts, omitted, ...(failedDropped > 0 ? { failedDropped } : {}) };
}
