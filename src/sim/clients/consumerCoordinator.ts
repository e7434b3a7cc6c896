// The consumer's group membership in the classic protocol (ConsumerCoordinator,
// AbstractCoordinator): FindCoordinator, JoinGroup and SyncGroup (the leader runs the assignor),
// heartbeats, offset commits, and what a group error makes it do. The consumer protocol (KIP-848)
// is in consumerMembership.ts.

import type { Assignment } from '../assignors/assignment';
import { AssignorError } from '../assignors/assignment';
import { cooperativeStickyAssign } from '../assignors/cooperativeStickyAssignor';
import { rangeAssign } from '../assignors/rangeAssignor';
import type { MemberIo } from './consumerMembership';
import { emit, setClientTimer } from '../kernel/kernel';
import type { Body, CommittedOffset, TopicPartition } from '../model/messages';
import { tpKey } from '../model/metadata';
import type { ConsumerClient, World } from '../model/world';
import { num, request } from './consumerNetworkClient';
import { dictionary, own } from '../model/userText';

/** commitSync() of the current positions (the commitOffsets command). */
export function commitOffsets(w: World, id: string): string | null {
  const c = w.consumers.get(id);
  if (!c || c.state === 'stopped' || c.state === 'crashed') return `consumer ${id} is not running`;
  if (c.generation < 0 || c.coordinator < 0) return `consumer ${id} has not joined group ${c.groupId} yet`;
  commit(w, c);
  return null;
}

/** commitAsync() of the current positions, or of `given` offsets (what an application processed). */
export function commit(w: World, c: ConsumerClient, purpose = 'commit', given?: CommittedOffset[]): void {
  if (c.coordinator < 0 || c.generation < 0) return;
  const offsets: CommittedOffset[] = given ? [...given] : [];
  if (!given) {
    // Records polled but not processed yet are not committed (poll() commits what it returned before).
    const unprocessed = new Map<string, number>();
    for (const r of [...(c.processing?.batch ?? []), ...(c.polled ?? [])]) {
      const k = tpKey(r.topic, r.partition);
      unprocessed.set(k, Math.min(unprocessed.get(k) ?? Infinity, r.offset));
    }
    for (const p of c.parts.values())
      if (p.position >= 0 && p.pending !== 'offset' && p.pending !== 'reset') {
        const first = unprocessed.get(tpKey(p.topic, p.partition));
        offsets.push({
          topic: p.topic,
          partition: p.partition,
          offset: first !== undefined ? first : p.position,
          leaderEpoch: first !== undefined ? -1 : p.positionEpoch,
        });
      }
  }
  if (offsets.length === 0) return;
  request(w, c, purpose, c.coordinator, {
    kind: 'OffsetCommit',
    groupId: c.groupId,
    memberId: c.memberId,
    generation: c.generation,
    offsets,
  });
}

const COORDINATOR_REQUESTS = ['join', 'sync', 'heartbeat', 'commit', 'revokeCommit', 'offsets'];

/** A fatal group error: poll() throws it and the application closes the consumer. */
function consumerFailed(w: World, c: ConsumerClient, error: string, why: string): void {
  emit(
    w,
    'ConsumerFailed',
    `${c.id} cannot be a member of group ${c.groupId}: ${error}${why ? ` (${why})` : ''}. poll() throws and the consumer closes.`,
    { consumerId: c.id, groupId: c.groupId, error },
  );
  shutDown(c, 'stopped');
}

/** The consumer is gone: its partitions, requests and fetches with it. */
export function shutDown(c: ConsumerClient, state: 'stopped' | 'crashed'): void {
  c.state = state;
  c.parts.clear();
  c.pendingReq.clear();
  c.fetches.clear();
}

export const MEMBER_IO: MemberIo = { request, commit, coordinatorUnknown, fail: consumerFailed };

export function coordinatorUnknown(w: World, c: ConsumerClient): void {
  c.coordinator = -1;
  for (const k of COORDINATOR_REQUESTS) c.pendingReq.delete(k);
  if (c.state === 'joining' || c.state === 'syncing') c.state = 'finding-coordinator';
  c.backoffUntilMs = w.nowMs + num(c, 'retry.backoff.ms');
}

/** A request got no answer (timeout) or the connection was refused. */
export function failed(w: World, c: ConsumerClient, purpose: string): void {
  if (purpose === 'metadata') {
    c.bootstrapIdx++;
    c.needMetadata = true;
  } else if (purpose === 'find') {
    c.bootstrapIdx++;
    c.backoffUntilMs = w.nowMs + num(c, 'retry.backoff.ms');
  } else if (COORDINATOR_REQUESTS.includes(purpose)) {
    coordinatorUnknown(w, c);
    if (purpose === 'join' || purpose === 'sync') c.rejoinNeeded = true;
  } else {
    c.needMetadata = true; // reset:<leader> or validate:<leader>
  }
}

export function assignmentStale(c: ConsumerClient): boolean {
  if (!c.assignedWith) return false;
  for (const t of c.groupTopics) {
    const n = c.leaders.get(t)?.length ?? 0;
    if ((own(c.assignedWith, t) ?? 0) !== n) return true;
  }
  return false;
}

/** onJoinPrepare: commit what was consumed; the eager range protocol also gives up every partition. */
export function prepareJoin(w: World, c: ConsumerClient): void {
  if (c.config['enable.auto.commit'] === true) commit(w, c);
  if (c.protocol !== 'cooperative-sticky') {
    c.parts.clear();
    c.fetches.clear();
  }
  sendJoin(w, c);
}

export function sendJoin(w: World, c: ConsumerClient): void {
  c.state = 'joining';
  c.pendingReq.delete('heartbeat');
  const protocols = String(c.config['partition.assignment.strategy']).split(',');
  request(
    w,
    c,
    'join',
    c.coordinator,
    {
      kind: 'JoinGroup',
      groupId: c.groupId,
      memberId: c.memberId,
      clientId: c.id,
      sessionTimeoutMs: num(c, 'session.timeout.ms'),
      rebalanceTimeoutMs: num(c, 'max.poll.interval.ms'),
      protocols,
      subscription: {
        topics: c.topics,
        ownedPartitions: [...c.parts.values()].map((p) => ({ topic: p.topic, partition: p.partition })),
        // ConsumerCoordinator.metadata: the generation, and cooperative-sticky's user data.
        generationId: c.generation,
        userDataGeneration: c.assignedGeneration ?? -1,
      },
    },
    // AbstractCoordinator: a JoinGroup may wait the whole rebalance timeout, plus 5 s.
    num(c, 'max.poll.interval.ms') + 5000,
  );
}

export function sendHeartbeat(w: World, c: ConsumerClient): void {
  if (c.coordinator < 0 || c.pendingReq.has('heartbeat') || (c.state !== 'stable' && c.state !== 'syncing'))
    return;
  request(w, c, 'heartbeat', c.coordinator, {
    kind: 'Heartbeat',
    groupId: c.groupId,
    memberId: c.memberId,
    generation: c.generation,
  });
}

export function groupError(w: World, c: ConsumerClient, error: string): void {
  if (
    error === 'NOT_COORDINATOR' ||
    error === 'COORDINATOR_NOT_AVAILABLE' ||
    error === 'COORDINATOR_LOAD_IN_PROGRESS'
  ) {
    coordinatorUnknown(w, c);
    return;
  }
  if (error === 'REBALANCE_IN_PROGRESS') {
    // A SyncGroup in flight is answered REBALANCE_IN_PROGRESS too; the rejoin follows that answer.
    if (!c.pendingReq.has('join') && !c.pendingReq.has('sync')) {
      c.rejoinNeeded = true;
      prepareJoin(w, c);
    }
    return;
  }
  if (error === 'UNKNOWN_MEMBER_ID' || error === 'ILLEGAL_GENERATION') {
    // The group moved on without us: our partitions are lost (onPartitionsLost), join again.
    if (error === 'UNKNOWN_MEMBER_ID') c.memberId = '';
    c.generation = -1;
    c.parts.clear();
    c.fetches.clear();
    c.rejoinNeeded = true;
    if (!c.pendingReq.has('join') && c.coordinator >= 0) sendJoin(w, c);
  }
}

export function onJoinResponse(
  w: World,
  c: ConsumerClient,
  b: Extract<Body, { kind: 'JoinGroupResponse' }>,
): void {
  if (b.error) {
    if (b.error === 'MEMBER_ID_REQUIRED') {
      c.memberId = b.memberId;
      sendJoin(w, c);
      return;
    }
    if (b.error === 'INCONSISTENT_GROUP_PROTOCOL') {
      // AbstractCoordinator.JoinGroupResponseHandler: fatal (InconsistentGroupProtocolException).
      consumerFailed(
        w,
        c,
        b.error,
        `the group's members speak another protocol; with group.protocol=classic it cannot join a non-empty group.protocol=consumer group`,
      );
      return;
    }
    if (b.error === 'UNKNOWN_MEMBER_ID') c.memberId = '';
    if (b.error === 'NOT_COORDINATOR' || b.error === 'COORDINATOR_NOT_AVAILABLE') coordinatorUnknown(w, c);
    else c.backoffUntilMs = w.nowMs + num(c, 'retry.backoff.ms');
    c.rejoinNeeded = true;
    return;
  }
  c.memberId = b.memberId;
  c.generation = b.generation;
  c.protocol = b.protocol;
  c.isLeader = b.leaderId === b.memberId;
  c.state = 'syncing';
  let assignments: { memberId: string; partitions: TopicPartition[] }[] = [];
  if (c.isLeader) {
    c.groupTopics = [...new Set(b.members.flatMap((m) => m.subscription.topics))].sort();
    const counts = dictionary<number>();
    for (const t of c.groupTopics) counts[t] = c.leaders.get(t)?.length ?? 0;
    c.assignedWith = counts;
    if (c.groupTopics.some((t) => !c.leaders.has(t))) c.needMetadata = true;
    let result: Assignment;
    try {
      result =
        b.protocol === 'cooperative-sticky'
          ? cooperativeStickyAssign(b.members, counts)
          : rangeAssign(b.members, counts);
    } catch (e) {
      // ConsumerCoordinator.onLeaderElected: the assignor's IllegalStateException fails the leader's poll().
      if (!(e instanceof AssignorError)) throw e;
      consumerFailed(w, c, 'IllegalStateException', `the ${b.protocol} assignor failed: ${e.message}`);
      return;
    }
    assignments = [...result].map(([memberId, partitions]) => ({ memberId, partitions }));
  }
  request(w, c, 'sync', c.coordinator, {
    kind: 'SyncGroup',
    groupId: c.groupId,
    memberId: c.memberId,
    generation: c.generation,
    assignments,
  });
  if (!c.heartbeatToken)
    c.heartbeatToken = setClientTimer(w, c.id, num(c, 'heartbeat.interval.ms'), 'heartbeat');
}

export function onSyncResponse(
  w: World,
  c: ConsumerClient,
  b: Extract<Body, { kind: 'SyncGroupResponse' }>,
): void {
  if (b.error) {
    groupError(w, c, b.error);
    return;
  }
  c.state = 'stable';
  c.rejoinNeeded = false;
  c.assignedGeneration = c.generation;
  const assigned = new Set(b.partitions.map((tp) => tpKey(tp.topic, tp.partition)));
  let revoked = 0;
  for (const [k] of c.parts)
    if (!assigned.has(k)) {
      c.parts.delete(k);
      revoked++;
    }
  for (const tp of b.partitions) {
    const k = tpKey(tp.topic, tp.partition);
    if (!c.parts.has(k))
      c.parts.set(k, { ...tp, position: -1, positionEpoch: -1, pending: 'offset', validatedEpoch: -1 });
  }
  // KIP-429: partitions revoked in a cooperative rebalance are re-assigned in a follow-up rebalance.
  if (revoked && c.protocol === 'cooperative-sticky') {
    if (c.config['enable.auto.commit'] === true) commit(w, c);
    c.rejoinNeeded = true;
  }
}
