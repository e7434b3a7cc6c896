// The health bar: counts of offline, under-replicated and under-min-ISR partitions, and the
// active controller.
import type { Snapshot } from '../../sim/types';
import { dashboardRowsOf } from './dashboard';

export interface Health {
  partitions: number;
  offline: number;
  underReplicated: number;
  underMinIsr: number;
  /** The quorum leader, which is the active controller; null while there is none. */
  activeController: number | null;
  controllerEpoch: number;
}

export function selectHealth(snapshot: Snapshot | null): Health {
  // Counts only: the header computes them on every snapshot, so the rows are not sorted.
  const rows = dashboardRowsOf(snapshot);
  return {
    partitions: rows.length,
    offline: rows.filter((r) => r.offline).length,
    underReplicated: rows.filter((r) => r.underReplicated).length,
    underMinIsr: rows.filter((r) => r.underMinIsr).length,
    activeController: snapshot?.quorum.leaderId ?? null,
    controllerEpoch: snapshot?.quorum.epoch ?? 0,
  };
}
