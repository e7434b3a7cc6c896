// The finalized feature levels a new cluster is formatted with (`kafka-storage format`, KIP-584,
// KIP-778, KIP-1022): the metadata.version and each feature at its default level for a new Kafka
// 4.1 cluster (server-common's MetadataVersion and Feature). The first active controller writes
// them to the metadata log as FeatureLevelRecords (kraft/quorumController.ts).

import type { World } from './world';

/** metadata.version 4.1-IV1, the latest production level of Kafka 4.1 (MetadataVersion.IBP_4_1_IV1). */
export const METADATA_VERSION = { name: '4.1-IV1', featureLevel: 27 } as const;

/**
 * The features a new cluster finalizes besides metadata.version, in name order, with their levels
 * (a level of 0 writes no record). eligible.leader.replicas.version follows the scenario's cluster
 * config of that name (KIP-966: 1 for new 4.1 clusters).
 */
export function bootstrapFeatures(w: World): [name: string, featureLevel: number][] {
  const elr = Number(w.config['eligible.leader.replicas.version'] ?? 1);
  const levels: [string, number][] = [
    ['metadata.version', METADATA_VERSION.featureLevel],
    ['eligible.leader.replicas.version', elr],
    ['group.version', 1],
    // A new 4.1 cluster finalizes transaction.version 2 (KIP-890 part 2: an epoch bump per
    // transaction); the simulator's transactions are KIP-98's, as at level 0, so none is written.
    ['transaction.version', 0],
  ];
  return levels.filter(([, level]) => level > 0);
}
