// The broker's side of consumer reads (Fetch with replicaId -1, ListOffsets, OffsetsForLeaderEpoch):
// a consumer reads from the partition leader, only below the high watermark; an empty fetch waits
// at the leader up to fetch.max.wait.ms for data (a DelayedFetch), and is answered as soon as the
// HW moves.

import { authorizationError } from './acl';
import { coordinatorMem } from './groupCoordinator';
import { armNodeDeadline, reply } from './kernel';
import { endOffsetForEpoch, entryAt, logEndOffset, slice } from './log';
import type { ConsumerFetchPart, ConsumerFetchRespPart, LogRecord, Message } from './messages';
import { tpKey } from './metadata';
import type { PartitionDisk, SimNode, World } from './state';

/** Records per partition in one response (stands for max.partition.fetch.bytes). */
const CONSUMER_FETCH_MAX_RECORDS = 500;

/**
 * The leader's log of a partition, or why this broker cannot serve it: not its leader, or (KIP-320)
 * the consumer believes in another leader epoch.
 */
function leaderDisk(
  node: SimNode,
  topic: string,
  partition: number,
  currentLeaderEpoch: number,
): PartitionDisk | string {
  const tp = tpKey(topic, partition);
  const mem = node.broker?.replicas.get(tp);
  if (!mem || mem.role !== 'leader') return 'NOT_LEADER_OR_FOLLOWER';
  if (currentLeaderEpoch >= 0 && currentLeaderEpoch < mem.leaderEpoch) return 'FENCED_LEADER_EPOCH';
  if (currentLeaderEpoch > mem.leaderEpoch) return 'UNKNOWN_LEADER_EPOCH';
  return node.disk.partitions.get(tp) ?? 'NOT_LEADER_OR_FOLLOWER';
}

/**
 * Reads the parts of a consumer fetch. As in a KIP-227 incremental fetch session, a part with no
 * records and no error is left out of the response: the consumer keeps its position for it and
 * fetches it again.
 */
function readParts(w: World, node: SimNode, from: Message['from'], parts: ConsumerFetchPart[]) {
  const out: ConsumerFetchRespPart[] = [];
  let ready = false;
  for (const part of parts) {
    const denied = typeof from === 'string' ? authorizationError(w, from, 'Read', 'topic', part.topic) : null;
    const disk = denied ?? leaderDisk(node, part.topic, part.partition, part.currentLeaderEpoch);
    if (typeof disk === 'string') {
      out.push(respPart(part, -1, 0, NO_RECORDS, disk));
      ready = true;
      continue;
    }
    const log = disk.log;
    if (part.fetchOffset < log.logStartOffset || part.fetchOffset > logEndOffset(log)) {
      out.push(respPart(part, disk.highWatermark, log.logStartOffset, NO_RECORDS, 'OFFSET_OUT_OF_RANGE'));
      ready = true;
      continue;
    }
    // read_uncommitted: only below the high watermark.
    const end = Math.min(disk.highWatermark, part.fetchOffset + CONSUMER_FETCH_MAX_RECORDS);
    if (end > part.fetchOffset) {
      ready = true;
      out.push(respPart(part, disk.highWatermark, log.logStartOffset, slice(log, part.fetchOffset, end)));
    }
  }
  return { parts: out, ready };
}

const NO_RECORDS: LogRecord[] = [];

function respPart(
  part: ConsumerFetchPart,
  highWatermark: number,
  logStartOffset: number,
  records: LogRecord[],
  error?: string,
): ConsumerFetchRespPart {
  const r: ConsumerFetchRespPart = {
    topic: part.topic,
    partition: part.partition,
    highWatermark,
    logStartOffset,
    records,
  };
  if (error) r.error = error;
  return r;
}

export function onConsumerFetch(w: World, node: SimNode, msg: Message): void {
  const b = msg.body;
  if (b.kind !== 'ConsumerFetch') return;
  const r = readParts(w, node, msg.from, b.parts);
  if (r.ready || b.maxWaitMs <= 0) {
    reply(w, msg, { kind: 'ConsumerFetchResponse', parts: r.parts });
    return;
  }
  const cm = coordinatorMem(w, node);
  const expiresAtMs = w.nowMs + b.maxWaitMs;
  cm.parked.set(msg.reqId, { msg, expiresAtMs });
  armNodeDeadline(w, node, cm.parkTimer, expiresAtMs, 'consumerFetchExpire');
}

/**
 * A partition's high watermark moved on this leader, or this broker stopped leading it: the consumer
 * fetches parked with it complete now (ReplicaManager.completeDelayedFetchOrProduceRequests), with
 * its new records or with NOT_LEADER_OR_FOLLOWER.
 */
export function completeDelayedConsumerFetches(
  w: World,
  node: SimNode,
  topic: string,
  partition: number,
): void {
  const cm = w.coordinators.get(node.id);
  if (!cm || cm.parked.size === 0 || cm.incarnation !== node.incarnation) return;
  for (const key of cm.parked.keys()) {
    const p = cm.parked.get(key)!;
    const b = p.msg.body;
    if (b.kind !== 'ConsumerFetch' || !b.parts.some((x) => x.partition === partition && x.topic === topic))
      continue;
    cm.parked.delete(key);
    reply(w, p.msg, {
      kind: 'ConsumerFetchResponse',
      parts: readParts(w, node, p.msg.from, b.parts).parts,
    });
  }
}

export function onConsumerFetchExpired(w: World, node: SimNode, token: number): void {
  const cm = coordinatorMem(w, node);
  if (cm.parkTimer.token !== token) return;
  cm.parkTimer.token = 0;
  let next = Infinity;
  for (const [key, p] of cm.parked) {
    if (p.expiresAtMs > w.nowMs) {
      next = Math.min(next, p.expiresAtMs);
      continue;
    }
    cm.parked.delete(key);
    const b = p.msg.body;
    if (b.kind === 'ConsumerFetch')
      reply(w, p.msg, {
        kind: 'ConsumerFetchResponse',
        parts: readParts(w, node, p.msg.from, b.parts).parts,
      });
  }
  if (next < Infinity) armNodeDeadline(w, node, cm.parkTimer, next, 'consumerFetchExpire');
}

/** ListOffsets: latest is the high watermark (read_uncommitted), earliest the log start offset. */
export function onListOffsets(w: World, node: SimNode, msg: Message): void {
  const b = msg.body;
  if (b.kind !== 'ListOffsets') return;
  reply(w, msg, {
    kind: 'ListOffsetsResponse',
    parts: b.parts.map((part) => {
      const disk = leaderDisk(node, part.topic, part.partition, -1);
      if (typeof disk === 'string')
        return { topic: part.topic, partition: part.partition, error: disk, offset: -1, leaderEpoch: -1 };
      const log = disk.log;
      const offset = part.timestamp === -2 ? log.logStartOffset : disk.highWatermark;
      const epoch = offset > log.logStartOffset ? (entryAt(log, offset - 1)?.epoch ?? -1) : -1;
      return { topic: part.topic, partition: part.partition, offset, leaderEpoch: epoch };
    }),
  });
}

/** OffsetsForLeaderEpoch (KIP-320): where the leader's log ends for the consumer's last epoch. */
export function onOffsetsForLeaderEpoch(w: World, node: SimNode, msg: Message): void {
  const b = msg.body;
  if (b.kind !== 'OffsetsForLeaderEpoch') return;
  reply(w, msg, {
    kind: 'OffsetsForLeaderEpochResponse',
    parts: b.parts.map((part) => {
      const disk = leaderDisk(node, part.topic, part.partition, part.currentLeaderEpoch);
      if (typeof disk === 'string')
        return {
          topic: part.topic,
          partition: part.partition,
          error: disk,
          leaderEpoch: -1,
          endOffset: -1,
        };
      const d = endOffsetForEpoch(disk.log, part.leaderEpoch);
      return { topic: part.topic, partition: part.partition, leaderEpoch: d.epoch, endOffset: d.endOffset };
    }),
  });
}
