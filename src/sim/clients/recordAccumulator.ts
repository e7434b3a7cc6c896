// The producer's RecordAccumulator and partitioner choice: records wait per partition until
// linger.ms or batch.size, then drain into batches for the Sender; keyless records go to a
// sticky partition (KIP-480).

import { armClientDeadline } from '../kernel/kernel';
import { tpKey } from '../model/metadata';
import { partitionForKey } from './partitioner';
import { recordSizeBytes } from '../model/messages';
import { nextInt } from '../kernel/rng';
import type { ProducerClient, ProducerRecordState, World } from '../model/world';
import type { LedgerEntry, NodeId } from '../model/types';
import { num, settle } from './producerDelivery';
import { requestMetadata } from './producerMetadata';
import { Batch, sendBatch } from './sender';
import { sendAllowed, txnStep } from './transactionManager';

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
 */
export function drain(w: World, p: ProducerClient): void {
  const stale = w.nowMs - p.metadataFetchedAtMs > num(p, 'metadata.max.age.ms');
  if (p.needMetadata || stale) requestMetadata(w, p);
  if (p.ready.length === 0) {
    if (p.txn) txnStep(w, p); // a commit may wait for the last record to settle
    return; // nothing waits to be sent (most responses find it so)
  }
  if (nothingDue(w, p)) return;
  let wakeAtMs = Infinity;
  const maxInFlight = num(p, 'max.in.flight.requests.per.connection');
  const batchSize = num(p, 'batch.size');
  const waiting: number[] = [];
  // Made when first needed: most wake-ups find nothing to send.
  let batches: Map<string | number, Batch[]> | null = null;
  // With idempotence, a batch waiting to be retried holds back newer records of its partition
  // (ordering): per topic, the partitions held. Most of a stuck backlog is held, so a held record
  // costs two lookups, and no tpKey string is made for it.
  let held: Map<string, Set<number>> | null = null;
  // Per leader, the batches made so far that need a connection slot (acks=0 takes none), and the
  // batch keys whose next batches cannot be sent now: what is past them waits without batching.
  let formed: Map<NodeId, number> | null = null;
  let closed: Set<string | number> | null = null;
  const nowMs = w.nowMs;
  for (const id of p.ready) {
    const r = p.records.get(id);
    if (!r || r.inFlight) continue;
    const entry = w.ledgerIndex.get(id)!;
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
      waiting.push(id);
      continue;
    }
    const leaders = p.leaders.get(entry.topic);
    const tp = tpKey(entry.topic, r.partition);
    if (!leaders) {
      // KafkaProducer.waitOnMetadata: send() gives up after max.block.ms without the topic's metadata.
      const blockedUntil = entry.sentAtMs + num(p, 'max.block.ms');
      if (w.nowMs >= blockedUntil) {
        p.records.delete(id);
        settle(
          w,
          p,
          entry,
          'failed',
          'TimeoutException',
          `Topic ${entry.topic} not present in metadata after ${num(p, 'max.block.ms')} ms`,
        );
        continue;
      }
      wakeAtMs = Math.min(wakeAtMs, blockedUntil);
      waiting.push(id);
      continue;
    }
    const leader = leaders[r.partition]?.leader ?? -1;
    if (leader < 0) {
      p.needMetadata = true;
      waiting.push(id);
      continue;
    }
    // A transactional record waits until its partition is in the transaction (AddPartitionsToTxn).
    if (p.txn && !sendAllowed(p.txn, entry.topic, r.partition)) {
      waiting.push(id);
      continue;
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
      waiting.push(id);
      continue;
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
        drainStats.batched--;
        drainStats.unsendable++;
        waiting.push(id);
        continue;
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
      else batches.set(key, [first]);
      continue;
    }
    b.records.push(r);
    b.entries.push(entry);
    b.bytes += size;
  }
  if (batches)
    for (const list of batches.values()) {
      for (const b of list) {
        // Batches that find the connection full wait for a response to free a slot.
        if ((p.inFlightPerBroker.get(b.leader) ?? 0) >= maxInFlight)
          for (const r of b.records) waiting.push(r.recordId);
        else sendBatch(w, p, b);
      }
    }
  // In record order (send order); batches put back for a full connection may break it.
  let sorted = true;
  for (let i = 1; i < waiting.length && sorted; i++) sorted = waiting[i - 1]! < waiting[i]!;
  p.ready = sorted ? waiting : waiting.sort((a, b) => a - b);
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
 * into a batch, records that waited at once because no batch of theirs could be sent, and records
 * the quick look read.
 */
export const drainStats = { batched: 0, unsendable: 0, looked: 0 };

/**
 * The Sender's quick look: when every waiting record still lingers (and has its partition), it only
 * makes sure that it wakes up for the first one, and the full pass is skipped. So a send() with
 * linger.ms arms the Sender's wake-up instead of running it (RecordAccumulator.append).
 */
function nothingDue(w: World, p: ProducerClient): boolean {
  const look = quickLook(p);
  if (look.unassignedId >= 0 || look.wakeAtMs <= w.nowMs) return false;
  if (look.wakeAtMs < Infinity) armClientDeadline(w, p.id, p.retryTimer, look.wakeAtMs, 'retry');
  return true;
}

interface QuickLook {
  ready: number[];
  /** How much of `ready` was read, and its last id then (to see that it only grew at its end). */
  readLength: number;
  lastId: number;
  /** The earliest readyAtMs of a waiting record (not in flight), and that record. */
  wakeAtMs: number;
  wakeId: number;
  /** A waiting record without a partition (its topic had no metadata), or -1. */
  unassignedId: number;
}

/**
 * The quick look's answer, kept while nothing it read can have changed. Between drains a waiting
 * record changes only by settling (its id leaves `p.records`), and records join `ready` at its end
 * (a send; a retry: older ids, sorted in, which moves the last id read). Drain replaces `ready`.
 * A memo of the World, not part of it (a cloned World looks again): without it every response
 * walked the whole backlog, so a second cost more as the backlog grew.
 */
const quickLooks = new WeakMap<ProducerClient, QuickLook>();

function waitingRecord(p: ProducerClient, id: number): boolean {
  const r = p.records.get(id);
  return r !== undefined && !r.inFlight;
}

function quickLook(p: ProducerClient): QuickLook {
  const ready = p.ready;
  let look = quickLooks.get(p);
  if (
    !look ||
    look.ready !== ready ||
    ready.length < look.readLength ||
    (look.readLength > 0 && ready[look.readLength - 1] !== look.lastId) ||
    (look.wakeId >= 0 && !waitingRecord(p, look.wakeId)) ||
    (look.unassignedId >= 0 && !waitingRecord(p, look.unassignedId))
  ) {
    look = { ready, readLength: 0, lastId: -1, wakeAtMs: Infinity, wakeId: -1, unassignedId: -1 };
    quickLooks.set(p, look);
  }
  for (let i = look.readLength; i < ready.length; i++) {
    const id = ready[i]!;
    drainStats.looked++;
    const r = p.records.get(id);
    if (!r || r.inFlight) continue;
    if (r.partition < 0 && look.unassignedId < 0) look.unassignedId = id;
    if (r.readyAtMs < look.wakeAtMs) {
      look.wakeAtMs = r.readyAtMs;
      look.wakeId = id;
    }
  }
  look.readLength = ready.length;
  if (ready.length > 0) look.lastId = ready[ready.length - 1]!;
  return look;
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
