// A partition's log as Kafka holds it, replica by replica: the records of an offset window, the log
// start offset, the HW, the LEO, the leader-epoch checkpoint (LeaderEpochFileCache), and the
// records a truncation removed (model/trail.ts). Observe-only: reading it changes nothing.

import { clusterImage } from '../model/image';
import { firstHeldOffset, logEndOffset, slice } from '../model/log';
import { tpKey } from '../model/metadata';
import type { LogRecord } from '../model/messages';
import type { PartitionDisk, World } from '../model/world';
import { isAborted, lastStableOffset } from '../broker/transactionIndex';
import type { NodeId } from '../model/types';
import type { NodeState } from '../model/views';

/** The most records one query returns per replica (the page asks for what it shows). */
export const PARTITION_LOG_MAX_WINDOW = 500;
/** The newest leader epochs of a replica's checkpoint that a view carries. */
const EPOCHS_SHOWN = 64;

export interface LogRecordView {
  offset: number;
  /** The leader epoch the record was appended in. */
  epoch: number;
  key: string | null;
  value: string;
  producerId: string;
  /** The ledger's record id (its journey); -1 for records no producer client sent (a group's commit). */
  recordId: number;
  timestampMs: number;
  /** A transaction's control record (its COMMIT or ABORT marker), with the producer id and epoch. */
  control?: 'COMMIT' | 'ABORT';
  /** The producer id (-1 when not idempotent) and, for a transactional batch, its epoch. */
  pid: number;
  producerEpoch?: number;
  /** A record of a transaction: 'aborted' when its ABORT marker is in this log (read_committed skips it). */
  transaction?: 'open-or-committed' | 'aborted';
}

/** A record a truncation removed from this replica, shown struck through. */
export interface TruncatedRecordView extends LogRecordView {
  /** When it was removed, and the LogTruncated event that says so (-1: none was logged). */
  removedAtMs: number;
  eventSeq: number;
  /** The offset the replica truncated to. */
  truncatedTo: number;
}

export interface ReplicaLogView {
  nodeId: NodeId;
  role: 'leader' | 'follower';
  inIsr: boolean;
  state: NodeState;
  logStartOffset: number;
  logEndOffset: number;
  highWatermark: number;
  /** The last stable offset: read_committed consumers read below it (the HW without open transactions). */
  lastStableOffset: number;
  /** The leader-epoch checkpoint: the offset each epoch starts at (the newest 64). */
  epochs: { epoch: number; startOffset: number }[];
  /** The records in the window asked for, by offset. */
  records: LogRecordView[];
  truncated: TruncatedRecordView[];
  /**
   * The first offset whose record this replica still holds, when the simulator's record ceiling
   * forgot the ones from the log start to it (kernel/recordCeiling.ts); absent otherwise.
   */
  forgottenBelow?: number;
}

export interface PartitionLogView {
  topic: string;
  partition: number;
  timeMs: number;
  leader: NodeId;
  leaderEpoch: number;
  /** The window answered: offsets [fromOffset, fromOffset + count). */
  fromOffset: number;
  count: number;
  /** The smallest log start offset of the replicas, and the largest LEO or truncated offset + 1. */
  startOffset: number;
  endOffset: number;
  replicas: ReplicaLogView[];
}

const recordView = (r: LogRecord, offset: number, disk?: PartitionDisk): LogRecordView => ({
  offset,
  epoch: r.epoch,
  key: r.key,
  value: r.value,
  producerId: r.producerId,
  recordId: r.id,
  timestampMs: r.timestampMs,
  pid: r.pid,
  ...(r.producerEpoch !== undefined ? { producerEpoch: r.producerEpoch } : {}),
  ...(r.control ? { control: r.control } : {}),
  ...(r.transactional && !r.control && disk
    ? { transaction: isAborted(disk, r.pid, offset) ? ('aborted' as const) : ('open-or-committed' as const) }
    : {}),
});

/** The log of `topic`-`partition` on each replica, offsets [fromOffset, fromOffset + count); null for an unknown partition. */
export function partitionLog(
  w: World,
  topic: string,
  partition: number,
  fromOffset: number,
  count: number,
): PartitionLogView | null {
  const tp = tpKey(topic, partition);
  const p = clusterImage(w).partitions.get(tp);
  if (!p) return null;
  const from = Math.max(0, Math.floor(fromOffset) || 0);
  const n = Math.max(0, Math.min(PARTITION_LOG_MAX_WINDOW, Math.floor(count) || 0));
  const to = from + n;
  const trail = w.trail.parts.get(tp);
  let startOffset = Infinity;
  let endOffset = 0;
  const replicas: ReplicaLogView[] = [];
  for (const id of p.replicas) {
    const node = w.nodes.get(id);
    const disk = node?.disk.partitions.get(tp);
    if (!node || !disk) continue;
    const log = disk.log;
    const leo = logEndOffset(log);
    startOffset = Math.min(startOffset, log.logStartOffset);
    endOffset = Math.max(endOffset, leo);
    const records = slice(log, from, to).map((r, i) =>
      recordView(r, Math.max(from, firstHeldOffset(log)) + i, disk),
    );
    const truncated: TruncatedRecordView[] = [];
    for (const t of trail?.truncations ?? []) {
      if (t.nodeId !== id) continue;
      endOffset = Math.max(endOffset, t.toOffset + t.records.length);
      t.records.forEach((r, i) => {
        const offset = t.toOffset + i;
        if (offset < from || offset >= to) return;
        truncated.push({
          ...recordView(r, offset),
          removedAtMs: t.atMs,
          eventSeq: t.eventSeq,
          truncatedTo: t.toOffset,
        });
      });
    }
    truncated.sort((a, b) => a.offset - b.offset || a.removedAtMs - b.removedAtMs);
    replicas.push({
      nodeId: id,
      role: p.leader === id ? 'leader' : 'follower',
      inIsr: p.isr.includes(id),
      state: node.state,
      logStartOffset: log.logStartOffset,
      logEndOffset: leo,
      highWatermark: disk.highWatermark,
      lastStableOffset: lastStableOffset(disk),
      epochs: log.epochs.slice(-EPOCHS_SHOWN).map((e) => ({ epoch: e.epoch, startOffset: e.startOffset })),
      records,
      truncated,
      ...(log.base > log.logStartOffset ? { forgottenBelow: log.base } : {}),
    });
  }
  return {
    topic,
    partition,
    timeMs: w.nowMs,
    leader: p.leader,
    leaderEpoch: p.leaderEpoch,
    fromOffset: from,
    count: n,
    startOffset: startOffset === Infinity ? 0 : startOffset,
    endOffset,
    replicas,
  };
}
