// The network controls: racks and their nodes, and the groups of partitionNetwork that isolate
// some nodes from the rest.
import type { Snapshot } from '../../sim/types';

/** Racks (zones) and the nodes in each, for "isolate a rack". */
export function selectRacks(snapshot: Snapshot | null): { rack: string; nodeIds: number[] }[] {
  const racks = new Map<string, number[]>();
  for (const n of snapshot?.nodes ?? [])
    if (n.rack !== null) racks.set(n.rack, [...(racks.get(n.rack) ?? []), n.id]);
  return [...racks].sort(([a], [b]) => (a < b ? -1 : 1)).map(([rack, nodeIds]) => ({ rack, nodeIds }));
}

/** The groups of partitionNetwork that cut `isolated` off from every other node. */
export function isolationGroups(snapshot: Snapshot | null, isolated: readonly number[]): number[][] {
  const inside = new Set(isolated);
  const rest = (snapshot?.nodes ?? []).map((n) => n.id).filter((id) => !inside.has(id));
  return rest.length ? [[...isolated], rest] : [[...isolated]];
}
