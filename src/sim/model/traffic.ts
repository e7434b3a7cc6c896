// The traffic counters that observe/metrics.ts turns into bytes per second: bumped where bytes move.

import type { World } from './world';
import type { NodeId } from './types';

/** Counts bytes received and sent by a node (produce, replication, consumer fetches). */
export function countBytes(w: World, nodeId: NodeId, bytesIn: number, bytesOut: number): void {
  let t = w.traffic.get(nodeId);
  if (!t) w.traffic.set(nodeId, (t = { bytesIn: 0, bytesOut: 0 }));
  t.bytesIn += bytesIn;
  t.bytesOut += bytesOut;
}
