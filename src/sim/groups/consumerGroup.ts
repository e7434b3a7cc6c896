// The coordinator side of the KIP-848 consumer group protocol (GroupMetadataManager.consumerGroupHeartbeat,
// CurrentAssignmentBuilder, TargetAssignmentBuilder in Kafka 4.0's group-coordinator): one RPC,
// ConsumerGroupHeartbeat. A membership or subscription change bumps the group epoch; the broker's
// assignor (group.consumer.assignors: uniform, then range) computes a target assignment at that epoch;
// each member is reconciled towards it on its own heartbeats: it first revokes what others must get,
// then moves to the new epoch and gets partitions as their previous owners release them. No member
// stops for anyone else's rebalance.

import type { Assignment } from '../assignors/assignment';
import { rangeAssign } from '../assignors/rangeAssignor';
import { uniformAssign } from '../assignors/uniformAssignor';
import { emit, reply } from '../kernel/kernel';
import type { GroupRequest, Message, TopicPartition } from '../model/messages';
import { compareTopicPartition, tpKey } from '../model/metadata';
import { CONSUMER_GROUP_SESSION_TIMEOUT_MS } from '../model/config';
import type { GroupMem, GroupMember, SimNode, World } from '../model/world';
import { dictionary } from '../model/userText';

export { CONSUMER_GROUP_SESSION_TIMEOUT_MS };
/** group.consumer.heartbeat.interval.ms (GroupCoordinatorConfig default). */
export const CONSUMER_GROUP_HEARTBEAT_INTERVAL_MS = 5000;
/** group.consumer.assignors (GroupCoordinatorConfig default): the first is the group's default. */
export const CONSUMER_GROUP_ASSIGNORS = ['uniform', 'range'];

type Heartbeat = Extract<GroupRequest, { kind: 'ConsumerGroupHeartbeat' }>;

/** What the coordinator needs from groupCoordinator.ts (passed in, so the two files do not import each other). */
export interface GroupStore {
  store(w: World, node: SimNode, g: GroupMem): void;
  armTimer(w: World, node: SimNode, g: GroupMem): void;
}

const tpStr = (tps: readonly TopicPartition[]) =>
  tps.length ? tps.map((tp) => `${tp.topic}-${tp.partition}`).join(', ') : 'nothing';
const key = (tp: TopicPartition) => tpKey(tp.topic, tp.partition);
const minus = (a: readonly TopicPartition[], b: readonly TopicPartition[]) => {
  const bs = new Set(b.map(key));
  return a.filter((tp) => !bs.has(key(tp)));
};
const intersect = (a: readonly TopicPartition[], b: readonly TopicPartition[]) => {
  const bs = new Set(b.map(key));
  return a.filter((tp) => bs.has(key(tp)));
};

/** Makes an empty classic group (offsets only, or none) a consumer group: maybeDeleteEmptyClassicGroup. */
export function convertToConsumerGroup(g: GroupMem): void {
  g.type = 'consumer';
  g.groupEpoch = 0;
  g.assignmentEpoch = 0;
  g.state = 'Empty';
  g.protocol = '';
  g.leaderId = null;
  g.members.clear();
}

/** An empty consumer group that a classic JoinGroup reaches becomes a classic group (classicGroupJoinToClassicGroup). */
export function convertToClassicGroup(g: GroupMem): void {
  delete g.type;
  delete g.groupEpoch;
  delete g.assignmentEpoch;
  g.state = 'Empty';
  g.protocol = '';
  g.members.clear();
}

function respond(
  w: World,
  msg: Message,
  b: Heartbeat,
  fields: {
    error?: string;
    errorMessage?: string;
    memberEpoch?: number;
    assignment?: TopicPartition[] | null;
  },
): void {
  reply(w, msg, {
    kind: 'ConsumerGroupHeartbeatResponse',
    groupId: b.groupId,
    memberId: b.memberId,
    memberEpoch: fields.memberEpoch ?? -1,
    heartbeatIntervalMs: CONSUMER_GROUP_HEARTBEAT_INTERVAL_MS,
    assignment: fields.assignment ?? null,
    ...(fields.error ? { error: fields.error, errorMessage: fields.errorMessage } : {}),
  });
}

/** GroupMetadataManager.consumerGroupHeartbeat: join, heartbeat or leave, then reconcile the member. */
export function onConsumerGroupHeartbeat(
  w: World,
  node: SimNode,
  g: GroupMem,
  msg: Message,
  b: Heartbeat,
  gs: GroupStore,
): void {
  if (g.type !== 'consumer') {
    if (g.members.size > 0) {
      // validateOnlineUpgrade. Kafka 4.0's default group.consumer.migration.policy=bidirectional would
      // convert the group; the simulator behaves as with the policy disabled (docs/engine.md).
      const errorMessage =
        b.memberEpoch === 0
          ? `Cannot upgrade classic group ${g.groupId} to consumer group because online upgrade is disabled.`
          : `Group ${g.groupId} is not a consumer group.`;
      respond(w, msg, b, { error: 'GROUP_ID_NOT_FOUND', errorMessage });
      return;
    }
    convertToConsumerGroup(g);
  }
  const assignor = b.serverAssignor;
  if (assignor !== null && !CONSUMER_GROUP_ASSIGNORS.includes(assignor)) {
    respond(w, msg, b, {
      error: 'UNSUPPORTED_ASSIGNOR',
      errorMessage: `ServerAssignor ${assignor} is not supported. Supported assignors: ${CONSUMER_GROUP_ASSIGNORS.join(', ')}.`,
    });
    return;
  }
  let m = g.members.get(b.memberId);
  if (b.memberEpoch === -1) {
    // consumerGroupLeave: the member leaves; the others are reconciled without it.
    if (!m)
      return respond(w, msg, b, {
        error: 'UNKNOWN_MEMBER_ID',
        errorMessage: `Member ${b.memberId} is not a member of group ${g.groupId}.`,
      });
    respond(w, msg, b, { memberEpoch: -1 });
    removeConsumerMember(
      w,
      node,
      g,
      m,
      'MemberLeft',
      `${m.clientId} left group ${g.groupId} (ConsumerGroupHeartbeat with member epoch -1)`,
      gs,
    );
    return;
  }
  let changed = false;
  if (b.memberEpoch === 0) {
    if (!m) {
      m = {
        memberId: b.memberId,
        clientId: b.clientId,
        protocols: [],
        subscription: { topics: [], ownedPartitions: [] },
        assignment: [],
        sessionTimeoutMs: CONSUMER_GROUP_SESSION_TIMEOUT_MS,
        rebalanceTimeoutMs: b.rebalanceTimeoutMs,
        expiresAtMs: 0,
        pendingJoin: null,
        pendingSync: null,
        memberEpoch: 0,
        previousMemberEpoch: 0,
        memberState: 'stable',
        pendingRevocation: [],
        target: [],
        serverAssignor: assignor,
      };
      g.members.set(m.memberId, m);
      changed = true;
      emit(
        w,
        'MemberJoined',
        `${b.clientId} joins consumer group ${g.groupId} as member ${b.memberId} (ConsumerGroupHeartbeat with member epoch 0, KIP-848).`,
        { nodeId: node.id, groupId: g.groupId, memberId: b.memberId, consumerId: b.clientId },
      );
    } else {
      // A member that lost its partitions (fenced) rejoins with epoch 0 and owns nothing now.
      m.memberEpoch = 0;
      m.assignment = [];
      m.pendingRevocation = [];
      m.memberState = 'stable';
    }
  } else {
    if (!m)
      return respond(w, msg, b, {
        error: 'UNKNOWN_MEMBER_ID',
        errorMessage: `Member ${b.memberId} is not a member of group ${g.groupId}.`,
      });
    // throwIfConsumerGroupMemberEpochIsInvalid: a member may lag one epoch behind while it still owns
    // only what it was assigned; otherwise it is fenced and must give everything up.
    const epoch = m.memberEpoch!;
    const behindOk =
      b.memberEpoch === m.previousMemberEpoch && minus(b.topicPartitions, m.assignment).length === 0;
    if (b.memberEpoch > epoch || (b.memberEpoch < epoch && !behindOk)) {
      const which = b.memberEpoch > epoch ? 'greater' : 'smaller';
      return respond(w, msg, b, {
        error: 'FENCED_MEMBER_EPOCH',
        errorMessage: `The consumer group member has a ${which} member epoch (${b.memberEpoch}) than the one known by the group coordinator (${epoch}). The member must abandon all its partitions and rejoin.`,
      });
    }
  }
  m.expiresAtMs = w.nowMs + CONSUMER_GROUP_SESSION_TIMEOUT_MS;
  m.rebalanceTimeoutMs = b.rebalanceTimeoutMs;
  const topics = [...new Set(b.subscribedTopicNames)].sort();
  if (topics.join(',') !== m.subscription.topics.join(',') || assignor !== m.serverAssignor) {
    m.subscription = { topics, ownedPartitions: [] };
    m.serverAssignor = assignor;
    changed = true;
  }
  // The subscribed topics' partition counts are part of what the target is computed from.
  const counts = partitionCounts(node, g);
  if (changed || counts.key !== g.subscriptionMetadata) {
    g.subscriptionMetadata = counts.key;
    g.groupEpoch = (g.groupEpoch ?? 0) + 1;
  }
  if (g.groupEpoch! > g.assignmentEpoch!)
    computeTargetAssignment(
      w,
      node,
      g,
      counts.perTopic,
      changed ? `${m.clientId} joined or changed its subscription` : 'the subscribed topics changed',
    );
  const before = memberSignature(m);
  reconcile(w, node, g, m, b.topicPartitions);
  const dirty = changed || before !== memberSignature(m);
  updateGroupState(w, node, g);
  if (dirty) gs.store(w, node, g);
  gs.armTimer(w, node, g);
  respond(w, msg, b, { memberEpoch: m.memberEpoch, assignment: m.assignment });
}

function memberSignature(m: GroupMember): string {
  return `${m.memberEpoch}|${m.memberState}|${tpStr(m.assignment)}|${tpStr(m.pendingRevocation ?? [])}`;
}

function partitionCounts(node: SimNode, g: GroupMem): { perTopic: Record<string, number>; key: string } {
  const perTopic = dictionary<number>();
  const topics = [...new Set([...g.members.values()].flatMap((m) => m.subscription.topics))].sort();
  for (const t of topics) perTopic[t] = node.raft?.image.topics.get(t)?.partitions ?? 0;
  return { perTopic, key: topics.map((t) => `${t}:${perTopic[t]}`).join(',') };
}

/**
 * The uniform assignor works on topic ids (TopicIds): only the subscribed topics that exist, and the
 * previous target per topic id, as the coordinator holds them.
 */
function uniformByName(node: SimNode, members: GroupMember[], perTopic: Record<string, number>): Assignment {
  const topics = node.raft?.image.topics;
  const idOf = (t: string) => topics?.get(t)?.topicId;
  const nameOf = new Map<string, string>();
  const counts: Record<string, number> = {};
  for (const t of Object.keys(perTopic)) {
    const id = idOf(t);
    if (id === undefined) continue;
    nameOf.set(id, t);
    counts[id] = perTopic[t]!;
  }
  const result = uniformAssign(
    members.map((m) => {
      const previous = new Map<string, number[]>();
      for (const tp of m.target ?? []) {
        const id = idOf(tp.topic);
        if (id !== undefined) previous.set(id, [...(previous.get(id) ?? []), tp.partition]);
      }
      return {
        memberId: m.memberId,
        topicIds: m.subscription.topics
          .map(idOf)
          .filter((id): id is string => id !== undefined && id in counts),
        previous: [...previous].map(([topicId, partitions]) => ({ topicId, partitions })),
      };
    }),
    counts,
  );
  const out: Assignment = new Map();
  for (const [memberId, tps] of result)
    out.set(
      memberId,
      tps
        .map((tp) => ({ topic: nameOf.get(tp.topicId)!, partition: tp.partition }))
        .sort(compareTopicPartition),
    );
  return out;
}

/** TargetAssignmentBuilder: the broker's assignor maps every member to partitions at the group epoch. */
function computeTargetAssignment(
  w: World,
  node: SimNode,
  g: GroupMem,
  perTopic: Record<string, number>,
  reason: string,
): void {
  const members = [...g.members.values()];
  // The group's assignor: what members ask for (the most-requested, then the default), else uniform.
  const asked = members.map((m) => m.serverAssignor).filter((a): a is string => !!a);
  const assignor = asked.length
    ? CONSUMER_GROUP_ASSIGNORS.filter((a) => asked.includes(a)).sort(
        (a, b) => asked.filter((x) => x === b).length - asked.filter((x) => x === a).length,
      )[0]!
    : CONSUMER_GROUP_ASSIGNORS[0]!;
  const result: Assignment =
    assignor === 'range'
      ? rangeAssign(
          members.map((m) => ({ memberId: m.memberId, subscription: m.subscription })),
          perTopic,
        )
      : uniformByName(node, members, perTopic);
  for (const m of members) m.target = result.get(m.memberId) ?? [];
  g.assignmentEpoch = g.groupEpoch;
  g.protocol = assignor;
  emit(
    w,
    'GroupTargetAssignmentComputed',
    `Group ${g.groupId} moves to group epoch ${g.groupEpoch} (${reason}): the ${assignor} assignor on broker ${node.id} computes the target assignment: ${
      members.map((m) => `${m.clientId}: [${tpStr(m.target!)}]`).join('; ') || 'no members'
    }. Members move to it on their next heartbeats (KIP-848).`,
    { nodeId: node.id, groupId: g.groupId, groupEpoch: g.groupEpoch, assignor },
  );
}

/** Partitions another member of the group still holds (assigned or pending revocation). */
function ownedByOthers(g: GroupMem, self: GroupMember): Set<string> {
  const owned = new Set<string>();
  for (const x of g.members.values()) {
    if (x === self) continue;
    for (const tp of x.assignment) owned.add(key(tp));
    for (const tp of x.pendingRevocation ?? []) owned.add(key(tp));
  }
  return owned;
}

/** CurrentAssignmentBuilder: moves the member towards its target as far as the others allow. */
function reconcile(w: World, node: SimNode, g: GroupMem, m: GroupMember, owned: TopicPartition[]): void {
  const target = m.target ?? [];
  const epoch = g.assignmentEpoch!;
  if (m.memberState === 'unrevoked-partitions') {
    // The member acknowledges a revocation by no longer listing those partitions as owned.
    const acked = intersect(owned, m.pendingRevocation ?? []).length === 0;
    if (!acked) return;
    emit(
      w,
      'MemberRevocationCompleted',
      `${m.clientId} released ${tpStr(m.pendingRevocation ?? [])} in group ${g.groupId}: they can go to their new owners.`,
      { nodeId: node.id, groupId: g.groupId, memberId: m.memberId, consumerId: m.clientId },
    );
    m.pendingRevocation = [];
    m.memberState = 'stable';
  } else if (m.memberState === 'stable' && m.memberEpoch === epoch) return;
  const kept = intersect(m.assignment, target);
  const revoke = minus(m.assignment, target);
  if (revoke.length) {
    // Revoke first, stay at the current epoch until the member acknowledges.
    m.assignment = kept;
    m.pendingRevocation = revoke;
    m.memberState = 'unrevoked-partitions';
    emit(
      w,
      'MemberRevocationRequested',
      `Group ${g.groupId} asks ${m.clientId} to revoke ${tpStr(revoke)} (target assignment of group epoch ${epoch}); it keeps consuming ${tpStr(kept)} meanwhile.`,
      {
        nodeId: node.id,
        groupId: g.groupId,
        memberId: m.memberId,
        consumerId: m.clientId,
        groupEpoch: epoch,
      },
    );
    return;
  }
  const others = ownedByOthers(g, m);
  const pending = minus(target, m.assignment);
  const free = pending.filter((tp) => !others.has(key(tp)));
  const unreleased = pending.length - free.length;
  if (m.memberEpoch !== epoch) {
    m.previousMemberEpoch = m.memberEpoch;
    m.memberEpoch = epoch;
  }
  m.assignment = [...kept, ...free].sort(compareTopicPartition);
  m.memberState = unreleased ? 'unreleased-partitions' : 'stable';
}

/** ConsumerGroup.maybeUpdateGroupState. */
function updateGroupState(w: World, node: SimNode, g: GroupMem): void {
  const before = g.state;
  const members = [...g.members.values()];
  g.state =
    members.length === 0
      ? 'Empty'
      : g.groupEpoch! > g.assignmentEpoch!
        ? 'Assigning'
        : members.some((m) => m.memberState !== 'stable' || m.memberEpoch !== g.assignmentEpoch)
          ? 'Reconciling'
          : 'Stable';
  if (g.state === 'Stable' && before !== 'Stable')
    emit(
      w,
      'GroupReconciled',
      `Consumer group ${g.groupId} is Stable at group epoch ${g.groupEpoch}: every member has its target assignment (${members
        .map((m) => `${m.clientId}: [${tpStr(m.assignment)}]`)
        .join('; ')}).`,
      { nodeId: node.id, groupId: g.groupId, groupEpoch: g.groupEpoch },
    );
}

/** A member leaves the group's memory, with the event that says why (both protocols). */
export function dropMember(
  w: World,
  node: SimNode,
  g: GroupMem,
  m: GroupMember,
  type: string,
  why: string,
): void {
  g.members.delete(m.memberId);
  emit(w, type, `${why}.`, {
    nodeId: node.id,
    groupId: g.groupId,
    memberId: m.memberId,
    consumerId: m.clientId,
  });
}

/** Removes a member (left, or its session expired): the group epoch is bumped and a new target computed. */
export function removeConsumerMember(
  w: World,
  node: SimNode,
  g: GroupMem,
  m: GroupMember,
  type: string,
  why: string,
  gs: GroupStore,
): void {
  dropMember(w, node, g, m, type, why);
  g.groupEpoch = (g.groupEpoch ?? 0) + 1;
  const counts = partitionCounts(node, g);
  g.subscriptionMetadata = counts.key;
  if (g.members.size) computeTargetAssignment(w, node, g, counts.perTopic, `${m.clientId} is gone`);
  else g.assignmentEpoch = g.groupEpoch;
  // The freed partitions may complete other members' reconciliation on their next heartbeat.
  updateGroupState(w, node, g);
  gs.store(w, node, g);
}

/** Session expiry: group.consumer.session.timeout.ms without a heartbeat. */
export function expireConsumerMembers(w: World, node: SimNode, g: GroupMem, gs: GroupStore): void {
  for (const m of [...g.members.values()])
    if (m.expiresAtMs <= w.nowMs)
      removeConsumerMember(
        w,
        node,
        g,
        m,
        'MemberRemoved',
        `${m.clientId} sent no ConsumerGroupHeartbeat for group.consumer.session.timeout.ms (${CONSUMER_GROUP_SESSION_TIMEOUT_MS} ms): group ${g.groupId} fences and removes member ${m.memberId}; its partitions go to the others`,
        gs,
      );
}

/** ConsumerGroup.validateOffsetCommit: the commit's member epoch must be the member's. */
export function offsetCommitError(g: GroupMem, memberId: string, memberEpoch: number): string | null {
  if (memberEpoch < 0 && g.members.size === 0) return null; // a commit from outside the group (admin, assign())
  const m = g.members.get(memberId);
  if (!m) return 'UNKNOWN_MEMBER_ID';
  if (memberEpoch > m.memberEpoch!) return 'FENCED_MEMBER_EPOCH';
  if (memberEpoch < m.memberEpoch!) return 'STALE_MEMBER_EPOCH';
  return null;
}
