// A replicated log with a leader-epoch cache, shared by partition replicas and by the
// metadata log __cluster_metadata. Plain data so that a checkpoint is a structured clone.
// Epoch cache and truncation follow KIP-101/279 (LeaderEpochFileCache, AbstractFetcherThread).

export interface EpochStart {
  epoch: number;
  startOffset: number;
}

export interface Epoched {
  epoch: number;
}

export interface EpochLog<R extends Epoched> {
  /**
   * Offset of entries[0]; may trail logStartOffset until the next compaction of the array, or lead
   * it when the simulator's record ceiling forgot the oldest records (model/recordCeiling.ts).
   */
  base: number;
  logStartOffset: number;
  entries: R[];
  epochs: EpochStart[];
  /**
   * Forgotten segments (offsets below `base` and at or above logStartOffset whose records the
   * record ceiling dropped): each one's end offset and newest timestamp, so that retention still
   * deletes them on time. Absent until the ceiling is reached.
   */
  forgotten?: ForgottenSegment[];
}

export interface ForgottenSegment {
  endOffset: number;
  maxTimestampMs: number;
}

export const UNDEFINED_EPOCH = -1;

export function newLog<R extends Epoched>(): EpochLog<R> {
  return { base: 0, logStartOffset: 0, entries: [], epochs: [] };
}

export function logEndOffset(log: EpochLog<Epoched>): number {
  return log.base + log.entries.length;
}

export function entryAt<R extends Epoched>(log: EpochLog<R>, offset: number): R | undefined {
  if (offset < log.logStartOffset) return undefined;
  return log.entries[offset - log.base];
}

/** The first offset whose record the log holds: its log start, or past the records the ceiling forgot. */
export function firstHeldOffset(log: EpochLog<Epoched>): number {
  return Math.max(log.base, log.logStartOffset);
}

/** Entries in [from, to), from the first held offset on (a reader of forgotten offsets gets the rest). */
export function slice<R extends Epoched>(log: EpochLog<R>, from: number, to: number): R[] {
  const a = Math.max(from, firstHeldOffset(log)) - log.base;
  return log.entries.slice(a, Math.max(a, to - log.base));
}

export function latestEpoch(log: EpochLog<Epoched>): number {
  return log.epochs.at(-1)?.epoch ?? UNDEFINED_EPOCH;
}

/** The start offset of the latest epoch (the leader epoch start offset of KIP-841). */
export function latestEpochStart(log: EpochLog<Epoched>): number {
  return log.epochs.at(-1)?.startOffset ?? 0;
}

/** A new leader caches its epoch at its log end offset (Partition.makeLeader). */
export function assignEpoch(log: EpochLog<Epoched>, epoch: number): void {
  if (epoch > latestEpoch(log)) log.epochs.push({ epoch, startOffset: logEndOffset(log) });
}

/** Appends one entry; its epoch (stamped by the leader) updates the cache. Returns its offset. */
export function append<R extends Epoched>(log: EpochLog<R>, entry: R): number {
  const offset = logEndOffset(log);
  if (entry.epoch > latestEpoch(log)) log.epochs.push({ epoch: entry.epoch, startOffset: offset });
  log.entries.push(entry);
  return offset;
}

/**
 * LeaderEpochFileCache.endOffsetFor: for the latest epoch, the log end offset; for an older one,
 * the largest epoch <= requested and the start of the next epoch; for an epoch older than every
 * cached one, the requested epoch and the start of the first; for one newer than all, undefined.
 */
export function endOffsetForEpoch(
  log: EpochLog<Epoched>,
  requested: number,
): { epoch: number; endOffset: number } {
  const es = log.epochs;
  const undefinedAnswer = { epoch: UNDEFINED_EPOCH, endOffset: -1 };
  if (requested === UNDEFINED_EPOCH) return undefinedAnswer;
  if (requested === es.at(-1)?.epoch) return { epoch: requested, endOffset: logEndOffset(log) };
  // The first cached epoch newer than the requested one, and the one before it (epochs ascend).
  const higher = es.findIndex((e) => e.epoch > requested);
  const next = es[higher];
  if (!next) return undefinedAnswer;
  const previous = es[higher - 1];
  if (!previous) return { epoch: requested, endOffset: next.startOffset };
  return { epoch: previous.epoch, endOffset: next.startOffset };
}

/** Removes every entry at offset >= `offset`. Returns the removed entries. */
export function truncateTo<R extends Epoched>(log: EpochLog<R>, offset: number): R[] {
  // The epoch cache loses every epoch that starts at or after the truncation point, even one
  // that has no entries yet (a leader caches its epoch at its log end offset).
  for (let last = log.epochs.at(-1); last && last.startOffset >= offset; last = log.epochs.at(-1))
    log.epochs.pop();
  if (offset >= logEndOffset(log)) return [];
  const keep = Math.max(0, offset - log.base);
  const removed = log.entries.splice(keep);
  if (offset < log.logStartOffset) log.logStartOffset = offset;
  // Below the forgotten records: the log now ends at `offset`, as it would have.
  if (offset < log.base) {
    log.base = offset;
    dropForgottenFrom(log, offset);
  }
  return removed;
}

/** Drops everything and restarts the log at `offset` (a follower below the leader's log start). */
export function truncateFullyAndStartAt(log: EpochLog<Epoched>, offset: number): void {
  log.entries = [];
  log.epochs = [];
  log.base = offset;
  log.logStartOffset = offset;
  if (log.forgotten) delete log.forgotten;
}

/**
 * A follower behind the records its leader forgot (record ceiling): its log continues at `offset`,
 * what lies below is forgotten here too (log start, epochs and retention unchanged).
 */
export function skipForgottenTo(
  log: EpochLog<Epoched & { timestampMs?: number }>,
  offset: number,
  maxTimestampMs: number,
): void {
  if (offset <= logEndOffset(log)) return;
  let maxTs = maxTimestampMs;
  for (const r of log.entries) maxTs = Math.max(maxTs, r.timestampMs ?? -Infinity);
  log.entries = [];
  log.base = offset;
  (log.forgotten ??= []).push({ endOffset: offset, maxTimestampMs: maxTs });
}

/**
 * The record ceiling: drops the records below `offset` (bounded by the log end), keeping every
 * offset's meaning (log start, HW, LEO, epochs). Returns how many records it dropped.
 */
export function forgetBefore(
  log: EpochLog<Epoched & { timestampMs?: number }>,
  offset: number,
  floorTs = -Infinity,
): number {
  const target = Math.min(offset, logEndOffset(log));
  const from = firstHeldOffset(log);
  if (target <= from) return 0;
  let maxTs = floorTs;
  for (let off = from; off < target; off++)
    maxTs = Math.max(maxTs, log.entries[off - log.base]?.timestampMs ?? -Infinity);
  log.entries = log.entries.slice(target - log.base);
  log.base = target;
  (log.forgotten ??= []).push({ endOffset: target, maxTimestampMs: maxTs });
  return target - from;
}

/** Segments wholly at or above `offset` are gone (a truncation); one that straddles it ends there. */
function dropForgottenFrom(log: EpochLog<Epoched>, offset: number): void {
  if (!log.forgotten) return;
  log.forgotten = log.forgotten.filter((s, i, all) => i === 0 || all[i - 1]!.endOffset < offset);
  const last = log.forgotten.at(-1);
  if (last && last.endOffset > offset) last.endOffset = offset;
  if (log.forgotten.length === 0 || offset <= log.logStartOffset) delete log.forgotten;
}

/** Retention: entries below `offset` are deleted; the array is compacted in amortised O(1). */
export function deleteBefore(log: EpochLog<Epoched>, offset: number): void {
  const target = Math.min(offset, logEndOffset(log));
  if (target <= log.logStartOffset) return;
  log.logStartOffset = target;
  for (let second = log.epochs[1]; second && second.startOffset <= target; second = log.epochs[1])
    log.epochs.shift();
  const first = log.epochs[0];
  if (first && first.startOffset < target) first.startOffset = target;
  if (log.forgotten) {
    log.forgotten = log.forgotten.filter((s) => s.endOffset > target);
    if (log.forgotten.length === 0) delete log.forgotten;
  }
  if (target <= log.base) return; // within the forgotten records: nothing held to drop
  const dead = target - log.base;
  if (dead * 2 >= log.entries.length) {
    log.entries = log.entries.slice(dead);
    log.base = target;
  }
}
