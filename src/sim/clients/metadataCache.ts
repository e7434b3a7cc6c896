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

/** Whether `partitions` name a partition not known yet, or one at a newer leader epoch (Metadata.updateLatestMetadata). */
export function changesLeaders(
  leaders: Map<string, { leader: NodeId; leaderEpoch: number }[]>,
  partitions: readonly MetadataPartition[],
): boolean {
  for (const part of partitions) {
    const known = leaders.get(part.topic)?.[part.partition];
    if (!known || part.leaderEpoch > known.leaderEpoch) return true;
  }
  return false;
}
