// The classic group coordinator on the brokers (GroupCoordinator / GroupMetadataManager): the
// leader of __consumer_offsets partition abs(hash(groupId)) % N coordinates the group. It runs the
// JoinGroup / SyncGroup rebalance, expires silent members after session.timeout.ms, and stores
// committed offsets and the group's assignment as records in that partition, so a new leader of
// the partition loads them from its replica of the log after a failover.

import { authorizationError } from '../broker/acl';
import type { GroupStore } from './consumerGroup';
import {
  convertToClassicGroup,
  dropMember,
  expireConsumerMembers,
  offsetCommitError,
  onConsumerGroupHeartbeat,
} from './consumerGroup';
import { activeController } from '../kraft/quorumController';
import { createTopic } from '../kraft/replicationControl';
import { javaStringHashCode } from '../kernel/javaHash';
import { armNodeDeadline, emit, nextReqId, reply, send } from '../kernel/kernel';
import { entryAt, logEndOffset } from '../model/log';
import type { CommittedOffset, GroupRequest, Message, TopicPartition } from '../model/messages';
import { tpKey } from '../model/metadata';
import { coordinatorMem } from '../model/coordinatorMem';
import { nextUint32 } from '../kernel/rng';
import type { CoordinatorMem, GroupMem, GroupMember, SimNode, World } from '../model/world';
import type { NodeId } from '../model/types';

export const OFFSETS_TOPIC = '__consumer_offsets';
/** group.initial.rebalance.delay.ms (GroupCoordinatorConfig default). */
const INITIAL_REBALANCE_DELAY_MS = 3000;
/** offsets.commit.timeout.ms (GroupCoordinatorConfig default). */
const OFFSETS_COMMIT_TIMEOUT_MS = 5000;

/** GroupCoordinator.partitionFor: Utils.abs(groupId.hashCode) % offsets.topic.num.partitions. */
export function offsetsPartitionFor(groupId: string, numPartitions: number): number {
  const h = javaStringHashCode(groupId);
  return (h === -2147483648 ? 0 : Math.abs(h)) % numPartitions;
}

/** The partition count of __consumer_offsets as a broker sees it (the config until it exists). */
export function offsetsPartitionCount(w: World, node: SimNode | null): number {
  const t = node?.raft?.image.topics.get(OFFSETS_TOPIC);
  return t ? t.partitions : Number(w.config['offsets.topic.num.partitions']);
}

/** The __consumer_offsets partition ("topic-partition") that holds the group, as this broker sees the topic. */
function groupTp(w: World, node: SimNode, groupId: string): string {
  return tpKey(OFFSETS_TOPIC, offsetsPartitionFor(groupId, offsetsPartitionCount(w, node)));
}

// ---- FindCoordinator -------------------------------------------------------------------------

export function onFindCoordinator(w: World, node: SimNode, msg: Message): void {
  const b = msg.body;
  if (b.kind !== 'FindCoordinator') return;
  const img = node.raft!.image;
  const answer = (error: string | undefined, nodeId: NodeId) =>
    reply(w, msg, { kind: 'FindCoordinatorResponse', groupId: b.groupId, error, nodeId });
  if (!img.topics.has(OFFSETS_TOPIC)) {
    // Kafka creates __consumer_offsets on the first FindCoordinator (auto topic creation).
    maybeCreateOffsetsTopic(w, node);
    return answer('COORDINATOR_NOT_AVAILABLE', -1);
  }
  const state = img.partitions.get(groupTp(w, node, b.groupId));
  if (!state || state.leader < 0) return answer('COORDINATOR_NOT_AVAILABLE', -1);
  answer(undefined, state.leader);
}

function maybeCreateOffsetsTopic(w: World, node: SimNode): void {
  const ctl = activeController(w);
  if (!ctl || ctl.controller!.work!.topics.has(OFFSETS_TOPIC)) return;
  const rf = Number(w.config['offsets.topic.replication.factor']);
  const partitions = Number(w.config['offsets.topic.num.partitions']);
  const alive = [...ctl.controller!.work!.brokers.values()].filter((x) => !x.fenced).length;
  const cm = coordinatorMem(w, node);
  if (alive < rf) {
    if (w.nowMs - cm.offsetsTopicWarnedAtMs < 30000) return;
    cm.offsetsTopicWarnedAtMs = w.nowMs;
    // AutoTopicCreationManager: the offsets topic waits for enough brokers.
    emit(
      w,
      'OffsetsTopicNotCreated',
      `Number of alive brokers '${alive}' does not meet the required replication factor '${rf}' for the offsets topic (configured via 'offsets.topic.replication.factor'). Consumers get COORDINATOR_NOT_AVAILABLE until enough brokers are up.`,
      { nodeId: node.id, topic: OFFSETS_TOPIC },
    );
    return;
  }
  const error = createTopic(w, ctl, {
    name: OFFSETS_TOPIC,
    partitions,
    replicationFactor: rf,
    config: { 'cleanup.policy': 'compact' },
  });
  if (error) emit(w, 'OffsetsTopicNotCreated', `${OFFSETS_TOPIC} could not be created: ${error}`, { error });
}

// ---- the group requests -----------------------------------------------------------------------

/** JoinGroup, SyncGroup, Heartbeat, LeaveGroup, OffsetCommit, OffsetFetch at the coordinator. */
export function onGroupRequest(w: World, node: SimNode, msg: Message): void {
  const b = msg.body as GroupRequest;
  const fail = (error: string) => reply(w, msg, errorResponse(b, error));
  if (typeof msg.from === 'string' && authorizationError(w, msg.from, 'Read', 'group', b.groupId))
    return fail('GROUP_AUTHORIZATION_FAILED');
  const g = groupAt(w, node, b.groupId);
  if (!g) return fail('NOT_COORDINATOR');
  if (g.type === 'consumer')
    switch (b.kind) {
      case 'JoinGroup':
        // classicGroupJoin: a non-empty consumer group does not take classic members here (in Kafka 4.0,
        // classicGroupJoinToConsumerGroup would; not simulated, see docs/engine.md); an empty one becomes classic.
        if (g.members.size > 0) return fail('INCONSISTENT_GROUP_PROTOCOL');
        convertToClassicGroup(g);
        break;
      case 'SyncGroup':
      case 'Heartbeat':
      case 'LeaveGroup':
        return fail('UNKNOWN_MEMBER_ID');
    }
  switch (b.kind) {
    case 'ConsumerGroupHeartbeat':
      return onConsumerGroupHeartbeat(w, node, g, msg, b, GROUP_STORE);
    case 'JoinGroup':
      return onJoinGroup(w, node, g, msg, b);
    case 'SyncGroup':
      return onSyncGroup(w, node, g, msg, b);
    case 'Heartbeat': {
      const m = g.members.get(b.memberId);
      if (!m) return fail('UNKNOWN_MEMBER_ID');
      if (b.generation !== g.generation) return fail('ILLEGAL_GENERATION');
      m.expiresAtMs = w.nowMs + m.sessionTimeoutMs;
      armGroupTimer(w, node, g);
      return reply(w, msg, {
        kind: 'HeartbeatResponse',
        groupId: g.groupId,
        error: g.state === 'PreparingRebalance' ? 'REBALANCE_IN_PROGRESS' : undefined,
      });
    }
    case 'LeaveGroup': {
      const m = g.members.get(b.memberId);
      if (!m) return fail('UNKNOWN_MEMBER_ID');
      reply(w, msg, { kind: 'LeaveGroupResponse', groupId: g.groupId });
      removeMember(w, node, g, m, 'MemberLeft', `${m.clientId} left group ${g.groupId} (LeaveGroup)`);
      return;
    }
    case 'OffsetCommit':
      return onOffsetCommit(w, node, g, msg, b);
    case 'OffsetFetch':
      return reply(w, msg, {
        kind: 'OffsetFetchResponse',
        groupId: g.groupId,
        offsets: b.partitions.map((tp) => {
          const c = g.offsets.get(tpKey(tp.topic, tp.partition));
          return { ...tp, offset: c ? c.offset : -1, leaderEpoch: c ? c.leaderEpoch : -1 };
        }),
      });
  }
}

function errorResponse(b: GroupRequest, error: string): Message['body'] {
  switch (b.kind) {
    case 'JoinGroup':
      return {
        kind: 'JoinGroupResponse',
        groupId: b.groupId,
        error,
        memberId: b.memberId,
        generation: -1,
        protocol: '',
        leaderId: '',
        members: [],
      };
    case 'SyncGroup':
      return { kind: 'SyncGroupResponse', groupId: b.groupId, error, partitions: [] };
    case 'Heartbeat':
      return { kind: 'HeartbeatResponse', groupId: b.groupId, error };
    case 'LeaveGroup':
      return { kind: 'LeaveGroupResponse', groupId: b.groupId, error };
    case 'OffsetCommit':
      return { kind: 'OffsetCommitResponse', groupId: b.groupId, error, offsets: b.offsets };
    case 'OffsetFetch':
      return { kind: 'OffsetFetchResponse', groupId: b.groupId, error, offsets: [] };
    case 'ConsumerGroupHeartbeat':
      return {
        kind: 'ConsumerGroupHeartbeatResponse',
        groupId: b.groupId,
        error,
        memberId: b.memberId,
        memberEpoch: -1,
        heartbeatIntervalMs: 0,
        assignment: null,
      };
  }
}

/** The group, if this broker leads its __consumer_offsets partition; loaded from the log when it just became leader. */
function groupAt(w: World, node: SimNode, groupId: string): GroupMem | null {
  const tp = groupTp(w, node, groupId);
  const mem = node.broker?.replicas.get(tp);
  const cm = coordinatorMem(w, node);
  if (!mem || mem.role !== 'leader') {
    cm.groups.delete(groupId); // unloaded: another broker coordinates it now
    return null;
  }
  const g = cm.groups.get(groupId);
  if (g && g.loadedEpoch === mem.leaderEpoch) return g;
  return loadGroup(w, node, cm, groupId, tp, mem.leaderEpoch, !!g);
}

const offsetKey = (groupId: string, topic: string, partition: number) =>
  JSON.stringify(['offset', groupId, topic, partition]);
const groupKey = (groupId: string) => JSON.stringify(['group', groupId]);

interface GroupRecord {
  generation: number;
  protocol: string;
  leaderId: string | null;
  members: ({
    memberId: string;
    clientId: string;
    sessionTimeoutMs: number;
    rebalanceTimeoutMs: number;
    protocols: string[];
    topics: string[];
    assignment: TopicPartition[];
  } & KipMemberRecord)[];
  /** KIP-848 groups only (Kafka writes ConsumerGroupMetadata, TargetAssignment, CurrentMemberAssignment records). */
  type?: 'consumer';
  groupEpoch?: number;
  assignmentEpoch?: number;
  subscriptionMetadata?: string;
}

type KipMemberRecord = Pick<
  GroupMember,
  'memberEpoch' | 'previousMemberEpoch' | 'memberState' | 'pendingRevocation' | 'target' | 'serverAssignor'
>;

/** GroupMetadataManager.loadGroupsAndOffsets: replays the group's records from this replica's log. */
function loadGroup(
  w: World,
  node: SimNode,
  cm: CoordinatorMem,
  groupId: string,
  tp: string,
  epoch: number,
  reloaded: boolean,
): GroupMem {
  const g: GroupMem = {
    groupId,
    loadedEpoch: epoch,
    state: 'Empty',
    generation: 0,
    protocol: '',
    leaderId: null,
    members: new Map(),
    offsets: new Map(),
    joinDeadlineMs: 0,
    initialDelay: false,
    timer: { dueMs: -1, token: 0 },
    nextMemberSeq: 0,
  };
  const log = node.disk.partitions.get(tp)?.log;
  const gk = groupKey(groupId);
  const prefix = JSON.stringify(['offset', groupId]).slice(0, -1) + ',';
  let meta: GroupRecord | null = null;
  if (log) {
    for (let off = log.logStartOffset; off < logEndOffset(log); off++) {
      const r = entryAt(log, off)!;
      if (r.key === gk) meta = JSON.parse(r.value) as GroupRecord;
      else if (r.key !== null && r.key.startsWith(prefix)) {
        const [, , topic, partition] = JSON.parse(r.key) as [string, string, string, number];
        const v = JSON.parse(r.value) as { offset: number; leaderEpoch: number };
        g.offsets.set(tpKey(topic, partition), { topic, partition, ...v });
      }
    }
  }
  if (meta) {
    g.generation = meta.generation;
    g.protocol = meta.protocol;
    g.leaderId = meta.leaderId;
    if (meta.type === 'consumer') {
      g.type = 'consumer';
      g.groupEpoch = meta.groupEpoch;
      g.assignmentEpoch = meta.assignmentEpoch;
      g.subscriptionMetadata = meta.subscriptionMetadata;
    }
    for (const m of meta.members)
      g.members.set(m.memberId, {
        ...(meta.type === 'consumer' ? kipMemberFields(m) : {}),
        memberId: m.memberId,
        clientId: m.clientId,
        protocols: m.protocols,
        subscription: { topics: m.topics, ownedPartitions: [] },
        assignment: m.assignment,
        sessionTimeoutMs: m.sessionTimeoutMs,
        rebalanceTimeoutMs: m.rebalanceTimeoutMs,
        // Loaded members get a fresh session (GroupCoordinator.onElection schedules their expiry).
        expiresAtMs: w.nowMs + m.sessionTimeoutMs,
        pendingJoin: null,
        pendingSync: null,
      });
    g.state = g.members.size ? 'Stable' : 'Empty';
    if (g.type === 'consumer' && g.members.size) {
      const reconciling = [...g.members.values()].some(
        (m) => m.memberState !== 'stable' || m.memberEpoch !== g.assignmentEpoch,
      );
      g.state = g.groupEpoch! > g.assignmentEpoch! ? 'Assigning' : reconciling ? 'Reconciling' : 'Stable';
    }
  }
  cm.groups.set(groupId, g);
  if (reloaded || meta || g.offsets.size)
    emit(
      w,
      'GroupLoaded',
      `Broker ${node.id} now coordinates group ${groupId} (leader of ${tp} at epoch ${epoch}): it loaded ${g.offsets.size} committed offset(s) and ${g.members.size} member(s) from its log.`,
      { nodeId: node.id, groupId, offsets: g.offsets.size, members: g.members.size },
    );
  armGroupTimer(w, node, g);
  return g;
}

function onJoinGroup(
  w: World,
  node: SimNode,
  g: GroupMem,
  msg: Message,
  b: Extract<GroupRequest, { kind: 'JoinGroup' }>,
): void {
  if (b.memberId === '') {
    // KIP-394: a new member first gets its id, then joins with it.
    const hex = nextUint32(w.rng).toString(16).padStart(8, '0');
    const memberId = `${b.clientId}-${hex}`;
    reply(w, msg, { ...(errorResponse(b, 'MEMBER_ID_REQUIRED') as object), memberId } as Message['body']);
    return;
  }
  const common = [...g.members.values()].every((m) => m.protocols.some((p) => b.protocols.includes(p)));
  if (!common) {
    reply(w, msg, errorResponse(b, 'INCONSISTENT_GROUP_PROTOCOL'));
    return;
  }
  let m = g.members.get(b.memberId);
  const isNew = !m;
  if (!m) {
    m = {
      memberId: b.memberId,
      clientId: b.clientId,
      protocols: b.protocols,
      subscription: b.subscription,
      assignment: [],
      sessionTimeoutMs: b.sessionTimeoutMs,
      rebalanceTimeoutMs: b.rebalanceTimeoutMs,
      expiresAtMs: 0,
      pendingJoin: null,
      pendingSync: null,
    };
    g.members.set(b.memberId, m);
    emit(w, 'MemberJoined', `${b.clientId} joins group ${g.groupId} as member ${b.memberId}.`, {
      nodeId: node.id,
      groupId: g.groupId,
      memberId: b.memberId,
      consumerId: b.clientId,
    });
  }
  m.protocols = b.protocols;
  m.subscription = b.subscription;
  m.pendingJoin = msg;
  m.expiresAtMs = w.nowMs + m.sessionTimeoutMs;
  if (g.state !== 'PreparingRebalance')
    prepareRebalance(w, node, g, isNew ? `${b.clientId} joined` : `${b.clientId} rejoined`);
  maybeCompleteJoin(w, node, g);
}

function prepareRebalance(w: World, node: SimNode, g: GroupMem, reason: string): void {
  if (g.state === 'CompletingRebalance')
    for (const m of g.members.values())
      if (m.pendingSync) {
        reply(w, m.pendingSync, errorResponse(m.pendingSync.body as GroupRequest, 'REBALANCE_IN_PROGRESS'));
        m.pendingSync = null;
      }
  g.initialDelay = g.state === 'Empty';
  const rebalanceTimeoutMs = Math.max(0, ...[...g.members.values()].map((m) => m.rebalanceTimeoutMs));
  g.joinDeadlineMs = w.nowMs + (g.initialDelay ? INITIAL_REBALANCE_DELAY_MS : rebalanceTimeoutMs);
  g.state = 'PreparingRebalance';
  emit(
    w,
    'GroupRebalance',
    `Group ${g.groupId} rebalances (${reason}): every member must rejoin (PreparingRebalance, generation ${g.generation}).`,
    { nodeId: node.id, groupId: g.groupId, reason, generation: g.generation },
  );
  armGroupTimer(w, node, g);
}

function maybeCompleteJoin(w: World, node: SimNode, g: GroupMem): void {
  if (g.state !== 'PreparingRebalance') return;
  const all = [...g.members.values()].every((m) => m.pendingJoin);
  if (w.nowMs < g.joinDeadlineMs && (!all || g.initialDelay)) return;
  // Members that did not rejoin within the rebalance timeout are out.
  for (const m of [...g.members.values()])
    if (!m.pendingJoin) {
      g.members.delete(m.memberId);
      emit(
        w,
        'MemberRemoved',
        `${m.clientId} did not rejoin group ${g.groupId} within the rebalance timeout: removed.`,
        { nodeId: node.id, groupId: g.groupId, memberId: m.memberId, consumerId: m.clientId },
      );
    }
  g.generation++;
  if (g.members.size === 0) {
    g.state = 'Empty';
    g.leaderId = null;
    storeGroup(w, node, g);
    return;
  }
  g.protocol = selectProtocol(g);
  if (!g.leaderId || !g.members.has(g.leaderId)) g.leaderId = g.members.keys().next().value!;
  g.state = 'CompletingRebalance';
  const members = [...g.members.values()].map((m) => ({
    memberId: m.memberId,
    subscription: m.subscription,
  }));
  for (const m of g.members.values()) {
    reply(w, m.pendingJoin!, {
      kind: 'JoinGroupResponse',
      groupId: g.groupId,
      memberId: m.memberId,
      generation: g.generation,
      protocol: g.protocol,
      leaderId: g.leaderId,
      members: m.memberId === g.leaderId ? members : [],
    });
    m.pendingJoin = null;
    m.expiresAtMs = w.nowMs + m.sessionTimeoutMs;
  }
  armGroupTimer(w, node, g);
}

/** GenericGroup.selectProtocol: the protocol every member supports with the most first-choice votes. */
function selectProtocol(g: GroupMem): string {
  const members = [...g.members.values()];
  const candidates = members[0]!.protocols.filter((p) => members.every((m) => m.protocols.includes(p)));
  let best = candidates[0]!;
  let bestVotes = -1;
  for (const c of candidates) {
    const votes = members.filter((m) => m.protocols.find((p) => candidates.includes(p)) === c).length;
    if (votes > bestVotes) {
      best = c;
      bestVotes = votes;
    }
  }
  return best;
}

function onSyncGroup(
  w: World,
  node: SimNode,
  g: GroupMem,
  msg: Message,
  b: Extract<GroupRequest, { kind: 'SyncGroup' }>,
): void {
  const m = g.members.get(b.memberId);
  if (!m) return reply(w, msg, errorResponse(b, 'UNKNOWN_MEMBER_ID'));
  if (b.generation !== g.generation) return reply(w, msg, errorResponse(b, 'ILLEGAL_GENERATION'));
  if (g.state === 'PreparingRebalance') return reply(w, msg, errorResponse(b, 'REBALANCE_IN_PROGRESS'));
  if (g.state === 'Stable')
    return reply(w, msg, { kind: 'SyncGroupResponse', groupId: g.groupId, partitions: m.assignment });
  m.pendingSync = msg;
  if (b.memberId !== g.leaderId) return;
  const byMember = new Map(b.assignments.map((a) => [a.memberId, a.partitions]));
  const changes: string[] = [];
  for (const x of g.members.values()) {
    const next = byMember.get(x.memberId) ?? [];
    if (tpList(next) !== tpList(x.assignment)) changes.push(`${x.clientId}: [${tpList(next)}]`);
    x.assignment = next;
  }
  g.state = 'Stable';
  storeGroup(w, node, g);
  emit(
    w,
    'AssignmentChanged',
    `Group ${g.groupId} generation ${g.generation} is Stable with the ${g.protocol} assignor: ${
      changes.length ? changes.join('; ') : 'no partition moved'
    }.`,
    { nodeId: node.id, groupId: g.groupId, generation: g.generation, protocol: g.protocol },
  );
  for (const x of g.members.values())
    if (x.pendingSync) {
      reply(w, x.pendingSync, { kind: 'SyncGroupResponse', groupId: g.groupId, partitions: x.assignment });
      x.pendingSync = null;
    }
}

function tpList(tps: TopicPartition[]): string {
  return tps.map((tp) => `${tp.topic}-${tp.partition}`).join(', ');
}

function removeMember(w: World, node: SimNode, g: GroupMem, m: GroupMember, type: string, why: string): void {
  dropMember(w, node, g, m, type, why);
  if (g.members.size === 0 && g.state !== 'PreparingRebalance') {
    g.generation++;
    g.state = 'Empty';
    g.leaderId = null;
    storeGroup(w, node, g);
    return;
  }
  if (g.state === 'PreparingRebalance') maybeCompleteJoin(w, node, g);
  else prepareRebalance(w, node, g, `${m.clientId} left`);
}

function onOffsetCommit(
  w: World,
  node: SimNode,
  g: GroupMem,
  msg: Message,
  b: Extract<GroupRequest, { kind: 'OffsetCommit' }>,
): void {
  const m = g.members.get(b.memberId);
  if (g.type === 'consumer') {
    // KIP-848: OffsetCommit carries the member epoch in place of the generation.
    const error = offsetCommitError(g, b.memberId, b.generation);
    if (error) return reply(w, msg, errorResponse(b, error));
  } else {
    if (!m) return reply(w, msg, errorResponse(b, 'UNKNOWN_MEMBER_ID'));
    if (b.generation !== g.generation) return reply(w, msg, errorResponse(b, 'ILLEGAL_GENERATION'));
    if (g.state === 'CompletingRebalance') return reply(w, msg, errorResponse(b, 'REBALANCE_IN_PROGRESS'));
    m.expiresAtMs = w.nowMs + m.sessionTimeoutMs;
  }
  const reqId = append(
    w,
    node,
    g,
    b.offsets.map((o) => ({
      key: offsetKey(g.groupId, o.topic, o.partition),
      value: JSON.stringify({ offset: o.offset, leaderEpoch: o.leaderEpoch }),
    })),
  );
  coordinatorMem(w, node).appends.set(reqId, { groupId: g.groupId, request: msg, offsets: b.offsets });
}

function kipMemberFields(m: KipMemberRecord): KipMemberRecord {
  return {
    memberEpoch: m.memberEpoch,
    previousMemberEpoch: m.previousMemberEpoch,
    memberState: m.memberState,
    pendingRevocation: m.pendingRevocation,
    target: m.target,
    serverAssignor: m.serverAssignor,
  };
}

/** Writes the group's membership and assignment (GroupMetadataManager.storeGroup); not awaited. */
function storeGroup(w: World, node: SimNode, g: GroupMem): void {
  const kip = g.type === 'consumer';
  const rec: GroupRecord = {
    generation: g.generation,
    protocol: g.protocol,
    leaderId: g.leaderId,
    members: [...g.members.values()].map((m) => ({
      memberId: m.memberId,
      clientId: m.clientId,
      sessionTimeoutMs: m.sessionTimeoutMs,
      rebalanceTimeoutMs: m.rebalanceTimeoutMs,
      protocols: m.protocols,
      topics: m.subscription.topics,
      assignment: m.assignment,
      ...(kip ? kipMemberFields(m) : {}),
    })),
    ...(kip
      ? {
          type: 'consumer' as const,
          groupEpoch: g.groupEpoch,
          assignmentEpoch: g.assignmentEpoch,
          subscriptionMetadata: g.subscriptionMetadata,
        }
      : {}),
  };
  append(w, node, g, [{ key: groupKey(g.groupId), value: JSON.stringify(rec) }]);
}

/** Appends records to the group's __consumer_offsets partition through the produce path, acks=all. */
function append(w: World, node: SimNode, g: GroupMem, records: { key: string; value: string }[]): number {
  const p = offsetsPartitionFor(g.groupId, offsetsPartitionCount(w, node));
  const reqId = nextReqId(w);
  send(
    w,
    node.id,
    node.id,
    {
      kind: 'Produce',
      topic: OFFSETS_TOPIC,
      partition: p,
      acks: 'all',
      timeoutMs: OFFSETS_COMMIT_TIMEOUT_MS,
      records: records.map((r) => ({
        id: w.nextRecordId++,
        epoch: -1,
        key: r.key,
        value: r.value,
        producerId: `group-coordinator-${node.id}`,
        pid: -1,
        seq: -1,
        timestampMs: w.nowMs,
      })),
    },
    reqId,
  );
  return reqId;
}

/** The append of an OffsetCommit completed (or failed): the commit is answered now. */
export function onCoordinatorAppendResponse(w: World, node: SimNode, msg: Message): void {
  const b = msg.body;
  if (b.kind !== 'ProduceResponse') return;
  const cm = coordinatorMem(w, node);
  const pending = cm.appends.get(msg.reqId);
  if (!pending) return;
  cm.appends.delete(msg.reqId);
  const body = pending.request.body as Extract<GroupRequest, { kind: 'OffsetCommit' }>;
  // GroupMetadataManager.storeOffsets maps the append's error to a coordinator error.
  const error = !b.error
    ? undefined
    : b.error === 'NOT_LEADER_OR_FOLLOWER'
      ? 'NOT_COORDINATOR'
      : 'COORDINATOR_NOT_AVAILABLE';
  const g = cm.groups.get(pending.groupId);
  if (!error && g) for (const o of pending.offsets) g.offsets.set(tpKey(o.topic, o.partition), { ...o });
  reply(w, pending.request, {
    kind: 'OffsetCommitResponse',
    groupId: body.groupId,
    error,
    offsets: pending.offsets as CommittedOffset[],
  });
}

const GROUP_STORE: GroupStore = { store: storeGroup, armTimer: armGroupTimer };

// ---- timers: session expiry and the end of PreparingRebalance ---------------------------------

function armGroupTimer(w: World, node: SimNode, g: GroupMem): void {
  let due = Infinity;
  for (const m of g.members.values())
    if (!(g.state === 'PreparingRebalance' && m.pendingJoin)) due = Math.min(due, m.expiresAtMs);
  if (g.state === 'PreparingRebalance') due = Math.min(due, g.joinDeadlineMs);
  if (due < Infinity) armNodeDeadline(w, node, g.timer, Math.max(due, w.nowMs), 'groupTimer', g.groupId);
}

export function onGroupTimer(w: World, node: SimNode, groupId: string, token: number): void {
  const cm = coordinatorMem(w, node);
  const g = cm.groups.get(groupId);
  if (!g || g.timer.token !== token) return;
  g.timer.token = 0;
  const mem = node.broker?.replicas.get(groupTp(w, node, groupId));
  if (!mem || mem.role !== 'leader' || mem.leaderEpoch !== g.loadedEpoch) {
    cm.groups.delete(groupId); // no longer the coordinator: the group is unloaded
    return;
  }
  if (g.type === 'consumer') {
    expireConsumerMembers(w, node, g, GROUP_STORE);
    armGroupTimer(w, node, g);
    return;
  }
  // A member waiting in JoinGroup is bounded by the rebalance timeout, not its session.
  for (const m of [...g.members.values()])
    if (m.expiresAtMs <= w.nowMs && !(g.state === 'PreparingRebalance' && m.pendingJoin))
      removeMember(
        w,
        node,
        g,
        m,
        'MemberRemoved',
        `${m.clientId} sent no heartbeat for session.timeout.ms (${m.sessionTimeoutMs} ms): group ${groupId} removes member ${m.memberId}`,
      );
  if (g.state === 'PreparingRebalance' && w.nowMs >= g.joinDeadlineMs) maybeCompleteJoin(w, node, g);
  armGroupTimer(w, node, g);
}

/** The group as its coordinator sees it now, or null when no running broker has it loaded. */
export function loadedGroup(w: World, coordinator: NodeId, groupId: string): GroupMem | null {
  const node = w.nodes.get(coordinator);
  const cm = w.coordinators.get(coordinator);
  if (!node || node.state !== 'running' || !cm || cm.incarnation !== node.incarnation) return null;
  return cm.groups.get(groupId) ?? null;
}
