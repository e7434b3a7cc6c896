// The producer's waiting records, per partition (RecordAccumulator keeps a deque of batches per
// partition, and ready() and drain() look at each deque's head): records in send order within a
// partition, and one queue per topic (partition -1) for records sent before the topic's metadata
// arrived. The Sender's pass (recordAccumulator.ts) reads a queue from its head and stops as soon
// as what is left of it can only wait, so a backlog that cannot move costs per partition, not per record.

import { lowerBound } from '../model/arrays';
import { tpKey } from '../model/metadata';
import type { AccumulatorQueue, ProducerClient, World } from '../model/world';
import type { LedgerEntry } from '../model/types';

/**
 * A record whose turn in its queue cannot be told from the others': one that was sent before (a
 * retry, with its own backoff and batch) or sent with other acks than the producer's (another
 * batch). The rest are first sends at the producer's acks, which become ready in send order
 * (sent time + linger.ms) and fail max.block.ms in send order.
 */
export function isIrregular(p: ProducerClient, entry: LedgerEntry): boolean {
  return entry.attempts.length > 0 || entry.acks !== p.acks;
}

function queueFor(p: ProducerClient, topic: string, partition: number): AccumulatorQueue {
  const key = tpKey(topic, partition);
  let q = p.queues.get(key);
  if (!q) p.queues.set(key, (q = { topic, partition, ids: [], irregular: 0 }));
  return q;
}

/** send(): the newest record joins the end of its partition's queue (or its topic's, without metadata). */
export function appendWaiting(p: ProducerClient, entry: LedgerEntry, partition: number): void {
  const q = queueFor(p, entry.topic, partition);
  q.ids.push(entry.recordId);
  if (isIrregular(p, entry)) q.irregular++;
  noteReady(p, q, entry.recordId);
}

/**
 * A record back in the accumulator (a retry, RecordAccumulator.reenqueue; a batch the connection
 * could not take) goes to its place in send order within its partition.
 */
export function insertWaiting(p: ProducerClient, entry: LedgerEntry, partition: number): void {
  const q = queueFor(p, entry.topic, partition);
  const ids = q.ids;
  const id = entry.recordId;
  if (ids.length === 0 || ids[ids.length - 1]! < id) ids.push(id);
  else ids.splice(lowerBound(ids, id), 0, id);
  if (isIrregular(p, entry)) q.irregular++;
  noteReady(p, q, id);
}

/**
 * Records of one batch back in the accumulator, in send order: they go in with one splice where no
 * waiting record of the partition falls between them (a retried batch goes back ahead of the newer
 * records), else one by one.
 */
export function insertWaitingRun(
  p: ProducerClient,
  entries: readonly LedgerEntry[],
  partition: number,
): void {
  if (entries.length === 0) return;
  const q = queueFor(p, entries[0]!.topic, partition);
  const ids = q.ids;
  const first = entries[0]!.recordId;
  const last = entries[entries.length - 1]!.recordId;
  const at = ids.length === 0 || ids[ids.length - 1]! < first ? ids.length : lowerBound(ids, first);
  let sorted = true;
  for (let i = 1; i < entries.length && sorted; i++) sorted = entries[i - 1]!.recordId < entries[i]!.recordId;
  if (!sorted || (at < ids.length && ids[at]! <= last)) {
    for (const e of entries) insertWaiting(p, e, partition);
    return;
  }
  const run = entries.map((e) => e.recordId);
  if (at === ids.length) for (const id of run) ids.push(id);
  else ids.splice(at, 0, ...run);
  for (const e of entries) {
    if (isIrregular(p, e)) q.irregular++;
    noteReady(p, q, e.recordId);
  }
}

/** Keeps only the waiting records `keep` accepts (an aborted transaction, a fatal error). */
export function filterWaiting(w: World, p: ProducerClient, keep: (id: number) => boolean): void {
  for (const [key, q] of p.queues) {
    q.ids = q.ids.filter(keep);
    q.irregular = 0;
    for (const id of q.ids) if (isIrregular(p, w.ledgerIndex.get(id)!)) q.irregular++;
    if (q.ids.length === 0) p.queues.delete(key);
  }
}

/**
 * Whether a record of `topic` waits (or waited: a record that delivery.timeout.ms failed stays in
 * its queue until the Sender's next pass drops it).
 */
export function topicWaiting(p: ProducerClient, topic: string): boolean {
  for (const q of p.queues.values()) if (q.topic === topic) return true;
  return false;
}

/**
 * The topics of the producer's unsettled records, each at the place of its oldest one (as a walk
 * over every record in send order would list them): from each queue's first live record and each
 * request in flight, not from every record.
 */
export function unsettledTopics(p: ProducerClient): Set<string> {
  const oldest = new Map<string, number>();
  const note = (topic: string, id: number) => {
    const o = oldest.get(topic);
    if (o === undefined || id < o) oldest.set(topic, id);
  };
  for (const q of p.queues.values())
    for (const id of q.ids)
      if (p.records.has(id)) {
        note(q.topic, id);
        break;
      }
  for (const req of p.inFlight.values())
    for (const id of req.recordIds)
      if (p.records.has(id)) {
        note(req.topic, id);
        break;
      }
  return new Set([...oldest].sort((a, b) => a[1] - b[1]).map(([topic]) => topic));
}

/**
 * A min-heap of (readyAtMs, record id) pairs over a queue's records, each checked against its
 * record when it comes to the top (a record that left the queue, or came back with a new readyAtMs,
 * leaves a stale pair behind).
 */
interface ReadyHeap {
  at: number[];
  ids: number[];
}

/**
 * Per queue: `all`, the earliest readyAtMs of its records (the quick look), and `future`, the
 * earliest still to come (the wake-up of a rest that can only wait; pairs whose time has come are
 * dropped for good, as time only moves on). A memo of the World, not part of it: a cloned World
 * builds them again from the queue when first asked.
 */
const readyHeaps = new WeakMap<AccumulatorQueue, { all: ReadyHeap; future: ReadyHeap }>();

function heapPush(h: ReadyHeap, at: number, id: number): void {
  let i = h.at.length;
  h.at.push(at);
  h.ids.push(id);
  while (i > 0) {
    const parent = (i - 1) >>> 1;
    if (h.at[parent]! <= at) break;
    h.at[i] = h.at[parent]!;
    h.ids[i] = h.ids[parent]!;
    i = parent;
  }
  h.at[i] = at;
  h.ids[i] = id;
}

function heapPop(h: ReadyHeap): void {
  const at = h.at.pop()!;
  const id = h.ids.pop()!;
  const size = h.at.length;
  if (size === 0) return;
  let i = 0;
  for (;;) {
    let child = 2 * i + 1;
    if (child >= size) break;
    if (child + 1 < size && h.at[child + 1]! < h.at[child]!) child++;
    if (h.at[child]! >= at) break;
    h.at[i] = h.at[child]!;
    h.ids[i] = h.ids[child]!;
    i = child;
  }
  h.at[i] = at;
  h.ids[i] = id;
}

function buildHeaps(p: ProducerClient, q: AccumulatorQueue): { all: ReadyHeap; future: ReadyHeap } {
  const heaps = { all: { at: [], ids: [] }, future: { at: [], ids: [] } };
  for (const id of q.ids) {
    const r = p.records.get(id);
    if (!r || r.inFlight) continue;
    heapPush(heaps.all, r.readyAtMs, id);
    heapPush(heaps.future, r.readyAtMs, id);
  }
  readyHeaps.set(q, heaps);
  return heaps;
}

function heapsOf(p: ProducerClient, q: AccumulatorQueue): { all: ReadyHeap; future: ReadyHeap } {
  const heaps = readyHeaps.get(q);
  // Stale pairs are dropped only at the top: past twice the queue's length, build again.
  if (!heaps || heaps.all.at.length > 2 * q.ids.length + 64 || heaps.future.at.length > 2 * q.ids.length + 64)
    return buildHeaps(p, q);
  return heaps;
}

/** A record joined `q`: its pair joins the heaps, if they were built. */
function noteReady(p: ProducerClient, q: AccumulatorQueue, id: number): void {
  const heaps = readyHeaps.get(q);
  const r = p.records.get(id);
  if (!heaps || !r) return;
  heapPush(heaps.all, r.readyAtMs, id);
  heapPush(heaps.future, r.readyAtMs, id);
}

function current(p: ProducerClient, q: AccumulatorQueue, at: number, id: number): boolean {
  const r = p.records.get(id);
  return r !== undefined && !r.inFlight && r.readyAtMs === at && r.partition === q.partition;
}

/**
 * A queue this short is read whole instead (a healthy producer's queues hold a batch or two): no
 * heaps are built for it, so a queue made and emptied pass after pass costs no memo. Once built, a
 * queue's heaps are kept up to date (noteReady) whichever way it is read, so either read answers the same.
 */
const SCAN_MAX = 32;

/** The earliest readyAtMs of the records waiting in `q` (Infinity when none is live). */
export function earliestReady(p: ProducerClient, q: AccumulatorQueue): number {
  if (q.ids.length <= SCAN_MAX) return scanReady(p, q, -Infinity);
  const h = heapsOf(p, q).all;
  while (h.at.length > 0 && !current(p, q, h.at[0]!, h.ids[0]!)) heapPop(h);
  return h.at.length > 0 ? h.at[0]! : Infinity;
}

/**
 * The earliest readyAtMs after `nowMs` of the records waiting in `q`, or Infinity. (During the
 * Sender's pass a record it batched has a readyAtMs not after `nowMs`, so it does not count.)
 */
export function nextReady(p: ProducerClient, q: AccumulatorQueue, nowMs: number): number {
  if (q.ids.length <= SCAN_MAX) return scanReady(p, q, nowMs);
  const h = heapsOf(p, q).future;
  while (h.at.length > 0 && (h.at[0]! <= nowMs || !current(p, q, h.at[0]!, h.ids[0]!))) heapPop(h);
  return h.at.length > 0 ? h.at[0]! : Infinity;
}

/** The earliest readyAtMs after `afterMs` of the live records of `q` (as the heaps keep them), or Infinity. */
function scanReady(p: ProducerClient, q: AccumulatorQueue, afterMs: number): number {
  let at = Infinity;
  for (const id of q.ids) {
    const r = p.records.get(id);
    if (
      r !== undefined &&
      !r.inFlight &&
      r.partition === q.partition &&
      r.readyAtMs > afterMs &&
      r.readyAtMs < at
    )
      at = r.readyAtMs;
  }
  return at;
}
