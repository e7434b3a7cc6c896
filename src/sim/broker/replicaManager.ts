// The broker's replicas (ReplicaManager): a partition's role on this broker as the metadata log
// sets it (leader, follower or none; becomeLeaderOrFollower), and the leader's answers to the
// followers' Fetch requests, parked until there is something to send (fetchMessages). The rest of
// replication: partition.ts (high watermark, ISR), replicaFetcher.ts (the follower side),
// delayedProduce.ts, appendRecords.ts, producerState.ts, replicationQuota.ts, logManager.ts.

import { LONG_MAX } from '../model/config';
import { recordSizeBytes } from '../model/messages';
import { completeDelayedConsumerFetches } from './consumerFetch';
import { countBytes } from '../model/traffic';
import { armNodeDeadline, reply } from '../kernel/kernel';
import type { EpochLog } from '../model/log';
import {
  assignEpoch,
  endOffsetForEpoch,
  entryAt,
  firstHeldOffset,
  latestEpoch,
  logEndOffset,
  slice,
  UNDEFINED_EPOCH,
} from '../model/log';
import type { FetchPart, FetchRespPart, LogRecord, MessageOf } from '../model/messages';
import type { PartitionState } from '../model/metadata';
import { tpKey } from '../model/metadata';
import { checkLostOnLeaderChange } from '../kernel/ledger';
import type { BrokerMem, FollowerProgress, PartitionDisk, ReplicaMem, SimNode, World } from '../model/world';
import type { NodeId } from '../model/types';
import { brokerValue } from './brokerConfig';
import { failDelayed } from './delayedProduce';
import { diskOf } from './logManager';
import { maybeIncrementHighWatermark, updateFollowerFetchState } from './partition';
import { rebuildProducerState } from './producerState';
import {
  addToFetcher,
  maybeSendFetch,
  removeFromFetchers,
  replicaLayout,
  responseParts,
} from './replicaFetcher';
import { isThrottled, quotaAllowance, quotaExceeded, recordQuota, topicThrottled } from './replicationQuota';

const FETCH_MAX_RECORDS = 2000; // besides replica.fetch.max.bytes, a cap that keeps one response cheap to build

const NO_RECORDS: LogRecord[] = [];

// Kafka starts a replica's lastCaughtUpTimeMs at 0 on the epoch clock, i.e. long ago; virtual time
// starts at 0, so "never" must be far in the past, or a new replica would count as caught up.
const NEVER_CAUGHT_UP_MS = -1e15;

export function applyPartitionState(w: World, node: SimNode, p: PartitionState): void {
  const b = node.broker!;
  const tp = tpKey(p.topic, p.partition);
  let mem = b.replicas.get(tp);
  if (!p.replicas.includes(node.id)) {
    if (mem) {
      becomeNone(w, node, mem, 'NOT_LEADER_OR_FOLLOWER');
      b.replicas.delete(tp);
      node.disk.partitions.delete(tp); // StopReplica with deletion: the log leaves this broker
      replicaLayout.version++;
    }
    return;
  }
  const disk = diskOf(node, tp);
  if (!mem) {
    mem = {
      key: tp,
      topic: p.topic,
      partition: p.partition,
      role: 'none',
      leaderId: -1,
      leaderEpoch: -1,
      partitionEpoch: -1,
      replicas: p.replicas,
      isr: p.isr,
      pendingIsr: null,
      alterToken: 0,
      followers: new Map(),
      delayed: [],
      delayedTimer: { dueMs: -1, token: 0 },
      producerState: rebuildProducerState(disk.log),
      fetchError: null,
      fetchDelayUntilMs: 0,
    };
    b.replicas.set(tp, mem);
    replicaLayout.version++;
  }
  const newerEpoch = p.leaderEpoch > mem.leaderEpoch;
  mem.replicas = p.replicas;
  if (p.partitionEpoch > mem.partitionEpoch) {
    mem.isr = p.isr;
    mem.partitionEpoch = p.partitionEpoch;
    mem.pendingIsr = null;
  }
  mem.fetchError = null;
  mem.fetchDelayUntilMs = 0;
  if (p.leader === node.id) {
    if (mem.role !== 'leader' || newerEpoch) makeLeader(w, node, mem, p);
    else {
      syncFollowers(w, mem, p);
      maybeIncrementHighWatermark(w, node, mem);
    }
  } else if (mem.role !== 'follower' || newerEpoch || mem.leaderId !== p.leader) {
    makeFollower(w, node, mem, p);
  } else {
    kickFetcher(w, node, p.leader);
  }
}

function makeLeader(w: World, node: SimNode, mem: ReplicaMem, p: PartitionState): void {
  const tp = mem.key;
  removeFromFetchers(node, tp);
  const disk = diskOf(node, tp);
  mem.role = 'leader';
  mem.leaderId = node.id;
  mem.leaderEpoch = p.leaderEpoch;
  assignEpoch(disk.log, p.leaderEpoch);
  mem.followers = new Map();
  for (const r of p.replicas) if (r !== node.id) mem.followers.set(r, newFollower(w, r, p));
  checkLostOnLeaderChange(w, node, mem, disk);
  maybeIncrementHighWatermark(w, node, mem);
}

/** Partition.makeLeader: a follower in the ISR counts as caught up now; its LEO is unknown. */
function newFollower(w: World, r: NodeId, p: PartitionState): FollowerProgress {
  return {
    replicaId: r,
    logEndOffset: -1,
    lastCaughtUpTimeMs: p.isr.includes(r) ? w.nowMs : NEVER_CAUGHT_UP_MS,
    lastFetchTimeMs: NEVER_CAUGHT_UP_MS,
    lastFetchLeaderLogEndOffset: 0,
    sentHighWatermark: -1,
    sentLogStartOffset: -1,
  };
}

/** A reassignment changes the replicas under the same leader: new followers are tracked, removed ones dropped. */
function syncFollowers(w: World, mem: ReplicaMem, p: PartitionState): void {
  for (const r of p.replicas)
    if (r !== mem.leaderId && !mem.followers.has(r)) mem.followers.set(r, newFollower(w, r, p));
  for (const r of [...mem.followers.keys()]) if (!p.replicas.includes(r)) mem.followers.delete(r);
}

function makeFollower(w: World, node: SimNode, mem: ReplicaMem, p: PartitionState): void {
  const tp = mem.key;
  if (mem.role === 'leader') leadershipLost(w, node, mem, 'NOT_LEADER_OR_FOLLOWER');
  mem.role = 'follower';
  mem.leaderId = p.leader;
  mem.leaderEpoch = p.leaderEpoch;
  mem.followers = new Map();
  removeFromFetchers(node, tp);
  if (p.leader !== -1) addToFetcher(w, node, tp, p.leader);
}

/**
 * This broker no longer leads the partition: what waited on it completes now, as
 * ReplicaManager.completeDelayedFetchOrProduceRequests does for partitions made followers or
 * stopped: delayed produces fail with `error`, parked fetches (followers' and consumers') answer.
 */
function leadershipLost(w: World, node: SimNode, mem: ReplicaMem, error: string): void {
  failDelayed(w, node, mem, error);
  mem.role = 'none'; // the parked fetches' answers must see that it no longer leads
  const b = node.broker!;
  for (const [follower, parked] of [...b.parked])
    if (parked.msg.body.parts.some((x) => x.key === mem.key)) completeParkedFetch(w, node, follower);
  completeDelayedConsumerFetches(w, node, mem.topic, mem.partition);
}

function becomeNone(w: World, node: SimNode, mem: ReplicaMem, error: string): void {
  if (mem.role === 'leader') leadershipLost(w, node, mem, error);
  removeFromFetchers(node, mem.key);
  mem.role = 'none';
}

export function onMetadataTopicsChanged(w: World, node: SimNode): void {
  // A config change (min.insync.replicas) may let the HW move at once.
  for (const mem of node.broker!.replicas.values())
    if (mem.role === 'leader') maybeIncrementHighWatermark(w, node, mem);
}

function kickFetcher(w: World, node: SimNode, leaderId: NodeId): void {
  const f = node.broker!.fetchers.get(leaderId);
  if (f) maybeSendFetch(w, node, f);
}

/**
 * What a leader found for the parts of a follower's fetch, by place: the replica (undefined when
 * it has none) and its disk. A follower lists its partitions in the same order every time, so the
 * next request finds them at the same places, and the response to a parked request finds them
 * again. Beside the world, not state: a copy of the world starts without it; it only saves lookups.
 */
interface ServedSession {
  version: number;
  keys: string[];
  mems: (ReplicaMem | undefined)[];
  disks: (PartitionDisk | undefined)[];
}

const servedSessions = new WeakMap<BrokerMem, Map<NodeId, ServedSession>>();

function servedSession(b: BrokerMem, replicaId: NodeId): ServedSession {
  let byFollower = servedSessions.get(b);
  if (!byFollower) servedSessions.set(b, (byFollower = new Map()));
  let s = byFollower.get(replicaId);
  if (!s) byFollower.set(replicaId, (s = { version: replicaLayout.version, keys: [], mems: [], disks: [] }));
  if (s.version !== replicaLayout.version) {
    s.version = replicaLayout.version;
    s.keys.length = 0;
    s.mems.length = 0;
    s.disks.length = 0;
  }
  return s;
}

/** The replica for part `n` of a request (b.replicas.get(tp)), found again at its place when it can be. */
function servedMem(node: SimNode, s: ServedSession, n: number, tp: string): ReplicaMem | undefined {
  if (s.keys[n] === tp) return s.mems[n];
  const mem = node.broker!.replicas.get(tp);
  s.keys[n] = tp;
  s.mems[n] = mem;
  // A replica's disk exists while the replica does (applyPartitionState makes it first, removes both).
  s.disks[n] = mem ? node.disk.partitions.get(tp) : undefined;
  return mem;
}

/** The disk of part `n` after servedMem found its replica (diskOf(node, tp)). */
function servedDisk(node: SimNode, s: ServedSession, n: number, tp: string): PartitionDisk {
  return s.disks[n] ?? diskOf(node, tp);
}

export function onFetchRequest(w: World, node: SimNode, msg: MessageOf<'Fetch'>): void {
  const body = msg.body;
  const b = node.broker!;
  const s = servedSession(b, body.replicaId);
  let ready = false;
  let n = -1;
  for (const part of body.parts) {
    n++;
    const tp = part.key ?? tpKey(part.topic, part.partition);
    const mem = servedMem(node, s, n, tp);
    if (!mem || mem.role !== 'leader' || part.currentLeaderEpoch !== mem.leaderEpoch) {
      ready = true;
      continue;
    }
    const disk = servedDisk(node, s, n, tp);
    const log = disk.log;
    if (divergence(log, part)) {
      ready = true;
      continue;
    }
    if (part.fetchOffset < log.logStartOffset || part.fetchOffset > logEndOffset(log)) {
      ready = true;
      continue;
    }
    updateFollowerFetchState(w, node, mem, disk, body.replicaId, part.fetchOffset);
    if (part.fetchOffset < logEndOffset(log) && !leaderThrottles(w, node, mem, body.replicaId)) ready = true;
  }
  if (ready) {
    reply(w, msg, buildFetchResponse(w, node, body.parts, body.replicaId));
    return;
  }
  // Long poll: wait for data up to replica.fetch.wait.max.ms (a DelayedFetch).
  const expiresAtMs = w.nowMs + Number(w.config['replica.fetch.wait.max.ms']);
  b.parked.set(body.replicaId, { msg, expiresAtMs });
  let timer = b.parkTimers.get(body.replicaId);
  if (!timer) b.parkTimers.set(body.replicaId, (timer = { dueMs: -1, token: 0 }));
  armNodeDeadline(w, node, timer, expiresAtMs, 'parkedFetchExpire', String(body.replicaId));
}

export function onParkedFetchExpired(w: World, node: SimNode, key: string, token: number): void {
  const b = node.broker;
  const follower = Number(key);
  const timer = b?.parkTimers.get(follower);
  if (!b || !timer || timer.token !== token) return;
  timer.token = 0;
  const p = b.parked.get(follower);
  if (!p) return;
  if (p.expiresAtMs > w.nowMs) {
    armNodeDeadline(w, node, timer, p.expiresAtMs, 'parkedFetchExpire', key);
    return;
  }
  b.parked.delete(follower);
  reply(w, p.msg, buildFetchResponse(w, node, p.msg.body.parts, follower));
}

/** ReplicaManager.shouldLeaderThrottle: a throttled follower out of the ISR gets no data while the leader quota is used up. */
function leaderThrottles(w: World, node: SimNode, mem: ReplicaMem, follower: NodeId): boolean {
  return isThrottled(w, node, mem, 'leader', follower) && quotaExceeded(w, node, 'leader');
}

export function completeParkedFetch(w: World, node: SimNode, follower: NodeId): void {
  const b = node.broker!;
  const p = b.parked.get(follower);
  if (!p) return;
  b.parked.delete(follower);
  reply(w, p.msg, buildFetchResponse(w, node, p.msg.body.parts, follower));
}

/**
 * KIP-279: where the follower's log diverges from ours (the end of its last fetched epoch here is
 * before its fetch offset), or null. The common case (same latest epoch, nothing past our log end)
 * answers without a lookup.
 */
function divergence(log: EpochLog<LogRecord>, part: FetchPart): { epoch: number; endOffset: number } | null {
  const requested = part.lastFetchedEpoch;
  if (requested === UNDEFINED_EPOCH) return null;
  if (requested === latestEpoch(log) && logEndOffset(log) >= part.fetchOffset) return null;
  const d = endOffsetForEpoch(log, requested);
  return d.epoch < requested || d.endOffset < part.fetchOffset ? d : null;
}

function failedPart(part: FetchPart, error: string): FetchRespPart {
  return {
    key: part.key,
    topic: part.topic,
    partition: part.partition,
    highWatermark: -1,
    logStartOffset: 0,
    records: NO_RECORDS,
    error,
  };
}

function partAnswer(part: FetchPart, disk: PartitionDisk): FetchRespPart {
  return {
    key: part.key,
    topic: part.topic,
    partition: part.partition,
    highWatermark: disk.highWatermark,
    logStartOffset: disk.log.logStartOffset,
    records: NO_RECORDS,
  };
}

export function buildFetchResponse(
  w: World,
  node: SimNode,
  parts: FetchPart[],
  replicaId: NodeId,
): { kind: 'FetchResponse'; parts: FetchRespPart[] } {
  const s = servedSession(node.broker!, replicaId);
  const out = responseParts;
  let n = 0;
  let i = -1;
  const partitionMaxBytes = Number(brokerValue(w, node, 'replica.fetch.max.bytes'));
  let sentBytes = 0;
  let topic: string | null = null;
  let topicMayThrottle = false;
  for (const part of parts) {
    i++;
    const tp = part.key ?? tpKey(part.topic, part.partition);
    const mem = servedMem(node, s, i, tp);
    if (!mem || mem.role !== 'leader') {
      out[n++] = failedPart(part, 'NOT_LEADER_OR_FOLLOWER');
      continue;
    }
    if (part.currentLeaderEpoch !== mem.leaderEpoch) {
      out[n++] = failedPart(
        part,
        part.currentLeaderEpoch < mem.leaderEpoch ? 'FENCED_LEADER_EPOCH' : 'UNKNOWN_LEADER_EPOCH',
      );
      continue;
    }
    const disk = servedDisk(node, s, i, tp);
    const log = disk.log;
    const d = divergence(log, part);
    if (d) {
      out[n++] = { ...partAnswer(part, disk), divergingEpoch: d };
      continue;
    }
    if (part.fetchOffset < log.logStartOffset || part.fetchOffset > logEndOffset(log)) {
      out[n++] = { ...partAnswer(part, disk), error: 'OFFSET_OUT_OF_RANGE' };
      continue;
    }
    const fs = mem.followers.get(replicaId);
    if (mem.topic !== topic) {
      topic = mem.topic;
      topicMayThrottle = topicThrottled(node, topic);
    }
    const throttled = topicMayThrottle && isThrottled(w, node, mem, 'leader', replicaId);
    // A follower behind the records this leader forgot (record ceiling) gets them from the first one held.
    const from = Math.max(part.fetchOffset, firstHeldOffset(log));
    let to = from;
    let bytes = 0;
    if (!(throttled && quotaExceeded(w, node, 'leader'))) {
      // replica.fetch.max.bytes per partition, but at least one record so that a large one still moves.
      // A throttled copy moves no more than its quota still allows (so each second stays near the rate).
      let maxBytes = Math.min(partitionMaxBytes, part.maxBytes ?? LONG_MAX);
      if (throttled) maxBytes = Math.min(maxBytes, quotaAllowance(w, node, 'leader'));
      const end = Math.min(logEndOffset(log), from + FETCH_MAX_RECORDS);
      while (to < end) {
        const size = recordSizeBytes(entryAt(log, to)!);
        if (bytes > 0 && bytes + size > maxBytes) break;
        bytes += size;
        to++;
      }
      if (throttled && bytes > 0) recordQuota(w, node, 'leader', bytes);
    }
    // KIP-227 incremental fetch sessions: a partition with nothing new for this follower (no records,
    // same HW and log start offset as last sent) is left out of the response.
    const unchanged =
      bytes === 0 &&
      fs !== undefined &&
      fs.sentHighWatermark === disk.highWatermark &&
      fs.sentLogStartOffset === log.logStartOffset;
    if (fs) {
      fs.sentHighWatermark = disk.highWatermark;
      fs.sentLogStartOffset = log.logStartOffset;
    }
    if (unchanged) continue;
    sentBytes += bytes;
    out[n++] =
      bytes > 0
        ? {
            key: part.key,
            topic: part.topic,
            partition: part.partition,
            highWatermark: disk.highWatermark,
            logStartOffset: log.logStartOffset,
            records: slice(log, from, to),
            bytes,
            ...(from > part.fetchOffset ? { firstOffset: from } : {}),
          }
        : partAnswer(part, disk);
  }
  if (sentBytes > 0) countBytes(w, node.id, 0, sentBytes);
  return { kind: 'FetchResponse', parts: out.slice(0, n) };
}
