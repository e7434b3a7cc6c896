// What the delivery guarantees did, as a downstream system would count it: per consumer group, the
// input records its members processed, those processed more than once (at least once: duplicates)
// and those its committed offsets passed that it never processed (at most once: lost); per stream
// processor, its output topic read as a read_committed consumer would read it, matched to the inputs.

import { isAborted, lastStableOffset } from '../broker/transactionIndex';
import { leaderDisk } from '../kernel/ledger';
import { entryAt, logEndOffset } from '../model/log';
import type { MetaImage } from '../model/metadata';
import { tpKey } from '../model/metadata';
import type { PartitionDisk, World } from '../model/world';
import type { DeliveryView, GroupView, OutputExactlyOnceView, ProcessorView } from '../model/views';
import { processorClientIds } from '../clients/streamProcessor';

/** How many record ids each list names (the first ones). */
export const DELIVERY_IDS_MAX = 10;

function push(ids: number[], id: number): void {
  if (ids.length < DELIVERY_IDS_MAX) ids.push(id);
}

/** The records of a partition a read_committed consumer reads below `to`: not a marker, not aborted. */
function* committedRecords(disk: PartitionDisk, from: number, to: number) {
  const end = Math.min(to, lastStableOffset(disk), logEndOffset(disk.log));
  for (let off = Math.max(from, disk.log.logStartOffset); off < end; off++) {
    const r = entryAt(disk.log, off);
    if (!r || r.control) continue;
    if (r.transactional && isAborted(disk, r.pid, off)) continue;
    yield { offset: off, record: r };
  }
}

/**
 * Per group with a processed record or a committed offset: processed (distinct input records),
 * duplicates (processed more than once), missed (below the group's committed offset, from the first
 * offset it processed in the partition, or the log start when none, and never processed).
 */
export function deliveriesView(w: World, img: MetaImage, groups: readonly GroupView[]): DeliveryView[] {
  const out: DeliveryView[] = [];
  for (const g of groups) {
    const trace = w.consumedTrace.get(g.groupId) ?? [];
    if (trace.length === 0 && g.offsets.every((o) => o.committed < 0)) continue;
    const times = new Map<number, number>();
    const firstOffset = new Map<string, number>();
    for (const r of trace) {
      times.set(r.recordId, (times.get(r.recordId) ?? 0) + 1);
      const k = tpKey(r.topic, r.partition);
      if (!firstOffset.has(k) || r.offset < firstOffset.get(k)!) firstOffset.set(k, r.offset);
    }
    const duplicateIds: number[] = [];
    let duplicates = 0;
    for (const [id, n] of times)
      if (n > 1) {
        duplicates++;
        push(duplicateIds, id);
      }
    const missedIds: number[] = [];
    let missed = 0;
    for (const o of g.offsets) {
      if (o.committed < 0 || o.topic.startsWith('__')) continue;
      const leader = img.partitions.get(tpKey(o.topic, o.partition))?.leader ?? -1;
      const disk = leader >= 0 ? leaderDisk(w, o.topic, o.partition, leader) : undefined;
      if (!disk) continue;
      const from = firstOffset.get(tpKey(o.topic, o.partition)) ?? disk.log.logStartOffset;
      for (const { record } of committedRecords(disk, from, o.committed))
        if (!times.has(record.id)) {
          missed++;
          push(missedIds, record.id);
        }
    }
    out.push({
      groupId: g.groupId,
      processed: times.size,
      duplicates,
      missed,
      duplicateIds,
      missedIds,
      traceWindow: trace.length,
    });
  }
  return out;
}

/**
 * The processor's output read as read_committed, matched to the inputs below its group's committed
 * offsets: how many have exactly one committed output, none, or more than one.
 */
function outputExactlyOnce(
  w: World,
  img: MetaImage,
  inputTopic: string,
  outputTopic: string,
  group: GroupView | undefined,
): OutputExactlyOnceView {
  const outputs = new Map<number, number>();
  const outTopic = img.topics.get(outputTopic);
  for (let p = 0; p < (outTopic?.partitions ?? 0); p++) {
    const leader = img.partitions.get(tpKey(outputTopic, p))?.leader ?? -1;
    const disk = leader >= 0 ? leaderDisk(w, outputTopic, p, leader) : undefined;
    if (!disk) continue;
    for (const { record } of committedRecords(disk, 0, Infinity)) {
      const source = w.ledgerIndex.get(record.id)?.sourceRecordId;
      if (source !== undefined) outputs.set(source, (outputs.get(source) ?? 0) + 1);
    }
  }
  const view: OutputExactlyOnceView = {
    inputs: 0,
    exactlyOnce: 0,
    none: 0,
    duplicated: 0,
    noneIds: [],
    duplicatedIds: [],
  };
  for (const o of group?.offsets ?? []) {
    if (o.topic !== inputTopic || o.committed < 0) continue;
    const leader = img.partitions.get(tpKey(o.topic, o.partition))?.leader ?? -1;
    const disk = leader >= 0 ? leaderDisk(w, o.topic, o.partition, leader) : undefined;
    if (!disk) continue;
    for (const { record } of committedRecords(disk, 0, o.committed)) {
      view.inputs++;
      const n = outputs.get(record.id) ?? 0;
      if (n === 1) view.exactlyOnce++;
      else if (n === 0) {
        view.none++;
        push(view.noneIds, record.id);
      } else {
        view.duplicated++;
        push(view.duplicatedIds, record.id);
      }
    }
  }
  return view;
}

export function processorsView(w: World, img: MetaImage, groups: readonly GroupView[]): ProcessorView[] {
  if (!w.processors) return [];
  return [...w.processors.values()].map((proc) => ({
    processorId: proc.id,
    groupId: proc.groupId,
    inputTopic: proc.inputTopic,
    outputTopic: proc.outputTopic,
    processingGuarantee: proc.guarantee,
    commitIntervalMs: proc.commitIntervalMs,
    state: proc.state,
    consumerId: proc.consumerId,
    producerId: proc.producerId,
    transactionalId:
      proc.guarantee === 'exactly_once_v2' ? processorClientIds(proc.id, proc.groupId).transactionalId : null,
    ...proc.counters,
    error: proc.error,
    outputExactlyOnce: outputExactlyOnce(
      w,
      img,
      proc.inputTopic,
      proc.outputTopic,
      groups.find((g) => g.groupId === proc.groupId),
    ),
  }));
}
