// The producer's RecordAccumulator and partitioner choice: records wait per partition until
// linger.ms or batch.size, then drain into batches for the Sender; keyless records go to a
// sticky partition (KIP-480).

import { armClientDeadline } from '../kernel/kernel';
import { tpKey } from '../model/metadata';
import { partitionForKey } from './partitioner';
import { recordSizeBytes } from '../model/messages';
import { nextInt } from '../kernel/rng';
import type { AccumulatorQueue, ProducerClient, ProducerRecordState, World } from '../model/world';
import { earliestReady, insertWaiting, insertWaitingRun, isIrregular, nextReady } from './accumulatorQueues';
import type { LedgerEntry, NodeId } from '../model/types';
import { num, settle } from './producerDelivery';
import { requestMetadata } from './producerMetadata';
import { Batch, sendBatch } from './sender';
import { sendAllowed, txnStep } from './transactionManager';
import { connectableAtMs } from './connectionBackoff';

/**
 * KafkaProducer.doSend: the partition is chosen as the record is sent, once the topic's metadata
 * is known (otherwise the Sender chooses it when the metadata arrives): an explicit partition, the
 * key's murmur2 hash, or the sticky partitioner.
 */
export function choosePartition(
  w: World,
  p: ProducerClient,
  r: ProducerRecordState,
  entry: LedgerEntry,
): void {
  if (r.partition >= 0) return;
  const leaders = p.leaders.get(entry.topic);
  if (!leaders) return;
  r.partition =
    entry.key !== null
      ? partitionForKey(entry.key, leaders.length)
      : stickyPartition(w, p, entry.topic, leaders, recordSizeBytes(entry));
  entry.partition = r.partition;
}

/**
 * The Sender: records whose linger.ms (or retry backoff) has passed go out in batches of up to
 * batch.size per partition, at most max.in.flight.requests.per.connection requests per broker.
 * Each partition's queue is read from its head, in send order across the queues (a heap on each
 * queue's next record, as the pass over every record in send order decided); once what is left of a
 * queue can only wait (held behind a retry, not ready yet, no leader, no connection slot free,
 * max.block.ms not over), it is left as it is after one look and a search for its first record not
 * ready yet. So the pass costs per partition, not per waiting record (RecordAccumulator.ready and
 * drainBatchesForOneNode look at each partition's head batch).
 */
export function drain(w: World, p: ProducerClient): void {
  const stale = w.nowMs - p.metadataFetchedAtMs > num(p, 'metadata.max.age.ms');
  if (p.needMetadata || stale) requestMetadata(w, p);
  if (p.queues.size === 0) {
    if (p.txn) txnStep(w, p); // a commit may wait for the last record to settle
    return; // nothing waits to be sent (most responses find it so)
  }
  if (nothingDue(w, p)) return;
  let wakeAtMs = Infinity;
  const maxInFlight = num(p, 'max.in.flight.requests.per.connection');
  const batchSize = num(p, 'batch.size');
  const maxBlockMs = num(p, 'max.block.ms');
  // Made when first needed: most wake-ups find nothing to send.
  let batches: Map<string | number, Batch[]> | null = null;
  // With idempotence, a batch waiting to be retried holds back newer records of its partition
  // (ordering): per topic, the partitions held.
  let held: Map<string, Set<number>> | null = null;
  // Per leader, the batches made so far that need a connection slot (acks=0 takes none), and the
  // batch keys whose next batches cannot be sent now: what is past them waits without batching.
  let formed: Map<NodeId, number> | null = null;
  let closed: Set<string | number> | null = null;
  // Per partition (tpKey), the batch keys with batches made in this pass and not closed: records of
  // the partition may still join them.
  let openKeys: Map<string, number> | null = null;
  const nowMs = w.nowMs;

  // Per partition (tpKey), the retried batch of the lowest sequence number this pass lets go.
  let retrying: Map<string, { batchId: number; pid: number; seq: number }> | null = null;
  /**
   * Whether the retried batch of `r` must wait: its partition has a batch of a lower sequence number
   * of the same producer id in flight (TransactionManager.firstInFlightSequence), or this pass lets one
   * go already. (Records are read in send order, which is sequence order but after an epoch bump, when
   * a batch sent again under the new epoch may come after newer records: a batch of a lower sequence
   * number than the one let go goes too, so that neither waits for the other.)
   */
  const retryWaits = (r: ProducerRecordState, topic: string, tp: string): boolean => {
    const going = retrying?.get(tp);
    if (going !== undefined) {
      if (going.batchId === r.batchId) return false;
      if (going.pid === r.pid && going.seq < r.seq) return true;
    }
    for (const req of p.inFlight.values()) {
      if (req.partition !== r.partition || req.topic !== topic) continue;
      const first = p.records.get(req.recordIds[0]!);
      if (first && first.pid === r.pid && first.seq >= 0 && first.seq < r.seq) return true;
    }
    (retrying ??= new Map()).set(tp, { batchId: r.batchId, pid: r.pid, seq: r.seq });
    return false;
  };

  /** One record's turn: true when it waits (false: it joined a batch, or failed). */
  const step = (r: ProducerRecordState, entry: LedgerEntry): boolean => {
    // A record sent before its topic's metadata arrived gets its partition now, so that it is held
    // with the others behind a retry of that partition.
    if (r.partition < 0) choosePartition(w, p, r, entry);
    const heldHere = held?.get(entry.topic);
    if (r.readyAtMs > nowMs || heldHere?.has(r.partition)) {
      if (r.readyAtMs > nowMs && r.readyAtMs < wakeAtMs) wakeAtMs = r.readyAtMs;
      if (r.attempts > 0 && r.pid >= 0) {
        if (heldHere) heldHere.add(r.partition);
        else (held ??= new Map()).set(entry.topic, new Set([r.partition]));
      }
      return true;
    }
    const leaders = p.leaders.get(entry.topic);
    if (!leaders) {
      // KafkaProducer.waitOnMetadata: send() gives up after max.block.ms without the topic's metadata.
      const blockedUntil = entry.sentAtMs + maxBlockMs;
      if (nowMs >= blockedUntil) {
        p.records.delete(r.recordId);
        settle(
          w,
          p,
          entry,
          'failed',
          'TimeoutException',
          `Topic ${entry.topic} not present in metadata after ${maxBlockMs} ms`,
        );
        return false;
      }
      wakeAtMs = Math.min(wakeAtMs, blockedUntil);
      return true;
    }
    const leader = leaders[r.partition]?.leader ?? -1;
    if (leader < 0) {
      p.needMetadata = true;
      return true;
    }
    // Sender.sendProducerData: a leader whose connection backs off is not ready; its records wait.
    const connectableAt = connectableAtMs(p.connections, leader);
    if (connectableAt > nowMs) {
      if (connectableAt < wakeAtMs) wakeAtMs = connectableAt;
      return true;
    }
    // A transactional record waits until its partition is in the transaction (AddPartitionsToTxn).
    if (p.txn && !sendAllowed(p.txn, entry.topic, r.partition)) return true;
    const tp = tpKey(entry.topic, r.partition);
    // With idempotence, a retried batch goes only as its partition's first batch not yet done
    // (RecordAccumulator.shouldStopDrainBatchesForPartition: "This effectively reduces our in flight
    // request count to 1"): after an earlier batch still in flight, or after the one retried batch this
    // pass lets go, it and every newer record of the partition wait for a response.
    if (r.attempts > 0 && r.pid >= 0 && r.seq >= 0 && retryWaits(r, entry.topic, tp)) {
      const heldHere = held?.get(entry.topic);
      if (heldHere) heldHere.add(r.partition);
      else (held ??= new Map()).set(entry.topic, new Set([r.partition]));
      return true;
    }
    // A batch that was sent keeps its records on retry (RecordAccumulator.reenqueue): the broker
    // recognises a duplicate only as the same batch, first to last sequence number.
    const key = r.batchId >= 0 ? r.batchId : entry.acks === 'all' ? tp : `${tp}|${entry.acks}`;
    batches ??= new Map();
    const list = batches.get(key);
    // A record that no batch sent this time could hold waits at once (RecordAccumulator.ready looks
    // only at what the broker's free connection slots can take): the backlog is not batched again.
    if (closed?.has(key) || (!list && (formed?.get(leader) ?? 0) >= freeSlots(p, leader, maxInFlight))) {
      drainStats.unsendable++;
      return true;
    }
    drainStats.batched++;
    const b = list?.[list.length - 1];
    const size = recordSizeBytes(entry);
    if (!b || (b.records.length > 0 && b.bytes + size > batchSize)) {
      if (b) b.full = true;
      if (list && entry.acks !== 0 && list.length >= freeSlots(p, leader, maxInFlight)) {
        // This key's own batches already fill every free slot: its next batches wait (and so do its
        // later records, which would have joined them).
        (closed ??= new Set()).add(key);
        openKeys!.set(tp, openKeys!.get(tp)! - 1);
        drainStats.batched--;
        drainStats.unsendable++;
        return true;
      }
      if (entry.acks !== 0) (formed ??= new Map()).set(leader, (formed.get(leader) ?? 0) + 1);
      // A new batch starts with its first record (arrays made to size: most batches keep one record).
      const first: Batch = {
        leader,
        topic: entry.topic,
        partition: r.partition,
        acks: entry.acks,
        records: [r],
        entries: [entry],
        bytes: size,
        full: false,
      };
      if (list) list.push(first);
      else {
        batches.set(key, [first]);
        (openKeys ??= new Map()).set(tp, (openKeys.get(tp) ?? 0) + 1);
      }
      return false;
    }
    b.records.push(r);
    b.entries.push(entry);
    b.bytes += size;
    return false;
  };

  /**
   * Whether the rest of queue `q` from `c`, first sends at the producer's acks only, can only wait
   * now (and stays so for this pass: what decides it only grows, held partitions, closed keys,
   * batches formed); then its wake-up is noted. They become ready in send order (sent time +
   * linger.ms), so what the first ready one meets, every ready one after it meets.
   */
  const restWaits = (q: AccumulatorQueue, c: number): boolean => {
    const ids = q.ids;
    const head = p.records.get(ids[c]!);
    drainStats.read++;
    if (!head || head.inFlight) return false; // dropped in its turn
    if (head.readyAtMs > nowMs) {
      if (head.readyAtMs < wakeAtMs) wakeAtMs = head.readyAtMs;
      return true;
    }
    let blockedUntil = Infinity;
    let noLeader = false;
    let unsendable = false;
    const leaders = p.leaders.get(q.topic);
    if (!leaders) {
      blockedUntil = w.ledgerIndex.get(head.recordId)!.sentAtMs + maxBlockMs;
      if (nowMs >= blockedUntil) return false; // it fails in its turn
    } else {
      if (q.partition < 0) return false; // they get their partitions in their turns
      const leader = leaders[q.partition]?.leader ?? -1;
      if (leader < 0) noLeader = true;
      else if (!p.txn || sendAllowed(p.txn, q.topic, q.partition)) {
        const tp = tpKey(q.topic, q.partition);
        const key = p.acks === 'all' ? tp : `${tp}|${p.acks}`;
        if (
          !closed?.has(key) &&
          (batches?.get(key) || (formed?.get(leader) ?? 0) < freeSlots(p, leader, maxInFlight))
        )
          return false; // it joins a batch in its turn
        unsendable = true;
      }
    }
    // The first record of the rest not ready yet: the rest's wake-up.
    let lo = c + 1;
    let hi = ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const r = p.records.get(ids[mid]!);
      drainStats.read++;
      if (!r || r.inFlight) return false; // (a record gone is dropped in its turn)
      if (r.readyAtMs > nowMs) hi = mid;
      else lo = mid + 1;
    }
    if (lo < ids.length) wakeAtMs = Math.min(wakeAtMs, p.records.get(ids[lo]!)!.readyAtMs);
    wakeAtMs = Math.min(wakeAtMs, blockedUntil);
    if (noLeader) p.needMetadata = true;
    if (unsendable) drainStats.unsendable += lo - c;
    return true;
  };

  /**
   * Whether every record of `q` from `c` on, retries included, can only wait now and for the rest of
   * this pass: its partition is held behind a retry; or its leader is unknown and a metadata
   * request is already asked for; or the transaction does not have the partition yet; or no batch
   * of the partition is open and the leader's free connection slots are taken; or the leader's
   * connection backs off.
   *
   * Their wake-up is what can let them go, as RecordAccumulator.ready reads only each partition's
   * head batch: the retry that holds the partition (its backoff is noted in its own turn), the
   * metadata response, a response that frees a connection slot (every message to the producer runs
   * the Sender) or the end of the connection's backoff. The linger.ms of a record that waits behind
   * them wakes nothing: a Sender woken then would find it waiting still. A partition the transaction
   * does not have yet wakes at its next record's readyAtMs (the pass asks for the partition).
   */
  const allWait = (q: AccumulatorQueue, c: number, tp: string): boolean => {
    const head = p.records.get(q.ids[c]!);
    drainStats.read++;
    if (!head || head.inFlight) return false; // (a record gone is dropped in its turn, and only the oldest are)
    if (held?.get(q.topic)?.has(q.partition)) return true;
    const leaders = p.leaders.get(q.topic);
    if (!leaders) return false;
    const leader = leaders[q.partition]?.leader ?? -1;
    if (leader < 0) return p.needMetadata;
    const connectableAt = connectableAtMs(p.connections, leader);
    if (connectableAt > nowMs) {
      // Nothing of the queue goes before the connection may be tried again.
      const at = Math.max(connectableAt, earliestReady(p, q));
      if (at < wakeAtMs) wakeAtMs = at;
      return true;
    }
    if (p.txn && !sendAllowed(p.txn, q.topic, q.partition)) {
      const at = nextReady(p, q, nowMs);
      if (at < wakeAtMs) wakeAtMs = at;
      return true;
    }
    if ((openKeys?.get(tp) ?? 0) > 0) return false;
    return (formed?.get(leader) ?? 0) >= freeSlots(p, leader, maxInFlight);
  };

  // The queues, merged in send order: a heap of queue indices on the id of each one's next record.
  // (Arrays pushed to size: a healthy producer's pass reads a few queues of a record or two each.)
  const queues: AccumulatorQueue[] = [];
  const tps: string[] = [];
  const cursor: number[] = [];
  const seen: number[] = []; // irregular records read
  const heap: number[] = [];
  for (const [tp, q] of p.queues) {
    heap.push(queues.length);
    queues.push(q);
    tps.push(tp);
    cursor.push(0);
    seen.push(0);
  }
  const n = queues.length;
  // Per queue, what waits of the part read (made when a record of it waits).
  const kept: (number[] | undefined)[] = [];
  const keptIrregular: number[] = [];
  let moved: LedgerEntry[] | null = null; // records that got their partition in this pass and wait
  const next = (qi: number) => queues[qi]!.ids[cursor[qi]!]!;
  const siftDown = (i: number) => {
    const size = heap.length;
    const qi = heap[i]!;
    const id = next(qi);
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && next(heap[child + 1]!) < next(heap[child]!)) child++;
      if (next(heap[child]!) >= id) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = qi;
  };
  const popHead = () => {
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      siftDown(0);
    }
  };
  if (n > 1) for (let i = (n >>> 1) - 1; i >= 0; i--) siftDown(i);
  while (heap.length > 0) {
    const qi = heap[0]!;
    const q = queues[qi]!;
    const c = cursor[qi]!;
    if ((q.partition >= 0 && allWait(q, c, tps[qi]!)) || (seen[qi] === q.irregular && restWaits(q, c))) {
      popHead(); // the rest of this queue stays as it is
      continue;
    }
    const id = q.ids[c]!;
    cursor[qi] = c + 1;
    const entry = w.ledgerIndex.get(id)!;
    const irregular = isIrregular(p, entry);
    if (irregular) seen[qi] = seen[qi]! + 1;
    const r = p.records.get(id);
    drainStats.read++;
    // A record settled meanwhile (delivery.timeout.ms) is dropped; one that waits keeps its place.
    if (r && !r.inFlight && step(r, entry)) {
      if (r.partition === q.partition) {
        const k = kept[qi];
        if (k) k.push(id);
        else {
          kept[qi] = [id];
          keptIrregular[qi] = 0;
        }
        if (irregular) keptIrregular[qi] = keptIrregular[qi]! + 1;
      } else (moved ??= []).push(entry);
    }
    if (c + 1 < q.ids.length) {
      if (heap.length > 1) siftDown(0);
    } else popHead();
  }
  // Each queue loses what left it from the part read: what waits stays ahead of the rest, in order.
  for (let qi = 0; qi < n; qi++) {
    const q = queues[qi]!;
    const end = cursor[qi]!;
    const k = kept[qi];
    const keptCount = k ? k.length : 0;
    if (keptCount === end) continue;
    for (let i = 0; i < keptCount; i++) q.ids[end - keptCount + i] = k![i]!;
    q.ids.splice(0, end - keptCount);
    q.irregular -= seen[qi]! - (k ? keptIrregular[qi]! : 0);
    if (q.ids.length === 0) p.queues.delete(tps[qi]!);
  }
  if (moved) for (const e of moved) insertWaiting(p, e, p.records.get(e.recordId)!.partition);
  // (Assigned in step: TypeScript does not follow the closure.)
  const formedBatches = batches as Map<string | number, Batch[]> | null;
  if (formedBatches)
    for (const list of formedBatches.values()) {
      for (const b of list) {
        // Batches that find the connection full wait for a response to free a slot.
        if ((p.inFlightPerBroker.get(b.leader) ?? 0) >= maxInFlight)
          insertWaitingRun(p, b.entries, b.partition);
        else sendBatch(w, p, b);
      }
    }
  if (p.needMetadata && !p.metadataInFlight) requestMetadata(w, p);
  if (p.txn) txnStep(w, p);
  if (wakeAtMs < Infinity) armClientDeadline(w, p.id, p.retryTimer, Math.max(wakeAtMs, w.nowMs), 'retry');
}

/** The connection slots to `leader` free as the drain starts (max.in.flight.requests.per.connection). */
function freeSlots(p: ProducerClient, leader: NodeId, maxInFlight: number): number {
  return maxInFlight - (p.inFlightPerBroker.get(leader) ?? 0);
}

/**
 * Work counters for tests and benchmarks (not state: nothing reads them to decide): records put
 * into a batch, records that waited because no batch of theirs could be sent, and records the
 * Sender read (its quick look and its pass).
 */
export const drainStats = { batched: 0, unsendable: 0, read: 0 };

/**
 * The Sender's quick look: when every waiting record still lingers (and has its partition), it only
 * makes sure that it wakes up for the first one, and the full pass is skipped. So a send() with
 * linger.ms arms the Sender's wake-up instead of running it (RecordAccumulator.append). Per
 * partition it asks for the earliest readyAtMs (a heap kept beside the queue), not every record.
 */
function nothingDue(w: World, p: ProducerClient): boolean {
  let wakeAtMs = Infinity;
  for (const q of p.queues.values()) {
    if (q.partition < 0) {
      // A live record without its partition: the pass gives it one if the metadata came.
      for (const id of q.ids) {
        drainStats.read++;
        const r = p.records.get(id);
        if (r && !r.inFlight) return false;
      }
      continue;
    }
    drainStats.read++;
    let at = heldUntil(p, q, w.nowMs);
    if (at < 0) at = earliestReady(p, q);
    // No live record waits in it (they expired, or went to another partition): the pass drops them.
    if (at === Infinity) return false;
    // A leader whose connection backs off takes nothing before it may be tried again.
    if (p.connections.size !== 0) {
      const leader = p.leaders.get(q.topic)?.[q.partition]?.leader ?? -1;
      if (leader >= 0) at = Math.max(at, connectableAtMs(p.connections, leader));
    }
    if (at <= w.nowMs) return false;
    if (at < wakeAtMs) wakeAtMs = at;
  }
  if (wakeAtMs < Infinity) armClientDeadline(w, p.id, p.retryTimer, wakeAtMs, 'retry');
  return true;
}

/** How many settled records the quick look skips at the head of a queue to find its first live one. */
const HEAD_SCAN_MAX = 64;

/**
 * When the head of `q` (its oldest live record) is an idempotent retry still backing off, the
 * partition is held behind it until its readyAtMs (the pass holds newer records of the partition
 * behind it, for ordering), and nothing of the queue is due before: that readyAtMs. Else -1. So
 * the quick look does not run the pass for a record that lingered behind a retry (Kafka's ready()
 * reads each partition's head batch, RecordAccumulator.ready).
 */
function heldUntil(p: ProducerClient, q: AccumulatorQueue, nowMs: number): number {
  const ids = q.ids;
  for (let i = 0; i < ids.length && i < HEAD_SCAN_MAX; i++) {
    const r = p.records.get(ids[i]!);
    if (!r) continue; // settled (delivery.timeout.ms): the next pass drops it
    if (r.inFlight || r.partition !== q.partition) return -1;
    return r.attempts > 0 && r.pid >= 0 && r.readyAtMs > nowMs ? r.readyAtMs : -1;
  }
  return -1;
}

/**
 * KIP-480/794 (BuiltInPartitioner, RecordAccumulator.append): records without a key stick to one
 * random available partition, and the bytes appended to it are counted as they are appended. Once
 * they reach batch.size the partitioner moves on, as soon as the partition's last batch is full or
 * sent (a switch is held back while a batch is open, up to twice batch.size).
 */
function stickyPartition(
  w: World,
  p: ProducerClient,
  topic: string,
  leaders: { leader: NodeId }[],
  size: number,
): number {
  const batchSize = num(p, 'batch.size');
  let s = p.sticky.get(topic);
  // RecordAccumulator.partitionChanged: with no open batch, a switch held back earlier happens now.
  if (s && !s.open && s.bytes >= batchSize) s = undefined;
  if (!s || leaders[s.partition]?.leader === -1) s = nextStickyPartition(w, p, topic, leaders);
  const partition = s.partition;
  // tryAppend: the record joins the open batch, or that batch is closed and a new one opened.
  let lastFull: boolean;
  if (s.open && s.open + size > batchSize) {
    s.open = size;
    lastFull = size >= batchSize;
  } else {
    s.open = (s.open ?? 0) + size;
    lastFull = s.open >= batchSize;
  }
  // BuiltInPartitioner.updatePartitionInfo
  s.bytes += size;
  if ((s.bytes >= batchSize && lastFull) || s.bytes >= 2 * batchSize)
    nextStickyPartition(w, p, topic, leaders);
  return partition;
}

/** BuiltInPartitioner.nextPartition: a random available partition (any partition if none is). */
function nextStickyPartition(
  w: World,
  p: ProducerClient,
  topic: string,
  leaders: { leader: NodeId }[],
): { partition: number; bytes: number; open?: number } {
  const available = leaders.map((l, i) => (l.leader >= 0 ? i : -1)).filter((i) => i >= 0);
  const pool = available.length ? available : leaders.map((_, i) => i);
  const partition = pool[nextInt(w.rng, pool.length)]!;
  const s = { partition, bytes: 0 };
  p.sticky.set(topic, s);
  return s;
}
