// Checkpoints: a deep copy of the World that shares what can no longer change, so that seeking
// can hold many copies (Simulation.clone).

import type { World } from './model/world';
import { itemAt } from './model/arrays';
import type { MetaImage } from './model/metadata';
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
  // Each node's metadata image holds a state per partition (2,000 partitions on 51 nodes is 100,000
  // of them: most of a copy's time). A state is never changed once in an image (applyRecord puts a
  // new, frozen one in its place), so the copy shares them and copies only the maps.
  const images = metadataImages(w);
  const partitions = images.map((img) => img.partitions);
  for (const img of images) img.partitions = new Map();
  let copy: Omit<World, 'queue' | 'events' | 'ledger' | 'ledgerIndex' | 'messageTrail'>;
  try {
    copy = structuredClone(rest);
  } finally {
    logs.forEach((l, i) => (l.entries = itemAt(entries, i)));
    images.forEach((img, i) => (img.partitions = itemAt(partitions, i)));
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
  metadataImages(world as unknown as World).forEach(
    (img, i) => (img.partitions = new Map(itemAt(partitions, i))),
  );
  return world as unknown as World;
}

/** Every node's metadata image (its Raft state's), in the nodes' order; a stopped node has none. */
function metadataImages(w: Pick<World, 'nodes'>): MetaImage[] {
  const out: MetaImage[] = [];
  for (const node of w.nodes.values()) if (node.raft) out.push(node.raft.image);
  return out;
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
