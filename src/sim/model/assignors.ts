// Partition assignors. Client side, run by the group leader (the consumer the coordinator picked):
// RangeAssignor and CooperativeStickyAssignor, as in Kafka's clients. Broker side, for KIP-848
// groups: the UniformAssignor (and the range one above). Each follows Kafka's code step by step,
// including the java.util.HashMap/HashSet iteration orders that decide its result
// (kernel/javaHash.ts); cooperative-sticky and uniform are checked against Kafka's own outputs
// (assignors.golden.json).

import type { Subscription, TopicPartition } from './messages';
import { compareTopicPartition, tpKey } from './metadata';
import { JavaHashSet, javaCopyCapacity, javaHashMapOrder, javaStringHashCode } from '../kernel/javaHash';
import { uuidHashCode, uuidWords } from '../kernel/uuid';

export interface AssignorMember {
  memberId: string;
  subscription: Subscription;
}

export type Assignment = Map<string, TopicPartition[]>;

/** RangeAssignor: per topic, members sorted by id; each gets P/C partitions, the first P%C one more. */
export function rangeAssign(
  members: AssignorMember[],
  partitionsPerTopic: Record<string, number>,
): Assignment {
  const out: Assignment = new Map(members.map((m) => [m.memberId, []]));
  const topics = [...new Set(members.flatMap((m) => m.subscription.topics))].sort();
  for (const topic of topics) {
    const count = partitionsPerTopic[topic] ?? 0;
    const consumers = members
      .filter((m) => m.subscription.topics.includes(topic))
      .map((m) => m.memberId)
      .sort();
    const per = Math.floor(count / consumers.length);
    const extra = count % consumers.length;
    consumers.forEach((id, i) => {
      const start = per * i + Math.min(i, extra);
      const length = per + (i < extra ? 1 : 0);
      for (let p = start; p < start + length; p++) out.get(id)!.push({ topic, partition: p });
    });
  }
  return out;
}

const key = (tp: TopicPartition) => tpKey(tp.topic, tp.partition);
const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Members in member-id order (how the simulator lists an assignment). */
function byMemberId<M extends { memberId: string }>(members: M[]): M[] {
  return [...members].sort((a, b) => byString(a.memberId, b.memberId));
}

/** TopicPartition.hashCode. */
function topicPartitionHash(tp: TopicPartition): number {
  // org.apache.kafka.common.TopicPartition#hashCode
  const result = (31 + tp.partition) | 0;
  return (Math.imul(31, result) + javaStringHashCode(tp.topic)) | 0;
}

/** The order a `new HashMap<String, _>()` filled in `ids` order iterates its keys. */
const hashOrder = (ids: string[]) => javaHashMapOrder(ids, javaStringHashCode);

// ---- CooperativeStickyAssignor (client side, KIP-429) ---------------------------------------------

/** What a member sends in its ConsumerProtocolSubscription (v2+) for the sticky assignors. */
export interface StickySubscription extends Subscription {
  /** ConsumerProtocolSubscription.generationId: the member's generation, -1 when it has none. */
  generationId?: number;
  /** The generation in the cooperative-sticky user data (the last one it was assigned in). */
  userDataGeneration?: number;
}

export interface StickyMember {
  memberId: string;
  subscription: StickySubscription;
}

const DEFAULT_GENERATION = -1;

/** CooperativeStickyAssignor.memberData: the subscription's generation, else the user data's. */
function memberGeneration(s: StickySubscription): number {
  const g = s.generationId ?? DEFAULT_GENERATION;
  return g >= 0 ? g : (s.userDataGeneration ?? DEFAULT_GENERATION);
}

/** Remove the first occurrence (java.util.List#remove(Object)). */
function removeFrom(list: TopicPartition[], tp: TopicPartition): boolean {
  const i = list.findIndex((x) => x.topic === tp.topic && x.partition === tp.partition);
  if (i >= 0) list.splice(i, 1);
  return i >= 0;
}

/** Kafka's IllegalStateException from an assignor: the leader's poll() fails with it. */
export class AssignorError extends Error {}

/**
 * CooperativeStickyAssignor (clients/.../consumer/CooperativeStickyAssignor.java on
 * AbstractStickyAssignor.java): the members are walked in the order of the leader's
 * HashMap<String, Subscription> (member-id hash order); with equal subscriptions the
 * ConstrainedAssignmentBuilder, else the GeneralAssignmentBuilder. Then every partition that moves
 * from one member to another is left out of this round, so its owner revokes it first (KIP-429).
 * `members` is in the JoinGroup response's order.
 */
export function cooperativeStickyAssign(
  members: StickyMember[],
  partitionsPerTopic: Record<string, number>,
): Assignment {
  const subs = new Map(members.map((m) => [m.memberId, m.subscription]));
  const order = hashOrder(members.map((m) => m.memberId));
  // AbstractPartitionAssignor.assign: only subscribed topics with partitions in the metadata.
  const counts = new Map<string, number>();
  for (const id of order)
    for (const t of subs.get(id)!.topics)
      if ((partitionsPerTopic[t] ?? 0) > 0) counts.set(t, partitionsPerTopic[t]!);

  // AbstractStickyAssignor.allSubscriptionsEqual
  let allEqual = true;
  const subscribed = new Set<string>();
  let maxGeneration = DEFAULT_GENERATION;
  const owned = new Map<string, TopicPartition[]>();
  const multipleOwners = new Set<string>();
  const previousOwner = new Map<string, string>();
  for (const id of order) {
    const s = subs.get(id)!;
    if (!subscribed.size) for (const t of s.topics) subscribed.add(t);
    else if (allEqual && !(s.topics.length === subscribed.size && s.topics.every((t) => subscribed.has(t))))
      allEqual = false;
    const gen = memberGeneration(s);
    maxGeneration = Math.max(maxGeneration, gen);
    const mine: TopicPartition[] = [];
    owned.set(id, mine);
    for (const tp of s.ownedPartitions) {
      if (!counts.has(tp.topic)) continue;
      const other = previousOwner.get(key(tp));
      if (other === undefined) {
        mine.push(tp);
        previousOwner.set(key(tp), id);
        continue;
      }
      // The other claimer's generation as its subscription states it (not its user data).
      const otherGen = subs.get(other)!.generationId ?? DEFAULT_GENERATION;
      const otherGeneration = otherGen >= 0 ? otherGen : DEFAULT_GENERATION;
      if (gen === otherGeneration) {
        multipleOwners.add(key(tp));
        removeFrom(owned.get(other)!, tp);
        previousOwner.set(key(tp), id);
      } else if (gen > otherGeneration) {
        mine.push(tp);
        removeFrom(owned.get(other)!, tp);
        previousOwner.set(key(tp), id);
      }
    }
  }
  const sortedTopics = [...counts.keys()].sort(byString);
  const total = sortedTopics.reduce((n, t) => n + counts.get(t)!, 0);
  let assignment: Map<string, TopicPartition[]>;
  let transferring: Map<string, { tp: TopicPartition; to: string }> | null;
  if (allEqual) {
    transferring = new Map();
    assignment = constrainedAssign(order, owned, counts, sortedTopics, total, multipleOwners, transferring);
  } else {
    transferring = null;
    assignment = generalAssign(order, subs, owned, counts, total, maxGeneration);
  }
  // CooperativeStickyAssignor.adjustAssignment
  const moving = transferring ? [...transferring.values()] : transfersOf(order, subs, assignment);
  for (const { tp, to } of moving) removeFrom(assignment.get(to)!, tp);
  const out: Assignment = new Map();
  for (const m of byMemberId(members))
    out.set(m.memberId, [...(assignment.get(m.memberId) ?? [])].sort(compareTopicPartition));
  return out;
}

/** CooperativeStickyAssignor.computePartitionsTransferringOwnership: added to one member, revoked from another. */
function transfersOf(
  order: string[],
  subs: Map<string, StickySubscription>,
  assignment: Map<string, TopicPartition[]>,
): { tp: TopicPartition; to: string }[] {
  const added = new Map<string, { tp: TopicPartition; to: string }>();
  const revoked = new Set<string>();
  for (const id of order) {
    const ownedNow = subs.get(id)!.ownedPartitions;
    const assigned = assignment.get(id) ?? [];
    const ownedKeys = new Set(ownedNow.map(key));
    for (const tp of assigned) if (!ownedKeys.has(key(tp))) added.set(key(tp), { tp, to: id });
    const assignedKeys = new Set(assigned.map(key));
    for (const tp of ownedNow) if (!assignedKeys.has(key(tp))) revoked.add(key(tp));
  }
  return [...added].filter(([k]) => revoked.has(k)).map(([, v]) => v);
}

/** AbstractStickyAssignor.ConstrainedAssignmentBuilder (every member subscribed to the same topics; no racks). */
function constrainedAssign(
  order: string[],
  owned: Map<string, TopicPartition[]>,
  counts: Map<string, number>,
  sortedTopics: string[],
  total: number,
  multipleOwners: Set<string>,
  transferring: Map<string, { tp: TopicPartition; to: string }>,
): Map<string, TopicPartition[]> {
  const n = order.length;
  const minQuota = Math.floor(total / n);
  const maxQuota = Math.ceil(total / n);
  const expectedOverMin = total % n;
  let currentOverMin = 0;
  const assignment = new Map(order.map((id) => [id, [] as TopicPartition[]]));
  const assigned: TopicPartition[] = [];
  const maybeRevoked = new Map<string, string>();
  let under: string[] = [];
  let exactly: string[] = [];
  // assignOwnedPartitions: owned partitions sorted by partition, then topic.
  for (const id of order) {
    const own = [...owned.get(id)!]
      .sort((a, b) => a.partition - b.partition || byString(a.topic, b.topic))
      .filter((tp) => !multipleOwners.has(key(tp)));
    const mine = assignment.get(id)!;
    if (own.length < minQuota) {
      mine.push(...own);
      assigned.push(...own);
      under.push(id);
    } else if (own.length >= maxQuota && currentOverMin < expectedOverMin) {
      currentOverMin++;
      if (currentOverMin === expectedOverMin) exactly = [];
      mine.push(...own.slice(0, maxQuota));
      assigned.push(...own.slice(0, maxQuota));
      for (const tp of own.slice(maxQuota)) maybeRevoked.set(key(tp), id);
    } else {
      mine.push(...own.slice(0, minQuota));
      assigned.push(...own.slice(0, minQuota));
      for (const tp of own.slice(minQuota)) maybeRevoked.set(key(tp), id);
      if (currentOverMin < expectedOverMin) exactly.push(id);
    }
  }
  // getUnassignedPartitions: topics in name order, partitions in order, less the assigned ones.
  const taken = new Set(assigned.map(key));
  const unassigned: TopicPartition[] = [];
  for (const topic of sortedTopics)
    for (let p = 0; p < counts.get(topic)!; p++)
      if (!taken.has(tpKey(topic, p))) unassigned.push({ topic, partition: p });
  under = under.sort(byString);
  exactly = exactly.sort(byString);
  const assignNew = (tp: TopicPartition, id: string): number => {
    const mine = assignment.get(id)!;
    mine.push(tp);
    const was = maybeRevoked.get(key(tp));
    if ((was !== undefined && was !== id) || multipleOwners.has(key(tp)))
      transferring.set(key(tp), { tp, to: id });
    return mine.length;
  };
  // assignRoundRobin: round-robin over the members below quota, then the extra slots first come.
  let cursor = 0;
  for (let i = 0; i < unassigned.length; i++) {
    const tp = unassigned[i]!;
    let id: string;
    if (cursor < under.length) id = under[cursor++]!;
    else if (!under.length && !exactly.length)
      throw new AssignorError('No more unfilled consumers to be assigned.');
    else if (!under.length) id = exactly.shift()!;
    else {
      cursor = 0;
      id = under[cursor++]!;
    }
    const count = assignNew(tp, id);
    if (count === minQuota) {
      under.splice(--cursor, 1);
      exactly.push(id);
    } else if (count === maxQuota) currentOverMin++;
  }
  // verifyUnfilledMembers
  if (under.length) {
    if (currentOverMin !== expectedOverMin)
      throw new AssignorError(
        "We haven't reached the expected number of members with more than the minQuota partitions, but no more partitions to be assigned",
      );
    for (const id of under)
      if (assignment.get(id)!.length !== minQuota)
        throw new AssignorError(
          `Consumer: [${id}] doesn't reach minQuota partitions, and no more partitions to be assigned`,
        );
  }
  return assignment;
}

/** PartitionMovements.getTheActualPartitionToBeMoved and movePartition, with the HashSet order they depend on. */
class PartitionMovements {
  private readonly byTopic = new Map<string, Map<string, JavaHashSet<TopicPartition>>>();
  private readonly movements = new Map<string, { src: string; dst: string }>();

  private pairKey(src: string, dst: string): string {
    return JSON.stringify([src, dst]);
  }

  private removeRecord(tp: TopicPartition): { src: string; dst: string } {
    const pair = this.movements.get(key(tp))!;
    this.movements.delete(key(tp));
    const forTopic = this.byTopic.get(tp.topic)!;
    const pk = this.pairKey(pair.src, pair.dst);
    forTopic.get(pk)!.delete(tp);
    if (!forTopic.get(pk)!.size) forTopic.delete(pk);
    if (!forTopic.size) this.byTopic.delete(tp.topic);
    return pair;
  }

  private addRecord(tp: TopicPartition, src: string, dst: string): void {
    this.movements.set(key(tp), { src, dst });
    let forTopic = this.byTopic.get(tp.topic);
    if (!forTopic) this.byTopic.set(tp.topic, (forTopic = new Map()));
    const pk = this.pairKey(src, dst);
    let set = forTopic.get(pk);
    if (!set) forTopic.set(pk, (set = new JavaHashSet(topicPartitionHash, key)));
    set.add(tp);
  }

  move(tp: TopicPartition, oldConsumer: string, newConsumer: string): void {
    if (this.movements.has(key(tp))) {
      const existing = this.removeRecord(tp);
      if (existing.src !== newConsumer) this.addRecord(tp, existing.src, newConsumer);
    } else this.addRecord(tp, oldConsumer, newConsumer);
  }

  actualPartitionToMove(tp: TopicPartition, oldConsumer: string, newConsumer: string): TopicPartition {
    const forTopic = this.byTopic.get(tp.topic);
    if (!forTopic) return tp;
    const m = this.movements.get(key(tp));
    if (m) oldConsumer = m.src;
    const reverse = forTopic.get(this.pairKey(newConsumer, oldConsumer));
    return reverse ? reverse.values()[0]! : tp;
  }
}

/** AbstractStickyAssignor.GeneralAssignmentBuilder (different subscriptions; no racks). */
function generalAssign(
  order: string[],
  subs: Map<string, StickySubscription>,
  current: Map<string, TopicPartition[]>,
  counts: Map<string, number>,
  total: number,
  maxGeneration: number,
): Map<string, TopicPartition[]> {
  const npe = (what: string): never => {
    throw new AssignorError(`NullPointerException: ${what}`);
  };
  const listOf = (id: string) => current.get(id) ?? npe(`no assignment for ${id}`);
  const topicConsumers = new Map<string, string[]>([...counts.keys()].map((t) => [t, []]));
  const consumerTopics = new Map<string, string[]>();
  for (const id of order) {
    const topics = subs.get(id)!.topics.filter((t) => counts.has(t));
    consumerTopics.set(id, topics);
    for (const t of topics) topicConsumers.get(t)!.push(id);
    if (!current.has(id)) current.set(id, []);
  }
  const partitionConsumer = new Map<string, string>();
  for (const [id, tps] of current) for (const tp of tps) partitionConsumer.set(key(tp), id);
  const topicOrder = (a: string, b: string) =>
    topicConsumers.get(a)!.length - topicConsumers.get(b)!.length || byString(a, b);
  const sortedTopics = [...topicConsumers.keys()].sort(topicOrder);
  let sortedAll: TopicPartition[] = [];
  for (const t of sortedTopics)
    for (let p = 0; p < counts.get(t)!; p++) sortedAll.push({ topic: t, partition: p });
  // sortedCurrentSubscriptions: a TreeSet by assignment size, then member id.
  const inTree = new Set<string>();
  const sortedMembers = () =>
    [...inTree].sort((a, b) => listOf(a).length - listOf(b).length || byString(a, b));
  const movements = new PartitionMovements();

  // prepopulateCurrentAssignments: the highest earlier generation that owned each partition.
  const prev = new Map<string, { consumer: string; generation: number }>();
  for (const id of order) {
    const s = subs.get(id)!;
    const gen = memberGeneration(s);
    if (gen < maxGeneration)
      for (const tp of s.ownedPartitions) {
        const was = prev.get(key(tp));
        if (!was || gen > was.generation) prev.set(key(tp), { consumer: id, generation: gen });
      }
  }
  // assignOwnedPartitions
  let revocationRequired = false;
  const assigned: TopicPartition[] = [];
  for (const [id, tps] of current) {
    const s = subs.get(id)!;
    for (const tp of [...tps]) {
      if (!topicConsumers.has(tp.topic)) {
        removeFrom(tps, tp);
        partitionConsumer.delete(key(tp));
      } else if (!s.topics.includes(tp.topic)) {
        removeFrom(tps, tp);
        revocationRequired = true;
      } else assigned.push(tp);
    }
  }
  // getUnassignedPartitions (the same list as sortedAll when nothing is assigned)
  const assignedKeys = new Set(assigned.map(key));
  let unassigned = assigned.length ? sortedAll.filter((tp) => !assignedKeys.has(key(tp))) : sortedAll;
  for (const id of current.keys()) inTree.add(id);

  const maxAssignmentSize = (topics: string[]) =>
    topics.length === counts.size ? total : topics.reduce((n, t) => n + counts.get(t)!, 0);
  const isBalanced = (): boolean => {
    const members = sortedMembers();
    if (listOf(members[0] ?? npe('empty TreeSet')).length >= listOf(members[members.length - 1]!).length - 1)
      return true;
    const owner = new Map<string, string>();
    for (const [id, tps] of current) for (const tp of tps) owner.set(key(tp), id);
    for (const id of members) {
      const mine = listOf(id);
      const topics = consumerTopics.get(id)!;
      if (mine.length === maxAssignmentSize(topics)) continue;
      const mineKeys = new Set(mine.map(key));
      for (const t of topics)
        for (let p = 0; p < counts.get(t)!; p++) {
          if (mineKeys.has(tpKey(t, p))) continue;
          const other = owner.get(tpKey(t, p)) ?? npe(`no owner for ${t}-${p}`);
          if (mine.length + 1 < listOf(other).length) return false;
        }
    }
    return true;
  };
  const assignTo = (tp: TopicPartition, id: string) => {
    listOf(id).push(tp);
    partitionConsumer.set(key(tp), id);
  };
  const processMovement = (tp: TopicPartition, to: string) => {
    const from = partitionConsumer.get(key(tp)) ?? npe(`no consumer for ${key(tp)}`);
    movements.move(tp, from, to);
    removeFrom(listOf(from), tp);
    assignTo(tp, to);
  };
  const reassign = (tp: TopicPartition, to?: string) => {
    to ??= sortedMembers().find((id) => consumerTopics.get(id)!.includes(tp.topic));
    if (to === undefined) return npe('no new consumer');
    const from = partitionConsumer.get(key(tp)) ?? npe(`no consumer for ${key(tp)}`);
    processMovement(movements.actualPartitionToMove(tp, from, to), to);
  };
  const performReassignments = (partitions: TopicPartition[]): boolean => {
    let performed = false;
    let modified: boolean;
    do {
      modified = false;
      for (const tp of partitions) {
        if (isBalanced()) break;
        const consumer = partitionConsumer.get(key(tp)) ?? npe(`no consumer for ${key(tp)}`);
        const was = prev.get(key(tp));
        if (was && listOf(consumer).length > listOf(was.consumer).length + 1) {
          reassign(tp, was.consumer);
          performed = modified = true;
          continue;
        }
        for (const other of topicConsumers.get(tp.topic)!)
          if (listOf(consumer).length > listOf(other).length + 1) {
            reassign(tp);
            performed = modified = true;
            break;
          }
      }
    } while (modified);
    return performed;
  };
  const score = (a: Map<string, TopicPartition[]>) => {
    const sizes = [...a.values()].map((x) => x.length);
    let s = 0;
    for (let i = 0; i < sizes.length; i++)
      for (let j = i + 1; j < sizes.length; j++) s += Math.abs(sizes[i]! - sizes[j]!);
    return s;
  };

  // balance
  const members = sortedMembers();
  const initializing = listOf(members[members.length - 1] ?? npe('empty TreeSet')).length === 0;
  for (const tp of unassigned) {
    if (!topicConsumers.get(tp.topic)!.length) continue;
    const to = sortedMembers().find((id) => consumerTopics.get(id)!.includes(tp.topic));
    if (to !== undefined) assignTo(tp, to);
  }
  const fixedTopics = new Set([...topicConsumers].filter(([, c]) => c.length < 2).map(([t]) => t));
  const same = unassigned === sortedAll;
  sortedAll = sortedAll.filter((tp) => !fixedTopics.has(tp.topic));
  unassigned = same ? sortedAll : unassigned.filter((tp) => !fixedTopics.has(tp.topic));
  const fixed = new Map<string, TopicPartition[]>();
  for (const id of consumerTopics.keys()) {
    const mine = listOf(id);
    const canParticipate =
      mine.length < maxAssignmentSize(consumerTopics.get(id)!) ||
      mine.some((tp) => topicConsumers.get(tp.topic)!.length >= 2);
    if (!canParticipate) {
      inTree.delete(id);
      fixed.set(id, mine);
      current.delete(id);
    }
  }
  const before = new Map([...current].map(([id, tps]) => [id, [...tps]]));
  const beforeConsumers = new Map(partitionConsumer);
  if (!revocationRequired) performReassignments(unassigned);
  const performed = performReassignments(sortedAll);
  if (!initializing && performed && score(current) >= score(before)) {
    current.clear();
    for (const [id, tps] of before) current.set(id, [...tps]);
    partitionConsumer.clear();
    for (const [k, v] of beforeConsumers) partitionConsumer.set(k, v);
  }
  for (const [id, tps] of fixed) current.set(id, tps);
  return current;
}

// ---- the broker's assignors for KIP-848 groups (group.consumer.assignors = uniform, range) --------

export interface ServerAssignorMember {
  memberId: string;
  /** The ids of the existing topics the member subscribes to (TopicIds), in its set's order. */
  topicIds: string[];
  /**
   * The member's previous target assignment as the coordinator holds it (Assignment.fromRecord):
   * per topic id, in the record's order, the partitions.
   */
  previous: { topicId: string; partitions: number[] }[];
}

/** Uuid.compareTo: most significant long, then least, both signed. */
function compareUuid(a: string, b: string): number {
  const x = uuidWords(a);
  const y = uuidWords(b);
  for (let i = 0; i < 4; i++) {
    // Words 0 and 2 carry each long's sign; 1 and 3 compare unsigned.
    const u = i % 2 === 0 ? x[i]! | 0 : x[i]!;
    const v = i % 2 === 0 ? y[i]! | 0 : y[i]!;
    if (u !== v) return u < v ? -1 : 1;
  }
  return 0;
}

const intSet = (partitions: number[]) =>
  new JavaHashSet<number>((p) => p, String, javaCopyCapacity(partitions.length), partitions);

/**
 * UniformAssignor (group-coordinator/.../assignor/UniformAssignor.java): members in the order of the
 * coordinator's HashMap of member specs (member-id hash order; `members` in insertion order),
 * UniformHomogeneousAssignmentBuilder when every member subscribes to the same topics, else
 * UniformHeterogeneousAssignmentBuilder. Returns, per member id, the partitions by topic id.
 */
export function uniformAssign(
  members: ServerAssignorMember[],
  partitionsPerTopicId: Record<string, number>,
): Map<string, { topicId: string; partition: number }[]> {
  const out = new Map<string, { topicId: string; partition: number }[]>();
  if (!members.length) return out;
  const specs = new Map(members.map((m) => [m.memberId, m]));
  const memberIds = hashOrder(members.map((m) => m.memberId));
  // ConsumerGroup.subscriptionType: homogeneous when every member has the same subscription.
  const subsKey = (m: ServerAssignorMember) => [...new Set(m.topicIds)].sort().join(',');
  const homogeneous = members.every((m) => subsKey(m) === subsKey(members[0]!));
  const result = homogeneous
    ? uniformHomogeneous(memberIds, specs, partitionsPerTopicId)
    : uniformHeterogeneous(memberIds, specs, partitionsPerTopicId);
  for (const id of [...memberIds].sort(byString)) {
    const parts = result.get(id);
    if (!parts) continue;
    const list: { topicId: string; partition: number }[] = [];
    for (const [topicId, ps] of parts)
      for (const partition of [...ps].sort((a, b) => a - b)) list.push({ topicId, partition });
    out.set(id, list);
  }
  return out;
}

/** A member's set of subscribed topic ids, as the HashSet Kafka iterates. */
const topicIdSet = (ids: string[], capacity?: number) =>
  new JavaHashSet<string>(uuidHashCode, (t) => t, capacity, ids);

/** The previous assignment as a HashMap of topic id to a HashSet of partitions (Assignment.fromRecord). */
function previousAssignment(m: ServerAssignorMember): { topicId: string; partitions: number[] }[] {
  const byId = new Map(m.previous.map((x) => [x.topicId, x.partitions]));
  return topicIdSet(m.previous.map((x) => x.topicId))
    .values()
    .map((topicId) => ({ topicId, partitions: intSet(byId.get(topicId)!).values() }));
}

/** UniformHomogeneousAssignmentBuilder (every member subscribed to the same topics). */
function uniformHomogeneous(
  memberIds: string[],
  specs: Map<string, ServerAssignorMember>,
  counts: Record<string, number>,
): Map<string, Map<string, Set<number>>> {
  const target = new Map<string, Map<string, Set<number>>>();
  const first = specs.get(memberIds[0]!)!;
  const subscribed = topicIdSet(
    topicIdSet(first.topicIds).values(),
    javaCopyCapacity(new Set(first.topicIds).size),
  );
  if (!subscribed.size) return target;
  const assignedBefore = new Set<string>();
  for (const m of specs.values())
    for (const x of m.previous) for (const p of x.partitions) assignedBefore.add(`${x.topicId}:${p}`);
  const unassigned: { topicId: string; partition: number }[] = [];
  let total = 0;
  for (const topicId of subscribed.values()) {
    const n = counts[topicId];
    if (n === undefined)
      throw new AssignorError(
        `Members are subscribed to topic ${topicId} which doesn't exist in the topic metadata.`,
      );
    for (let p = 0; p < n; p++)
      if (!assignedBefore.has(`${topicId}:${p}`)) unassigned.push({ topicId, partition: p });
    total += n;
  }
  const minQuota = Math.floor(total / memberIds.length);
  let extra = total % memberIds.length;
  const unfilled: { memberId: string; remaining: number }[] = [];
  // maybeRevokePartitions: the first members (in hash order) get one more; each keeps its previous
  // partitions up to its quota, in the HashMap/HashSet order, and gives up the rest.
  for (const memberId of memberIds) {
    const mine = new Map<string, Set<number>>();
    let quota = minQuota;
    if (extra > 0) {
      quota++;
      extra--;
    }
    for (const { topicId, partitions } of previousAssignment(specs.get(memberId)!)) {
      if (!subscribed.has(topicId)) continue;
      const kept = new Set<number>();
      if (partitions.length <= quota) {
        quota -= partitions.length;
        for (const p of partitions) kept.add(p);
      } else
        for (const p of partitions) {
          if (quota > 0) {
            quota--;
            kept.add(p);
          } else unassigned.push({ topicId, partition: p });
        }
      if (kept.size) mine.set(topicId, kept);
    }
    if (quota > 0) unfilled.push({ memberId, remaining: quota });
    target.set(memberId, mine);
  }
  // assignRemainingPartitions: the members short of their quota, in the same order.
  let i = 0;
  for (const { memberId, remaining } of unfilled) {
    const mine = target.get(memberId)!;
    for (let n = 0; n < remaining && i < unassigned.length; n++, i++) {
      const { topicId, partition } = unassigned[i]!;
      let set = mine.get(topicId);
      if (!set) mine.set(topicId, (set = new Set()));
      set.add(partition);
    }
  }
  if (i < unassigned.length) throw new AssignorError('Partitions were left unassigned');
  return target;
}

/** UniformHeterogeneousAssignmentBuilder (members subscribed to different topics). */
function uniformHeterogeneous(
  memberIds: string[],
  specs: Map<string, ServerAssignorMember>,
  counts: Record<string, number>,
): Map<string, Map<string, Set<number>>> {
  const MAX_ITERATION_COUNT = 16;
  const target = new Map<string, Map<string, Set<number>>>();
  const index = new Map(memberIds.map((id, i) => [id, i]));
  const subscribers = new Map<string, number[]>();
  const sizes = memberIds.map(() => 0);
  memberIds.forEach((id, i) => {
    for (const topicId of topicIdSet(specs.get(id)!.topicIds).values()) {
      if (counts[topicId] === undefined)
        throw new AssignorError(
          `Members are subscribed to topic ${topicId} which doesn't exist in the topic metadata.`,
        );
      let list = subscribers.get(topicId);
      if (!list) subscribers.set(topicId, (list = []));
      list.push(i);
    }
  });
  if (!subscribers.size) return target;
  const topicOrder = (a: string, b: string) =>
    counts[b]! / subscribers.get(b)!.length - counts[a]! / subscribers.get(a)!.length ||
    subscribers.get(a)!.length - subscribers.get(b)!.length ||
    compareUuid(a, b);
  const memberOrder = (a: number, b: number) => sizes[a]! - sizes[b]! || a - b;
  const owners = new Map([...subscribers.keys()].map((t) => [t, new Array<number>(counts[t]!).fill(-1)]));
  // maybeRevokePartitions: keep what is still subscribed.
  for (const id of memberIds) {
    const i = index.get(id)!;
    const subs = new Set(specs.get(id)!.topicIds);
    const mine = new Map<string, Set<number>>();
    for (const { topicId, partitions } of specs.get(id)!.previous) {
      if (!subs.has(topicId)) continue;
      sizes[i]! += partitions.length;
      for (const p of partitions) owners.get(topicId)![p] = i;
      mine.set(topicId, new Set(partitions));
    }
    target.set(id, mine);
  }
  const add = (topicId: string, p: number, i: number) => {
    const mine = target.get(memberIds[i]!)!;
    let set = mine.get(topicId);
    if (!set) mine.set(topicId, (set = new Set()));
    set.add(p);
    owners.get(topicId)![p] = i;
    sizes[i]!++;
  };
  const assign = (topicId: string, p: number, i: number) => {
    const old = owners.get(topicId)![p]!;
    if (old !== -1) {
      const mine = target.get(memberIds[old]!)!;
      const set = mine.get(topicId);
      if (set) {
        set.delete(p);
        if (!set.size) mine.delete(topicId);
      }
      owners.get(topicId)![p] = -1;
      sizes[old]!--;
    }
    add(topicId, p, i);
  };

  // MemberAssignmentBalancer
  const balancer = {
    sorted: [] as number[],
    leastEnd: 0,
    leastCount: -1,
    nextLeast: 0,
    mostStart: 0,
    mostEnd: 0,
    mostCount: 1,
    nextMost: -1,
    initialize(members: number[]): number {
      this.sorted = [...members].sort(memberOrder);
      const s = this.sorted;
      this.leastEnd = 0;
      this.leastCount = sizes[s[0]!]! - 1;
      this.nextLeast = 0;
      this.mostStart = s.length;
      this.mostEnd = s.length;
      this.mostCount = sizes[s[s.length - 1]!]! + 1;
      this.nextMost = s.length - 1;
      return sizes[s[s.length - 1]!]! - sizes[s[0]!]!;
    },
    nextLeastLoaded(): number {
      const s = this.sorted;
      if (this.nextLeast >= this.leastEnd) {
        this.leastCount++;
        while (this.leastEnd < s.length && sizes[s[this.leastEnd]!] === this.leastCount) this.leastEnd++;
        this.nextLeast = 0;
      }
      return s[this.nextLeast++]!;
    },
    nextMostLoaded(): number {
      const s = this.sorted;
      if (this.nextMost < this.mostStart) {
        if (this.mostEnd <= this.mostStart && this.mostStart > 0)
          this.mostCount = sizes[s[this.mostStart - 1]!]!;
        else this.mostCount--;
        while (this.mostStart > 0 && sizes[s[this.mostStart - 1]!] === this.mostCount) this.mostStart--;
        this.nextMost = this.mostEnd - 1;
      }
      if (this.nextMost < 0) return -1;
      return s[this.nextMost--]!;
    },
    excludeMostLoaded(): void {
      const s = this.sorted;
      const m = s[this.nextMost + 1]!;
      s[this.nextMost + 1] = s[this.mostEnd - 1]!;
      s[this.mostEnd - 1] = m;
      this.mostEnd--;
    },
    isBalanced(): boolean {
      return this.mostCount - this.leastCount <= 1;
    },
  };

  // assignRemainingPartitions: topics by partitions per subscriber, each to the least loaded subscriber.
  const unassigned = new Map<string, number[]>();
  for (const [topicId, own] of owners) {
    const free = own.flatMap((o, p) => (o === -1 ? [p] : []));
    if (free.length) unassigned.set(topicId, free);
  }
  for (const topicId of [...unassigned.keys()].sort(topicOrder)) {
    balancer.initialize(subscribers.get(topicId)!);
    for (const p of unassigned.get(topicId)!) add(topicId, p, balancer.nextLeastLoaded());
  }
  // balance, balanceTopics, balanceTopic
  const topics = [...subscribers.keys()].filter((t) => subscribers.get(t)!.length >= 2).sort(topicOrder);
  const balanceTopic = (topicId: string): number => {
    let moved = 0;
    const own = owners.get(topicId)!;
    if (balancer.initialize(subscribers.get(topicId)!) <= 1) return moved;
    const partitions = own.map((_, p) => p).sort((a, b) => own[a]! - own[b]! || a - b);
    const start = new Map<number, number>();
    const end = new Map<number, number>();
    partitions.forEach((p, i) => {
      if (!start.has(own[p]!)) start.set(own[p]!, i);
      end.set(own[p]!, i + 1);
    });
    while (!balancer.isBalanced()) {
      let most: number;
      for (;;) {
        most = balancer.nextMostLoaded();
        if (most === -1) break;
        if (!end.has(most) || end.get(most)! - start.get(most)! <= 0) {
          balancer.excludeMostLoaded();
          continue;
        }
        break;
      }
      if (most === -1) break;
      const p = partitions[end.get(most)! - 1]!;
      end.set(most, end.get(most)! - 1);
      const least = balancer.nextLeastLoaded();
      if (balancer.isBalanced()) break;
      assign(topicId, p, least);
      moved++;
    }
    return moved;
  };
  if (topics.length) {
    let last = -1;
    outer: for (let n = 0; n < MAX_ITERATION_COUNT; n++)
      for (let t = 0; t < topics.length; t++) {
        if (t === last) break outer;
        if (balanceTopic(topics[t]!) > 0 || last === -1) last = t;
      }
  }
  return target;
}
