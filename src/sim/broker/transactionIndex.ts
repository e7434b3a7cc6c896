// A partition's transactions (ProducerStateManager's ongoing transactions, the aborted-transaction
// index .txnindex, UnifiedLog.lastStableOffset): read from the log as it grows, so that leaders and
// followers alike know them, and rebuilt when a truncation removed what was read. The index is a
// memo of the log, not part of the World (a cloned World, or one restored from a checkpoint, reads
// its logs again): it is derived from the log alone, so the state hash does not depend on who asked.
//
// The last stable offset (LSO) is the first offset of the oldest transaction that is not yet
// decided and replicated (ProducerStateManager.firstUnstableOffset), else the high watermark: a
// read_committed consumer reads only below it.

import { entryAt, firstHeldOffset, logEndOffset } from '../model/log';
import type { AbortedTxn } from '../model/messages';
import type { PartitionDisk, TxnIndex, TxnRange } from '../model/world';

function emptyIndex(start: number): TxnIndex {
  return { upTo: start, lastId: -1, ongoing: new Map(), unstable: [], aborted: [] };
}

/** The index, brought up to the log end (made on first use; rebuilt after a truncation under what it read). */
const indexes = new WeakMap<PartitionDisk, TxnIndex>();

export function txnIndexOf(disk: PartitionDisk): TxnIndex {
  const log = disk.log;
  let idx = indexes.get(disk);
  const end = logEndOffset(log);
  if (
    !idx ||
    idx.upTo > end ||
    (idx.upTo > log.logStartOffset && entryAt(log, idx.upTo - 1)?.id !== idx.lastId)
  )
    indexes.set(disk, (idx = emptyIndex(log.logStartOffset)));
  // Records the ceiling forgot are not read (model/log.ts forgetBefore).
  if (idx.upTo < firstHeldOffset(log)) idx.upTo = firstHeldOffset(log);
  for (let off = idx.upTo; off < end; off++) {
    const r = entryAt(log, off)!;
    if (r.control) {
      const first = idx.ongoing.get(r.pid);
      if (first === undefined) continue; // a retried marker: the transaction is already complete here
      idx.ongoing.delete(r.pid);
      const range: TxnRange = { producerId: r.pid, firstOffset: first, lastOffset: off };
      idx.unstable.push(range);
      if (r.control === 'ABORT') idx.aborted.push(range);
    } else if (r.transactional && !idx.ongoing.has(r.pid)) idx.ongoing.set(r.pid, off);
  }
  if (end > idx.upTo) {
    idx.upTo = end;
    idx.lastId = entryAt(log, end - 1)!.id;
  }
  // Retention: aborted transactions wholly below the log start are gone with their segments.
  if (idx.aborted.length && idx.aborted[0]!.lastOffset < log.logStartOffset)
    idx.aborted = idx.aborted.filter((a) => a.lastOffset >= log.logStartOffset);
  return idx;
}

/** Whether this partition's index was made (a transaction or a read_committed consumer touched it). */
export function hasTxnIndex(disk: PartitionDisk): boolean {
  return indexes.has(disk);
}

/** UnifiedLog.lastStableOffset: min(first unstable offset, high watermark). */
export function lastStableOffset(disk: PartitionDisk): number {
  const idx = txnIndexOf(disk);
  const hw = disk.highWatermark;
  let lso = hw;
  for (const first of idx.ongoing.values()) lso = Math.min(lso, first);
  // A decided transaction stays unstable until its marker is below the high watermark.
  if (idx.unstable.length && idx.unstable[0]!.lastOffset < hw)
    idx.unstable = idx.unstable.filter((u) => u.lastOffset >= hw);
  for (const u of idx.unstable) lso = Math.min(lso, u.firstOffset);
  return lso;
}

/** The first offset of the oldest open transaction per producer id (for the views and invariants). */
export function ongoingTransactions(disk: PartitionDisk): ReadonlyMap<number, number> {
  return txnIndexOf(disk).ongoing;
}

/** Aborted transactions that overlap [from, to): what a read_committed fetch of that range is told (LogSegment.collectAbortedTxns). */
export function abortedTransactions(disk: PartitionDisk, from: number, to: number): AbortedTxn[] {
  const out: AbortedTxn[] = [];
  for (const a of txnIndexOf(disk).aborted)
    if (a.lastOffset >= from && a.firstOffset < to)
      out.push({ producerId: a.producerId, firstOffset: a.firstOffset });
  return out;
}

/** Whether the record at `offset` of producer `pid` belongs to an aborted transaction (for the invariants). */
export function isAborted(disk: PartitionDisk, pid: number, offset: number): boolean {
  for (const a of txnIndexOf(disk).aborted)
    if (a.producerId === pid && a.firstOffset <= offset && offset < a.lastOffset) return true;
  return false;
}
