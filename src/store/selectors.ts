// Pure functions from what the worker sent to what the panels show.
import type { SimEvent, Snapshot } from '../sim/types';

export interface PartitionRow {
  key: string;
  topic: string;
  partition: number;
  /** The leader's broker id, or "none (offline)" when the partition has no leader. */
  leader: string;
  offline: boolean;
  replicas: string;
  isr: string;
  highWatermark: number;
}

export interface EventRow {
  seq: number;
  time: string;
  type: string;
  message: string;
}

const brokerList = (ids: number[]): string => ids.join(', ');

/** One row per partition, in topic then partition order. */
export function selectPartitionRows(snapshot: Snapshot | null): PartitionRow[] {
  if (!snapshot) return [];
  return snapshot.partitions
    .map((p) => ({
      key: `${p.topic}-${p.partition}`,
      topic: p.topic,
      partition: p.partition,
      leader: p.leader === -1 ? 'none (offline)' : String(p.leader),
      offline: p.leader === -1,
      replicas: brokerList(p.replicas),
      isr: brokerList(p.isr),
      highWatermark: p.highWatermark,
    }))
    .sort((a, b) => (a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1));
}

/** The latest `limit` events, newest first. */
export function selectRecentEvents(events: SimEvent[], limit = 20): EventRow[] {
  return events
    .slice(-limit)
    .reverse()
    .map((event) => ({
      seq: event.seq,
      time: formatSimTime(event.timeMs),
      type: event.type,
      message: event.message,
    }));
}

/** Virtual time as seconds with one decimal, e.g. "12.3 s". */
export function formatSimTime(timeMs: number): string {
  return `${(Math.floor(timeMs / 100) / 10).toFixed(1)} s`;
}
