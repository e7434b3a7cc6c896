// The broker's logs on disk (LogManager): a partition's log and high watermark, made on first
// use, and time-based retention (log.retention.ms: whole segments below the high watermark go).

import { topicValue } from '../model/image';
import { setNodeTimer } from '../kernel/kernel';
import { entryAt, newLog, deleteBefore } from '../model/log';
import type { LogRecord } from '../model/messages';
import { pruneLedgerBelow } from '../kernel/ledger';
import type { PartitionDisk, SimNode, World } from '../model/world';

export function diskOf(node: SimNode, tp: string): PartitionDisk {
  let d = node.disk.partitions.get(tp);
  if (!d) node.disk.partitions.set(tp, (d = { log: newLog<LogRecord>(), highWatermark: 0 }));
  return d;
}

/** Log retention: records older than retention.ms and below the HW are deleted (per record, not per segment). */
export function onRetentionCheck(w: World, node: SimNode): void {
  const b = node.broker;
  if (!b) return;
  setNodeTimer(w, node, Number(w.config['log.retention.check.interval.ms'] ?? 300000), 'retention');
  const logStarts = new Map<string, number>();
  for (const mem of b.replicas.values()) {
    if (mem.role !== 'leader') continue;
    const disk = diskOf(node, mem.key);
    const img = node.raft!.image;
    const retentionMs = Number(
      img.topics.get(mem.topic)?.config['retention.ms'] ?? topicValue(w, img, mem.topic, 'log.retention.ms'),
    );
    if (retentionMs < 0) continue;
    const log = disk.log;
    let off = log.logStartOffset;
    // Records the ceiling forgot (model/recordCeiling.ts) go by segment, each when its newest is old enough.
    for (const seg of log.forgotten ?? []) {
      if (seg.endOffset <= off) continue;
      if (seg.maxTimestampMs > w.nowMs - retentionMs || seg.endOffset > disk.highWatermark) break;
      off = seg.endOffset;
    }
    while (off < disk.highWatermark) {
      if (off < log.base) break; // a forgotten segment not yet old enough

      const rec = entryAt(log, off)!;
      if (rec.timestampMs > w.nowMs - retentionMs) break;
      off++;
    }
    if (off > log.logStartOffset) {
      deleteBefore(log, off);
      logStarts.set(mem.key, off);
    }
  }
  pruneLedgerBelow(w, logStarts);
}
