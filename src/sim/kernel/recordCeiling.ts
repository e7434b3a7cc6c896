// The simulator's record ceiling: a bound on the records held in full in memory, whatever the
// topics' retention. A real broker keeps a week of records on disk; the simulator keeps every record
// in its heap (a record, its ledger entry and its slots in three replicas' logs cost some 800 bytes),
// so a long run at a high rate would end in an out-of-memory tab. Past the ceiling it forgets the
// oldest records below each partition's high watermark: their offsets keep their meaning (log start,
// HW, LEO, leader epochs, retention by segment), but their bodies are gone, a reader of them skips to
// the first record held (as over the gaps of a compacted topic), and their ledger entries go, as
// retention prunes them. A simulator limit, not Kafka's (docs/engine.md, "The record ceiling").

import { emit } from './kernel';
import { pruneLedgerBelow } from './ledger';
import { acks0Dropped, failedDropped } from './memoryBounds';
import { trailEntries } from '../model/trail';
import { clusterImage } from '../model/image';
import { firstHeldOffset, forgetBefore, logEndOffset } from '../model/log';
import type { PartitionDisk, RecordCeilingState, World } from '../model/world';

/** Records held in full across every replica's log (a record on three replicas counts three times). */
export const RECORDS_HELD_CEILING = 1_000_000;
/** A forgetting pass leaves this share of the ceiling held, so passes are far apart. */
export const CEILING_LOW_WATER = 0.75;
/** The warning (RecordCeilingNear) comes at this share of the ceiling. */
export const CEILING_WARN_AT = 0.8;
/** The ceiling is checked when a record id is a multiple of this: the same points in every run, however it is sliced. */
export const CEILING_CHECK_EVERY = 1024;

/** What the engine holds of its records, for a benchmark or a test to read (Simulation.recordMemory). */
export interface RecordMemoryView {
  /** Records held in full in the replicas' logs (once per replica). */
  held: number;
  ceiling: number;
  /** Records forgotten so far (once per replica log), and in how many passes. */
  forgotten: number;
  passes: number;
  /** Entries in the ledger (pending, acknowledged and failed sends not yet pruned). */
  ledgerEntries: number;
  /** Of those, failed ones; and failed ones dropped past LEDGER_FAILED_KEPT a producer (kernel/memoryBounds.ts). */
  failedEntries: number;
  failedDropped: number;
  /** acks=0 entries dropped past LEDGER_ACKS0_KEPT a producer (kernel/memoryBounds.ts). */
  acks0Dropped: number;
  /** Events kept, and dropped past EVENTS_KEPT. */
  events: number;
  eventsDropped: number;
  /** Entries in the record trail's rings of appends and HW moves, across partitions (model/trail.ts). */
  trailEntries: number;
}

export function recordMemory(w: World): RecordMemoryView {
  return {
    held: recordsHeld(w),
    ceiling: recordCeiling(w),
    forgotten: w.recordCeiling?.forgotten ?? 0,
    passes: w.recordCeiling?.passes ?? 0,
    ledgerEntries: w.ledger.length,
    failedEntries: w.ledger.reduce((n, e) => n + (e.status === 'failed' ? 1 : 0), 0),
    failedDropped: [...failedDropped(w).values()].reduce((a, b) => a + b, 0),
    acks0Dropped: [...acks0Dropped(w).values()].reduce((a, b) => a + b, 0),
    events: w.events.length,
    eventsDropped: w.eventsDropped ?? 0,
    trailEntries: trailEntries(w.trail),
  };
}

export function recordCeiling(w: World): number {
  return w.recordCeiling?.ceiling ?? RECORDS_HELD_CEILING;
}

/** Records held in full in every replica's log of every topic (internal ones included). */
export function recordsHeld(w: World): number {
  let held = 0;
  for (const node of w.nodes.values())
    for (const d of node.disk.partitions.values()) held += logEndOffset(d.log) - firstHeldOffset(d.log);
  return held;
}

/** After a send whose record id is a multiple of CEILING_CHECK_EVERY: warn near the ceiling, forget past it. */
export function checkRecordCeiling(w: World): void {
  const ceiling = recordCeiling(w);
  const held = recordsHeld(w);
  if (held < ceiling * CEILING_WARN_AT) return;
  const state = (w.recordCeiling ??= { forgotten: 0, passes: 0 });
  if (!state.warned) {
    state.warned = true;
    emit(
      w,
      'RecordCeilingNear',
      `The simulator holds ${held} records in its replicas' logs, near its ceiling of ${ceiling}: past it, it forgets the oldest records below each partition's high watermark (offsets stay, bodies go). A simulator limit, not Kafka's.`,
      { held, ceiling },
    );
  }
  if (held > ceiling) forgetOldest(w, state, held, ceiling);
}

function forgetOldest(w: World, state: RecordCeilingState, held: number, ceiling: number): void {
  const img = clusterImage(w);
  // Per replica log of a topic that is not internal: what lies below both the leader's HW and its own.
  const candidates: { disk: PartitionDisk; count: number }[] = [];
  let forgettable = 0;
  for (const [key, p] of img.partitions) {
    if (p.topic.startsWith('__') || p.leader < 0) continue;
    const leaderDisk = w.nodes.get(p.leader)?.disk.partitions.get(key);
    if (!leaderDisk) continue;
    const hw = Math.min(leaderDisk.highWatermark, logEndOffset(leaderDisk.log));
    for (const node of w.nodes.values()) {
      const d = node.disk.partitions.get(key);
      if (!d) continue;
      const count = Math.min(hw, d.highWatermark, logEndOffset(d.log)) - firstHeldOffset(d.log);
      if (count <= 0) continue;
      candidates.push({ disk: d, count });
      forgettable += count;
    }
  }
  if (forgettable === 0) return;
  // Each log gives the same share of what it could give, oldest first, down to the low-water mark.
  const excess = Math.min(forgettable, held - Math.floor(ceiling * CEILING_LOW_WATER));
  let forgotten = 0;
  const partitions = new Set<string>();
  for (const c of candidates) {
    const n = Math.min(c.count, Math.ceil((excess * c.count) / forgettable));
    forgotten += forgetBefore(c.disk.log, firstHeldOffset(c.disk.log) + n);
  }
  const leaderStarts = new Map<string, number>();
  for (const [key, p] of img.partitions) {
    const d = p.leader >= 0 ? w.nodes.get(p.leader)?.disk.partitions.get(key) : undefined;
    if (d?.log.forgotten) {
      leaderStarts.set(key, d.log.base);
      partitions.add(key);
    }
  }
  pruneLedgerBelow(w, leaderStarts);
  state.forgotten += forgotten;
  state.passes++;
  emit(
    w,
    'RecordsForgotten',
    `The simulator held ${held} records in its replicas' logs, over its ceiling of ${ceiling}: it forgot ${forgotten} of the oldest, below the high watermark, in ${partitions.size} partitions. Their offsets, the log start, HW and LEO are unchanged; the forgotten records can no longer be read (a consumer skips to the first one held), shown or checked for loss. A simulator limit, not Kafka's.`,
    { held, ceiling, forgotten, partitions: partitions.size },
  );
}
