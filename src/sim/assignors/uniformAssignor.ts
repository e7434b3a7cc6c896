// The UniformAssignor of KIP-848 groups (group.consumer.assignors = uniform), after Kafka's
// UniformHomogeneousAssignmentBuilder and UniformHeterogeneousAssignmentBuilder.

import { JavaHashSet, javaCopyCapacity } from '../kernel/javaHash';
import { uuidHashCode, uuidWords } from '../kernel/uuid';
import { AssignorError, byString, hashOrder } from './assignment';

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
