// A record's journey, in Kafka's words: send() and the partitioner's choice, the batch and what
// closed it, each Produce request and its error, the leader's check with the transaction
// coordinator (KIP-890) for a transactional record, the leader's append, each follower's fetch that
// copied it, the HW passing it, the acknowledgement, each group's fetch and the commit covering it,
// and its truncation or loss. Read from the ledger, the logs, the record trail (model/trail.ts), the
// groups' consumed traces and the event log; observe-only.

import { partitionForKey } from '../clients/partitioner';
import { clusterImage } from '../model/image';
import { entryAt, logEndOffset } from '../model/log';
import { tpKey } from '../model/metadata';
import { APPEND_STRIDE, HW_STRIDE, type PartitionTrail } from '../model/trail';
import type { World } from '../model/world';
import type { LedgerEntry, NodeId } from '../model/types';

export type JourneyStageKind =
  | 'send'
  | 'partition'
  | 'batch'
  | 'produce'
  | 'error'
  | 'verify'
  | 'append'
  | 'replicate'
  | 'highWatermark'
  | 'acknowledged'
  | 'failed'
  | 'fetch'
  | 'commit'
  | 'truncated'
  | 'lost';

export interface JourneyStage {
  kind: JourneyStageKind;
  atMs: number;
  /** What happened, in Kafka's words. */
  text: string;
  nodeId?: NodeId;
  /** The logged event the stage is, when there is one (a LogTruncated, an AcknowledgedRecordsLost). */
  eventSeq?: number;
}

/** The record as the ledger holds it (offset -1 while unknown: not yet appended, or acks=0), and its stages. */
export interface RecordJourneyView extends Pick<
  LedgerEntry,
  'recordId' | 'producerId' | 'topic' | 'partition' | 'offset' | 'key' | 'value' | 'acks' | 'status' | 'error'
> {
  /** In time order (stages at one instant in the order they happen). */
  stages: JourneyStage[];
  /** The simulated time the journey was read at. */
  timeMs: number;
  /** Stages the bounded history no longer holds (it keeps the newest; say so rather than guess). */
  forgotten: boolean;
}

/** Produce attempts shown: the first few and the last few of a record retried for minutes. */
const ATTEMPTS_HEAD = 3;
const ATTEMPTS_TAIL = 5;
/** Fetches of one group shown (a redelivered record appears more than once). */
const FETCHES_PER_GROUP = 5;
/** How far back from each replica's log end a record not yet acknowledged is looked for. */
const TAIL_SEARCH = 5000;

const quoteKey = (key: string | null) => (key === null ? 'null' : JSON.stringify(key));

/** The journey of record `recordId` (the ledger's id), or null when the ledger no longer has it. */
export function recordJourney(w: World, recordId: number): RecordJourneyView | null {
  const e = w.ledgerIndex.get(recordId);
  if (!e) return null;
  const stages: JourneyStage[] = [];
  const add = (stage: JourneyStage) => stages.push(stage);
  const tp = tpKey(e.topic, e.partition);
  const img = clusterImage(w);
  const partitions = img.topics.get(e.topic)?.partitions ?? 0;

  add({
    kind: 'send',
    atMs: e.sentAtMs,
    text: `send() by ${e.producerId}: key ${quoteKey(e.key)}, value ${JSON.stringify(e.value)}, acks=${e.acks}`,
  });
  if (e.partition < 0) {
    add({
      kind: 'partition',
      atMs: e.sentAtMs,
      text: `no partition yet: the producer waits for ${e.topic}'s metadata`,
    });
  } else if (w.trail.explicitPartition.includes(recordId)) {
    add({
      kind: 'partition',
      atMs: e.sentAtMs,
      text: `partition ${e.partition}, given explicitly by the caller`,
    });
  } else if (e.key !== null && partitions > 0 && partitionForKey(e.key, partitions) === e.partition) {
    add({
      kind: 'partition',
      atMs: e.sentAtMs,
      text: `partition ${e.partition} = murmur2(key) mod ${partitions} (the default partitioner, by key hash)`,
    });
  } else {
    add({
      kind: 'partition',
      atMs: e.sentAtMs,
      text: `partition ${e.partition}, the sticky partitioner's (KIP-480/794: a keyless record joins the partition whose batch is open)`,
    });
  }

  for (let i = w.trail.batches.length - 1; i >= 0; i--) {
    const b = w.trail.batches[i]!;
    if (b.producerId !== e.producerId || !b.recordIds.includes(recordId)) continue;
    add({
      kind: 'batch',
      atMs: b.atMs,
      text:
        `in batch ${b.batchId} for ${b.topic}-${b.partition}: ${b.recordIds.length} record(s), ${b.bytes} bytes, ` +
        (b.closedBy === 'batch.size'
          ? `closed by batch.size (${b.batchSize} bytes: the next record did not fit)`
          : `closed by linger.ms (${b.lingerMs} ms after its first record)`),
      nodeId: b.leader,
    });
    break;
  }

  const attempts = e.attempts;
  attempts.forEach((a, i) => {
    if (i >= ATTEMPTS_HEAD && i < attempts.length - ATTEMPTS_TAIL) {
      if (i === ATTEMPTS_HEAD)
        add({
          kind: 'produce',
          atMs: a.atMs,
          text: `… ${attempts.length - ATTEMPTS_HEAD - ATTEMPTS_TAIL} more Produce attempts (retries)`,
        });
      return;
    }
    const what = `Produce request${i > 0 ? ` (retry ${i})` : ''} to leader broker ${a.brokerId}`;
    add(
      a.error
        ? {
            kind: 'error',
            atMs: a.atMs,
            text: `${what}: answered ${a.error}, retriable: the producer retries`,
            nodeId: a.brokerId,
          }
        : { kind: 'produce', atMs: a.atMs, text: what, nodeId: a.brokerId },
    );
  });

  addVerifications(w, recordId, tp, add);

  const trail = w.trail.parts.get(tp);
  let forgotten = false;
  const offset = e.offset >= 0 ? e.offset : findOffset(w, tp, e);
  if (offset >= 0 && trail) {
    const leaderAppend = leaderAppendOf(w, tp, trail, offset, e);
    const epoch = epochOf(w, tp, offset, recordId);
    if (leaderAppend) {
      add({
        kind: 'append',
        atMs: leaderAppend.atMs,
        text: `appended by leader broker ${leaderAppend.nodeId} at offset ${offset}${epoch >= 0 ? `, leader epoch ${epoch}` : ''}`,
        nodeId: leaderAppend.nodeId,
      });
      const copied = new Set<NodeId>([leaderAppend.nodeId]);
      const a = trail.appends;
      for (let i = 0; i < a.length; i += APPEND_STRIDE) {
        const node = a[i]!;
        if (a[i + 4] === 1 || copied.has(node) || a[i + 3]! < leaderAppend.atMs) continue;
        // The range covers the offset, and this record is what the follower got there.
        if (
          a[i + 1]! <= offset &&
          offset < a[i + 2]! &&
          a[i + 3]! < heldUntil(w, tp, node, offset, recordId)
        ) {
          copied.add(node);
          add({
            kind: 'replicate',
            atMs: a[i + 3]!,
            text: `copied by follower broker ${node}'s Fetch from the leader`,
            nodeId: node,
          });
        }
      }
      const hw = trail.hw;
      for (let i = 0; i < hw.length; i += HW_STRIDE)
        if (
          hw[i + 1]! > offset &&
          hw[i + 2]! >= leaderAppend.atMs &&
          copied.has(hw[i]!) &&
          hw[i + 2]! < heldUntil(w, tp, hw[i]!, offset, recordId)
        ) {
          add({
            kind: 'highWatermark',
            atMs: hw[i + 2]!,
            text: `the high watermark passed it (HW ${hw[i + 1]} on leader broker ${hw[i]}): committed, consumers may read it`,
            nodeId: hw[i]!,
          });
          break;
        }
    } else forgotten = true;
  }

  if (e.status === 'acked')
    add({
      kind: 'acknowledged',
      atMs: e.ackedAtMs ?? e.sentAtMs,
      text:
        e.acks === 0
          ? 'counted as sent: with acks=0 the producer gets no answer and no offset'
          : `acknowledged to ${e.producerId} (acks=${e.acks}) at offset ${e.offset}`,
    });
  else if (e.status === 'failed')
    add({
      kind: 'failed',
      atMs: attempts.at(-1)?.atMs ?? e.sentAtMs,
      text: `the send failed: ${e.error ?? 'unknown error'}`,
    });

  for (const [groupId, trace] of w.consumedTrace) {
    let shown = 0;
    let firstFetchMs = -1;
    for (const c of trace) {
      if (c.recordId !== recordId || c.topic !== e.topic || c.partition !== e.partition) continue;
      if (shown++ >= FETCHES_PER_GROUP) break;
      if (firstFetchMs < 0) firstFetchMs = c.atMs;
      add({
        kind: 'fetch',
        atMs: c.atMs,
        text: `group ${groupId}: consumer ${c.consumerId} fetched it${shown > 1 ? ' again (redelivered)' : ''}`,
      });
    }
    if (firstFetchMs < 0) continue;
    const commit = trail?.commits.find(
      (m) => m.groupId === groupId && m.offset > offset && m.atMs >= firstFetchMs,
    );
    if (commit)
      add({
        kind: 'commit',
        atMs: commit.atMs,
        text: `group ${groupId} committed offset ${commit.offset} (OffsetCommit to coordinator broker ${commit.coordinator}): it covers this record`,
        nodeId: commit.coordinator,
      });
  }

  for (const t of trail?.truncations ?? [])
    t.records.forEach((r, i) => {
      if (r.id !== recordId) return;
      add({
        kind: 'truncated',
        atMs: t.atMs,
        text: `removed from broker ${t.nodeId}'s log at offset ${t.toOffset + i}: truncated to offset ${t.toOffset} (LogTruncated)`,
        nodeId: t.nodeId,
        ...(t.eventSeq >= 0 ? { eventSeq: t.eventSeq } : {}),
      });
    });

  // The event log keeps its newest events (kernel/memoryBounds.ts): one about this record may be gone.
  if ((w.eventsDropped ?? 0) > 0 && (w.events[0]?.timeMs ?? Infinity) > e.sentAtMs) forgotten = true;
  for (const ev of w.events) {
    if (ev.type !== 'AcknowledgedRecordsLost' || ev.topic !== e.topic || ev.partition !== e.partition)
      continue;
    const records = ev.records as { recordId: number }[] | undefined;
    if (!records?.some((r) => r.recordId === recordId)) continue;
    add({
      kind: 'lost',
      atMs: ev.timeMs,
      text: `lost: broker ${ev.nodeId} leads ${e.topic}-${e.partition} without it (AcknowledgedRecordsLost)`,
      ...(ev.nodeId !== undefined ? { nodeId: ev.nodeId } : {}),
      eventSeq: ev.seq,
    });
  }

  // In time order; at one instant, in the order the stages happen (a stable sort keeps it).
  stages.sort((a, b) => a.atMs - b.atMs);
  return {
    recordId,
    producerId: e.producerId,
    topic: e.topic,
    partition: e.partition,
    offset,
    key: e.key,
    value: e.value,
    acks: e.acks,
    status: e.status,
    ...(e.error !== undefined ? { error: e.error } : {}),
    stages,
    forgotten,
    timeMs: w.nowMs,
  };
}

/** Verifications shown for one record (a batch retried through coordinator failovers is asked again). */
const VERIFICATIONS_SHOWN = 6;

/**
 * KIP-890 part 1: a transactional record's first batch to a partition waits while its leader asks
 * the transaction coordinator (AddPartitionsToTxn verifyOnly) whether the partition is in the
 * producer's ongoing transaction; then it is appended, or refused. Answered checks are in the
 * record trail; one still waiting is in the leader's memory.
 */
function addVerifications(w: World, recordId: number, tp: string, add: (stage: JourneyStage) => void): void {
  const asked = (nodeId: NodeId, coordinator: NodeId, transactionalId: string, atMs: number) =>
    add({
      kind: 'verify',
      atMs,
      text: `leader broker ${nodeId} asks transaction coordinator broker ${coordinator} whether ${tp} is in ${transactionalId}'s ongoing transaction (AddPartitionsToTxn verifyOnly, KIP-890); the batch waits`,
      nodeId,
    });
  const marks = w.trail.verifications
    .filter((v) => v.recordIds.includes(recordId))
    .slice(-VERIFICATIONS_SHOWN);
  for (const v of marks) {
    if (v.coordinator >= 0) asked(v.nodeId, v.coordinator, v.transactionalId, v.askedAtMs);
    add(
      v.error
        ? {
            kind: 'error',
            atMs: v.answeredAtMs,
            text:
              v.coordinator >= 0
                ? `refused by leader broker ${v.nodeId} after the coordinator's answer: ${v.error}`
                : `refused by leader broker ${v.nodeId}: ${v.error} (no transaction coordinator known to verify with)`,
            nodeId: v.nodeId,
          }
        : {
            kind: 'verify',
            atMs: v.answeredAtMs,
            text: `verified with the transaction coordinator (broker ${v.coordinator}): ${tp} is in the ongoing transaction, so the leader appends the batch`,
            nodeId: v.nodeId,
          },
    );
  }
  for (const node of w.nodes.values()) {
    if (node.state !== 'running') continue;
    for (const v of node.broker?.txnVerifications?.values() ?? [])
      if (v.requests.some((m) => m.body.kind === 'Produce' && m.body.records.some((r) => r.id === recordId)))
        asked(node.id, v.coordinator, v.transactionalId, v.sentAtMs);
  }
}

/** The leader's append of this record: the first append by a leader at `offset` after send() of a replica that held it. */
function leaderAppendOf(
  w: World,
  tp: string,
  trail: PartitionTrail,
  offset: number,
  e: LedgerEntry,
): { nodeId: NodeId; atMs: number } | null {
  const a = trail.appends;
  for (let i = 0; i < a.length; i += APPEND_STRIDE)
    if (
      a[i + 4] === 1 &&
      a[i + 3]! >= e.sentAtMs &&
      a[i + 1]! <= offset &&
      offset < a[i + 2]! &&
      a[i + 3]! < heldUntil(w, tp, a[i]!, offset, e.recordId)
    )
      return { nodeId: a[i]!, atMs: a[i + 3]! };
  return null;
}

/** A record not acknowledged yet (acks=all waiting for the ISR, acks=0): its offset in a replica's log tail. */
function findOffset(w: World, tp: string, e: LedgerEntry): number {
  if (e.partition < 0 || e.attempts.length === 0) return -1;
  for (const node of w.nodes.values()) {
    const log = node.disk.partitions.get(tp)?.log;
    if (!log) continue;
    const end = logEndOffset(log);
    for (let off = end - 1; off >= Math.max(log.logStartOffset, end - TAIL_SEARCH); off--)
      if (entryAt(log, off)?.id === e.recordId) return off;
  }
  return -1;
}

/** The leader epoch the record was appended in, from any replica (or a truncation) that holds it. */
function epochOf(w: World, tp: string, offset: number, recordId: number): number {
  for (const node of w.nodes.values()) {
    const r = node.disk.partitions.get(tp) && entryAt(node.disk.partitions.get(tp)!.log, offset);
    if (r && r.id === recordId) return r.epoch;
  }
  for (const t of w.trail.parts.get(tp)?.truncations ?? []) {
    const r = t.records[offset - t.toOffset];
    if (r?.id === recordId) return r.epoch;
  }
  return -1;
}

/**
 * Until when broker `nodeId` held the record at `offset`: for ever if it holds it now, the time a
 * truncation removed it, or never (-Infinity: another record took that offset there).
 */
function heldUntil(w: World, tp: string, nodeId: NodeId, offset: number, recordId: number): number {
  const disk = w.nodes.get(nodeId)?.disk.partitions.get(tp);
  if (disk && offset < disk.log.logStartOffset) return Infinity; // deleted by retention since
  if (disk && entryAt(disk.log, offset)?.id === recordId) return Infinity;
  for (const t of w.trail.parts.get(tp)?.truncations ?? [])
    if (t.nodeId === nodeId && t.records[offset - t.toOffset]?.id === recordId) return t.atMs;
  return -Infinity;
}
