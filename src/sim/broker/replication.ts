// Replication on the brokers (Partition.scala, ReplicaFetcherThread, ReplicaManager):
// leader and follower roles, one fetch session per (follower broker, leader broker), the
// high watermark, ISR shrink and expand through AlterPartition, and KIP-101/279 truncation.

import { authorizationError } from './acl';
import { LONG_MAX } from '../model/config';
import { topicValue } from '../model/image';
import { recordSizeBytes } from '../model/messages';
import { completeDelayedConsumerFetches } from './consumerFetch';
import { countBytes } from '../model/traffic';
import { armNodeDeadline, emit, nextReqId, reply, send, setNodeTimer } from '../kernel/kernel';
import type { EpochLog } from '../model/log';
import {
  append,
  assignEpoch,
  endOffsetForEpoch,
  entryAt,
  latestEpoch,
  latestEpochStart,
  logEndOffset,
  newLog,
  slice,
  truncateFullyAndStartAt,
  truncateTo,
  UNDEFINED_EPOCH,
  deleteBefore,
} from '../model/log';
import type { FetchPart, FetchRespPart, LogRecord, Message } from '../model/messages';
import type { PartitionState } from '../model/metadata';
import { isActiveBroker, THROTTLED_REPLICAS, tpKey } from '../model/metadata';
import { checkLostOnLeaderChange, pruneLedgerBelow } from '../kernel/ledger';
import type {
  BrokerMem,
  DelayedProduce,
  Fetcher,
  FollowerProgress,
  PartitionDisk,
  ProducerStateEntry,
  QuotaBucket,
  ReplicaMem,
  SimNode,
  World,
} from '../model/world';
import type { ConfigValue, NodeId } from '../model/types';

const FETCH_MAX_RECORDS = 2000; // besides replica.fetch.max.bytes, a cap that keeps one response cheap to build
const NO_RECORDS: LogRecord[] = [];
const REPLICA_SOCKET_TIMEOUT_MS = 30000; // replica.socket.timeout.ms
// Kafka starts a replica's lastCaughtUpTimeMs at 0 on the epoch clock, i.e. long ago; virtual time
// starts at 0, so "never" must be far in the past, or a new replica would count as caught up.
const NEVER_CAUGHT_UP_MS = -1e15;
// Kafka keeps the last five batches per producer (ProducerStateEntry.NUM_BATCHES_TO_RETAIN); we keep
// records, as many as five full batches can hold.
const PRODUCER_STATE_RECORDS = 5 * 250;

export function diskOf(node: SimNode, tp: string): PartitionDisk {
  let d = node.disk.partitions.get(tp);
  if (!d) node.disk.partitions.set(tp, (d = { log: newLog<LogRecord>(), highWatermark: 0 }));
  return d;
}

/**
 * A broker config as this broker has applied it from the metadata log: its own dynamic override,
 * then the cluster-wide dynamic default, then the static value it started with (DynamicBrokerConfig).
 */
export function brokerValue(w: World, node: SimNode, name: string): ConfigValue {
  const img = node.raft?.image;
  const own = img && img.brokerConfigs.size > 0 ? img.brokerConfigs.get(String(node.id))?.[name] : undefined;
  return own ?? img?.clusterConfig[name] ?? w.config[name]!;
}

// ---- replication throttles (ReplicationQuotaManager, KIP-73) ---------------------------------------

/** "partition:broker,..." or "*" (QuotaConfig.*_REPLICATION_THROTTLED_REPLICAS). */
function listsReplica(list: ConfigValue | undefined, partition: number, brokerId: NodeId): boolean {
  if (typeof list !== 'string' || list === '') return false;
  if (list.trim() === '*') return true;
  return list.split(',').some((e) => e.trim() === `${partition}:${brokerId}`);
}

/**
 * Whether this broker throttles the replication of `mem` on its `side` for `replicaId`: the topic's
 * throttled-replicas list names (partition, this broker), and the replica is not in the ISR: only the
 * copy to replicas out of the ISR is slowed, so a throttle never holds back the high watermark.
 */
function isThrottled(
  w: World,
  node: SimNode,
  mem: ReplicaMem,
  side: 'leader' | 'follower',
  replicaId: NodeId,
): boolean {
  // A topic-only config: no cluster-wide default to fall back to. Checked first: it is on the fetch path.
  const topic = node.raft!.image.topics.get(mem.topic);
  if (!topic?.throttled) return false;
  if (mem.isr.includes(replicaId)) return false;
  return listsReplica(topic.config[THROTTLED_REPLICAS[side]], mem.partition, node.id);
}

/** Whether `topic` has a throttled-replicas list at all on this broker (most have none): isThrottled's first test. */
function topicThrottled(node: SimNode, topic: string): boolean {
  return node.raft!.image.topics.get(topic)?.throttled === true;
}

function quotaRate(w: World, node: SimNode, side: 'leader' | 'follower'): number {
  return Number(brokerValue(w, node, `${side}.replication.throttled.rate`));
}

/** Refills the bucket at `rate` bytes/s, holding at most one second's worth. */
function refill(w: World, q: QuotaBucket, rate: number): void {
  if (q.updatedAtMs < 0) q.allowanceBytes = rate;
  else q.allowanceBytes = Math.min(rate, q.allowanceBytes + (rate * (w.nowMs - q.updatedAtMs)) / 1000);
  q.updatedAtMs = w.nowMs;
}

function quotaBucket(node: SimNode, side: 'leader' | 'follower'): QuotaBucket {
  return side === 'leader' ? node.broker!.leaderQuota : node.broker!.followerQuota;
}

/** The side's bucket refilled to now, or null when the side is not limited (the default rate, Long.MAX_VALUE). */
function refilledQuota(w: World, node: SimNode, side: 'leader' | 'follower'): QuotaBucket | null {
  const rate = quotaRate(w, node, side);
  if (rate >= LONG_MAX) return null;
  const q = quotaBucket(node, side);
  refill(w, q, rate);
  return q;
}

/** ReplicationQuotaManager.isQuotaExceeded; with the default rate (Long.MAX_VALUE) never. */
function quotaExceeded(w: World, node: SimNode, side: 'leader' | 'follower'): boolean {
  const q = refilledQuota(w, node, side);
  return q !== null && q.allowanceBytes <= 0;
}

/** When an exceeded quota has room again. */
function quotaReadyAtMs(w: World, node: SimNode, side: 'leader' | 'follower'): number {
  const rate = quotaRate(w, node, side);
  const q = quotaBucket(node, side);
  return w.nowMs + Math.max(1, Math.ceil((-q.allowanceBytes * 1000) / Math.max(rate, 1)) + 1);
}

/** What a throttled side may still move now (at least 1 byte, so that one record always moves). */
function quotaAllowance(w: World, node: SimNode, side: 'leader' | 'follower'): number {
  const q = refilledQuota(w, node, side);
  return q ? Math.max(1, Math.floor(q.allowanceBytes)) : LONG_MAX;
}

function recordQuota(w: World, node: SimNode, side: 'leader' | 'follower', bytes: number): void {
  const q = refilledQuota(w, node, side);
  if (q) q.allowanceBytes -= bytes;
}

function effMinIsr(w: World, node: SimNode, mem: ReplicaMem): number {
  return Math.min(
    // LogConfig: the topic's own value, else this broker's dynamic or static default.
    Number(
      node.raft!.image.topics.get(mem.topic)?.config['min.insync.replicas'] ??
        brokerValue(w, node, 'min.insync.replicas'),
    ),
    mem.replicas.length,
  );
}

function maximalIsr(mem: ReplicaMem): NodeId[] {
  if (!mem.pendingIsr) return mem.isr;
  return [...new Set([...mem.isr, ...mem.pendingIsr])];
}

// ---- applying metadata ----------------------------------------------------------

export function applyPartitionState(w: World, node: SimNode, p: PartitionState): void {
  const b = node.broker!;
  const tp = tpKey(p.topic, p.partition);
  let mem = b.replicas.get(tp);
  if (!p.replicas.includes(node.id)) {
    if (mem) {
      becomeNone(w, node, mem, 'NOT_LEADER_OR_FOLLOWER');
      b.replicas.delete(tp);
      node.disk.partitions.delete(tp); // StopReplica with deletion: the log leaves this broker
      replicaLayoutVersion++;
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
    replicaLayoutVersion++;
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
    if (parked.msg.body.kind === 'Fetch' && parked.msg.body.parts.some((x) => x.key === mem.key))
      completeParkedFetch(w, node, follower);
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

// ---- follower side: fetch sessions ------------------------------------------------

function removeFromFetchers(node: SimNode, tp: string): void {
  for (const f of node.broker!.fetchers.values()) f.parts.delete(tp);
}

function addToFetcher(w: World, node: SimNode, tp: string, leaderId: NodeId): void {
  const b = node.broker!;
  let f = b.fetchers.get(leaderId);
  if (!f) {
    f = {
      leaderId,
      parts: new Set(),
      inFlight: false,
      reqId: 0,
      sentAtMs: 0,
      timer: { dueMs: -1, token: 0 },
      backoffUntilMs: 0,
    };
    b.fetchers.set(leaderId, f);
  }
  f.parts.add(tp);
  maybeSendFetch(w, node, f);
}

function kickFetcher(w: World, node: SimNode, leaderId: NodeId): void {
  const f = node.broker!.fetchers.get(leaderId);
  if (f) maybeSendFetch(w, node, f);
}

/**
 * Each fetcher's last request, beside the world (not state: a copy of the world starts without it,
 * and what it saves is rebuilt equal). A message is never changed once sent, so a part that would go
 * out again exactly as before is sent as the same object (and an unchanged list as the same array):
 * most partitions of a session have nothing new between two fetches. With each part, the replica
 * and its disk it was built from: while a replica stays in the broker's map, its disk is the same
 * (applyPartitionState removes both together), so finding the same replica at the same place skips
 * the disk lookup.
 */
interface LastRequest {
  parts: FetchPart[];
  /** By place in `parts`; updated in place (never sent). */
  mems: ReplicaMem[];
  disks: PartitionDisk[];
}

const lastRequests = new WeakMap<Fetcher, LastRequest>();

/**
 * Where maybeSendFetch and buildFetchResponse gather their parts before copying them to a list of
 * the right size (neither runs inside the other or itself). Stale entries past the end are unused.
 */
const requestParts: FetchPart[] = [];
const responseParts: FetchRespPart[] = [];

function maybeSendFetch(w: World, node: SimNode, f: Fetcher): void {
  if (f.inFlight || f.backoffUntilMs > w.nowMs) return;
  const b = node.broker!;
  let last = lastRequests.get(f);
  if (!last) lastRequests.set(f, (last = { parts: [], mems: [], disks: [] }));
  const prev = last.parts;
  let changed = false;
  let n = 0;
  let delayedUntil = Infinity;
  // The partitions of a session are mostly of one topic: its image is looked up once per run of it.
  let topic: string | null = null;
  let topicMayThrottle = false;
  for (const tp of f.parts) {
    const mem = b.replicas.get(tp);
    if (!mem || mem.role !== 'follower' || mem.leaderId !== f.leaderId || mem.fetchError) continue;
    if (mem.fetchDelayUntilMs > w.nowMs) {
      delayedUntil = Math.min(delayedUntil, mem.fetchDelayUntilMs);
      continue;
    }
    if (mem.topic !== topic) {
      topic = mem.topic;
      topicMayThrottle = topicThrottled(node, topic);
    }
    // ReplicaFetcherThread.shouldFollowerThrottle: a throttled replica out of the ISR waits for quota.
    const throttled = topicMayThrottle && isThrottled(w, node, mem, 'follower', node.id);
    if (throttled && quotaExceeded(w, node, 'follower')) {
      delayedUntil = Math.min(delayedUntil, quotaReadyAtMs(w, node, 'follower'));
      continue;
    }
    let disk: PartitionDisk;
    if (last.mems[n] === mem) disk = last.disks[n]!;
    else {
      disk = diskOf(node, tp);
      last.mems[n] = mem;
      last.disks[n] = disk;
    }
    const log = disk.log;
    const fetchOffset = logEndOffset(log);
    const lastFetchedEpoch = latestEpoch(log);
    const same = prev[n];
    let part: FetchPart;
    if (
      same !== undefined &&
      !throttled &&
      same.maxBytes === undefined &&
      same.key === mem.key &&
      same.fetchOffset === fetchOffset &&
      same.lastFetchedEpoch === lastFetchedEpoch &&
      same.currentLeaderEpoch === mem.leaderEpoch &&
      same.topic === mem.topic &&
      same.partition === mem.partition
    ) {
      part = same;
    } else {
      part = {
        key: mem.key,
        topic: mem.topic,
        partition: mem.partition,
        fetchOffset,
        lastFetchedEpoch,
        currentLeaderEpoch: mem.leaderEpoch,
      };
      if (throttled) part.maxBytes = quotaAllowance(w, node, 'follower');
      changed = true;
    }
    requestParts[n++] = part;
  }
  if (n === 0) {
    if (delayedUntil < Infinity) {
      f.backoffUntilMs = delayedUntil;
      armNodeDeadline(w, node, f.timer, delayedUntil, 'fetchRequestTimeout', String(f.leaderId));
    }
    return;
  }
  // Every part as last time: the same list.
  let parts = prev;
  if (changed || n !== prev.length) parts = last.parts = requestParts.slice(0, n);
  f.inFlight = true;
  f.reqId = nextReqId(w);
  f.sentAtMs = w.nowMs;
  send(w, node.id, f.leaderId, { kind: 'Fetch', replicaId: node.id, parts }, f.reqId);
  armNodeDeadline(
    w,
    node,
    f.timer,
    w.nowMs + REPLICA_SOCKET_TIMEOUT_MS,
    'fetchRequestTimeout',
    String(f.leaderId),
  );
}

function backoff(w: World, node: SimNode, f: Fetcher): void {
  f.inFlight = false;
  const ms = Number(w.config['replica.fetch.backoff.ms']);
  f.backoffUntilMs = w.nowMs + ms;
  armNodeDeadline(w, node, f.timer, f.backoffUntilMs, 'fetchRequestTimeout', String(f.leaderId));
}

/** The fetcher's one timer: a request that timed out backs off; a backoff that ended fetches again. */
export function onFetcherTimer(w: World, node: SimNode, token: number, key: string): void {
  const f = node.broker?.fetchers.get(Number(key));
  if (!f || f.timer.token !== token) return;
  f.timer.token = 0;
  if (f.inFlight) {
    if (w.nowMs - f.sentAtMs >= REPLICA_SOCKET_TIMEOUT_MS) backoff(w, node, f);
    else
      armNodeDeadline(w, node, f.timer, f.sentAtMs + REPLICA_SOCKET_TIMEOUT_MS, 'fetchRequestTimeout', key);
    return;
  }
  if (f.backoffUntilMs > w.nowMs) {
    armNodeDeadline(w, node, f.timer, f.backoffUntilMs, 'fetchRequestTimeout', key);
    return;
  }
  f.backoffUntilMs = 0;
  maybeSendFetch(w, node, f);
}

export function onFetchDisconnected(w: World, node: SimNode, msg: Message): void {
  const f = node.broker?.fetchers.get(msg.from as NodeId);
  if (f && f.inFlight && f.reqId === msg.reqId) backoff(w, node, f);
}

export function onFetchResponse(w: World, node: SimNode, msg: Message): void {
  const body = msg.body;
  if (body.kind !== 'FetchResponse') return;
  const b = node.broker!;
  const f = b.fetchers.get(msg.from as NodeId);
  if (!f || !f.inFlight || f.reqId !== msg.reqId) return;
  f.inFlight = false;
  for (const part of body.parts) {
    const tp = part.key ?? tpKey(part.topic, part.partition);
    const mem = b.replicas.get(tp);
    if (!mem || mem.role !== 'follower' || mem.leaderId !== f.leaderId) continue;
    const bytes = part.bytes ?? 0;
    if (bytes > 0) {
      countBytes(w, node.id, bytes, 0);
      if (isThrottled(w, node, mem, 'follower', node.id)) recordQuota(w, node, 'follower', bytes);
    }
    handleFetchedPartition(w, node, mem, diskOf(node, tp), part);
  }
  maybeSendFetch(w, node, f);
}

function handleFetchedPartition(
  w: World,
  node: SimNode,
  mem: ReplicaMem,
  disk: PartitionDisk,
  part: FetchRespPart,
): void {
  const log = disk.log;
  if (part.error === 'OFFSET_OUT_OF_RANGE') {
    if (logEndOffset(log) < part.logStartOffset) truncateFullyAndStartAt(log, part.logStartOffset);
    else truncateAndReport(w, node, mem, disk, part.highWatermark, 'its log was ahead of the leader');
    return;
  }
  if (part.error === 'FENCED_LEADER_EPOCH') {
    // Our leader epoch is old: wait for newer metadata (AbstractFetcherThread.onPartitionFenced).
    mem.fetchError = part.error;
    return;
  }
  if (part.error) {
    // NOT_LEADER_OR_FOLLOWER, UNKNOWN_LEADER_EPOCH: the leader has not applied the metadata yet; retry after replica.fetch.backoff.ms.
    mem.fetchDelayUntilMs = w.nowMs + Number(w.config['replica.fetch.backoff.ms']);
    return;
  }
  if (part.divergingEpoch) {
    // KIP-279: truncate to where our log and the leader's agree on the diverging epoch.
    const d = part.divergingEpoch;
    const mine = endOffsetForEpoch(log, d.epoch);
    const leo = logEndOffset(log);
    const to =
      d.epoch === UNDEFINED_EPOCH
        ? Math.min(disk.highWatermark, leo)
        : mine.epoch === d.epoch
          ? Math.min(d.endOffset, mine.endOffset, leo)
          : mine.epoch === UNDEFINED_EPOCH
            ? Math.min(d.endOffset, leo)
            : Math.min(mine.endOffset, leo);
    truncateAndReport(
      w,
      node,
      mem,
      disk,
      to,
      `its log diverged from leader ${mem.leaderId} after leader epoch ${d.epoch} (KIP-101/279)`,
    );
    return;
  }
  if (part.records.length) {
    if (part.records[0] && logEndOffset(log) < part.logStartOffset)
      truncateFullyAndStartAt(log, part.logStartOffset);
    for (const rec of part.records) {
      const offset = append(log, rec);
      trackProducer(mem, rec, offset);
    }
  }
  disk.highWatermark = Math.min(part.highWatermark, logEndOffset(log));
  if (part.logStartOffset > log.logStartOffset)
    deleteBefore(log, Math.min(part.logStartOffset, disk.highWatermark));
}

function truncateAndReport(
  w: World,
  node: SimNode,
  mem: ReplicaMem,
  disk: PartitionDisk,
  offset: number,
  why: string,
): void {
  const removed = truncateTo(disk.log, offset);
  if (disk.highWatermark > offset) disk.highWatermark = offset;
  if (removed.length === 0) return;
  mem.producerState = rebuildProducerState(disk.log);
  emit(
    w,
    'LogTruncated',
    `Broker ${node.id} truncated ${mem.topic}-${mem.partition} to offset ${offset}, removing ${removed.length} record(s): ${why} (LogTruncated).`,
    { nodeId: node.id, topic: mem.topic, partition: mem.partition, offset, removed: removed.length },
  );
}

// ---- leader side ------------------------------------------------------------------------

/**
 * Counts every change of a broker's replica map (a replica added or removed, with its disk), in any
 * simulation: a ServedSession made before a change is not used after it.
 */
let replicaLayoutVersion = 0;

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
  if (!s) byFollower.set(replicaId, (s = { version: replicaLayoutVersion, keys: [], mems: [], disks: [] }));
  if (s.version !== replicaLayoutVersion) {
    s.version = replicaLayoutVersion;
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

export function onFetchRequest(w: World, node: SimNode, msg: Message): void {
  const body = msg.body;
  if (body.kind !== 'Fetch') return;
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
  const body = p.msg.body;
  if (body.kind === 'Fetch') reply(w, p.msg, buildFetchResponse(w, node, body.parts, follower));
}

/** ReplicaManager.shouldLeaderThrottle: a throttled follower out of the ISR gets no data while the leader quota is used up. */
function leaderThrottles(w: World, node: SimNode, mem: ReplicaMem, follower: NodeId): boolean {
  return isThrottled(w, node, mem, 'leader', follower) && quotaExceeded(w, node, 'leader');
}

function completeParkedFetch(w: World, node: SimNode, follower: NodeId): void {
  const b = node.broker!;
  const p = b.parked.get(follower);
  if (!p) return;
  b.parked.delete(follower);
  const body = p.msg.body;
  if (body.kind === 'Fetch') reply(w, p.msg, buildFetchResponse(w, node, body.parts, follower));
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

function buildFetchResponse(
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
    let to = Math.max(part.fetchOffset, log.logStartOffset);
    let bytes = 0;
    if (!(throttled && quotaExceeded(w, node, 'leader'))) {
      // replica.fetch.max.bytes per partition, but at least one record so that a large one still moves.
      // A throttled copy moves no more than its quota still allows (so each second stays near the rate).
      let maxBytes = Math.min(partitionMaxBytes, part.maxBytes ?? LONG_MAX);
      if (throttled) maxBytes = Math.min(maxBytes, quotaAllowance(w, node, 'leader'));
      const end = Math.min(logEndOffset(log), part.fetchOffset + FETCH_MAX_RECORDS);
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
            records: slice(log, part.fetchOffset, to),
            bytes,
          }
        : partAnswer(part, disk);
  }
  if (sentBytes > 0) countBytes(w, node.id, 0, sentBytes);
  return { kind: 'FetchResponse', parts: out.slice(0, n) };
}

/** Replica.updateFetchState: the follower's LEO and lastCaughtUpTimeMs. */
function updateFollowerFetchState(
  w: World,
  node: SimNode,
  mem: ReplicaMem,
  disk: PartitionDisk,
  follower: NodeId,
  fetchOffset: number,
): void {
  const fs = mem.followers.get(follower);
  if (!fs) return;
  const leaderLeo = logEndOffset(disk.log);
  if (fetchOffset >= leaderLeo) fs.lastCaughtUpTimeMs = Math.max(fs.lastCaughtUpTimeMs, w.nowMs);
  else if (fetchOffset >= fs.lastFetchLeaderLogEndOffset)
    fs.lastCaughtUpTimeMs = Math.max(fs.lastCaughtUpTimeMs, fs.lastFetchTimeMs);
  fs.logEndOffset = fetchOffset;
  fs.lastFetchLeaderLogEndOffset = leaderLeo;
  fs.lastFetchTimeMs = w.nowMs;
  maybeExpandIsr(w, node, mem, disk, fs);
  maybeIncrementHighWatermark(w, node, mem, disk);
}

/** KIP-841: LEO >= HW, LEO >= the leader epoch's start offset, and the broker unfenced and not shutting down. */
function maybeExpandIsr(
  w: World,
  node: SimNode,
  mem: ReplicaMem,
  disk: PartitionDisk,
  fs: FollowerProgress,
): void {
  const follower = fs.replicaId;
  if (mem.pendingIsr || mem.isr.includes(follower)) return;
  if (fs.logEndOffset < disk.highWatermark || fs.logEndOffset < latestEpochStart(disk.log)) return;
  if (!isActiveBroker(node.raft!.image, follower)) return;
  proposeIsr(w, node, mem, [...mem.isr, follower]);
}

function proposeIsr(w: World, node: SimNode, mem: ReplicaMem, isr: NodeId[]): void {
  mem.pendingIsr = mem.replicas.filter((r) => isr.includes(r));
  sendAlterPartition(w, node, mem);
}

function sendAlterPartition(w: World, node: SimNode, mem: ReplicaMem): void {
  const target = node.raft!.leaderId ?? w.voterIds[0]!;
  send(
    w,
    node.id,
    target,
    {
      kind: 'AlterPartition',
      brokerId: node.id,
      brokerEpoch: node.broker!.brokerEpoch,
      topic: mem.topic,
      partition: mem.partition,
      leaderEpoch: mem.leaderEpoch,
      partitionEpoch: mem.partitionEpoch,
      newIsr: mem.pendingIsr!,
    },
    nextReqId(w),
  );
  mem.alterToken = setNodeTimer(w, node, 5000, 'alterPartitionRetry', mem.key);
}

export function onAlterPartitionRetry(w: World, node: SimNode, key: string, token: number): void {
  const mem = node.broker?.replicas.get(key);
  if (!mem || mem.alterToken !== token || !mem.pendingIsr || mem.role !== 'leader') return;
  sendAlterPartition(w, node, mem);
}

export function onAlterPartitionResponse(w: World, node: SimNode, msg: Message): void {
  const body = msg.body;
  if (body.kind !== 'AlterPartitionResponse') return;
  const mem = node.broker!.replicas.get(tpKey(body.topic, body.partition));
  if (!mem || mem.role !== 'leader' || !mem.pendingIsr) return;
  if (body.error === 'NOT_CONTROLLER') return; // retried by the timer, to the leader we learn of
  mem.pendingIsr = null;
  mem.alterToken = 0;
  if (
    body.state &&
    body.state.leaderEpoch === mem.leaderEpoch &&
    body.state.partitionEpoch >= mem.partitionEpoch
  ) {
    mem.isr = body.state.isr;
    mem.partitionEpoch = body.state.partitionEpoch;
  }
  maybeIncrementHighWatermark(w, node, mem);
}

/** Partition.maybeIncrementLeaderHW, with KAFKA-15583: frozen while the ISR is below min ISR. */
export function maybeIncrementHighWatermark(
  w: World,
  node: SimNode,
  mem: ReplicaMem,
  partitionDisk?: PartitionDisk,
): void {
  if (mem.role !== 'leader') return;
  const disk = partitionDisk ?? diskOf(node, mem.key);
  let hw = logEndOffset(disk.log);
  if (hw <= disk.highWatermark) return; // nothing above the HW: it cannot move
  if (mem.isr.length < effMinIsr(w, node, mem)) return;
  let lagMaxMs = -1;
  for (const fs of mem.followers.values()) {
    const r = fs.replicaId;
    const inIsr = mem.isr.includes(r) || (mem.pendingIsr !== null && mem.pendingIsr.includes(r));
    if (!inIsr && fs.logEndOffset >= 0 && lagMaxMs < 0)
      lagMaxMs = Number(brokerValue(w, node, 'replica.lag.time.max.ms'));
    // A caught-up replica that is eligible for the ISR also holds the HW back (Partition.maybeIncrementLeaderHW).
    if (
      inIsr ||
      (fs.logEndOffset >= 0 &&
        w.nowMs - fs.lastCaughtUpTimeMs <= lagMaxMs &&
        isActiveBroker(node.raft!.image, r))
    )
      hw = Math.min(hw, Math.max(fs.logEndOffset, 0));
  }
  if (hw <= disk.highWatermark) return;
  disk.highWatermark = hw;
  completeDelayedConsumerFetches(w, node, mem.topic, mem.partition); // consumer fetches parked at this leader
  completeDelayed(w, node, mem, disk);
}

function completeDelayed(w: World, node: SimNode, mem: ReplicaMem, disk: PartitionDisk): void {
  const hw = disk.highWatermark;
  const delayed = mem.delayed;
  let i = 0;
  while (i < delayed.length && delayed[i]!.requiredOffset > hw) i++;
  if (i === delayed.length) return; // none is complete (the common case: one waits for the followers)
  const enough = maximalIsr(mem).length >= effMinIsr(w, node, mem);
  // The complete ones answer in their order; the others stay, in theirs (compacted in place).
  let kept = i;
  for (; i < delayed.length; i++) {
    const d = delayed[i]!;
    if (d.requiredOffset > hw) delayed[kept++] = d;
    else respondProduce(w, d.msg, mem, enough ? undefined : 'NOT_ENOUGH_REPLICAS_AFTER_APPEND', d.baseOffset);
  }
  delayed.length = kept;
}

function failDelayed(w: World, node: SimNode, mem: ReplicaMem, error: string): void {
  const hint = node.raft!.image.partitions.get(mem.key);
  for (const d of mem.delayed)
    respondProduce(
      w,
      d.msg,
      mem,
      error,
      -1,
      hint && hint.leader !== -1 ? { leaderId: hint.leader, leaderEpoch: hint.leaderEpoch } : undefined,
    );
  mem.delayed = [];
}

export function onDelayedProduceExpired(w: World, node: SimNode, key: string, token: number): void {
  const mem = node.broker?.replicas.get(key);
  if (!mem || mem.delayedTimer.token !== token) return;
  mem.delayedTimer.token = 0;
  const expired = mem.delayed.filter((d) => d.deadlineMs <= w.nowMs);
  mem.delayed = mem.delayed.filter((d) => d.deadlineMs > w.nowMs);
  for (const d of expired) respondProduce(w, d.msg, mem, 'REQUEST_TIMED_OUT', -1);
  if (mem.delayed.length)
    armNodeDeadline(
      w,
      node,
      mem.delayedTimer,
      Math.min(...mem.delayed.map((d) => d.deadlineMs)),
      'delayedProduceExpire',
      key,
    );
}

function respondProduce(
  w: World,
  req: Message,
  mem: { topic: string; partition: number },
  error: string | undefined,
  baseOffset: number,
  currentLeader?: { leaderId: NodeId; leaderEpoch: number },
): void {
  reply(w, req, {
    kind: 'ProduceResponse',
    topic: mem.topic,
    partition: mem.partition,
    error,
    baseOffset,
    currentLeader,
  });
}

/** ISR shrink: every replica.lag.time.max.ms / 2, followers not caught up for longer than it leave. */
export function onIsrShrinkCheck(w: World, node: SimNode, token: number): void {
  const b = node.broker;
  if (!b || token !== b.isrToken) return;
  const lagMaxMs = Number(brokerValue(w, node, 'replica.lag.time.max.ms'));
  b.isrToken = setNodeTimer(w, node, lagMaxMs / 2, 'isrShrinkCheck');
  for (const mem of b.replicas.values()) {
    if (mem.role !== 'leader' || mem.pendingIsr) continue;
    const leo = logEndOffset(diskOf(node, mem.key).log);
    const lagging = mem.isr.filter((r) => {
      if (r === node.id) return false;
      const fs = mem.followers.get(r);
      return !!fs && fs.logEndOffset !== leo && w.nowMs - fs.lastCaughtUpTimeMs > lagMaxMs;
    });
    if (lagging.length) {
      emit(
        w,
        'IsrShrinkProposed',
        `Leader ${node.id} of ${mem.topic}-${mem.partition}: follower(s) [${lagging}] not caught up for over ${lagMaxMs / 1000} s (replica.lag.time.max.ms); asks the controller to shrink the ISR (AlterPartition).`,
        { nodeId: node.id, topic: mem.topic, partition: mem.partition, lagging },
      );
      proposeIsr(
        w,
        node,
        mem,
        mem.isr.filter((r) => !lagging.includes(r)),
      );
    }
  }
}

// ---- the produce path on the leader ---------------------------------------------------

export function onProduceRequest(w: World, node: SimNode, msg: Message): void {
  const body = msg.body;
  if (body.kind !== 'Produce') return;
  let bytes = 0;
  for (const r of body.records) bytes += recordSizeBytes(r);
  countBytes(w, node.id, bytes, 0);
  // KafkaApis.handleProduceRequest authorizes WRITE on the topic before anything else.
  const denied =
    typeof msg.from === 'string' ? authorizationError(w, msg.from, 'Write', 'topic', body.topic) : null;
  if (denied) {
    if (body.acks !== 0) respondProduce(w, msg, body, denied, -1);
    return;
  }
  const tp = tpKey(body.topic, body.partition);
  const mem = node.broker!.replicas.get(tp);
  if (!mem || mem.role !== 'leader') {
    const p = node.raft!.image.partitions.get(tp);
    if (body.acks !== 0)
      respondProduce(
        w,
        msg,
        body,
        'NOT_LEADER_OR_FOLLOWER',
        -1,
        p && p.leader !== -1 && p.leader !== node.id
          ? { leaderId: p.leader, leaderEpoch: p.leaderEpoch }
          : undefined,
      );
    return;
  }
  const minIsr = effMinIsr(w, node, mem);
  if (body.acks === 'all' && mem.isr.length < minIsr) {
    respondProduce(w, msg, body, 'NOT_ENOUGH_REPLICAS', -1);
    return;
  }
  const disk = diskOf(node, tp);
  const first = body.records[0]!;
  let baseOffset: number;
  const state = first.pid >= 0 ? mem.producerState.get(first.pid) : undefined;
  // ProducerStateEntry.findDuplicateBatch: a duplicate is the same batch, first to last sequence.
  const last = body.records[body.records.length - 1]!;
  const dupFirst = state ? offsetOfSeq(state, first.seq) : undefined;
  const dupLast = state ? offsetOfSeq(state, last.seq) : undefined;
  const dup = dupFirst !== undefined && dupLast === dupFirst + body.records.length - 1 ? dupFirst : undefined;
  if (dup !== undefined) {
    baseOffset = dup; // idempotence: a retried batch is not written twice
  } else {
    if (state) {
      if (first.seq !== state.lastSeq + 1) {
        if (body.acks !== 0) respondProduce(w, msg, body, 'OUT_OF_ORDER_SEQUENCE_NUMBER', -1);
        return;
      }
    }
    baseOffset = logEndOffset(disk.log);
    for (const rec of body.records) {
      rec.epoch = mem.leaderEpoch; // the request's record becomes the log's (it is not sent again)
      const offset = append(disk.log, rec);
      trackProducer(mem, rec, offset);
    }
    for (const f of mem.replicas) if (f !== node.id) completeParkedFetch(w, node, f);
  }
  const lastOffset = baseOffset + body.records.length - 1;
  if (body.acks === 0) {
    maybeIncrementHighWatermark(w, node, mem, disk);
    return;
  }
  if (body.acks === 1) {
    respondProduce(w, msg, body, undefined, baseOffset);
    maybeIncrementHighWatermark(w, node, mem, disk);
    return;
  }
  const delayed: DelayedProduce = {
    requiredOffset: lastOffset + 1,
    baseOffset,
    msg,
    deadlineMs: w.nowMs + body.timeoutMs,
  };
  mem.delayed.push(delayed);
  armNodeDeadline(w, node, mem.delayedTimer, delayed.deadlineMs, 'delayedProduceExpire', tp);
  maybeIncrementHighWatermark(w, node, mem, disk);
  completeDelayed(w, node, mem, disk);
}

function trackProducer(mem: ReplicaMem, rec: LogRecord, offset: number): void {
  if (rec.pid >= 0) remember(mem.producerState, rec, offset);
}

function remember(state: Map<number, ProducerStateEntry>, rec: LogRecord, offset: number): void {
  let e = state.get(rec.pid);
  if (!e) state.set(rec.pid, (e = { lastSeq: -1, baseSeq: rec.seq, offsets: [] }));
  // A producer's sequence numbers on a partition are consecutive; a jump starts a new run.
  if (rec.seq !== e.baseSeq + e.offsets.length) {
    e.baseSeq = rec.seq;
    e.offsets = [];
  }
  e.offsets.push(offset);
  e.lastSeq = rec.seq;
  if (e.offsets.length > 2 * PRODUCER_STATE_RECORDS) {
    e.offsets = e.offsets.slice(PRODUCER_STATE_RECORDS);
    e.baseSeq += PRODUCER_STATE_RECORDS;
  }
}

function offsetOfSeq(e: ProducerStateEntry, seq: number): number | undefined {
  const i = seq - e.baseSeq;
  return i >= 0 && i < e.offsets.length ? e.offsets[i] : undefined;
}

function rebuildProducerState(log: EpochLog<LogRecord>): Map<number, ProducerStateEntry> {
  const state = new Map<number, ProducerStateEntry>();
  const end = logEndOffset(log);
  for (let off = Math.max(log.logStartOffset, end - 10 * PRODUCER_STATE_RECORDS); off < end; off++) {
    const rec = entryAt(log, off)!;
    if (rec.pid >= 0) remember(state, rec, off);
  }
  return state;
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
    while (off < disk.highWatermark) {
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
