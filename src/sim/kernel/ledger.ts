// The ledger: every record a producer tried to send, its attempts and outcome, and the
// data-loss detector that compares acknowledged records with what the partition holds now.

import { emit } from './kernel';
import { entryAt, logEndOffset } from '../model/log';
import { tpKey } from '../model/metadata';
import type { PartitionDisk, ReplicaMem, SimNode, World } from '../model/world';
import type { LedgerEntry } from '../model/types';

export function addLedgerEntry(w: World, entry: LedgerEntry): void {
  w.ledger.push(entry);
  w.ledgerIndex.set(entry.recordId, entry);
}

/** Whether an acknowledged record is still at its offset in the given log. */
function holds(disk: PartitionDisk | undefined, e: LedgerEntry): boolean {
  if (!disk) return false;
  if (e.offset < disk.log.logStartOffset) return true; // deleted by retention, not lost
  if (e.offset < disk.log.base) return true; // forgotten by the record ceiling: no longer checked
  return entryAt(disk.log, e.offset)?.id === e.recordId;
}

/** The current leader of a partition by the cluster's committed metadata, with its log. */
export function leaderDisk(
  w: World,
  topic: string,
  partition: number,
  leader: number,
): PartitionDisk | undefined {
  return w.nodes.get(leader)?.disk.partitions.get(tpKey(topic, partition));
}

/** Acknowledged records (acks 1 or all) no longer in their partition at their offset. */
export function lostAcknowledged(w: World, leaders: Map<string, number>): LedgerEntry[] {
  const out: LedgerEntry[] = [];
  // Per topic, each partition's leader log (null: no leader now), looked up once per partition
  // rather than by a key string per entry: the ledger can hold a million.
  const disks = new Map<string, (PartitionDisk | undefined | null)[]>();
  for (const e of w.ledger) {
    if (e.status !== 'acked' || e.offset < 0) continue;
    let byPartition = disks.get(e.topic);
    if (!byPartition) disks.set(e.topic, (byPartition = []));
    let disk = byPartition[e.partition];
    if (disk === undefined && !(e.partition in byPartition)) {
      const leader = leaders.get(tpKey(e.topic, e.partition));
      disk = leader === undefined || leader < 0 ? null : leaderDisk(w, e.topic, e.partition, leader);
      byPartition[e.partition] = disk;
    }
    if (disk === null) continue;
    if (!holds(disk, e)) out.push(e);
  }
  return out;
}

/** When a replica becomes leader, name the acknowledged records its log does not hold. */
export function checkLostOnLeaderChange(w: World, node: SimNode, mem: ReplicaMem, disk: PartitionDisk): void {
  const lost: LedgerEntry[] = [];
  const leo = logEndOffset(disk.log);
  for (let i = w.ledger.length - 1; i >= 0; i--) {
    const e = w.ledger[i];
    if (!e || e.topic !== mem.topic || e.partition !== mem.partition || e.status !== 'acked' || e.offset < 0)
      continue;
    if (e.offset < disk.highWatermark && e.offset < leo && holds(disk, e)) continue;
    if (!holds(disk, e)) lost.push(e);
  }
  if (lost.length === 0) return;
  lost.reverse();
  const shown = lost.slice(0, 10).map((e) => `offset ${e.offset} (${e.key ?? 'null'}=${e.value})`);
  emit(
    w,
    'AcknowledgedRecordsLost',
    `Broker ${node.id} leads ${mem.topic}-${mem.partition} without ${lost.length} acknowledged record(s): ${shown.join(', ')}${
      lost.length > 10 ? ', ...' : ''
    }. They are lost.`,
    {
      nodeId: node.id,
      topic: mem.topic,
      partition: mem.partition,
      records: lost.map((e) => ({
        recordId: e.recordId,
        offset: e.offset,
        key: e.key,
        value: e.value,
        acks: e.acks,
      })),
    },
  );
}

/** Retention deleted everything below each partition's new log start: settled entries there leave the ledger (bounded memory). */
export function pruneLedgerBelow(w: World, logStarts: Map<string, number>): void {
  if (logStarts.size === 0) return;
  w.ledger = w.ledger.filter((e) => {
    const start = logStarts.get(tpKey(e.topic, e.partition));
    const dead = start !== undefined && e.status !== 'pending' && e.offset >= 0 && e.offset < start;
    if (dead) w.ledgerIndex.delete(e.recordId);
    return !dead;
  });
}
