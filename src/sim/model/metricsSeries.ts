// The vital-signs series kept in the World (observe/metrics.ts samples it into it).

import type { NodeId } from './types';

/** Samples kept: ten simulated minutes. */
export const METRICS_CAPACITY = 600;
export const METRICS_INTERVAL_MS = 1000;

export interface ProduceLatency {
  /** Records acknowledged in this second. */
  acked: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface MetricsSample {
  timeMs: number;
  offlinePartitions: number;
  underReplicatedPartitions: number;
  underMinIsrPartitions: number;
  /** Partitions with a reassignment in progress. */
  reassigningPartitions: number;
  isrShrinksPerSec: number;
  isrExpandsPerSec: number;
  leaderElectionsPerSec: number;
  /** KRaft controller activations (a new active controller) in this second. */
  controllerElections: number;
  /** Records that failed for good in this second (ProduceFailed), by error. */
  produceErrors: Record<string, number>;
  /** Acknowledged records and their send-to-ack latency, by acks ("0", "1", "all"). */
  produce: Record<string, ProduceLatency>;
  /**
   * Consumer lag per group: HW − committed offset summed over its partitions (HW for an assigned partition
   * with nothing committed), as the snapshot's groups count it; a group no running coordinator holds is absent.
   */
  consumerLag: Record<string, number>;
  /** Per broker: bytes in and out in this second, and how many metadata records it has not applied yet. */
  brokers: { nodeId: NodeId; bytesInPerSec: number; bytesOutPerSec: number; metadataLag: number }[];
}

export interface MetricsState {
  samples: MetricsSample[];
  nextSampleMs: number;
  /** Ledger entries below this record id are settled and counted. */
  ledgerCursor: number;
  eventCursor: number;
  /** Cumulative traffic at the previous sample, per node. */
  lastTraffic: Map<NodeId, { bytesIn: number; bytesOut: number }>;
}
