// Checkpoints: a deep copy of the World that shares what can no longer change, so that seeking
// can hold many copies (Simulation.clone).

import type { World } from './model/world';
import { itemAt } from './model/arrays';
import { cloneMessageTrail } from './model/messageTrail';

/**
 * A deep copy of the world that shares what can no longer change (checkpoints for seeking hold
 * many copies): events once emitted, records once in a log, ledger entries once settled, and the message
 * trail's full chunks.
 */
export function cloneWorld(w: World): World {
  const { queue, events, ledger, ledgerIndex: _index, messageTrail, ...rest } = w;
  const logs = diskLogs(w);
  const entries = logs.map((l) => l.entries);
  for (const l of logs) l.entries = [];
  let copy: Omit<World, 'queue' | 'events' | 'ledger' | 'ledgerIndex' | 'messageTrail'>;
  try {
    copy = structuredClone(rest);
  } finally {
    logs.forEach((l, i) => (l.entries = itemAt(entries, i)));
  }
  const copyLedger = ledger.map((e) => (e.status === 'pending' ? structuredClone(e) : e));
  const shared: Pick<World, 'queue' | 'events' | 'ledger' | 'ledgerIndex' | 'messageTrail'> = {
    queue: queue.clone(),
    messageTrail: cloneMessageTrail(messageTrail),
    events: events.slice(),
    ledger: copyLedger,
    ledgerIndex: new Map(copyLedger.map((e) => [e.recordId, e])),
  };
  // The original's key order, so that the state hash (which serializes the world) is the same.
  const world = {} as Record<string, unknown>;
  for (const key of Object.keys(w))
    world[key] = key in shared ? shared[key as keyof typeof shared] : copy[key as keyof typeof copy];
  // The same nodes and partitions in the same order: each copied log gets its original's entries.
  diskLogs(world as unknown as World).forEach((l, i) => (l.entries = itemAt(entries, i).slice()));
  return world as unknown as World;
}

/** Every log on every node's disk (the metadata log, then each partition's), in a fixed order. */
function diskLogs(w: Pick<World, 'nodes'>): { entries: unknown[] }[] {
  const out: { entries: unknown[] }[] = [];
  for (const node of w.nodes.values()) {
    out.push(node.disk.metaLog);
    for (const d of node.disk.partitions.values()) out.push(d.log);
  }
  return out;
}
