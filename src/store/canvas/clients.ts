// The client cards (producers and consumer groups) and their edges: a producer to the leaders it
// sends to, the leaders a group fetches from, and the broker that coordinates the group.
import type { NodeId, Snapshot } from '../../sim/types';
import { groupKey, isInternalTopic, nodeKey, producerKey } from './keys';
import type { CanvasEdge, ClientData } from './types';

/** Producers first, then groups, each card followed by its edges. */
export function clientCards(
  snapshot: Snapshot,
  leaders: ReadonlyMap<string, NodeId>,
): { clients: ClientData[]; edges: CanvasEdge[] } {
  const clients: ClientData[] = [];
  const edges: CanvasEdge[] = [];
  const leadersOf = (topic: string | null) =>
    [
      ...new Set(
        snapshot.partitions
          .filter((p) => p.leader >= 0 && (topic === null ? !isInternalTopic(p.topic) : p.topic === topic))
          .map((p) => p.leader),
      ),
    ].sort((a, b) => a - b);
  for (const producer of snapshot.clients.producers) {
    const failed = Object.values(producer.failed ?? {}).reduce((sum, n) => sum + n, 0);
    const lines = [
      producer.topic ? `→ ${producer.topic}${producer.ratePerSec ? ` at ${producer.ratePerSec}/s` : ''}` : '',
      `acked ${producer.acknowledged} of ${producer.sent}`,
      failed ? `failed ${failed}` : '',
      producer.pending ? `pending ${producer.pending}` : '',
    ].filter(Boolean);
    clients.push({
      clientKind: 'producer',
      id: producer.id,
      title: `Producer ${producer.id}`,
      lines,
      label: `Producer ${producer.id}, ${lines.join(', ')}`,
    });
    for (const leader of leadersOf(producer.topic ?? null))
      edges.push({
        key: `produce:${producer.id}>${leader}`,
        source: producerKey(producer.id),
        target: nodeKey(leader),
        kind: 'produce',
        label: `Producer ${producer.id} sends to broker ${leader}`,
      });
  }
  for (const group of snapshot.clients.groups ?? []) {
    // A KIP-848 group shows its member epochs and group epoch; a classic group its assignment only.
    const kip = group.groupProtocol === 'consumer';
    const lines = group.members.map(
      (m) =>
        `${m.consumerId}${kip ? ` (epoch ${m.memberEpoch})` : ''}: ${m.assignment.map((a) => `${a.topic}-${a.partition}`).join(', ') || 'nothing assigned'}`,
    );
    lines.push(
      kip
        ? `${group.state}, consumer protocol, group epoch ${group.groupEpoch}, lag ${group.totalLag}`
        : `${group.state}, lag ${group.totalLag}`,
    );
    // Short enough for the card's width; the Inspector has the stale coordinator's state and members.
    for (const stale of group.staleCoordinators ?? [])
      lines.push(`⚠ stale coordinator: broker ${stale.brokerId}`);
    clients.push({
      clientKind: 'group',
      id: group.groupId,
      title: `Group ${group.groupId}`,
      lines,
      label: `Consumer group ${group.groupId}, ${lines.join('; ')}`,
    });
    const fetchFrom = new Set<NodeId>();
    for (const m of group.members)
      for (const a of m.assignment) {
        const leader = leaders.get(`${a.topic}-${a.partition}`);
        if (leader !== undefined) fetchFrom.add(leader);
      }
    for (const leader of [...fetchFrom].sort((a, b) => a - b))
      edges.push({
        key: `consume:${group.groupId}>${leader}`,
        source: nodeKey(leader),
        target: groupKey(group.groupId),
        kind: 'consume',
        label: `Group ${group.groupId} fetches from broker ${leader}`,
      });
    if (group.coordinator >= 0)
      edges.push({
        key: `coordinator:${group.groupId}>${group.coordinator}`,
        source: groupKey(group.groupId),
        target: nodeKey(group.coordinator),
        kind: 'coordinator',
        label: `Broker ${group.coordinator} coordinates group ${group.groupId}`,
      });
  }
  return { clients, edges };
}
