// The group coordinator on the brokers (GroupCoordinatorService): the leader of the group's
// __consumer_offsets partition answers FindCoordinator for it, takes its group RPCs to the classic
// protocol (classicGroup.ts) or the consumer protocol (consumerGroup.ts, KIP-848), commits its
// offsets, and expires silent members on its timers. The group's records: groupMetadataManager.ts.

import { authorizationError } from '../broker/acl';
import {
  convertToClassicGroup,
  expireConsumerMembers,
  offsetCommitError,
  onConsumerGroupHeartbeat,
} from './consumerGroup';
import { reply } from '../kernel/kernel';
import type { GroupRequest, Message, MessageOf } from '../model/messages';
import { tpKey } from '../model/metadata';
import { coordinatorMem } from '../model/coordinatorMem';
import type { GroupMem, SimNode, World } from '../model/world';
import type { NodeId } from '../model/types';
import { errorResponse, maybeCompleteJoin, onJoinGroup, onSyncGroup, removeMember } from './classicGroup';
import { GROUP_STORE, append, armGroupTimer, groupAt, offsetKey } from './groupMetadataManager';
import { OFFSETS_TOPIC, groupTp, maybeCreateOffsetsTopic } from './offsetsTopic';

export function onFindCoordinator(w: World, node: SimNode, msg: MessageOf<'FindCoordinator'>): void {
  const b = msg.body;
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

/** JoinGroup, SyncGroup, Heartbeat, LeaveGroup, OffsetCommit, OffsetFetch at the coordinator. */
/**
 * The group coordinator's memory (its groups, pending offset appends, the consumer fetch sessions
 * and parked fetches the broker keeps beside them) is gone with the broker's process. A restarted
 * coordinator loads its groups again from __consumer_offsets (groupMetadataManager.ts).
 */
export function crashGroupCoordinator(w: World, node: SimNode): void {
  w.coordinators.delete(node.id);
}

type GroupHandler<K extends GroupRequest['kind']> = (
  w: World,
  node: SimNode,
  g: GroupMem,
  msg: MessageOf<K>,
) => void;

/** Refuses a group RPC in its own response kind (classicGroup.ts errorResponse). */
function refuse(w: World, msg: MessageOf<GroupRequest['kind']>, error: string): void {
  reply(w, msg, errorResponse(msg.body as GroupRequest, error));
}

/**
 * A group RPC at a broker: the client must be allowed to read the group (GROUP_AUTHORIZATION_FAILED)
 * and the broker must be the group's coordinator (NOT_COORDINATOR); then the group's handler runs.
 */
function groupRpc<K extends GroupRequest['kind']>(
  handle: GroupHandler<K>,
): (w: World, node: SimNode, msg: MessageOf<K>) => void {
  return (w, node, msg) => {
    const b = msg.body as GroupRequest;
    if (typeof msg.from === 'string' && authorizationError(w, msg.from, 'Read', 'group', b.groupId))
      return refuse(w, msg, 'GROUP_AUTHORIZATION_FAILED');
    const g = groupAt(w, node, b.groupId);
    if (!g) return refuse(w, msg, 'NOT_COORDINATOR');
    handle(w, node, g, msg);
  };
}

/** A classic RPC other than JoinGroup reaching a consumer-protocol group: the member is unknown there. */
function classicOnly<K extends 'SyncGroup' | 'Heartbeat' | 'LeaveGroup'>(
  handle: GroupHandler<K>,
): GroupHandler<K> {
  return (w, node, g, msg) =>
    g.type === 'consumer' ? refuse(w, msg, 'UNKNOWN_MEMBER_ID') : handle(w, node, g, msg);
}

/** KIP-848's one RPC (consumerGroup.ts). */
export const onConsumerGroupHeartbeatRequest = groupRpc<'ConsumerGroupHeartbeat'>((w, node, g, msg) =>
  onConsumerGroupHeartbeat(w, node, g, msg, msg.body, GROUP_STORE),
);

export const onJoinGroupRequest = groupRpc<'JoinGroup'>((w, node, g, msg) => {
  if (g.type === 'consumer') {
    // classicGroupJoin: a non-empty consumer group does not take classic members here (in Kafka 4.0,
    // classicGroupJoinToConsumerGroup would; not simulated, see docs/engine.md); an empty one becomes classic.
    if (g.members.size > 0) return refuse(w, msg, 'INCONSISTENT_GROUP_PROTOCOL');
    convertToClassicGroup(g);
  }
  onJoinGroup(w, node, g, msg, msg.body);
});

export const onSyncGroupRequest = groupRpc<'SyncGroup'>(
  classicOnly((w, node, g, msg) => onSyncGroup(w, node, g, msg, msg.body)),
);

export const onHeartbeatRequest = groupRpc<'Heartbeat'>(
  classicOnly((w, node, g, msg) => {
    const b = msg.body;
    const m = g.members.get(b.memberId);
    if (!m) return refuse(w, msg, 'UNKNOWN_MEMBER_ID');
    if (b.generation !== g.generation) return refuse(w, msg, 'ILLEGAL_GENERATION');
    m.expiresAtMs = w.nowMs + m.sessionTimeoutMs;
    armGroupTimer(w, node, g);
    reply(w, msg, {
      kind: 'HeartbeatResponse',
      groupId: g.groupId,
      error: g.state === 'PreparingRebalance' ? 'REBALANCE_IN_PROGRESS' : undefined,
    });
  }),
);

export const onLeaveGroupRequest = groupRpc<'LeaveGroup'>(
  classicOnly((w, node, g, msg) => {
    const m = g.members.get(msg.body.memberId);
    if (!m) return refuse(w, msg, 'UNKNOWN_MEMBER_ID');
    reply(w, msg, { kind: 'LeaveGroupResponse', groupId: g.groupId });
    removeMember(w, node, g, m, 'MemberLeft', `${m.clientId} left group ${g.groupId} (LeaveGroup)`);
  }),
);

export const onOffsetCommitRequest = groupRpc<'OffsetCommit'>((w, node, g, msg) =>
  onOffsetCommit(w, node, g, msg, msg.body),
);

export const onOffsetFetchRequest = groupRpc<'OffsetFetch'>((w, _node, g, msg) =>
  reply(w, msg, {
    kind: 'OffsetFetchResponse',
    groupId: g.groupId,
    offsets: msg.body.partitions.map((tp) => {
      const k = tpKey(tp.topic, tp.partition);
      // KIP-447 require_stable: an offset a transaction holds for the partition is not answered yet
      // (GroupMetadata.hasPendingOffsetCommitsForTopicPartition → UNSTABLE_OFFSET_COMMIT).
      if (msg.body.requireStable && pendingTxnOffset(g, k))
        return { ...tp, offset: -1, leaderEpoch: -1, error: 'UNSTABLE_OFFSET_COMMIT' };
      const c = g.offsets.get(k);
      return { ...tp, offset: c ? c.offset : -1, leaderEpoch: c ? c.leaderEpoch : -1 };
    }),
  }),
);

function pendingTxnOffset(g: GroupMem, tp: string): boolean {
  for (const pending of g.txnOffsets?.values() ?? []) if (pending.has(tp)) return true;
  return false;
}

/**
 * TxnOffsetCommit (KIP-98, with KIP-447's group metadata): the offsets are written to the group's
 * __consumer_offsets partition with the producer's id and epoch, as transactional records, and held
 * pending until that producer's marker lands there (GroupCoordinator.handleTxnCommitOffsets). A
 * member of an older generation is refused, so a zombie cannot commit offsets for partitions the
 * group gave to someone else.
 */
export const onTxnOffsetCommitRequest = groupRpc<'TxnOffsetCommit'>((w, node, g, msg) => {
  const b = msg.body;
  // A producer outside any group (memberId '' and generation -1) commits for the group as a whole.
  if (b.memberId !== '' || b.generation >= 0) {
    const error = memberCommitError(w, g, b.memberId, b.generation);
    if (error) return reply(w, msg, errorResponse(b, error));
  }
  const reqId = append(
    w,
    node,
    g,
    b.offsets.map((o) => ({
      key: offsetKey(g.groupId, o.topic, o.partition),
      value: JSON.stringify({ offset: o.offset, leaderEpoch: o.leaderEpoch }),
    })),
    { producerId: b.producerId, producerEpoch: b.producerEpoch, transactionalId: b.transactionalId },
  );
  coordinatorMem(w, node).appends.set(reqId, {
    groupId: g.groupId,
    request: msg,
    offsets: b.offsets,
    txnProducerId: b.producerId,
  });
});

/** GroupMetadataManager.validateOffsetCommit: the member must be in the group at its generation. */
function memberCommitError(w: World, g: GroupMem, memberId: string, generation: number): string | null {
  if (g.type === 'consumer') return offsetCommitError(g, memberId, generation) ?? null;
  const m = g.members.get(memberId);
  if (!m) return 'UNKNOWN_MEMBER_ID';
  if (generation !== g.generation) return 'ILLEGAL_GENERATION';
  if (g.state === 'CompletingRebalance') return 'REBALANCE_IN_PROGRESS';
  m.expiresAtMs = w.nowMs + m.sessionTimeoutMs;
  return null;
}

function onOffsetCommit(
  w: World,
  node: SimNode,
  g: GroupMem,
  msg: Message,
  b: Extract<GroupRequest, { kind: 'OffsetCommit' }>,
): void {
  const error = memberCommitError(w, g, b.memberId, b.generation);
  if (error) return reply(w, msg, errorResponse(b, error));
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

/**
 * AlterConsumerGroupOffsets from an Admin client (kafka-consumer-groups.sh --reset-offsets
 * --execute): an OffsetCommit with no member and no generation, which a group coordinator accepts
 * only while the group has no members (GroupMetadataManager.validateOffsetCommit for a classic
 * group, OffsetMetadataManager for a consumer group). The offsets are written to the group's
 * __consumer_offsets partition and take effect once appended. Kafka's error code, or null.
 */
export function adminCommitOffsets(
  w: World,
  coordinator: NodeId,
  groupId: string,
  offsets: readonly { topic: string; partition: number; offset: number }[],
): string | null {
  const node = w.nodes.get(coordinator);
  if (!node || node.state !== 'running' || !node.isBroker) return 'COORDINATOR_NOT_AVAILABLE';
  const g = groupAt(w, node, groupId);
  if (!g) return 'NOT_COORDINATOR';
  if (g.members.size > 0) return g.type === 'consumer' ? 'STALE_MEMBER_EPOCH' : 'UNKNOWN_MEMBER_ID';
  const committed = offsets.map((o) => ({
    topic: o.topic,
    partition: o.partition,
    offset: o.offset,
    leaderEpoch: -1,
  }));
  const reqId = append(
    w,
    node,
    g,
    committed.map((o) => ({
      key: offsetKey(g.groupId, o.topic, o.partition),
      value: JSON.stringify({ offset: o.offset, leaderEpoch: o.leaderEpoch }),
    })),
  );
  coordinatorMem(w, node).appends.set(reqId, { groupId: g.groupId, request: null, offsets: committed });
  return null;
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
