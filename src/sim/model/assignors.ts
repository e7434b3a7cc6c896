// Partition assignors, run by the group leader (the consumer the coordinator picked):
// RangeAssignor and CooperativeStickyAssignor, as in Kafka's clients.

import type { Subscription, TopicPartition } from './messages';
import { compareTopicPartition, tpKey } from './metadata';

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

/** Members in member-id order (the assignors' deterministic order). */
function byMemberId<M extends { memberId: string }>(members: M[]): M[] {
  return [...members].sort((a, b) => (a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0));
}

/** Every partition of the given topics, topics in name order. */
function partitionsOf(topics: string[], partitionsPerTopic: Record<string, number>): TopicPartition[] {
  const all: TopicPartition[] = [];
  for (const topic of [...new Set(topics)].sort())
    for (let p = 0; p < (partitionsPerTopic[topic] ?? 0); p++) all.push({ topic, partition: p });
  return all;
}

/**
 * CooperativeStickyAssignor: a balanced assignment that keeps each member's owned partitions where it
 * can; a partition that must move from a member still in the group is left out of this round, so
 * its owner revokes it first and it is assigned in the follow-up rebalance (KIP-429).
 */
export function cooperativeStickyAssign(
  members: AssignorMember[],
  partitionsPerTopic: Record<string, number>,
): Assignment {
  const sorted = byMemberId(members);
  const out: Assignment = new Map(sorted.map((m) => [m.memberId, []]));
  const all = partitionsOf(
    members.flatMap((m) => m.subscription.topics),
    partitionsPerTopic,
  );
  const exists = new Set(all.map(key));
  const owner = new Map<string, string>();
  const claimed = new Map<string, number>();
  for (const m of sorted)
    for (const tp of m.subscription.ownedPartitions) claimed.set(key(tp), (claimed.get(key(tp)) ?? 0) + 1);
  const minQuota = sorted.length ? Math.floor(all.length / sorted.length) : 0;
  let extraSlots = sorted.length ? all.length % sorted.length : 0;
  const taken = new Set<string>();
  // Step 1: members keep what they own, up to their quota.
  for (const m of sorted) {
    const own = m.subscription.ownedPartitions
      .filter(
        (tp) => exists.has(key(tp)) && claimed.get(key(tp)) === 1 && m.subscription.topics.includes(tp.topic),
      )
      .sort((a, b) => (key(a) < key(b) ? -1 : 1));
    for (const tp of own) owner.set(key(tp), m.memberId);
    let keep = Math.min(own.length, minQuota);
    if (own.length > minQuota && extraSlots > 0) {
      keep = minQuota + 1;
      extraSlots--;
    }
    for (const tp of own.slice(0, keep)) {
      out.get(m.memberId)!.push(tp);
      taken.add(key(tp));
    }
  }
  // Step 2: the rest go to the least loaded subscribed member (ties by member id).
  for (const tp of all) {
    if (taken.has(key(tp))) continue;
    let best: AssignorMember | null = null;
    for (const m of sorted) {
      if (!m.subscription.topics.includes(tp.topic)) continue;
      const n = out.get(m.memberId)!.length;
      if (!best || n < out.get(best.memberId)!.length) best = m;
    }
    if (!best) continue;
    const prev = owner.get(key(tp));
    // Still owned by another member: it must be revoked before anyone else gets it.
    if (prev !== undefined && prev !== best.memberId) {
      out.get(best.memberId)!.push({ topic: '', partition: -1 }); // reserve the slot for balance
      continue;
    }
    out.get(best.memberId)!.push(tp);
  }
  for (const [id, tps] of out)
    out.set(
      id,
      tps.filter((tp) => tp.partition >= 0),
    );
  return out;
}

// ---- the broker's assignors for KIP-848 groups (group.consumer.assignors = uniform, range) --------

export interface ServerAssignorMember {
  memberId: string;
  topics: string[];
  /** The member's part of the previous target assignment: the uniform assignor keeps it where it can. */
  previous: TopicPartition[];
}

/**
 * UniformAssignor (KIP-848's default): with every member subscribed to the same topics,
 * OptimizedUniformAssignmentBuilder: each member keeps up to its quota (P/M, the first P%M one more)
 * of its previous target, and the unassigned partitions fill the members short of their quota, in order.
 * Different subscriptions (UniformHeterogeneousAssignmentBuilder): each partition goes, sticky first, to
 * the least loaded subscribed member. Kafka iterates members in hash order; here, by member id.
 */
export function uniformAssign(
  members: ServerAssignorMember[],
  partitionsPerTopic: Record<string, number>,
): Assignment {
  const sorted = byMemberId(members);
  const out: Assignment = new Map(sorted.map((m) => [m.memberId, []]));
  if (!sorted.length) return out;
  const topicsOf = (m: ServerAssignorMember) => [...new Set(m.topics)].sort().join(',');
  const homogeneous = sorted.every((m) => topicsOf(m) === topicsOf(sorted[0]!));
  const all = partitionsOf(
    sorted.flatMap((m) => m.topics),
    partitionsPerTopic,
  );
  const valid = (m: ServerAssignorMember, tp: TopicPartition) =>
    m.topics.includes(tp.topic) && tp.partition < (partitionsPerTopic[tp.topic] ?? 0);
  const taken = new Set<string>();
  if (homogeneous) {
    const minQuota = Math.floor(all.length / sorted.length);
    let extra = all.length % sorted.length;
    const unfilled: { id: string; remaining: number }[] = [];
    // Step 1: keep the previous target up to the quota; one more while extra slots remain.
    for (const m of sorted) {
      const own = m.previous.filter((tp) => valid(m, tp) && !taken.has(key(tp))).sort(compareTopicPartition);
      let quota = minQuota;
      if (own.length > minQuota && extra > 0) {
        quota++;
        extra--;
      }
      for (const tp of own.slice(0, quota)) {
        out.get(m.memberId)!.push(tp);
        taken.add(key(tp));
      }
      if (own.length < quota) unfilled.push({ id: m.memberId, remaining: quota - own.length });
    }
    // Step 2: members short of their quota take the extra slots left, then the unassigned partitions.
    for (const u of unfilled)
      if (extra > 0) {
        u.remaining++;
        extra--;
      }
    const unassigned = all.filter((tp) => !taken.has(key(tp)));
    let i = 0;
    for (const u of unfilled)
      for (let n = 0; n < u.remaining && i < unassigned.length; n++) out.get(u.id)!.push(unassigned[i++]!);
  } else {
    for (const tp of all) {
      const subscribed = sorted.filter((m) => m.topics.includes(tp.topic));
      if (!subscribed.length) continue;
      const least = Math.min(...subscribed.map((m) => out.get(m.memberId)!.length));
      const prev = subscribed.find((m) => m.previous.some((x) => key(x) === key(tp)));
      const to =
        prev && out.get(prev.memberId)!.length <= least
          ? prev
          : subscribed.find((m) => out.get(m.memberId)!.length === least)!;
      out.get(to.memberId)!.push(tp);
    }
  }
  for (const tps of out.values()) tps.sort(compareTopicPartition);
  return out;
}
