// The client's view of the cluster (Kafka's clients/Metadata): the leaders it last learned per topic.

import type { MetadataPartition } from '../model/messages';
import type { NodeId } from '../model/types';

/** A client's leaders per topic from a MetadataResponse: each topic it names is replaced whole. */
export function setLeaders(
  leaders: Map<string, { leader: NodeId; leaderEpoch: number }[]>,
  partitions: readonly MetadataPartition[],
): void {
  const byTopic = new Map<string, { leader: NodeId; leaderEpoch: number }[]>();
  for (const part of partitions) {
    let arr = byTopic.get(part.topic);
    if (!arr) byTopic.set(part.topic, (arr = []));
    arr[part.partition] = { leader: part.leader, leaderEpoch: part.leaderEpoch };
  }
  for (const [t, arr] of byTopic) leaders.set(t, arr);
}
