// The zones (racks) the node cards sit in, and whether a whole zone is cut off.
import { NO_RACK, plural } from './keys';
import type { ClusterNodeData, ZoneData } from './types';

/** One zone a rack, in the order the racks first appear among the nodes. */
export function zoneCards(nodes: readonly ClusterNodeData[]): ZoneData[] {
  return [...new Set(nodes.map((n) => n.rack))].map((rack) => {
    const members = nodes.filter((n) => n.rack === rack);
    const isolated = members.length < nodes.length && members.every((n) => n.cut === 'isolated');
    const dark = members.every((n) => n.state !== 'running');
    return {
      rack,
      nodeIds: members.map((n) => n.id),
      isolated,
      dark,
      label: `${rack === NO_RACK ? 'Nodes without a rack' : `Zone ${rack}`}: ${plural(members.length, 'node')}${isolated ? ', isolated' : ''}${dark ? ', dark (every node down)' : ''}`,
    };
  });
}
