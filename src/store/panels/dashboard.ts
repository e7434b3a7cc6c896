// The partitions dashboard: one row per partition with Kafka's health flags (under-replicated,
// under min ISR, offline, not on its preferred leader), sorted and filtered as the table asks.
import type { ConfigValue, PartitionView, Snapshot } from '../../sim/types';

export interface DashboardRow {
  key: string;
  topic: string;
  partition: number;
  /** The leader's broker id, -1 when offline. */
  leader: number;
  leaderEpoch: number;
  replicas: number[];
  isr: number[];
  elr: number[];
  /** The leader is the first replica (Kafka's preferred leader). */
  preferredLeader: boolean;
  /** Fewer in-sync replicas than replicas (Kafka's UnderReplicatedPartitions). */
  underReplicated: boolean;
  /** Fewer in-sync replicas than min.insync.replicas: acks=all writes fail with NOT_ENOUGH_REPLICAS. */
  underMinIsr: boolean;
  /** No leader (Kafka's OfflinePartitionsCount). */
  offline: boolean;
  minInsyncReplicas: number;
  highWatermark: number;
  /** Topics whose names start with "__" are Kafka's own (__consumer_offsets). */
  internal: boolean;
}

/** min.insync.replicas of a topic: its own config, else Kafka's default of 1. */
export function topicMinIsr(config: Record<string, ConfigValue> | undefined): number {
  const value = Number(config?.['min.insync.replicas']);
  return Number.isInteger(value) && value >= 1 ? value : 1;
}

export function dashboardRow(p: PartitionView, minIsr: number): DashboardRow {
  const offline = p.leader === -1;
  return {
    key: `${p.topic}-${p.partition}`,
    topic: p.topic,
    partition: p.partition,
    leader: p.leader,
    leaderEpoch: p.leaderEpoch,
    replicas: p.replicas,
    isr: p.isr,
    elr: p.elr,
    preferredLeader: !offline && p.leader === p.replicas[0],
    underReplicated: p.isr.length < p.replicas.length,
    // An RF below min.insync.replicas can never reach it; Kafka then requires every replica.
    underMinIsr: p.isr.length < Math.min(minIsr, p.replicas.length),
    offline,
    minInsyncReplicas: minIsr,
    highWatermark: p.highWatermark,
    internal: p.topic.startsWith('__'),
  };
}

/** Topic-partition order: by topic name, then partition (a sort comparator). */
export const byTopicThenPartition = (
  a: { topic: string; partition: number },
  b: { topic: string; partition: number },
): number => (a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1);

/** One row per partition, in the snapshot's order. */
export function dashboardRowsOf(snapshot: Snapshot | null): DashboardRow[] {
  if (!snapshot) return [];
  const minIsr = new Map(snapshot.topics.map((t) => [t.name, topicMinIsr(t.config)]));
  return snapshot.partitions.map((p) => dashboardRow(p, minIsr.get(p.topic) ?? 1));
}

/** One row per partition, in topic then partition order. */
export function selectDashboardRows(snapshot: Snapshot | null): DashboardRow[] {
  return dashboardRowsOf(snapshot).sort(byTopicThenPartition);
}

export type DashboardSortKey = 'partition' | 'leader' | 'isr' | 'status' | 'highWatermark';
export type SortDirection = 'ascending' | 'descending';

/** Worse first when ascending: offline, then under min ISR, under-replicated, not the preferred leader. */
export function problemScore(row: DashboardRow): number {
  return (
    (row.offline ? 8 : 0) +
    (row.underMinIsr ? 4 : 0) +
    (row.underReplicated ? 2 : 0) +
    (row.preferredLeader || row.offline ? 0 : 1)
  );
}

const SORTS: Record<DashboardSortKey, (a: DashboardRow, b: DashboardRow) => number> = {
  partition: byTopicThenPartition,
  leader: (a, b) => a.leader - b.leader,
  isr: (a, b) => a.isr.length - b.isr.length,
  status: (a, b) => problemScore(b) - problemScore(a),
  highWatermark: (a, b) => a.highWatermark - b.highWatermark,
};

/** A stable sort: rows that tie stay in topic then partition order. */
export function sortDashboardRows(
  rows: readonly DashboardRow[],
  key: DashboardSortKey,
  direction: SortDirection,
): DashboardRow[] {
  const sign = direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => sign * SORTS[key](a, b) || byTopicThenPartition(a, b));
}

export interface DashboardFilter {
  /** Part of the topic name, or "topic-partition" (case-insensitive). */
  text: string;
  onlyProblems: boolean;
  showInternal: boolean;
}

export function filterDashboardRows(rows: readonly DashboardRow[], filter: DashboardFilter): DashboardRow[] {
  const text = filter.text.trim().toLowerCase();
  return rows.filter(
    (row) =>
      (filter.showInternal || !row.internal) &&
      (!filter.onlyProblems || problemScore(row) > 0) &&
      (text === '' || row.key.toLowerCase().includes(text)),
  );
}
