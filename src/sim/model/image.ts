// Lookups in the committed metadata image (KRaft's MetadataImage): which image is the cluster's,
// and a config's effective value there (the topic's override, the cluster's dynamic default, the
// static value).

import { emptyImage, type MetaImage } from './metadata';
import type { World } from './world';
import type { ConfigValue } from './types';

export function clusterValue(w: World, img: MetaImage, name: string): ConfigValue {
  return img.clusterConfig[name] ?? w.config[name]!;
}

export function topicValue(w: World, img: MetaImage, topic: string, name: string): ConfigValue {
  return img.topics.get(topic)?.config[name] ?? clusterValue(w, img, name);
}

/** The cluster's committed metadata: the active controller's, else the most advanced running voter's. */
export function clusterImage(w: World): MetaImage {
  let best: MetaImage | null = null;
  for (const id of w.voterIds) {
    const n = w.nodes.get(id)!;
    if (n.state === 'running' && n.controller?.active) return n.raft!.image;
    const img = n.raft?.image;
    if (img && (!best || img.offset > best.offset)) best = img;
  }
  if (best) return best;
  for (const n of w.nodes.values())
    if (n.raft && (!best || n.raft.image.offset > best.offset)) best = n.raft.image;
  return best ?? emptyImage();
}
