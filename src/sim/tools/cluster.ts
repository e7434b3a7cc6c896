// What the tools read of the cluster now: the committed metadata image, the brokers an Admin client
// could reach, and a partition's high watermark on its leader (ListOffsets "latest").

import { clusterImage } from '../model/image';
import { tpKey, type MetaImage } from '../model/metadata';
import type { World } from '../model/world';

export function image(w: World): MetaImage {
  return clusterImage(w);
}

/** A running, registered, unfenced broker answers the tool's Admin requests (bootstrap servers are not modelled). */
export function reachable(w: World): boolean {
  const img = clusterImage(w);
  return [...w.nodes.values()].some(
    (n) => n.isBroker && n.state === 'running' && img.brokers.get(n.id)?.fenced === false,
  );
}

/** The high watermark of the partition's leader (ListOffsets with OffsetSpec.latest()); null when it has none. */
export function highWatermark(w: World, img: MetaImage, topic: string, partition: number): number | null {
  const key = tpKey(topic, partition);
  const p = img.partitions.get(key);
  if (!p || p.leader < 0) return null;
  const leader = w.nodes.get(p.leader);
  if (!leader || leader.state !== 'running') return null;
  return leader.disk.partitions.get(key)?.highWatermark ?? null;
}
