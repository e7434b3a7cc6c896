// The classic group protocol on the coordinator (ClassicGroup, GroupMetadataManager's
// JoinGroup / SyncGroup): a rebalance waits for the members to rejoin (group.initial.rebalance.delay.ms
// for a new group), the leader's assignment is handed out in SyncGroup, and errors are answered
// as Kafka answers them.

import { dropMember } from './consumerGroup';
import { emit, reply } from '../kernel/kernel';
import type { GroupRequest, Message, TopicPartition } from '../model/messages';
import { nextUint32 } from '../kernel/rng';
import type { GroupMem, GroupMember, SimNode, World } from '../model/world';
import { armGroupTimer, storeGroup } from './groupMetadataManager';

/** group.initial.rebalance.delay.ms (GroupCoordinatorConfig default). */
const INITIAL_REBALANCE_DELAY_MS = 3000;

export function errorResponse(b: GroupRequest, error: string): Message['body'] {
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
    case 'TxnOffsetCommit':
      return { kind: 'TxnOffsetCommitResponse', groupId: b.groupId, error, offsets: b.offsets };
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

export function onJoinGroup(
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

export function maybeCompleteJoin(w: World, node: SimNode, g: GroupMem): void {
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

export function onSyncGroup(
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

export function removeMember(
  w: World,
  node: SimNode,
  g: GroupMem,
  m: GroupMember,
  type: string,
  why: string,
): void {
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
