// The record trail: what the partition log view and a record's journey need that the state itself
// forgets (when a follower copied an offset range, when the HW moved, what a truncation removed, which
// batch a record went in, when a group committed past it). Observe-only: nothing in the engine reads
// it to decide, so it never changes a run; like the metrics ring it is left out of the state hash.
// Kept as ranges in small bounded rings (numbers in flat arrays, cheap to clone), never per record
// and per follower; the rings of appends and HW moves share a budget across the cluster's
// partitions, so the trail's total is bounded however many partitions there are.

import type { LogRecord } from './messages';
import type { NodeId } from './types';

/** How many entries each ring of a partition keeps at most (the oldest are dropped in halves). */
export const TRAIL_RING = 2048;
/**
 * Appends (and, apart, HW moves) kept across every partition: a partition's ring is this shared out
 * among the partitions with a trail, at most TRAIL_RING and at least TRAIL_RING_MIN. Up to 128
 * partitions each keeps the full TRAIL_RING; the large preset's 2,000 keep 131 each. With the slack
 * of the halving rings, at most twice this: some 34 MB for both kinds.
 */
export const TRAIL_BUDGET = 262_144;
export const TRAIL_RING_MIN = 64;
/** Records a truncation keeps to show struck through (the newest truncations of a partition). */
export const TRAIL_TRUNCATED_RECORDS = 512;
/** Batches and explicitly partitioned records kept for journeys, across the cluster. */
export const TRAIL_BATCHES = 4096;

/** KIP-890 verifications kept for journeys, across the cluster. */
export const TRAIL_VERIFICATIONS = 1024;

/** Why the producer's batch was closed and sent (RecordAccumulator.ready). */
export type BatchClose = 'linger.ms' | 'batch.size';

export interface BatchMark {
  /** The batch's id: its first record's id. */
  batchId: number;
  producerId: string;
  topic: string;
  partition: number;
  leader: NodeId;
  atMs: number;
  recordIds: number[];
  bytes: number;
  closedBy: BatchClose;
  lingerMs: number;
  batchSize: number;
}

/**
 * KIP-890 part 1: a partition leader asked the transaction coordinator (AddPartitionsToTxn
 * verifyOnly) whether a transactional batch's partition is in the producer's ongoing transaction,
 * and what came of it.
 */
export interface VerificationMark {
  /** The partition leader that asked. */
  nodeId: NodeId;
  /** The transaction coordinator asked, or -1 (none known: COORDINATOR_NOT_AVAILABLE). */
  coordinator: NodeId;
  transactionalId: string;
  topic: string;
  partition: number;
  /** The records of the Produce requests that waited for the answer. */
  recordIds: number[];
  askedAtMs: number;
  answeredAtMs: number;
  /** The error the producer was answered with, when the batch was refused. */
  error?: string;
}

export interface TruncationMark {
  nodeId: NodeId;
  atMs: number;
  /** The LogTruncated event's seq, or -1 (a replica restarting from the leader's log start). */
  eventSeq: number;
  /** The log end offset before, and the offset truncated to. */
  fromOffset: number;
  toOffset: number;
  /** The first removed records (up to TRAIL_TRUNCATED_RECORDS), from offset toOffset on. */
  records: LogRecord[];
}

export interface CommitMark {
  groupId: string;
  /** The committed offset: the next record the group will read. */
  offset: number;
  atMs: number;
  coordinator: NodeId;
}

export interface PartitionTrail {
  /** Appends, flat: [nodeId, fromOffset, toOffset, atMs, 1 leader | 0 follower] per append. */
  appends: number[];
  /** The leader's HW moves, flat: [nodeId, highWatermark, atMs]. */
  hw: number[];
  truncations: TruncationMark[];
  commits: CommitMark[];
}

export interface TrailState {
  parts: Map<string, PartitionTrail>;
  /** Each partition's ring of appends and of HW moves: TRAIL_BUDGET shared out among `parts`. */
  ring: number;
  /** A lower budget for a test that wants to reach it (testing/driver.ts memoryLimits). */
  budget?: number;
  batches: BatchMark[];
  /** Record ids sent with an explicit partition (ProducerRecord(topic, partition, ...)). */
  explicitPartition: number[];
  verifications: VerificationMark[];
}

export const APPEND_STRIDE = 5;
export const HW_STRIDE = 3;

export function newTrailState(): TrailState {
  return { parts: new Map(), ring: TRAIL_RING, batches: [], explicitPartition: [], verifications: [] };
}

/** The ring of each partition when `partitions` share the budget. */
export function trailRing(partitions: number, budget = TRAIL_BUDGET): number {
  return Math.max(TRAIL_RING_MIN, Math.min(TRAIL_RING, Math.floor(budget / Math.max(1, partitions))));
}

function partTrail(t: TrailState, tp: string): PartitionTrail {
  let p = t.parts.get(tp);
  if (!p) {
    p = { appends: [], hw: [], truncations: [], commits: [] };
    t.parts.set(tp, p);
    rebudget(t);
  }
  return p;
}

/** Lowers the trail's budget (a test); the rings shrink at once. */
export function setTrailBudget(t: TrailState, budget: number): void {
  t.budget = budget;
  rebudget(t);
}

/** A partition more shares the budget: when each one's ring shrinks, every ring past twice it is cut. */
function rebudget(t: TrailState): void {
  const ring = trailRing(t.parts.size, t.budget);
  if (ring >= t.ring) return;
  t.ring = ring;
  for (const p of t.parts.values()) {
    bound(p.appends, ring, APPEND_STRIDE);
    bound(p.hw, ring, HW_STRIDE);
    bound(p.commits, Math.floor(ring / 4));
  }
}

/** Entries held in the rings of appends and HW moves, across partitions (a count, for a test or a benchmark). */
export function trailEntries(t: TrailState): number {
  let n = 0;
  for (const p of t.parts.values()) n += p.appends.length / APPEND_STRIDE + p.hw.length / HW_STRIDE;
  return n;
}

/** Drops the older half of a ring that grew past twice its size (amortised O(1)). */
function bound<T>(ring: T[], entries: number, stride = 1): void {
  if (ring.length > 2 * entries * stride) ring.splice(0, ring.length - entries * stride);
}

/** A replica appended [from, to): one range, merged into the previous one when it continues it. */
export function trailAppend(
  t: TrailState,
  tp: string,
  nodeId: NodeId,
  from: number,
  to: number,
  atMs: number,
  leader: boolean,
): void {
  if (to <= from) return;
  const a = partTrail(t, tp).appends;
  const n = a.length;
  if (
    n > 0 &&
    a[n - 5] === nodeId &&
    a[n - 3] === from &&
    a[n - 2] === atMs &&
    a[n - 1] === (leader ? 1 : 0)
  ) {
    a[n - 3] = to;
    return;
  }
  a.push(nodeId, from, to, atMs, leader ? 1 : 0);
  bound(a, t.ring, APPEND_STRIDE);
}

export function trailHighWatermark(
  t: TrailState,
  tp: string,
  nodeId: NodeId,
  hw: number,
  atMs: number,
): void {
  const a = partTrail(t, tp).hw;
  a.push(nodeId, hw, atMs);
  bound(a, t.ring, HW_STRIDE);
}

export function trailTruncation(t: TrailState, tp: string, mark: TruncationMark): void {
  const list = partTrail(t, tp).truncations;
  list.push({ ...mark, records: mark.records.slice(0, TRAIL_TRUNCATED_RECORDS) });
  // Keep the newest truncations while their records fit the budget.
  let kept = 0;
  let i = list.length - 1;
  for (; i >= 0; i--) {
    kept += list[i]!.records.length;
    if (kept > TRAIL_TRUNCATED_RECORDS && i < list.length - 1) break;
  }
  if (i >= 0) list.splice(0, i + 1);
  bound(list, 64);
}

export function trailCommit(t: TrailState, tp: string, mark: CommitMark): void {
  const list = partTrail(t, tp).commits;
  list.push(mark);
  bound(list, Math.floor(t.ring / 4));
}

export function trailBatch(t: TrailState, mark: BatchMark): void {
  t.batches.push(mark);
  bound(t.batches, TRAIL_BATCHES);
}

export function trailExplicitPartition(t: TrailState, recordId: number): void {
  t.explicitPartition.push(recordId);
  bound(t.explicitPartition, TRAIL_BATCHES);
}

export function trailVerification(t: TrailState, mark: VerificationMark): void {
  t.verifications.push(mark);
  bound(t.verifications, TRAIL_VERIFICATIONS);
}
