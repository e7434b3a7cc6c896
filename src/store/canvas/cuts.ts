// Which links are cut, as the canvas shows it: each node's cut state (isolated from the largest
// group of nodes that still reach each other, or with some links cut), and the cut edges,
// summarised zone to zone, node to zone, then node to node.
import type { NodeId, Snapshot } from '../../sim/types';
import { nodeKey, producerKey, zoneKey } from './keys';
import type { CanvasEdge, ClusterNodeData, CutState } from './types';

/** Which node pairs cannot talk, as "from>to" keys. */
export function cutKeys(snapshot: Snapshot): Set<string> {
  return new Set(snapshot.network.cuts.map((c) => `${c.from}>${c.to}`));
}

/**
 * Isolated: outside the largest group of nodes that still reach each other (a link works only if
 * neither direction is cut). Partial: inside it, but with some of its own links cut.
 */
export function cutStates(ids: NodeId[], cuts: Set<string>): Map<NodeId, CutState> {
  const states = new Map<NodeId, CutState>(ids.map((id) => [id, 'none']));
  if (cuts.size === 0) return states;
  const works = (a: NodeId, b: NodeId) => !cuts.has(`${a}>${b}`) && !cuts.has(`${b}>${a}`);
  const componentOf = new Map<NodeId, number>();
  const sizes: number[] = [];
  for (const start of ids) {
    if (componentOf.has(start)) continue;
    const index = sizes.length;
    const queue = [start];
    componentOf.set(start, index);
    // The array iterator sees what the loop pushes: a breadth-first walk.
    for (const member of queue)
      for (const other of ids)
        if (!componentOf.has(other) && works(member, other)) {
          componentOf.set(other, index);
          queue.push(other);
        }
    sizes.push(queue.length);
  }
  // The largest group is the cluster; on a tie, the one with the lowest node id (found first).
  const main = sizes.indexOf(Math.max(...sizes));
  for (const id of ids) {
    if (componentOf.get(id) !== main) states.set(id, 'isolated');
    else if (ids.some((other) => other !== id && componentOf.get(other) === main && !works(id, other)))
      states.set(id, 'partial');
  }
  return states;
}

/** At most this many node-to-node cut edges; the rest are counted in one label. */
const MAX_NODE_CUT_EDGES = 24;

type Direction = 'both' | 'forward' | 'backward';

/**
 * Cut links, summarised so a partition reads at a glance: zone to zone when every link between
 * two zones is cut, node to zone when one node is cut from a whole zone, else node to node. Each
 * edge is both ways, or one way with its direction (source → target is the cut direction).
 */
export function cutEdges(snapshot: Snapshot, nodes: ClusterNodeData[]): CanvasEdge[] {
  const cuts = cutKeys(snapshot);
  if (cuts.size === 0) return [];
  const isNode = (end: NodeId | string) => typeof end === 'number' || /^\d+$/.test(end);
  const keyOf = (end: NodeId | string) => (isNode(end) ? nodeKey(Number(end)) : producerKey(String(end)));
  const direction = (a: NodeId | string, b: NodeId | string): Direction | null => {
    const ab = cuts.has(`${a}>${b}`);
    const ba = cuts.has(`${b}>${a}`);
    return ab && ba ? 'both' : ab ? 'forward' : ba ? 'backward' : null;
  };
  const sameDirection = (dirs: (Direction | null)[]): Direction | null | 'mixed' => {
    const [first = null] = dirs;
    if (dirs.some((d) => d === null)) return null;
    return dirs.every((d) => d === first) ? first : 'mixed';
  };
  const zones = [...new Set(nodes.map((n) => n.rack))].sort();
  const byZone = new Map(zones.map((z) => [z, nodes.filter((n) => n.rack === z).map((n) => n.id)]));
  const members = (zone: string): NodeId[] => byZone.get(zone) ?? [];
  const covered = new Set<string>();
  const pairKey = (a: NodeId, b: NodeId) => (a < b ? `${a}|${b}` : `${b}|${a}`);
  const cover = (a: NodeId, b: NodeId) => covered.add(pairKey(a, b));
  const edges: CanvasEdge[] = [];
  const push = (source: string, target: string, dir: Direction | 'mixed', what: string, key: string) => {
    const [from, to] = dir === 'backward' ? [target, source] : [source, target];
    const oneWay = dir === 'forward' || dir === 'backward';
    edges.push({
      key,
      source: from,
      target: to,
      kind: 'cut',
      oneWay,
      label: oneWay
        ? `${what}: cut one way`
        : dir === 'mixed'
          ? `${what}: links cut`
          : `${what}: cut both ways`,
    });
  };
  // Zone to zone.
  for (const [i, za] of zones.entries())
    for (const zb of zones.slice(i + 1)) {
      const dirs = members(za).flatMap((a) => members(zb).map((b) => direction(a, b)));
      const dir = sameDirection(dirs);
      if (dir === null) continue;
      for (const a of members(za)) for (const b of members(zb)) cover(a, b);
      push(zoneKey(za), zoneKey(zb), dir, `Links between ${za} and ${zb}`, `cutzone:${za}|${zb}`);
    }
  // Node to a whole other zone (of more than one node).
  for (const n of nodes)
    for (const z of zones) {
      const others = members(z).filter((id) => id !== n.id);
      if (z === n.rack || others.length < 2 || others.every((id) => covered.has(pairKey(id, n.id)))) continue;
      const dir = sameDirection(others.map((id) => direction(n.id, id)));
      if (dir === null) continue;
      for (const id of others) cover(n.id, id);
      push(nodeKey(n.id), zoneKey(z), dir, `Links between node ${n.id} and ${z}`, `cutnodezone:${n.id}|${z}`);
    }
  // Whatever is left, node to node (and clients).
  const pairs = new Map<string, [NodeId | string, NodeId | string]>();
  for (const c of snapshot.network.cuts) {
    const [a, b] = String(c.from) < String(c.to) ? [c.from, c.to] : [c.to, c.from];
    if (isNode(a) && isNode(b) && covered.has(pairKey(Number(a), Number(b)))) continue;
    pairs.set(`${a}|${b}`, [a, b]);
  }
  const rest = [...pairs].sort(([x], [y]) => (x < y ? -1 : 1));
  for (const [k, [a, b]] of rest.slice(0, MAX_NODE_CUT_EDGES))
    push(keyOf(a), keyOf(b), direction(a, b)!, `Link ${a} – ${b}`, `cut:${k}`);
  const lastEdge = edges.at(-1);
  if (rest.length > MAX_NODE_CUT_EDGES && lastEdge)
    lastEdge.label += ` (and ${rest.length - MAX_NODE_CUT_EDGES} more cut links not drawn)`;
  return edges;
}
