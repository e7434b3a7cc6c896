// The follower side of replication (ReplicaFetcherThread, AbstractFetcherThread): one fetcher per
// leader broker, its fetch requests and their responses, backoff after errors, and truncation to
// the leader's log (KIP-101, KIP-279).

import { countBytes } from '../model/traffic';
import { armNodeDeadline, emit, nextReqId, send } from '../kernel/kernel';
import {
  append,
  endOffsetForEpoch,
  latestEpoch,
  logEndOffset,
  skipForgottenTo,
  truncateFullyAndStartAt,
  truncateTo,
  UNDEFINED_EPOCH,
  deleteBefore,
} from '../model/log';
import type { FetchPart, FetchRespPart, Message, MessageOf } from '../model/messages';
import { tpKey } from '../model/metadata';
import { trailAppend, trailTruncation } from '../model/trail';
import type { Fetcher, PartitionDisk, ReplicaMem, SimNode, World } from '../model/world';
import type { NodeId } from '../model/types';
import { diskOf } from './logManager';
import { rebuildProducerState, trackProducer } from './producerState';
import {
  isThrottled,
  quotaAllowance,
  quotaExceeded,
  quotaReadyAtMs,
  recordQuota,
  topicThrottled,
} from './replicationQuota';

const REPLICA_SOCKET_TIMEOUT_MS = 30000; // replica.socket.timeout.ms

/**
 * Counts every change of a broker's replica map (a replica added or removed, with its disk) and of
 * a fetcher's partitions, in any simulation: what was looked up before a change (a ServedSession,
 * a fetcher's replicas in order) is looked up again after it.
 */
export const replicaLayout = { version: 0 };

export function removeFromFetchers(node: SimNode, tp: string): void {
  for (const f of node.broker!.fetchers.values()) if (f.parts.delete(tp)) replicaLayout.version++;
}

export function addToFetcher(w: World, node: SimNode, tp: string, leaderId: NodeId): void {
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
  if (!f.parts.has(tp)) {
    f.parts.add(tp);
    replicaLayout.version++;
  }
  maybeSendFetch(w, node, f);
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
  /** The fetcher's replicas, in the order of its partitions (undefined where the broker has none), as of `layout`. */
  order: (ReplicaMem | undefined)[];
  layout: number;
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

export const responseParts: FetchRespPart[] = [];

export function maybeSendFetch(w: World, node: SimNode, f: Fetcher): void {
  if (f.inFlight || f.backoffUntilMs > w.nowMs) return;
  const b = node.broker!;
  let last = lastRequests.get(f);
  if (!last) lastRequests.set(f, (last = { order: [], layout: -1, parts: [], mems: [], disks: [] }));
  // The replicas of the fetcher's partitions, looked up again only after the layout changed.
  const order = last.order;
  if (last.layout !== replicaLayout.version) {
    order.length = 0;
    for (const tp of f.parts) order.push(b.replicas.get(tp));
    last.layout = replicaLayout.version;
  }
  const prev = last.parts;
  let changed = false;
  let n = 0;
  let delayedUntil = Infinity;
  // The partitions of a session are mostly of one topic: its image is looked up once per run of it.
  let topic: string | null = null;
  let topicMayThrottle = false;
  for (let k = 0; k < order.length; k++) {
    const mem = order[k];
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
    const cached = last.disks[n];
    if (last.mems[n] === mem && cached) disk = cached;
    else {
      disk = diskOf(node, mem.key);
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

export function onFetchResponse(w: World, node: SimNode, msg: MessageOf<'FetchResponse'>): void {
  const body = msg.body;
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
    // The leader forgot the records between our log end and firstOffset (record ceiling): so do we.
    if (part.firstOffset !== undefined && part.records[0])
      skipForgottenTo(log, part.firstOffset, part.records[0].timestampMs);
    const from = logEndOffset(log);
    for (const rec of part.records) {
      const offset = append(log, rec);
      trackProducer(mem, rec, offset);
    }
    trailAppend(w.trail, mem.key, node.id, from, logEndOffset(log), w.nowMs, false);
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
  trailTruncation(w.trail, mem.key, {
    nodeId: node.id,
    atMs: w.nowMs,
    eventSeq: w.eventSeq - 1,
    fromOffset: offset + removed.length,
    toOffset: offset,
    records: removed,
  });
}
