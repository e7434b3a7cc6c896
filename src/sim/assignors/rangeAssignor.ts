// The RangeAssignor: client side, and the broker's `range` for KIP-848 groups. The other assignors
// are beside it (cooperativeStickyAssignor.ts, uniformAssignor.ts); each follows Kafka's code step
// by step, including the java.util.HashMap/HashSet iteration orders that decide its result
// (kernel/javaHash.ts), and cooperative-sticky and uniform are checked against Kafka's own outputs
// (assignors.golden.json).

import type { Subscription } from '../model/messages';
import type { Assignment } from './assignment';

export interface AssignorMember {
  memberId: string;
  subscription: Subscription;
}

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
