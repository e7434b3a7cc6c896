// The partition matrix: every partition of a large cluster as one cell, a row of cells per topic,
// the worst topics first, so that thousands of partitions are seen at once and the broken ones
// stand out. Each cell's state is one of Kafka's health flags, worst first.
import type { DashboardRow } from './dashboard';

/** A partition's state, worst first: no leader, under min.insync.replicas, under-replicated, healthy. */
export type CellState = 'offline' | 'underMinIsr' | 'underReplicated' | 'healthy';

export const CELL_STATES: readonly CellState[] = ['offline', 'underMinIsr', 'underReplicated', 'healthy'];

export const CELL_WORDS: Record<CellState, string> = {
  offline: 'offline',
  underMinIsr: 'under min ISR',
  underReplicated: 'under-replicated',
  healthy: 'healthy',
};

export function cellState(row: DashboardRow): CellState {
  if (row.offline) return 'offline';
  if (row.underMinIsr) return 'underMinIsr';
  if (row.underReplicated) return 'underReplicated';
  return 'healthy';
}

export interface MatrixTopic {
  topic: string;
  /** One cell a partition, by partition number. */
  cells: CellState[];
  counts: Record<CellState, number>;
}

export interface PartitionMatrix {
  topics: MatrixTopic[];
  counts: Record<CellState, number>;
  partitions: number;
}

const zero = (): Record<CellState, number> => ({
  offline: 0,
  underMinIsr: 0,
  underReplicated: 0,
  healthy: 0,
});

/** The matrix of `rows` (internal topics left out unless asked): worst topic first, then by name. */
export function partitionMatrix(rows: readonly DashboardRow[], showInternal = false): PartitionMatrix {
  const byTopic = new Map<string, MatrixTopic>();
  const counts = zero();
  let partitions = 0;
  for (const row of rows) {
    if (row.internal && !showInternal) continue;
    let t = byTopic.get(row.topic);
    if (!t) byTopic.set(row.topic, (t = { topic: row.topic, cells: [], counts: zero() }));
    const state = cellState(row);
    t.cells[row.partition] = state;
    t.counts[state]++;
    counts[state]++;
    partitions++;
  }
  // Worst first: any offline partition outranks any number under min ISR, and so on down.
  const topics = [...byTopic.values()].sort(
    (a, b) =>
      b.counts.offline - a.counts.offline ||
      b.counts.underMinIsr - a.counts.underMinIsr ||
      b.counts.underReplicated - a.counts.underReplicated ||
      (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : 0),
  );
  // A partition missing from the snapshot (a topic mid-creation) is drawn healthy, not as a hole.
  for (const t of topics) for (let i = 0; i < t.cells.length; i++) t.cells[i] ??= 'healthy';
  return { topics, counts, partitions };
}

/** One topic's problems in words: "orders: 2 offline, 5 under-replicated of 12". */
export function topicSummary(t: MatrixTopic): string {
  const parts = CELL_STATES.filter((s) => s !== 'healthy' && t.counts[s] > 0).map(
    (s) => `${t.counts[s]} ${CELL_WORDS[s]}`,
  );
  return `${t.topic}: ${parts.length ? parts.join(', ') : 'all healthy'} of ${t.cells.length}`;
}
