// The whole canvas for one snapshot, composed from the node, zone, client and cut selectors and
// the layout. Pure: the same snapshot gives the same model.
import type { NodeId, Snapshot } from '../../sim/types';
import { clientCards } from './clients';
import { cutEdges } from './cuts';
import { clientKey } from './keys';
import { chipLines, chipLinesHeight, layoutCluster, type ChipLines, type Layout } from './layout';
import { nodeCards } from './nodeCards';
import { COLLAPSE_ABOVE_BROKERS, placeReplicas, TILE_ABOVE_BROKERS } from './replicas';
import { placeStandby } from './standby';
import type { CanvasEdge, ClientData, ClusterNodeData, ZoneData } from './types';
import { zoneCards } from './zones';

export interface CanvasModel {
  compact: boolean;
  /** Hundreds of brokers: each node is a tile. */
  tile: boolean;
  layout: Layout;
  nodes: ClusterNodeData[];
  zones: ZoneData[];
  clients: ClientData[];
  edges: CanvasEdge[];
  /** Which broker leads each partition ("orders-0" → 4), for animated messages. */
  leaders: Map<string, NodeId>;
}

/** The whole canvas for one snapshot. Pure: the same snapshot gives the same model. */
export function selectCanvasModel(snapshot: Snapshot): CanvasModel {
  const brokers = snapshot.nodes.filter((n) => n.roles.includes('broker'));
  const compact = brokers.length > COLLAPSE_ABOVE_BROKERS;
  const tile = brokers.length > TILE_ABOVE_BROKERS;
  const { replicasOf, leaders, maxChips } = placeReplicas(snapshot);
  const nodes = nodeCards(snapshot, replicasOf, compact, tile);
  const zones = zoneCards(nodes);
  // The fullest card's chip lines (its topics in the order the card draws them).
  let lines: ChipLines | undefined;
  for (const n of nodes) {
    if (!n.broker?.chips) continue;
    const perTopic = new Map<string, number>();
    for (const chip of n.broker.chips) perTopic.set(chip.topic, (perTopic.get(chip.topic) ?? 0) + 1);
    const l = chipLines([...perTopic.values()]);
    if (!lines || chipLinesHeight(l) > chipLinesHeight(lines)) lines = l;
  }
  const { clients, edges } = clientCards(snapshot, leaders);
  edges.push(...cutEdges(snapshot, nodes));
  const layout = layoutCluster({
    nodes: snapshot.nodes.map((n) => ({
      id: n.id,
      rack: n.rack,
      isBroker: n.roles.includes('broker'),
      isController: n.roles.includes('controller'),
    })),
    producers: snapshot.clients.producers.map((p) => p.id),
    groups: (snapshot.clients.groups ?? []).map((g) => g.groupId),
    compact,
    tile,
    maxChips,
    ...(lines ? { chipLines: lines } : {}),
    clientHeights: Object.fromEntries(clients.map((c) => [clientKey(c), 64 + c.lines.length * 18])),
  });
  if (snapshot.mirror) placeStandby(snapshot.mirror, layout, clients);
  return { compact, tile, layout, nodes, zones, clients, edges, leaders };
}
