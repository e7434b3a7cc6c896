// A broker's configs as it applied them from the metadata log (DynamicBrokerConfig), and the
// effective min.insync.replicas of a partition.

import type { ReplicaMem, SimNode, World } from '../model/world';
import type { ConfigValue } from '../model/types';

/**
 * A broker config as this broker has applied it from the metadata log: its own dynamic override,
 * then the cluster-wide dynamic default, then the static value it started with (DynamicBrokerConfig).
 */
export function brokerValue(w: World, node: SimNode, name: string): ConfigValue {
  const img = node.raft?.image;
  const own = img && img.brokerConfigs.size > 0 ? img.brokerConfigs.get(String(node.id))?.[name] : undefined;
  return own ?? img?.clusterConfig[name] ?? w.config[name]!;
}

export function effMinIsr(w: World, node: SimNode, mem: ReplicaMem): number {
  return Math.min(
    // LogConfig: the topic's own value, else this broker's dynamic or static default.
    Number(
      node.raft!.image.topics.get(mem.topic)?.config['min.insync.replicas'] ??
        brokerValue(w, node, 'min.insync.replicas'),
    ),
    mem.replicas.length,
  );
}
