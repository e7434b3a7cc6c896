// The replicated metadata log of the KRaft quorum (KafkaRaftClient, LeaderState): the leader's
// appends, the high watermark once a majority of voters has an entry of the leader's epoch, the
// fetches parked at the leader until there is something new, an observer's or follower's Fetch,
// and the committed records applied to the node's image and handed to the QuorumListener.

import { nextReqId, reply, send, setNodeTimer } from '../kernel/kernel';
import { append, entryAt, latestEpoch, logEndOffset, slice } from '../model/log';
import type { MessageOf } from '../model/messages';
import type { MetaRecord } from '../model/metadata';
import { applyRecord } from '../model/metadata';
import type { SimNode, World } from '../model/world';

/** KafkaRaftClient's fetch max wait: how long the leader parks a fetch with nothing new. */
export const RAFT_FETCH_MAX_WAIT_MS = 500;

const REQUEST_TIMEOUT_MS = 2000; // controller.quorum.request.timeout.ms

/**
 * What the quorum tells the layers above it, so that it never imports them: the controller learns
 * that this voter leads or no longer leads, and the controller and the broker learn which metadata
 * records this node applied (Kafka's RaftClient.Listener: handleLeaderChange, handleCommit). The
 * Simulation's dispatcher (dispatch.ts) installs the one listener when the engine loads.
 */
export interface QuorumListener {
  becameLeader(w: World, node: SimNode, leaderChangeOffset: number): void;
  lostLeadership(w: World, node: SimNode): void;
  committed(w: World, node: SimNode, applied: MetaRecord[]): void;
}

let listener: QuorumListener | null = null;

export function setQuorumListener(l: QuorumListener): void {
  listener = l;
}

export function quorumListener(): QuorumListener {
  if (!listener) throw new Error('No quorum listener: the Simulation (dispatch.ts) installs it.');
  return listener;
}

export function majority(w: World): number {
  return (w.voterIds.length >> 1) + 1;
}

/** The active controller appends records; they commit when a majority has fetched them. */
export function appendAsLeader(w: World, node: SimNode, records: MetaRecord[]): number {
  const r = node.raft!;
  let last = -1;
  for (const record of records) last = append(node.disk.metaLog, { epoch: node.disk.quorumEpoch, record });
  r.progress.get(node.id)!.endOffset = logEndOffset(node.disk.metaLog);
  completeParkedFetches(w, node);
  maybeAdvanceHighWatermark(w, node);
  return last;
}

export function answerFetch(w: World, node: SimNode, msg: MessageOf<'RaftFetch'>): void {
  const b = msg.body;
  const r = node.raft!;
  const log = node.disk.metaLog;
  const entries = slice(log, b.fetchOffset, Math.min(logEndOffset(log), b.fetchOffset + 2000));
  r.sentHighWatermark.set(msg.from, r.highWatermark);
  reply(w, msg, {
    kind: 'RaftFetchResponse',
    epoch: node.disk.quorumEpoch,
    leaderId: node.id,
    entries,
    highWatermark: r.highWatermark,
  });
}

/** The long poll ran out: answer with whatever there is (nothing new). */
export function onParkedRaftFetchExpired(w: World, node: SimNode, key: string, token: number): void {
  const r = node.raft;
  if (!r) return;
  for (const [addr, p] of r.parked) {
    if (String(addr) === key && p.token === token) {
      r.parked.delete(addr);
      if (r.role === 'leader') answerFetch(w, node, p.msg);
    }
  }
}

function completeParkedFetches(w: World, node: SimNode): void {
  const r = node.raft!;
  if (r.parked.size === 0) return;
  const parked = [...r.parked.values()];
  r.parked.clear();
  for (const p of parked) answerFetch(w, node, p.msg);
}

export function maybeAdvanceHighWatermark(w: World, node: SimNode): void {
  const r = node.raft!;
  const offsets = w.voterIds.map((v) => r.progress.get(v)?.endOffset ?? -1).sort((a, b) => b - a);
  const n = offsets[majority(w) - 1]!;
  if (n <= r.highWatermark) return;
  // Raft: only an entry of the leader's own epoch commits by counting replicas.
  if (entryAt(node.disk.metaLog, n - 1)?.epoch !== node.disk.quorumEpoch) return;
  r.highWatermark = n;
  applyCommitted(w, node);
  completeParkedFetches(w, node);
}

/** Sends the next metadata fetch, to the leader (or, for an observer that knows none, a voter in turn). */
export function fetchMetadata(w: World, node: SimNode): void {
  const r = node.raft!;
  if (r.fetchInFlight || r.role === 'leader') return;
  let target = r.leaderId;
  if (target === null) {
    if (r.role !== 'observer') return;
    target = w.voterIds[r.nextVoterIdx % w.voterIds.length]!;
  }
  const log = node.disk.metaLog;
  r.fetchInFlight = true;
  r.fetchReqId = nextReqId(w);
  r.fetchToken = setNodeTimer(w, node, REQUEST_TIMEOUT_MS, 'raftRequestTimeout');
  send(
    w,
    node.id,
    target,
    {
      kind: 'RaftFetch',
      epoch: node.disk.quorumEpoch,
      replicaId: node.id,
      fetchOffset: logEndOffset(log),
      lastFetchedEpoch: latestEpoch(log),
    },
    r.fetchReqId,
  );
}

/** Applies committed records in order to this node's image, then hands them to the listener (the controller, the broker). */
export function applyCommitted(w: World, node: SimNode): void {
  const r = node.raft!;
  const log = node.disk.metaLog;
  const from = r.image.offset + 1;
  if (from >= r.highWatermark) return;
  const applied: MetaRecord[] = [];
  for (let off = from; off < r.highWatermark; off++) {
    const e = entryAt(log, off);
    if (!e) break;
    applyRecord(r.image, off, e.record);
    applied.push(e.record);
  }
  quorumListener().committed(w, node, applied);
}
