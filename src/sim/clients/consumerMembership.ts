// The client side of the KIP-848 consumer group protocol (group.protocol=consumer; Kafka 4.0's
// ConsumerMembershipManager and ConsumerHeartbeatRequestManager): the consumer sends one RPC,
// ConsumerGroupHeartbeat, at the interval the broker sets (group.consumer.heartbeat.interval.ms);
// each response carries its member epoch and the partitions it may own. It revokes what it must
// give up (committing their positions first), acknowledges at once with a heartbeat listing what
// it still owns, and keeps fetching its other partitions the whole time.

import { emit } from '../kernel/kernel';
import type { Body, TopicPartition } from '../model/messages';
import { tpKey } from '../model/metadata';
import { nextUint32 } from '../kernel/rng';
import type { ConsumerClient, World } from '../model/world';
import type { NodeId } from '../model/types';

/** What the membership needs from consumer.ts (passed in, so the two files do not import each other). */
export interface MemberIo {
  request(w: World, c: ConsumerClient, purpose: string, to: NodeId, body: Body): void;
  commit(w: World, c: ConsumerClient, purpose: string): void;
  coordinatorUnknown(w: World, c: ConsumerClient): void;
  fail(w: World, c: ConsumerClient, error: string, why: string): void;
}

const tpStr = (tps: readonly TopicPartition[]) =>
  tps.map((tp) => `${tp.topic}-${tp.partition}`).join(', ') || 'nothing';
/** The key consumer.ts files `c.parts` under. */
const key = (tp: TopicPartition) => tpKey(tp.topic, tp.partition);

/** KIP-1082: the consumer makes its own member id, a random UUID (Uuid.toString: 22 base64url characters). */
export function newMemberId(w: World): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  let bits = '';
  for (let i = 0; i < 4; i++) bits += nextUint32(w.rng).toString(2).padStart(32, '0');
  bits += '0000';
  let id = '';
  for (let i = 0; i < 22; i++) id += alphabet[parseInt(bits.slice(i * 6, i * 6 + 6), 2)];
  return id;
}

const owned = (c: ConsumerClient): TopicPartition[] =>
  [...c.parts.values()]
    .filter((p) => p.pending !== 'revoke')
    .map((p) => ({ topic: p.topic, partition: p.partition }));

/** Sends the heartbeat when it is due: joining (epoch 0), on the interval, or to acknowledge a reconciliation. */
export function maybeHeartbeat(w: World, c: ConsumerClient, io: MemberIo): void {
  const ms = c.membership;
  if (!ms || c.coordinator < 0 || w.nowMs < c.backoffUntilMs) return;
  if (ms.revoking && !c.pendingReq.has('revokeCommit')) finishRevocation(w, c);
  if (ms.revoking || c.pendingReq.has('heartbeat') || w.nowMs < ms.heartbeatDueMs) return;
  if (c.generation < 0) c.state = 'joining';
  // Due again after the interval even if this one gets no answer (the response re-arms it).
  ms.heartbeatDueMs = w.nowMs + Math.max(ms.heartbeatIntervalMs, 1);
  io.request(w, c, 'heartbeat', c.coordinator, heartbeat(c, c.generation < 0 ? 0 : c.generation, owned(c)));
}

/** A ConsumerGroupHeartbeat at `memberEpoch` (0: join, -1: leave) reporting `topicPartitions` as owned. */
function heartbeat(c: ConsumerClient, memberEpoch: number, topicPartitions: TopicPartition[]): Body {
  return {
    kind: 'ConsumerGroupHeartbeat',
    groupId: c.groupId,
    memberId: c.memberId,
    memberEpoch,
    clientId: c.id,
    rebalanceTimeoutMs: Number(c.config['max.poll.interval.ms']),
    subscribedTopicNames: [...c.topics],
    serverAssignor: (c.config['group.remote.assignor'] as string) || null,
    topicPartitions,
  };
}

/** The revoked partitions' positions are committed (or could not be): they are released and acknowledged. */
function finishRevocation(w: World, c: ConsumerClient): void {
  for (const [k, p] of [...c.parts]) if (p.pending === 'revoke') c.parts.delete(k);
  c.membership!.revoking = false;
  c.membership!.heartbeatDueMs = w.nowMs;
}

/** ConsumerGroupHeartbeatResponse: errors, the member epoch, and the assignment to reconcile. */
export function onHeartbeatResponse(
  w: World,
  c: ConsumerClient,
  b: Extract<Body, { kind: 'ConsumerGroupHeartbeatResponse' }>,
  io: MemberIo,
): void {
  const ms = c.membership;
  if (!ms) return;
  if (b.error) {
    switch (b.error) {
      case 'NOT_COORDINATOR':
      case 'COORDINATOR_NOT_AVAILABLE':
      case 'COORDINATOR_LOAD_IN_PROGRESS':
        io.coordinatorUnknown(w, c);
        return;
      case 'FENCED_MEMBER_EPOCH':
      case 'UNKNOWN_MEMBER_ID': {
        // ConsumerMembershipManager.transitionToFenced: the partitions are lost (no commit), rejoin at epoch 0.
        const lost = owned(c);
        emit(
          w,
          'MemberFenced',
          `${c.id} is fenced by the coordinator of group ${c.groupId} (${b.error}${b.errorMessage ? `: ${b.errorMessage}` : ''}): it loses ${tpStr(lost)} without committing and rejoins with member epoch 0.`,
          { consumerId: c.id, groupId: c.groupId, memberId: c.memberId, error: b.error },
        );
        c.parts.clear();
        c.fetches.clear();
        c.pendingReq.delete('revokeCommit');
        ms.revoking = false;
        c.generation = -1;
        c.state = 'joining';
        ms.heartbeatDueMs = w.nowMs;
        return;
      }
      case 'GROUP_ID_NOT_FOUND':
      case 'UNSUPPORTED_ASSIGNOR':
      case 'GROUP_AUTHORIZATION_FAILED':
      case 'GROUP_MAX_SIZE_REACHED':
      case 'INVALID_REQUEST':
        // Fatal in ConsumerHeartbeatRequestManager: poll() throws and the application closes the consumer.
        io.fail(w, c, b.error, b.errorMessage ?? '');
        return;
      default:
        c.backoffUntilMs = w.nowMs + Number(c.config['retry.backoff.ms']);
        return;
    }
  }
  ms.heartbeatIntervalMs = b.heartbeatIntervalMs;
  ms.heartbeatDueMs = w.nowMs + b.heartbeatIntervalMs;
  if (b.memberEpoch < 0) return; // the answer to leaving
  c.generation = b.memberEpoch;
  c.state = 'stable';
  c.rejoinNeeded = false;
  if (!b.assignment || ms.revoking) return;
  const assigned = new Set(b.assignment.map(key));
  const revoked = [...c.parts.values()].filter((p) => p.pending !== 'revoke' && !assigned.has(key(p)));
  const added = b.assignment.filter((tp) => !c.parts.has(key(tp)));
  if (revoked.length) {
    for (const p of revoked) p.pending = 'revoke';
    ms.revoking = true;
    const autoCommit = c.config['enable.auto.commit'] === true;
    emit(
      w,
      'MemberPartitionsRevoked',
      `${c.id} revokes ${tpStr(revoked)} at member epoch ${c.generation} (ConsumerGroupHeartbeat asked for them, another member is to get them)${
        autoCommit ? ': it commits their positions first' : ''
      }, then acknowledges; it keeps consuming ${tpStr(owned(c))} meanwhile.`,
      { consumerId: c.id, groupId: c.groupId, memberId: c.memberId, memberEpoch: c.generation },
    );
    // ConsumerMembershipManager: auto-commit before revocation, so the next owner starts where this one stopped.
    if (autoCommit) io.commit(w, c, 'revokeCommit');
    if (!c.pendingReq.has('revokeCommit')) finishRevocation(w, c);
  }
  if (added.length) {
    for (const tp of added)
      c.parts.set(key(tp), { ...tp, position: -1, positionEpoch: -1, pending: 'offset', validatedEpoch: -1 });
    emit(
      w,
      'MemberPartitionsAssigned',
      `${c.id} is assigned ${tpStr(added)} at member epoch ${c.generation} in group ${c.groupId}: it fetches their committed offsets and starts consuming.`,
      { consumerId: c.id, groupId: c.groupId, memberId: c.memberId, memberEpoch: c.generation },
    );
    // Acknowledge the new assignment at once (ACKNOWLEDGING), not at the next interval.
    ms.heartbeatDueMs = w.nowMs;
  }
}

/** close(): the member leaves with a ConsumerGroupHeartbeat at member epoch -1. */
export function leaveGroup(w: World, c: ConsumerClient, io: MemberIo): void {
  if (c.coordinator < 0 || c.generation < 0) return;
  io.request(w, c, 'leave', c.coordinator, heartbeat(c, -1, []));
}
