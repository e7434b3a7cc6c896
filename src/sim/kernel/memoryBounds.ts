// Bounds on what a long run keeps that no view needs in full: the event log keeps its newest
// events, and the ledger its newest failed sends and acks=0 sends per producer; what is dropped is counted, so a view
// can say that older ones are no longer kept. A simulator limit, not Kafka's (a real cluster logs to
// files that roll, and a producer's failed sends live on only in its application's callbacks).
// No bound changes a run: nothing in the engine decides by an old event, a failed or an acks=0 entry, and
// the state hash counts events, kept or not (kernel/hash.ts). See docs/engine.md, "Memory bounds".

import { lowerBound } from '../model/arrays';
import { tpKey } from '../model/metadata';
import type { ProducerClient, SettledBucket, World } from '../model/world';
import type { LedgerEntry, SimEvent } from '../model/types';

/**
 * Events kept: the newest 10,000 (and up to a tenth more before the oldest are dropped, in one
 * go; and those logged since the last metrics sample, which are never dropped unread). Ten times the page's event log (EVENT_LOG_LIMIT), five times the timeline's markers; the
 * invariant monitor and the lessons read events within a sample of their logging; a broker crash on
 * the large preset logs a few hundred. At some 400 bytes an event, about 4 MB.
 */
export const EVENTS_KEPT = 10_000;

/**
 * Failed ledger entries kept per producer: the newest 1,000 (and up to as many more before the
 * oldest go, in one pass). More than the client history (CLIENT_HISTORY_MAX) or the Inspector's ledger
 * (MAX_LEDGER_LIMIT) shows; with every broker down a producer at 1,000 records/s fails that many a
 * second, each entry with its attempts.
 */
export const LEDGER_FAILED_KEPT = 1_000;

export function eventsKept(w: World): number {
  return w.memoryLimits?.events ?? EVENTS_KEPT;
}

export function failedKept(w: World): number {
  return w.memoryLimits?.failedPerProducer ?? LEDGER_FAILED_KEPT;
}

/**
 * After an event is logged: past the bound and its slack, the oldest go, at least the slack at a time
 * (amortised O(1) an event); never one the metrics (a sample every simulated second,
 * observe/metrics.ts) have not read, nor so the invariant monitor that looks at each sample.
 */
export function boundEvents(w: World): void {
  const kept = eventsKept(w);
  const slack = Math.ceil(kept / 10);
  if (w.events.length <= kept + slack) return;
  const unread = Math.max(0, w.eventSeq - w.metrics.eventCursor);
  const drop = Math.min(w.events.length - kept, w.events.length - unread);
  if (drop < slack) return;
  w.events.splice(0, drop);
  w.eventsDropped = (w.eventsDropped ?? 0) + drop;
}

/** Events logged so far, kept or not: the `seq` the next one gets (a reader's cursor). */
export function eventCount(w: Pick<World, 'eventSeq'>): number {
  return w.eventSeq;
}

/** The kept events from `seq` on (binary search: seqs are increasing). */
export function eventsFromSeq(events: readonly SimEvent[], seq: number): readonly SimEvent[] {
  if (events.length === 0 || events[0]!.seq >= seq) return events;
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (events[mid]!.seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return events.slice(lo);
}

/**
 * `acks=0` ledger entries kept per producer: the newest 1,000 (and up to as many more before the
 * oldest go). Kafka's client reports such a record as sent with no offset (-1), so retention and the
 * record ceiling, which prune the ledger by offset, never reach it; a producer at 1,000 records/s of
 * acks=0 adds 3.6 million entries a simulated hour.
 */
export const LEDGER_ACKS0_KEPT = 1_000;

export function acks0Kept(w: World): number {
  return w.memoryLimits?.acks0PerProducer ?? LEDGER_ACKS0_KEPT;
}

/** A ledger entry has just failed: the ledger keeps the producer's newest failed ones (noteSettled). */
export function noteFailed(w: World, entry: LedgerEntry): void {
  noteSettled(w, (w.ledgerFailed ??= new Map()), entry, failedKept(w), (e) => e.status === 'failed');
}

/** An `acks=0` entry was just sent (settled with no offset): the ledger keeps the producer's newest ones. */
export function noteAcks0(w: World, entry: LedgerEntry): void {
  noteSettled(
    w,
    (w.ledgerAcks0 ??= new Map()),
    entry,
    acks0Kept(w),
    (e) => e.status === 'acked' && e.offset < 0,
  );
}

/**
 * An entry of a bounded kind has just settled. Past twice the bound, the producer's older ones (by
 * when they settled) leave the ledger and its index, counted as dropped, down to the bound; except
 * those its live client still holds (a record the delivery timeout failed waits in its queue for
 * the Sender's next pass). A pass costs a walk of the ledger, once every `kept` settlements.
 */
function noteSettled(
  w: World,
  buckets: Map<string, SettledBucket>,
  entry: LedgerEntry,
  kept: number,
  stillOfKind: (e: LedgerEntry) => boolean,
): void {
  let c = buckets.get(entry.producerId);
  if (!c) buckets.set(entry.producerId, (c = { ids: [], dropped: 0, limit: 0 }));
  c.ids.push(entry.recordId);
  if (c.ids.length <= Math.max(2 * kept, c.limit)) return;
  const p = w.producers.get(entry.producerId);
  const excess = c.ids.length - kept;
  const doomed = new Set<number>();
  const held: number[] = [];
  for (let i = 0; i < excess; i++) {
    const id = c.ids[i]!;
    const e = w.ledgerIndex.get(id);
    if (p && clientHolds(p, e, id)) held.push(id);
    else if (e && stillOfKind(e)) doomed.add(id);
  }
  c.ids = held.concat(c.ids.slice(excess));
  // Those the client still holds stay: the next pass waits for another bound's worth of settlements.
  c.limit = c.ids.length + kept;
  if (doomed.size === 0) return;
  c.dropped += doomed.size;
  w.ledger = w.ledger.filter((e) => !doomed.has(e.recordId));
  for (const id of doomed) w.ledgerIndex.delete(id);
}

/** Whether the producer still holds record `id`: unsettled, or waiting in its partition's (or topic's) queue. */
function clientHolds(p: ProducerClient, e: LedgerEntry | undefined, id: number): boolean {
  if (p.records.has(id)) return true;
  if (!e) return false;
  for (const key of [tpKey(e.topic, e.partition), tpKey(e.topic, -1)]) {
    const ids = p.queues.get(key)?.ids;
    if (!ids) continue;
    // A queue is in record id order (accumulatorQueues.ts).
    if (ids[lowerBound(ids, id)] === id) return true;
  }
  return false;
}

/** Failed entries dropped from the ledger so far, per producer (those with none are left out). */
export function failedDropped(w: World): Map<string, number> {
  return droppedBy(w.ledgerFailed);
}

/** `acks=0` entries dropped from the ledger so far, per producer (those with none are left out). */
export function acks0Dropped(w: World): Map<string, number> {
  return droppedBy(w.ledgerAcks0);
}

function droppedBy(buckets: Map<string, SettledBucket> | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const [id, c] of buckets ?? []) if (c.dropped > 0) out.set(id, c.dropped);
  return out;
}
