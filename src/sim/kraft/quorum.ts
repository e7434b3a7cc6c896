// KRaft: controllers are Raft voters (KIP-595) with pre-vote (KIP-996); brokers follow the
// metadata log __cluster_metadata as observers. This file is the voters' states (unattached,
// prospective, candidate, follower, leader), their elections and the quorum's RPCs; the log's
// fetch-based replication and its commit on a majority are in raftLog.ts.

import { emit, nextReqId, reply, send, setNodeTimer } from '../kernel/kernel';
import {
  append,
  endOffsetForEpoch,
  latestEpoch,
  logEndOffset,
  truncateTo,
  UNDEFINED_EPOCH,
} from '../model/log';
import type { MessageOf } from '../model/messages';
import { emptyImage } from '../model/metadata';
import { nextInt } from '../kernel/rng';
import type { RaftMem, SimNode, World } from '../model/world';
import type { NodeId } from '../model/types';
import {
  RAFT_FETCH_MAX_WAIT_MS,
  answerFetch,
  applyCommitted,
  fetchMetadata,
  majority,
  maybeAdvanceHighWatermark,
  quorumListener,
} from './raftLog';

function electionTimeoutMs(w: World): number {
  return Number(w.config['controller.quorum.election.timeout.ms']);
}

function fetchTimeoutMs(w: World): number {
  return Number(w.config['controller.quorum.fetch.timeout.ms']);
}

function isVoter(w: World, id: NodeId): boolean {
  return w.voterIds.includes(id);
}

export function newRaftMem(role: RaftMem['role']): RaftMem {
  return {
    role,
    leaderId: null,
    highWatermark: 0,
    votes: [],
    rejections: [],
    electionToken: 0,
    fetchToken: 0,
    fetchInFlight: false,
    fetchReqId: 0,
    lostLeaderId: null,
    lastFetchOkMs: -Infinity,
    progress: new Map(),
    parked: new Map(),
    sentHighWatermark: new Map(),
    nextVoterIdx: 0,
    image: emptyImage(),
  };
}

/** A node boots (or restarts): voters start unattached, others observe. */
/** The Raft client's memory is gone at a crash or a stop; its log and vote stay on disk (startRaft reads them). */
export function crashRaft(node: SimNode): void {
  node.raft = null;
}

export function startRaft(w: World, node: SimNode): void {
  const voter = isVoter(w, node.id);
  node.raft = newRaftMem(voter ? 'unattached' : 'observer');
  if (voter) armElectionTimer(w, node);
  else fetchMetadata(w, node);
}

function randomElectionDelay(w: World): number {
  const t = electionTimeoutMs(w);
  return t + nextInt(w.rng, t); // randomized in [timeout, 2 × timeout)
}

function armElectionTimer(w: World, node: SimNode): void {
  node.raft!.electionToken = setNodeTimer(w, node, randomElectionDelay(w), 'raftElection');
}

function setEpoch(node: SimNode, epoch: number, votedFor: NodeId | null): void {
  node.disk.quorumEpoch = epoch;
  node.disk.votedFor = votedFor;
}

function logIsUpToDate(node: SimNode, lastEpoch: number, lastOffset: number): boolean {
  const mine = latestEpoch(node.disk.metaLog);
  const myEnd = logEndOffset(node.disk.metaLog);
  return lastEpoch > mine || (lastEpoch === mine && lastOffset >= myEnd);
}

function leaveLeadership(w: World, node: SimNode): void {
  if (node.raft!.role === 'leader') quorumListener().lostLeadership(w, node);
}

function becomeUnattached(w: World, node: SimNode, epoch: number): void {
  leaveLeadership(w, node);
  const r = node.raft!;
  if (epoch > node.disk.quorumEpoch) setEpoch(node, epoch, null);
  r.role = 'unattached';
  r.leaderId = null;
  r.lostLeaderId = null;
  r.votes = [];
  r.rejections = [];
  armElectionTimer(w, node);
}

function becomeFollower(w: World, node: SimNode, epoch: number, leaderId: NodeId): void {
  leaveLeadership(w, node);
  const r = node.raft!;
  const changed = r.role !== 'follower' || r.leaderId !== leaderId || node.disk.quorumEpoch !== epoch;
  if (epoch > node.disk.quorumEpoch)
    setEpoch(node, epoch, node.disk.votedFor === null ? null : node.disk.votedFor);
  if (node.disk.quorumEpoch !== epoch) setEpoch(node, epoch, null);
  r.role = 'follower';
  r.leaderId = leaderId;
  r.electionToken = 0;
  // KAFKA-17641: a follower that has not fetched from its leader yet grants pre-votes, or two
  // voters that each learned of a dead leader from the other would keep reviving it.
  r.lastFetchOkMs = -Infinity;
  if (changed)
    emit(
      w,
      'ControllerFollowing',
      `Controller ${node.id} follows controller ${leaderId} in epoch ${epoch}.`,
      {
        nodeId: node.id,
        epoch,
        leaderId,
      },
    );
  armFetchTimeout(w, node);
  fetchMetadata(w, node);
}

function armFetchTimeout(w: World, node: SimNode): void {
  node.raft!.electionToken = setNodeTimer(w, node, fetchTimeoutMs(w), 'raftFetchTimeout');
}

/** KIP-996: ask first, without bumping the epoch, whether a majority would vote. */
function becomeProspective(w: World, node: SimNode): void {
  leaveLeadership(w, node);
  const r = node.raft!;
  // Remember the leader we gave up on: a peer naming it again is no reason to follow it back.
  if (r.role === 'follower') r.lostLeaderId = r.leaderId;
  r.role = 'prospective';
  r.leaderId = null;
  r.votes = [node.id];
  r.rejections = [];
  armElectionTimer(w, node);
  requestVotes(w, node, true);
  maybeWinVote(w, node);
}

/**
 * KIP-996 (ProspectiveState): a lost pre-vote round (a majority rejected, or the election timed out)
 * goes back to following the leader it knew in this epoch, which it then fetches from again; without
 * one it waits unattached for an election timeout before it asks again. A prospective that asked
 * again forever would stay outside a quorum that works.
 */
function afterPreVoteLoss(w: World, node: SimNode): void {
  const r = node.raft!;
  if (r.lostLeaderId !== null && r.lostLeaderId !== node.id)
    becomeFollower(w, node, node.disk.quorumEpoch, r.lostLeaderId);
  else becomeUnattached(w, node, node.disk.quorumEpoch);
}

function becomeCandidate(w: World, node: SimNode): void {
  const r = node.raft!;
  setEpoch(node, node.disk.quorumEpoch + 1, node.id);
  r.role = 'candidate';
  r.lostLeaderId = null; // a new epoch: the old leader is no one to go back to
  r.votes = [node.id];
  r.rejections = [];
  emit(
    w,
    'VoteRequested',
    `Controller ${node.id} asks for votes to lead epoch ${node.disk.quorumEpoch} (Raft election, KIP-595).`,
    { nodeId: node.id, epoch: node.disk.quorumEpoch },
  );
  armElectionTimer(w, node);
  requestVotes(w, node, false);
  maybeWinVote(w, node);
}

function requestVotes(w: World, node: SimNode, preVote: boolean): void {
  const log = node.disk.metaLog;
  for (const v of w.voterIds) {
    if (v === node.id) continue;
    send(
      w,
      node.id,
      v,
      {
        kind: 'Vote',
        epoch: preVote ? node.disk.quorumEpoch + 1 : node.disk.quorumEpoch,
        candidateId: node.id,
        lastEpoch: latestEpoch(log),
        lastOffset: logEndOffset(log),
        preVote,
      },
      nextReqId(w),
    );
  }
}

function maybeWinVote(w: World, node: SimNode): void {
  const r = node.raft!;
  if (r.votes.length < majority(w)) return;
  if (r.role === 'prospective') becomeCandidate(w, node);
  else if (r.role === 'candidate') becomeLeader(w, node);
}

function becomeLeader(w: World, node: SimNode): void {
  const r = node.raft!;
  const epoch = node.disk.quorumEpoch;
  r.role = 'leader';
  r.leaderId = node.id;
  r.electionToken = 0;
  r.progress = new Map(w.voterIds.map((v) => [v, { endOffset: -1, lastFetchMs: w.nowMs }]));
  r.parked = new Map();
  r.sentHighWatermark = new Map();
  // KRaft appends a LeaderChangeMessage: committing it commits everything before it.
  const offset = append(node.disk.metaLog, {
    epoch,
    record: { type: 'LeaderChangeMessage', leaderId: node.id, voters: [...w.voterIds] },
  });
  r.progress.get(node.id)!.endOffset = logEndOffset(node.disk.metaLog);
  emit(w, 'ControllerElected', `Controller ${node.id} won the vote: it leads the quorum in epoch ${epoch}.`, {
    nodeId: node.id,
    epoch,
  });
  for (const v of w.voterIds)
    if (v !== node.id)
      send(w, node.id, v, { kind: 'BeginQuorumEpoch', epoch, leaderId: node.id }, nextReqId(w));
  r.electionToken = setNodeTimer(w, node, fetchTimeoutMs(w) / 2, 'raftCheckQuorum');
  quorumListener().becameLeader(w, node, offset);
  maybeAdvanceHighWatermark(w, node);
}

export function onRaftTimer(w: World, node: SimNode, name: string, token: number): void {
  const r = node.raft;
  if (!r) return;
  if (name === 'raftRequestTimeout') {
    if (token !== r.fetchToken || !r.fetchInFlight) return;
    r.fetchInFlight = false;
    // A request that got no answer: an observer forgets that leader and asks the next voter. The end
    // of a backoff after an error (fetchReqId 0) keeps the leader the error named.
    if (r.role === 'observer' && r.fetchReqId !== 0) {
      r.leaderId = null;
      r.nextVoterIdx++;
    }
    fetchMetadata(w, node);
    return;
  }
  if (token !== r.electionToken) return;
  if (name === 'raftCheckQuorum' && r.role === 'leader') {
    const horizon = w.nowMs - 1.5 * fetchTimeoutMs(w);
    let heard = 0;
    for (const [v, p] of r.progress) if (v === node.id || p.lastFetchMs >= horizon) heard++;
    if (heard < majority(w)) {
      emit(
        w,
        'ControllerResigned',
        `Controller ${node.id} heard from no majority for ${1.5 * fetchTimeoutMs(w)} ms: it resigns leadership of epoch ${node.disk.quorumEpoch}.`,
        { nodeId: node.id, epoch: node.disk.quorumEpoch },
      );
      leaveLeadership(w, node);
      r.role = 'resigned';
      r.leaderId = null;
      armElectionTimer(w, node);
      return;
    }
    r.electionToken = setNodeTimer(w, node, fetchTimeoutMs(w) / 2, 'raftCheckQuorum');
    return;
  }
  if (name === 'raftFetchTimeout' && r.role === 'follower') {
    emit(
      w,
      'ControllerLeaderLost',
      `Controller ${node.id} has not fetched from leader ${r.leaderId} for ${fetchTimeoutMs(w)} ms (controller.quorum.fetch.timeout.ms).`,
      { nodeId: node.id, epoch: node.disk.quorumEpoch },
    );
    becomeProspective(w, node);
    return;
  }
  if (name === 'raftElection') {
    if (r.role === 'prospective') afterPreVoteLoss(w, node);
    else if (r.role === 'unattached' || r.role === 'resigned' || r.role === 'candidate')
      becomeProspective(w, node);
  }
}

/** Vote (and the pre-vote of KIP-996) at a voter: KafkaRaftClient.handleVoteRequest. */
export function onVote(w: World, node: SimNode, msg: MessageOf<'Vote'>): void {
  const r = node.raft!;
  const b = msg.body;
  if (!isVoter(w, node.id)) return;
  const myEpoch = node.disk.quorumEpoch;
  if (b.preVote) {
    // Reject while a live leader is known: that is what stops a disruptive returning node.
    const leaderAlive =
      r.role === 'leader' || (r.role === 'follower' && w.nowMs - r.lastFetchOkMs < fetchTimeoutMs(w));
    const granted = b.epoch > myEpoch && !leaderAlive && logIsUpToDate(node, b.lastEpoch, b.lastOffset);
    reply(w, msg, { kind: 'VoteResponse', epoch: myEpoch, granted, preVote: true, leaderId: r.leaderId });
    return;
  }
  if (b.epoch > myEpoch) becomeUnattached(w, node, b.epoch);
  const epoch = node.disk.quorumEpoch;
  const canVote =
    r.role === 'unattached' ||
    r.role === 'prospective' ||
    r.role === 'resigned' ||
    (r.role === 'candidate' && node.disk.votedFor === b.candidateId);
  const granted =
    b.epoch === epoch &&
    canVote &&
    (node.disk.votedFor === null || node.disk.votedFor === b.candidateId) &&
    logIsUpToDate(node, b.lastEpoch, b.lastOffset);
  if (granted) {
    node.disk.votedFor = b.candidateId;
    armElectionTimer(w, node);
  }
  reply(w, msg, { kind: 'VoteResponse', epoch, granted, preVote: false, leaderId: r.leaderId });
}

/** KafkaRaftClient.handleVoteResponse: a prospective or candidate counts the answer. */
export function onVoteResponse(w: World, node: SimNode, msg: MessageOf<'VoteResponse'>): void {
  const r = node.raft!;
  const b = msg.body;
  const from = msg.from as NodeId;
  if (b.epoch > node.disk.quorumEpoch) {
    if (b.leaderId !== null) becomeFollower(w, node, b.epoch, b.leaderId);
    else becomeUnattached(w, node, b.epoch);
    return;
  }
  if (
    b.leaderId !== null &&
    b.epoch === node.disk.quorumEpoch &&
    b.leaderId !== node.id &&
    b.leaderId !== r.lostLeaderId &&
    r.role === 'prospective'
  ) {
    becomeFollower(w, node, b.epoch, b.leaderId);
    return;
  }
  const want = b.preVote ? 'prospective' : 'candidate';
  if (r.role !== want) return;
  if (!b.preVote && b.epoch !== node.disk.quorumEpoch) return;
  if (b.granted) {
    if (!r.votes.includes(from)) r.votes.push(from);
    maybeWinVote(w, node);
  } else if (!r.rejections.includes(from)) {
    r.rejections.push(from);
    if (r.role === 'prospective' && r.rejections.length >= majority(w)) afterPreVoteLoss(w, node);
  }
}

/** KafkaRaftClient.handleBeginQuorumEpochRequest: a new leader announces itself. */
export function onBeginQuorumEpoch(w: World, node: SimNode, msg: MessageOf<'BeginQuorumEpoch'>): void {
  const r = node.raft!;
  const b = msg.body;
  if (b.epoch < node.disk.quorumEpoch) return;
  if (b.epoch === node.disk.quorumEpoch && r.role === 'follower' && r.leaderId === b.leaderId) return;
  if (r.role === 'observer') {
    r.leaderId = b.leaderId;
    return;
  }
  becomeFollower(w, node, b.epoch, b.leaderId);
}

/** KafkaRaftClient.handleFetchRequest on the leader (and its refusals elsewhere). */
export function onRaftFetch(w: World, node: SimNode, msg: MessageOf<'RaftFetch'>): void {
  const b = msg.body;
  const r = node.raft!;
  const epoch = node.disk.quorumEpoch;
  if (r.role !== 'leader') {
    if (b.epoch > epoch && isVoter(w, node.id)) becomeUnattached(w, node, b.epoch);
    reply(w, msg, {
      kind: 'RaftFetchResponse',
      epoch: node.disk.quorumEpoch,
      leaderId: r.leaderId,
      error: 'NOT_LEADER_OR_FOLLOWER',
      entries: [],
      highWatermark: -1,
    });
    return;
  }
  if (b.epoch > epoch) {
    becomeUnattached(w, node, b.epoch);
    return;
  }
  if (b.epoch < epoch && isVoter(w, b.replicaId)) {
    reply(w, msg, {
      kind: 'RaftFetchResponse',
      epoch,
      leaderId: node.id,
      error: 'FENCED_LEADER_EPOCH',
      entries: [],
      highWatermark: -1,
    });
    return;
  }
  const log = node.disk.metaLog;
  if (b.lastFetchedEpoch !== UNDEFINED_EPOCH && b.fetchOffset > 0) {
    const d = endOffsetForEpoch(log, b.lastFetchedEpoch);
    if (d.epoch < b.lastFetchedEpoch || d.endOffset < b.fetchOffset) {
      reply(w, msg, {
        kind: 'RaftFetchResponse',
        epoch,
        leaderId: node.id,
        entries: [],
        highWatermark: r.highWatermark,
        divergingEpoch: d,
      });
      return;
    }
  }
  const progress = r.progress.get(b.replicaId);
  if (progress) {
    progress.endOffset = b.fetchOffset;
    progress.lastFetchMs = w.nowMs;
    maybeAdvanceHighWatermark(w, node);
  }
  // Long-poll only when there is nothing new for this fetcher: no entries and no newer HW.
  if (b.fetchOffset >= logEndOffset(log) && (r.sentHighWatermark.get(msg.from) ?? -1) >= r.highWatermark) {
    const token = setNodeTimer(w, node, RAFT_FETCH_MAX_WAIT_MS, 'raftParkExpire', String(msg.from));
    r.parked.set(msg.from, { msg, token });
    return;
  }
  answerFetch(w, node, msg);
}

/** KafkaRaftClient.handleFetchResponse at a follower or an observer. */
export function onRaftFetchResponse(w: World, node: SimNode, msg: MessageOf<'RaftFetchResponse'>): void {
  const b = msg.body;
  const r = node.raft!;
  // Only the answer to the fetch in flight counts (KafkaRaftClient: isResponseExpected).
  if (!r.fetchInFlight || msg.reqId !== r.fetchReqId) return;
  r.fetchInFlight = false;
  r.fetchToken = 0;
  const observer = r.role === 'observer';
  if (b.epoch > node.disk.quorumEpoch) {
    if (observer) node.disk.quorumEpoch = b.epoch;
    else if (b.leaderId !== null) becomeFollower(w, node, b.epoch, b.leaderId);
    else becomeUnattached(w, node, b.epoch);
  }
  if (b.error) {
    if (observer) {
      r.leaderId = b.leaderId !== null && b.leaderId !== msg.from ? b.leaderId : null;
      if (r.leaderId === null) r.nextVoterIdx++;
      // Back off a little before asking again, as the raft client does on an error; then ask the
      // leader the voter named. (fetchReqId 0: no request out, only the backoff.)
      r.fetchInFlight = true;
      r.fetchReqId = 0;
      r.fetchToken = setNodeTimer(w, node, 100, 'raftRequestTimeout');
    }
    return;
  }
  if (observer) r.leaderId = msg.from as NodeId;
  if (r.role === 'follower' || observer) {
    if (r.role === 'follower' && r.leaderId !== msg.from) return;
    r.lastFetchOkMs = w.nowMs;
    if (r.role === 'follower') armFetchTimeout(w, node);
    const log = node.disk.metaLog;
    if (b.divergingEpoch) {
      const mine = endOffsetForEpoch(log, b.divergingEpoch.epoch);
      const to =
        mine.epoch === b.divergingEpoch.epoch
          ? Math.min(mine.endOffset, b.divergingEpoch.endOffset)
          : Math.min(b.divergingEpoch.endOffset, logEndOffset(log));
      const removed = truncateTo(log, Math.max(to, r.highWatermark));
      if (removed.length)
        emit(
          w,
          'MetadataLogTruncated',
          `Node ${node.id} truncated ${removed.length} uncommitted metadata record(s) that diverged from the leader's log.`,
          { nodeId: node.id },
        );
    } else {
      for (const e of b.entries) append(log, e);
      const hw = Math.min(b.highWatermark, logEndOffset(log));
      if (hw > r.highWatermark) {
        r.highWatermark = hw;
        applyCommitted(w, node);
      }
    }
    fetchMetadata(w, node);
  }
}

export function raftStateOf(node: SimNode): RaftMem['role'] | 'offline' {
  return node.state === 'running' && node.raft ? node.raft.role : 'offline';
}
