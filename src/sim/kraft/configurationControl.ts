// ConfigurationControlManager: dynamic topic, broker and cluster configs (incrementalAlterConfigs),
// checked, then written to the metadata log as ConfigRecords.

import type { MetaRecord } from '../model/metadata';
import type { SimNode, World } from '../model/world';
import type { ConfigValue } from '../model/types';
import { later, write } from './controllerLog';
import { elrEnabled } from './replicationControl';

/** ConfigurationControlManager's own checks of an incrementalAlterConfigs; Kafka's error, or null. */
export function checkAlterConfigs(
  w: World,
  node: SimNode,
  resourceType: 'topic' | 'broker' | 'cluster',
  configs: Record<string, ConfigValue | null>,
): string | null {
  if (!('min.insync.replicas' in configs) || !elrEnabled(w, node.controller!.work!)) return null;
  // KIP-966: with ELR on, min ISR is a cluster-wide (or topic) setting only.
  if (resourceType === 'broker')
    return 'INVALID_CONFIG: Broker-level min.insync.replicas cannot be altered while ELR is enabled.';
  if (resourceType === 'cluster' && configs['min.insync.replicas'] === null)
    return 'INVALID_CONFIG: Cluster-level min.insync.replicas cannot be removed while ELR is enabled.';
  return null;
}

export function alterConfigs(
  w: World,
  node: SimNode,
  resourceType: 'topic' | 'broker' | 'cluster',
  resourceName: string,
  configs: Record<string, ConfigValue | null>,
): number {
  const records: MetaRecord[] = Object.entries(configs).map(([name, value]) => ({
    type: 'ConfigRecord',
    resourceType,
    resourceName,
    name,
    value,
  }));
  const off = write(w, node, records);
  const what = resourceType === 'cluster' ? 'the cluster default' : `${resourceType} ${resourceName}`;
  later(
    w,
    node,
    off,
    'ConfigChanged',
    `Config of ${what} changed through the metadata log: ${Object.entries(configs)
      .map(([k, v]) => `${k}=${v === null ? '(default)' : String(v)}`)
      .join(', ')} (incrementalAlterConfigs).`,
    { resourceType, resourceName, configs },
  );
  // Enabling unclean.leader.election.enable on an offline partition does not elect at once: the
  // controller's periodic check does, every unclean.leader.election.interval.ms (semantics §4).
  return off;
}
