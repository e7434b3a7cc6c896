// CooperativeStickyAssignor (client side, KIP-429), after Kafka's AbstractStickyAssignor and
// CooperativeStickyAssignor: the constrained and the general assignment builders.

import type { Subscription, TopicPartition } from '../model/messages';
import { compareTopicPartition, tpKey } from '../model/metadata';
import { JavaHashSet } from '../kernel/javaHash';
import type { Assignment } from './assignment';
import { AssignorError, byMemberId, byString, hashOrder, key, topicPartitionHash } from './assignment';

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
