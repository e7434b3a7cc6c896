// The broker's side of consumer reads (Fetch with replicaId -1, ListOffsets, OffsetsForLeaderEpoch):
// a consumer reads from the partition leader, only below the high watermark; an empty fetch waits
// at the leader up to fetch.max.wait.ms for data (a DelayedFetch), and is answered as soon as the
// HW moves.

import { authorizationError } from './acl';
import { coordinatorMem } from '../model/coordinatorMem';
import { armNodeDeadline, reply } from '../kernel/kernel';
import { countBytes } from '../model/traffic';
import { endOffsetForEpoch, entryAt, firstHeldOffset, logEndOffset, slice } from '../model/log';
import type {
  ConsumerFetchPart,
  ConsumerFetchRespPart,
  LogRecord,
  Message,
  MessageOf,
} from '../model/messages';
import { tpKey } from '../model/metadata';
import { recordSizeBytes } from '../model/messages';
import { abortedTransactions, lastStableOffset } from './transactionIndex';
import type {
  ConsumerFetchSession,
  CoordinatorMem,
  PartitionDisk,
  SessionPartition,
  SimNode,
  World,
} from '../model/world';

/** Records per partition in one response (stands for max.partition.fetch.bytes). */
const CONSUMER_FETCH_MAX_RECORDS = 500;

/**
 * The leader's log of a partition, or why this broker cannot serve it: not its leader, or (KIP-320)
 * the consumer believes in another leader epoch.
 */
function leaderDisk(node: SimNode, tp: string, currentLeaderEpoch: number): PartitionDisk | string {
  const mem = node.broker?.replicas.get(tp);
  if (!mem || mem.role !== 'leader') return 'NOT_LEADER_OR_FOLLOWER';
  if (currentLeaderEpoch >= 0 && currentLeaderEpoch < mem.leaderEpoch) return 'FENCED_LEADER_EPOCH';
  if (currentLeaderEpoch > mem.leaderEpoch) return 'UNKNOWN_LEADER_EPOCH';
  return node.disk.partitions.get(tp) ?? 'NOT_LEADER_OR_FOLLOWER';
}

/** The log of a session partition, or the error it answers with (not authorized, not the leader). */
function readable(
  w: World,
  node: SimNode,
  from: Message['from'],
  sp: SessionPartition,
): PartitionDisk | string {
  const denied = typeof from === 'string' ? authorizationError(w, from, 'Read', 'topic', sp.topic) : null;
  return denied ?? leaderDisk(node, sp.tp, sp.currentLeaderEpoch);
}

/** OFFSET_OUT_OF_RANGE: the fetch offset is below the log start or past the log end. */
function outOfRange(sp: SessionPartition, disk: PartitionDisk): boolean {
  return sp.fetchOffset < disk.log.logStartOffset || sp.fetchOffset > logEndOffset(disk.log);
}

/**
 * Whether the fetch can be answered now (ReplicaManager.fetchMessages): a partition of the session
 * has records below the high watermark (read_uncommitted) or an error, or the session is empty.
 */
function canAnswer(
  w: World,
  node: SimNode,
  from: Message['from'],
  s: ConsumerFetchSession,
  readCommitted: boolean,
): boolean {
  if (s.parts.length === 0) return true;
  for (const sp of s.parts) {
    const disk = readable(w, node, from, sp);
    if (typeof disk === 'string' || outOfRange(sp, disk) || readLimit(disk, readCommitted) > sp.fetchOffset)
      return true;
  }
  return false;
}

/**
 * How far a consumer may read (FetchIsolation): read_uncommitted up to the high watermark,
 * read_committed up to the last stable offset (broker/transactionIndex.ts).
 */
function readLimit(disk: PartitionDisk, readCommitted: boolean): number {
  return readCommitted ? lastStableOffset(disk) : disk.highWatermark;
}

/**
 * The response to a fetch in session `s` (FetchSession.scala): a full one names every partition; an
 * incremental one only those with records, an error, or a high watermark or log start offset the
 * consumer has not been told yet. It reads at most CONSUMER_FETCH_MAX_RECORDS per partition.
 */
function answer(w: World, node: SimNode, msg: Message, s: ConsumerFetchSession, full: boolean): void {
  const readCommitted = (msg.body as { readCommitted?: true }).readCommitted === true;
  const parts: ConsumerFetchRespPart[] = [];
  let bytes = 0;
  for (const sp of s.parts) {
    const disk = readable(w, node, msg.from, sp);
    if (typeof disk === 'string') {
      parts.push(respPart(sp, -1, 0, NO_RECORDS, disk));
      continue;
    }
    const log = disk.log;
    if (outOfRange(sp, disk)) {
      parts.push(respPart(sp, disk.highWatermark, log.logStartOffset, NO_RECORDS, 'OFFSET_OUT_OF_RANGE'));
      continue;
    }
    const limit = readLimit(disk, readCommitted);
    // A consumer behind the records the leader forgot (record ceiling) reads on from the first one held.
    const from = Math.max(sp.fetchOffset, firstHeldOffset(log));
    const end = Math.min(limit, from + CONSUMER_FETCH_MAX_RECORDS);
    const changed = disk.highWatermark !== sp.highWatermark || log.logStartOffset !== sp.logStartOffset;
    if (end <= sp.fetchOffset && !full && !changed) continue;
    sp.highWatermark = disk.highWatermark;
    sp.logStartOffset = log.logStartOffset;
    const records = end > from ? slice(log, from, end) : NO_RECORDS;
    for (const r of records) bytes += recordSizeBytes(r);
    const part = respPart(sp, disk.highWatermark, log.logStartOffset, records);
    if (from > sp.fetchOffset && records.length) part.firstOffset = from;
    if (readCommitted) {
      part.lastStableOffset = limit;
      part.abortedTransactions = end > sp.fetchOffset ? abortedTransactions(disk, sp.fetchOffset, end) : [];
    }
    parts.push(part);
  }
  if (bytes > 0) countBytes(w, node.id, 0, bytes); // BytesOutPerSec counts consumer fetches too
  reply(w, msg, { kind: 'ConsumerFetchResponse', sessionId: s.id, parts });
}

const NO_RECORDS: LogRecord[] = [];

function respPart(
  sp: SessionPartition,
  highWatermark: number,
  logStartOffset: number,
  records: LogRecord[],
  error?: string,
): ConsumerFetchRespPart {
  const r: ConsumerFetchRespPart = {
    topic: sp.topic,
    partition: sp.partition,
    highWatermark,
    logStartOffset,
    records,
  };
  if (error) r.error = error;
  return r;
}

function sessionPartition(part: ConsumerFetchPart): SessionPartition {
  return {
    topic: part.topic,
    partition: part.partition,
    tp: tpKey(part.topic, part.partition),
    fetchOffset: part.fetchOffset,
    currentLeaderEpoch: part.currentLeaderEpoch,
    highWatermark: -1,
    logStartOffset: -1,
  };
}

/**
 * FetchManager.newContext: a full fetch (epoch 0) closes the session it names and opens a new one
 * with every partition; an incremental fetch updates its session's partitions, or is refused when the
 * session is gone (a restarted broker) or the epoch is not the one expected (a lost request).
 * A consumer keeps one session per broker, so a new session of the same consumer replaces its old one
 * (Kafka leaves that one to the cache's eviction).
 */
function sessionFor(cm: CoordinatorMem, msg: Message): ConsumerFetchSession | string {
  const b = msg.body as Extract<Message['body'], { kind: 'ConsumerFetch' }>;
  if (b.sessionEpoch === 0) {
    for (const [id, old] of cm.fetchSessions)
      if (id === b.sessionId || old.owner === msg.from) cm.fetchSessions.delete(id);
    const s: ConsumerFetchSession = {
      id: ++cm.lastFetchSessionId,
      owner: msg.from,
      epoch: 1,
      parts: b.parts.map(sessionPartition),
    };
    cm.fetchSessions.set(s.id, s);
    return s;
  }
  const s = cm.fetchSessions.get(b.sessionId);
  // Kafka draws session ids at random; ours count up from 1 again after a restart, so the owner is checked too.
  if (!s || s.owner !== msg.from) return 'FETCH_SESSION_ID_NOT_FOUND';
  if (s.epoch !== b.sessionEpoch) return 'INVALID_FETCH_SESSION_EPOCH';
  s.epoch = s.epoch === 0x7fffffff ? 1 : s.epoch + 1;
  for (const part of b.parts) {
    const sp = partOf(s, part.topic, part.partition);
    if (!sp) s.parts.push(sessionPartition(part));
    else {
      sp.fetchOffset = part.fetchOffset;
      sp.currentLeaderEpoch = part.currentLeaderEpoch;
    }
  }
  if (b.forgotten.length)
    s.parts = s.parts.filter(
      (sp) => !b.forgotten.some((f) => f.partition === sp.partition && f.topic === sp.topic),
    );
  return s;
}

export function onConsumerFetch(w: World, node: SimNode, msg: MessageOf<'ConsumerFetch'>): void {
  const b = msg.body;
  const cm = coordinatorMem(w, node);
  const s = sessionFor(cm, msg);
  if (typeof s === 'string') {
    refuse(w, msg, s);
    return;
  }
  if (b.maxWaitMs <= 0 || canAnswer(w, node, msg.from, s, b.readCommitted === true)) {
    answer(w, node, msg, s, b.sessionEpoch === 0);
    return;
  }
  const expiresAtMs = w.nowMs + b.maxWaitMs;
  cm.parked.set(msg.reqId, { msg, expiresAtMs, sessionId: s.id });
  armNodeDeadline(w, node, cm.parkTimer, expiresAtMs, 'consumerFetchExpire');
}

/** Answers a parked fetch; its session may have been replaced meanwhile (the consumer ignores the answer then). */
function answerParked(
  w: World,
  node: SimNode,
  cm: CoordinatorMem,
  p: { msg: Message; sessionId: number },
): void {
  const b = p.msg.body as Extract<Message['body'], { kind: 'ConsumerFetch' }>;
  const s = cm.fetchSessions.get(p.sessionId);
  if (s) answer(w, node, p.msg, s, b.sessionEpoch === 0);
  else refuse(w, p.msg, 'FETCH_SESSION_ID_NOT_FOUND');
}

/** A fetch refused as a whole (a session error): no partitions, no session. */
function refuse(w: World, msg: Message, error: string): void {
  reply(w, msg, { kind: 'ConsumerFetchResponse', error, sessionId: 0, parts: [] });
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
  if (!cm || cm.parked.size === 0) return;
  for (const [key, p] of cm.parked) {
    const s = cm.fetchSessions.get(p.sessionId);
    if (s && !partOf(s, topic, partition)) continue;
    cm.parked.delete(key);
    answerParked(w, node, cm, p);
  }
}

function partOf(s: ConsumerFetchSession, topic: string, partition: number): SessionPartition | undefined {
  for (const sp of s.parts) if (sp.partition === partition && sp.topic === topic) return sp;
  return undefined;
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
    answerParked(w, node, cm, p);
  }
  if (next < Infinity) armNodeDeadline(w, node, cm.parkTimer, next, 'consumerFetchExpire');
}

/** ListOffsets: latest is the high watermark (read_uncommitted) or the LSO (read_committed), earliest the log start offset. */
export function onListOffsets(w: World, node: SimNode, msg: MessageOf<'ListOffsets'>): void {
  const b = msg.body;
  reply(w, msg, {
    kind: 'ListOffsetsResponse',
    parts: b.parts.map((part) => {
      const disk = leaderDisk(node, tpKey(part.topic, part.partition), -1);
      if (typeof disk === 'string')
        return { topic: part.topic, partition: part.partition, error: disk, offset: -1, leaderEpoch: -1 };
      const log = disk.log;
      const offset =
        part.timestamp === -2
          ? log.logStartOffset
          : b.readCommitted
            ? lastStableOffset(disk)
            : disk.highWatermark;
      const epoch = offset > log.logStartOffset ? (entryAt(log, offset - 1)?.epoch ?? -1) : -1;
      return { topic: part.topic, partition: part.partition, offset, leaderEpoch: epoch };
    }),
  });
}

/** OffsetsForLeaderEpoch (KIP-320): where the leader's log ends for the consumer's last epoch. */
export function onOffsetsForLeaderEpoch(
  w: World,
  node: SimNode,
  msg: MessageOf<'OffsetsForLeaderEpoch'>,
): void {
  const b = msg.body;
  reply(w, msg, {
    kind: 'OffsetsForLeaderEpochResponse',
    parts: b.parts.map((part) => {
      const disk = leaderDisk(node, tpKey(part.topic, part.partition), part.currentLeaderEpoch);
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
