// Test helper: what the page holds after the host's messages.

import type { Snapshot } from '../../sim/types';
import { applySnapshotDelta, type WorkerToPage } from '../protocol';

/** The page's view: the full snapshot rebuilt from the host's snapshots and deltas. */
export function latestSnapshot(sent: WorkerToPage[]): Snapshot {
  let snapshot: Snapshot | null = null;
  for (const m of sent) {
    if (m.type === 'snapshot') snapshot = m.snapshot;
    if (m.type === 'snapshotDelta') snapshot = applySnapshotDelta(snapshot!, m.delta);
  }
  return snapshot!;
}
