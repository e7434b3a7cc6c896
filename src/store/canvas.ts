// Pure view models for the cluster canvas: a deterministic layout of zones, nodes and clients, the
// look of every replica, and the edges between clients, leaders and cut links. No React here:
// the canvas only draws what these functions return.
import type { NodeId, NodeView, PartitionView, Snapshot, VoterState } from '../sim/types';

/** Above this many brokers a broker shows counts per replica state instead of every replica. */
export const COLLAPSE_ABOVE_BROKERS = 12;
/** At most this many replica chips on one broker; the rest are counted. */
export const MAX_CHIPS = 12;
export const CHIPS_PER_ROW = 4;

export type ReplicaRole = 'leader' | 'insync' | 'outofsync' | 'elr' | 'offline';
export type CutState = 'none' | 'partial' | 'isolated';

export interface ReplicaChip {
  /** "orders-0" */
  key: string;
  topic: string;
  partition: number;
  role: ReplicaRole;
  logEndOffset: number;
  highWatermark: number;
  /** The leader's log end offset, the scale of the LEO/HW bar. */
  scale: number;
  label: string;
}

export interface ReplicaCounts {
  leader: number;
  insync: number;
  outofsync: number;
  elr: number;
  offline: number;
}

export interface BrokerPart {
  fenced: boolean;
  shuttingDown: boolean;
  brokerEpoch: number;
  /** Quorum HW − the broker's applied metadata offset; null while the node is down. */
  metadataLag: number | null;
  counts: ReplicaCounts;
  /** Null when collapsed (large clusters): counts only. */
  chips: ReplicaChip[] | null;
  /** Replicas not drawn as chips (internal topics, beyond MAX_CHIPS). */
  hiddenReplicas: number;
  /** Why a running broker is fenced, in Kafka's words (null when it is not): see fencedReason. */
  fencedReason: FencedReason | null;
}

export interface ControllerPart {
  voterState: VoterState;
  epoch: number;
  /** The voter's metadata log end offset. */
  logEndOffset: number;
  highWatermark: number;
  active: boolean;
}

export interface ClusterNodeData extends Record<string, unknown> {
  id: NodeId;
  rack: string;
  state: 'running' | 'crashed' | 'stopped';
  cut: CutState;
  compact: boolean;
  broker: BrokerPart | null;
  controller: ControllerPart | null;
  label: string;
  /** Set by the canvas on the selected node: the side its buttons float on. */
  actionsAt?: 'below' | 'right' | 'left' | 'above';
}

export interface ZoneData extends Record<string, unknown> {
  rack: string;
  nodeIds: NodeId[];
  label: string;
  /** Every node of the zone is cut off from the rest. */
  isolated: boolean;
}

export interface ClientData extends Record<string, unknown> {
  /** 'standby': the standby region of a scenario with a mirror, a card beside the cluster. */
  clientKind: 'producer' | 'group' | 'standby';
  id: string;
  title: string;
  lines: string[];
  label: string;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LayoutNode extends Box {
  key: string;
  /** The zone group this node sits in (its position is relative to it), if any. */
  parent: string | null;
  /** Absolute position, for edges and animated messages. */
  absX: number;
  absY: number;
}

export const nodeKey = (id: NodeId): string => `n${id}`;
export const zoneKey = (rack: string): string => `zone:${rack}`;
export const producerKey = (id: string): string => `producer:${id}`;
export const groupKey = (id: string): string => `group:${id}`;
export const standbyKey = (region: string): string => `standby:${region}`;
/** The layout key of a client card: its producer, group or standby key. */
export const clientKey = (c: Pick<ClientData, 'clientKind' | 'id'>): string =>
  c.clientKind === 'producer'
    ? producerKey(c.id)
    : c.clientKind === 'group'
      ? groupKey(c.id)
      : standbyKey(c.id);

const NO_RACK = 'no rack';
const GAP = 14;
const ZONE_PAD = 14;
const ZONE_HEADER = 40;
const ZONE_GAP = 40;
const CLIENT_WIDTH = 200;
const CLIENT_GAP = 60;

export interface Sizes {
  width: number;
  brokerHeight: number;
  controllerHeight: number;
}

/** Card sizes: full cards fit their chips; compact cards are small and uniform. */
export function cardSizes(compact: boolean, maxChips: number): Sizes {
  if (compact) return { width: 150, brokerHeight: 96, controllerHeight: 96 };
  const rows = Math.max(1, Math.ceil(Math.min(maxChips, MAX_CHIPS) / CHIPS_PER_ROW));
  return { width: 210, brokerHeight: 84 + rows * 28, controllerHeight: 92 };
}

interface LayoutInput {
  nodes: { id: NodeId; rack: string | null; isBroker: boolean; isController: boolean }[];
  producers: string[];
  groups: string[];
  compact: boolean;
  maxChips: number;
  /** Client card heights by key (they grow with their lines). */
  clientHeights?: Record<string, number>;
}

export interface Layout {
  zones: LayoutNode[];
  nodes: LayoutNode[];
  clients: LayoutNode[];
  /** Every box by key, absolute. */
  byKey: Map<string, LayoutNode>;
}

/**
 * Zones side by side (up to three in a row, else about √zones a row), sorted by name; in each zone the controllers first, then
 * the brokers, by id, in a grid of about √(n/2) columns; clients in a row under the zones.
 * Depends only on ids, racks and roles, so the cards never move while the cluster runs.
 */
export function layoutCluster(input: LayoutInput): Layout {
  const size = cardSizes(input.compact, input.maxChips);
  const racks = [...new Set(input.nodes.map((n) => n.rack ?? NO_RACK))].sort((a, b) =>
    a === NO_RACK ? 1 : b === NO_RACK ? -1 : a < b ? -1 : a > b ? 1 : 0,
  );
  const zoneBoxes: LayoutNode[] = [];
  const nodeBoxes: LayoutNode[] = [];
  const inZone = racks.map((rack) =>
    input.nodes
      .filter((n) => (n.rack ?? NO_RACK) === rack)
      .sort((a, b) => Number(b.isController) - Number(a.isController) || a.id - b.id),
  );
  // Tall narrow zones for a few brokers (cards are wide); square-ish ones for many small cards.
  const columns = Math.max(
    1,
    ...inZone.map((members) => {
      const brokers = members.filter((n) => n.isBroker).length;
      return Math.ceil(Math.sqrt(input.compact ? brokers : brokers / 2));
    }),
  );
  const zonesPerRow = racks.length <= 3 ? Math.max(1, racks.length) : Math.ceil(Math.sqrt(racks.length));
  const heightOf = (n: LayoutInput['nodes'][number]) =>
    n.isBroker ? size.brokerHeight : size.controllerHeight;
  // Every zone has the same width and height, so the zones line up in a grid.
  const zoneWidth = ZONE_PAD * 2 + columns * size.width + (columns - 1) * GAP;
  const zoneContent = inZone.map((members) => {
    const controllers = members.filter((n) => !n.isBroker);
    const brokers = members.filter((n) => n.isBroker);
    const places: { node: (typeof members)[number]; x: number; y: number }[] = [];
    let y = ZONE_HEADER;
    for (const group of [controllers, brokers]) {
      for (let i = 0; i < group.length; i += columns) {
        const row = group.slice(i, i + columns);
        row.forEach((node, col) => places.push({ node, x: ZONE_PAD + col * (size.width + GAP), y }));
        y += Math.max(...row.map(heightOf)) + GAP;
      }
    }
    return { places, height: y - GAP + ZONE_PAD };
  });
  const zoneHeight = Math.max(...zoneContent.map((z) => z.height), ZONE_HEADER + ZONE_PAD);
  racks.forEach((rack, index) => {
    const x = (index % zonesPerRow) * (zoneWidth + ZONE_GAP);
    const y = Math.floor(index / zonesPerRow) * (zoneHeight + ZONE_GAP);
    const key = zoneKey(rack);
    zoneBoxes.push({ key, parent: null, x, y, absX: x, absY: y, width: zoneWidth, height: zoneHeight });
    for (const place of zoneContent[index].places) {
      nodeBoxes.push({
        key: nodeKey(place.node.id),
        parent: key,
        x: place.x,
        y: place.y,
        absX: x + place.x,
        absY: y + place.y,
        width: size.width,
        height: heightOf(place.node),
      });
    }
  });
  const clusterWidth =
    Math.min(racks.length, zonesPerRow) * (zoneWidth + ZONE_GAP) - (racks.length ? ZONE_GAP : 0);
  // Clients in a row under the zones: producers from the left, consumer groups from the right,
  // so their edges reach the brokers from below without crossing the controllers.
  const clientBoxes: LayoutNode[] = [];
  const rows = Math.max(1, Math.ceil(racks.length / zonesPerRow));
  const clientsY = rows * (zoneHeight + ZONE_GAP) - ZONE_GAP + CLIENT_GAP;
  const perRow = Math.max(
    1,
    Math.floor((Math.max(clusterWidth, 2 * CLIENT_WIDTH) + GAP) / (CLIENT_WIDTH + GAP)),
  );
  const place = (keys: string[], fromRight: boolean) => {
    let rowY = clientsY;
    for (let i = 0; i < keys.length; i += perRow) {
      const row = keys.slice(i, i + perRow);
      row.forEach((key, j) => {
        const x = fromRight
          ? Math.max(clusterWidth, CLIENT_WIDTH) - CLIENT_WIDTH - j * (CLIENT_WIDTH + GAP)
          : j * (CLIENT_WIDTH + GAP);
        const height = input.clientHeights?.[key] ?? 90;
        clientBoxes.push({ key, parent: null, x, y: rowY, absX: x, absY: rowY, width: CLIENT_WIDTH, height });
      });
      rowY += Math.max(...row.map((key) => input.clientHeights?.[key] ?? 90)) + GAP;
    }
    return rowY;
  };
  const producerKeys = input.producers.map(producerKey);
  const groupKeys = input.groups.map(groupKey);
  // Producers and groups share the row when they fit side by side, else groups go under producers.
  if (producerKeys.length + groupKeys.length <= perRow) {
    place(producerKeys, false);
    place(groupKeys, true);
  } else {
    const below = place(producerKeys, false);
    const shift = below - clientsY;
    const before = clientBoxes.length;
    place(groupKeys, true);
    for (const box of clientBoxes.slice(before)) {
      box.y += shift;
      box.absY += shift;
    }
  }
  const byKey = new Map([...zoneBoxes, ...nodeBoxes, ...clientBoxes].map((box) => [box.key, box]));
  return { zones: zoneBoxes, nodes: nodeBoxes, clients: clientBoxes, byKey };
}

// ---- the look of each node ------------------------------------------------

const isInternalTopic = (topic: string): boolean => topic.startsWith('__');

/** How a replica on `brokerId` looks: leader, in sync, eligible (ELR), out of sync or offline. */
export function replicaRole(p: PartitionView, brokerId: NodeId, brokerUp: boolean): ReplicaRole {
  if (p.leader === brokerId) return 'leader';
  if (!brokerUp) return 'offline';
  if (p.elr.includes(brokerId)) return 'elr';
  if (p.isr.includes(brokerId)) return 'insync';
  return 'outofsync';
}

const ROLE_WORDS: Record<ReplicaRole, string> = {
  leader: 'leader',
  insync: 'in-sync follower',
  outofsync: 'out-of-sync follower',
  elr: 'eligible leader replica (ELR)',
  offline: 'offline replica',
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Which node pairs cannot talk, as "from>to" keys. */
function cutKeys(snapshot: Snapshot): Set<string> {
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
    for (let i = 0; i < queue.length; i++)
      for (const other of ids)
        if (!componentOf.has(other) && works(queue[i], other)) {
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

export interface CanvasModel {
  compact: boolean;
  layout: Layout;
  nodes: ClusterNodeData[];
  zones: ZoneData[];
  clients: ClientData[];
  edges: CanvasEdge[];
  /** Which broker leads each partition ("orders-0" → 4), for animated messages. */
  leaders: Map<string, NodeId>;
}

export interface CanvasEdge {
  key: string;
  source: string;
  target: string;
  kind: 'produce' | 'consume' | 'coordinator' | 'cut';
  /** For cuts: one direction only (source → target is cut), or both. */
  oneWay?: boolean;
  label: string;
}

/** `text` for a full card, `short` for a compact one (a large cluster). */
export interface FencedReason {
  text: string;
  short: string;
}

/** broker.heartbeat.interval.ms (Kafka's default): a broker heard from within two is still heartbeating. */
const HEARTBEAT_INTERVAL_MS = 2000;

/**
 * Why a running broker is fenced, read off the snapshot (KIP-631): it has no registration yet
 * (BrokerRegistration, brokerEpoch −1); it has not applied the metadata log up to its own
 * registration record (the broker epoch is that record's offset); or it has, and the active
 * controller unfences it on its next BrokerHeartbeat. A broker the controller has not heard from
 * for a while is fenced because its heartbeats do not arrive. Null when it is not fenced.
 */
export function fencedReason(n: NodeView, snapshot: Snapshot): FencedReason | null {
  if (n.state !== 'running' || !n.fenced || !n.roles.includes('broker') || n.shuttingDown) return null;
  if (snapshot.quorum.leaderId === null || snapshot.quorum.leaderId < 0)
    return { text: 'waiting for the controllers to elect a leader', short: 'no active controller' };
  const silentMs = n.lastHeartbeatMs == null ? 0 : snapshot.timeMs - n.lastHeartbeatMs;
  if (n.brokerEpoch >= 0 && silentMs > 2 * HEARTBEAT_INTERVAL_MS) {
    const s = Math.floor(silentMs / 1000);
    return { text: `no BrokerHeartbeat reached the controller for ${s} s`, short: `no heartbeat for ${s} s` };
  }
  if (n.brokerEpoch < 0)
    return { text: 'registering with the controller (BrokerRegistration)', short: 'registering' };
  if (n.metadataOffset < n.brokerEpoch)
    return {
      text: `catching up on metadata: offset ${Math.max(0, n.metadataOffset)} of ${n.brokerEpoch}`,
      short: 'catching up on metadata',
    };
  return { text: 'caught up; waiting for the controller to unfence it', short: 'waiting to be unfenced' };
}

/** The whole canvas for one snapshot. Pure: the same snapshot gives the same model. */
export function selectCanvasModel(snapshot: Snapshot): CanvasModel {
  const brokers = snapshot.nodes.filter((n) => n.roles.includes('broker'));
  const compact = brokers.length > COLLAPSE_ABOVE_BROKERS;
  const up = new Map(snapshot.nodes.map((n) => [n.id, n.state === 'running']));
  const replicasOf = new Map<NodeId, { p: PartitionView; role: ReplicaRole }[]>();
  const leaders = new Map<string, NodeId>();
  for (const p of snapshot.partitions) {
    if (p.leader >= 0) leaders.set(`${p.topic}-${p.partition}`, p.leader);
    for (const id of p.replicas) {
      let list = replicasOf.get(id);
      if (!list) replicasOf.set(id, (list = []));
      list.push({ p, role: replicaRole(p, id, up.get(id) ?? false) });
    }
  }
  const maxChips = Math.max(
    0,
    ...[...replicasOf.values()].map((list) => list.filter((r) => !isInternalTopic(r.p.topic)).length),
  );
  const cutOf = cutStates(
    snapshot.nodes.map((n) => n.id),
    cutKeys(snapshot),
  );
  const voters = new Map(snapshot.quorum.voters.map((v) => [v.id, v]));

  const nodes: ClusterNodeData[] = snapshot.nodes.map((n) => {
    const rack = n.rack ?? NO_RACK;
    const cut = cutOf.get(n.id) ?? 'none';
    let broker: BrokerPart | null = null;
    if (n.roles.includes('broker')) {
      const list = replicasOf.get(n.id) ?? [];
      const counts: ReplicaCounts = { leader: 0, insync: 0, outofsync: 0, elr: 0, offline: 0 };
      for (const r of list) counts[r.role]++;
      let chips: ReplicaChip[] | null = null;
      let hiddenReplicas = list.length;
      if (!compact) {
        const visible = list.filter((r) => !isInternalTopic(r.p.topic));
        chips = visible.slice(0, MAX_CHIPS).map(({ p, role }) => {
          const log = p.replicaLogs.find((l) => l.brokerId === n.id);
          const leaderLog = p.replicaLogs.find((l) => l.brokerId === p.leader);
          const logEndOffset = log?.logEndOffset ?? 0;
          const highWatermark = log?.highWatermark ?? 0;
          const key = `${p.topic}-${p.partition}`;
          return {
            key,
            topic: p.topic,
            partition: p.partition,
            role,
            logEndOffset,
            highWatermark,
            scale: Math.max(1, logEndOffset, leaderLog?.logEndOffset ?? 0),
            label: `${key} ${ROLE_WORDS[role]}, LEO ${logEndOffset}, HW ${highWatermark}`,
          };
        });
        hiddenReplicas = list.length - chips.length;
      }
      broker = {
        fenced: n.fenced,
        shuttingDown: n.shuttingDown,
        brokerEpoch: n.brokerEpoch,
        metadataLag:
          // The quorum HW is an exclusive end; metadataOffset is the last record applied.
          n.state === 'running' ? Math.max(0, snapshot.quorum.highWatermark - 1 - n.metadataOffset) : null,
        counts,
        chips,
        hiddenReplicas,
        fencedReason: fencedReason(n, snapshot),
      };
    }
    const voter = voters.get(n.id);
    const controller: ControllerPart | null = voter
      ? {
          voterState: voter.state,
          epoch: voter.epoch,
          logEndOffset: voter.logEndOffset,
          highWatermark: voter.highWatermark,
          active: snapshot.quorum.leaderId === n.id,
        }
      : null;
    const words = [
      `${broker ? 'Broker' : 'Controller'} ${n.id}`,
      rack,
      n.state === 'running' ? (n.shuttingDown ? 'shutting down' : 'running') : n.state,
    ];
    if (broker && controller) words[0] = `Broker and controller ${n.id}`;
    if (broker?.fenced && n.state === 'running')
      words.push(broker.fencedReason ? `fenced, ${broker.fencedReason.text}` : 'fenced');
    if (cut === 'isolated') words.push('cut off from the cluster');
    if (cut === 'partial') words.push('some links cut');
    if (controller) words.push(`quorum ${controller.voterState}, epoch ${controller.epoch}`);
    if (broker) words.push(`leader of ${plural(broker.counts.leader, 'partition')}`);
    if (broker && broker.counts.outofsync > 0) words.push(`${broker.counts.outofsync} out of sync`);
    return {
      id: n.id,
      rack,
      state: n.state,
      cut,
      compact,
      broker,
      controller,
      label: words.join(', '),
    };
  });

  const zones: ZoneData[] = [...new Set(nodes.map((n) => n.rack))].map((rack) => {
    const members = nodes.filter((n) => n.rack === rack);
    const isolated = members.length < nodes.length && members.every((n) => n.cut === 'isolated');
    return {
      rack,
      nodeIds: members.map((n) => n.id),
      isolated,
      label: `${rack === NO_RACK ? 'Nodes without a rack' : `Zone ${rack}`}: ${plural(members.length, 'node')}${isolated ? ', isolated' : ''}`,
    };
  });

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
    maxChips,
    clientHeights: Object.fromEntries(clients.map((c) => [clientKey(c), 64 + c.lines.length * 18])),
  });
  if (snapshot.mirror) placeStandby(snapshot.mirror, layout, clients);
  return { compact, layout, nodes, zones, clients, edges, leaders };
}

/** The standby region as one card to the right of the cluster: its brokers, the lag, the loss. */
function placeStandby(m: NonNullable<Snapshot['mirror']>, layout: Layout, clients: ClientData[]): void {
  const brokers = m.standby.nodes.filter((n) => n.roles.includes('broker'));
  const lagRecords = m.lag.reduce((a, l) => a + l.lagRecords, 0);
  const lagMs = m.lag.reduce((a, l) => Math.max(a, l.lagMs), 0);
  const lines = [
    `mirrors ${m.topics.join(', ')} from ${m.primaryRegion}`,
    `${m.crossRegionLatencyMs} ms away, polls every ${m.pollIntervalMs} ms`,
    `brokers ${brokers.map((n) => `${n.alive ? '✓' : '✕'}${n.id}`).join(' ')}`,
    m.regionLost
      ? `✕ primary lost, ${m.failover?.missingCount ?? 0} acked missing`
      : lagRecords === 0
        ? '✓ caught up'
        : `lag ${lagRecords} record(s), ${lagMs} ms`,
  ];
  const data: ClientData = {
    clientKind: 'standby',
    id: m.standbyRegion,
    title: `Standby region ${m.standbyRegion}`,
    lines,
    label: `Standby region ${m.standbyRegion}, ${lines.join(', ')}`,
  };
  const right = Math.max(0, ...[...layout.zones, ...layout.clients].map((b) => b.absX + b.width));
  const width = CLIENT_WIDTH + 60;
  const height = 64 + lines.length * 18;
  const box: LayoutNode = {
    key: standbyKey(m.standbyRegion),
    parent: null,
    x: right + ZONE_GAP * 2,
    y: 0,
    absX: right + ZONE_GAP * 2,
    absY: 0,
    width,
    height,
  };
  layout.clients.push(box);
  layout.byKey.set(box.key, box);
  clients.push(data);
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
    if (dirs.some((d) => d === null)) return null;
    return dirs.every((d) => d === dirs[0]) ? dirs[0] : 'mixed';
  };
  const zones = [...new Set(nodes.map((n) => n.rack))].sort();
  const members = new Map(zones.map((z) => [z, nodes.filter((n) => n.rack === z).map((n) => n.id)]));
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
  for (let i = 0; i < zones.length; i++)
    for (let j = i + 1; j < zones.length; j++) {
      const [za, zb] = [zones[i], zones[j]];
      const dirs = members.get(za)!.flatMap((a) => members.get(zb)!.map((b) => direction(a, b)));
      const dir = sameDirection(dirs);
      if (dir === null) continue;
      for (const a of members.get(za)!) for (const b of members.get(zb)!) cover(a, b);
      push(zoneKey(za), zoneKey(zb), dir, `Links between ${za} and ${zb}`, `cutzone:${za}|${zb}`);
    }
  // Node to a whole other zone (of more than one node).
  for (const n of nodes)
    for (const z of zones) {
      const others = members.get(z)!.filter((id) => id !== n.id);
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
  if (rest.length > MAX_NODE_CUT_EDGES && edges.length > 0)
    edges[edges.length - 1].label += ` (and ${rest.length - MAX_NODE_CUT_EDGES} more cut links not drawn)`;
  return edges;
}

// ---- animated messages from snapshot diffs --------------------------------

export type MessageKind = 'produce' | 'fetch' | 'ack' | 'metadata' | 'heartbeat' | 'vote' | 'consume';

export interface CanvasMessage {
  kind: MessageKind;
  from: string;
  to: string;
}

/** Fewer animated messages as the speed rises, so a fast run stays readable and cheap. */
export function messageBudget(speed: number): number {
  if (speed <= 1) return 40;
  if (speed <= 10) return 24;
  if (speed <= 100) return 12;
  return 6;
}

const KIND_ORDER: MessageKind[] = ['vote', 'ack', 'produce', 'metadata', 'fetch', 'heartbeat', 'consume'];

/**
 * The messages that must have flowed between two snapshots, inferred from what changed: a
 * leader's LEO grew (produce), a follower's LEO grew (replication fetch), a leader's HW grew
 * (ack to the producer), a broker applied new metadata (metadata fetch from the active
 * controller), the active controller heard a running broker's heartbeat again (heartbeat), a voter
 * started an election (votes). Deduplicated per link, thinned to `budget`.
 */
export function inferMessages(prev: Snapshot, next: Snapshot, budget: number): CanvasMessage[] {
  const out = new Map<string, CanvasMessage>();
  const add = (kind: MessageKind, from: string, to: string) => {
    if (from !== to) out.set(`${kind}|${from}|${to}`, { kind, from, to });
  };
  const producer = next.clients.producers.find((p) => p.running) ?? next.clients.producers[0];
  const prevByKey = new Map<string, PartitionView>();
  // Partitions of the same run keep their order; index first, key lookup as the fallback.
  const samePlaces = prev.partitions.length === next.partitions.length;
  if (!samePlaces) for (const p of prev.partitions) prevByKey.set(`${p.topic}-${p.partition}`, p);
  next.partitions.forEach((p, index) => {
    const before = samePlaces ? prev.partitions[index] : prevByKey.get(`${p.topic}-${p.partition}`);
    if (!before || before === p || p.leader < 0) return;
    const leaderKey = nodeKey(p.leader);
    for (const log of p.replicaLogs) {
      const old = before.replicaLogs.find((l) => l.brokerId === log.brokerId);
      if (!old || log.logEndOffset <= old.logEndOffset) continue;
      if (log.brokerId === p.leader) {
        if (producer && !isInternalTopic(p.topic)) add('produce', producerKey(producer.id), leaderKey);
      } else add('fetch', leaderKey, nodeKey(log.brokerId));
    }
    if (p.highWatermark > before.highWatermark && producer && !isInternalTopic(p.topic))
      add('ack', leaderKey, producerKey(producer.id));
  });
  const active = next.quorum.leaderId;
  if (active !== null) {
    const prevNodes = new Map(prev.nodes.map((n) => [n.id, n]));
    for (const n of next.nodes) {
      const old = prevNodes.get(n.id);
      if (old && n.metadataOffset > old.metadataOffset && n.id !== active)
        add('metadata', nodeKey(active), nodeKey(n.id));
      // Only with the same active controller on both sides: a new one gives every broker a fresh
      // session (lastContactMs = now), which is no heartbeat.
      const heard = n.lastHeartbeatMs ?? null;
      const before = old?.lastHeartbeatMs ?? null;
      if (
        prev.quorum.leaderId === active &&
        prev.quorum.epoch === next.quorum.epoch &&
        n.state === 'running' &&
        heard !== null &&
        before !== null &&
        heard > before
      )
        add('heartbeat', nodeKey(n.id), nodeKey(active));
    }
  }
  const prevVoters = new Map(prev.quorum.voters.map((v) => [v.id, v]));
  for (const v of next.quorum.voters) {
    const old = prevVoters.get(v.id);
    const campaigning = v.state === 'candidate' || v.state === 'prospective';
    if (old && campaigning && (old.state !== v.state || old.epoch !== v.epoch))
      for (const other of next.quorum.voters) add('vote', nodeKey(v.id), nodeKey(other.id));
  }
  return [...out.values()]
    .sort(
      (a, b) =>
        KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
        (a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : a.to > b.to ? 1 : 0),
    )
    .slice(0, budget);
}

// ---- what the live region announces --------------------------------------

/** Event types read out to screen-reader users as they happen. */
export const ANNOUNCED_EVENTS = new Set([
  'LeaderElected',
  'BrokerFenced',
  'BrokerUnfenced',
  'ControllerElected',
  'ProduceFailed',
  'CommandRefused',
  'PartitionOffline',
]);

/** What to read out for a batch of events: the first few messages in full, then how many more. */
export function announcementFor(events: { type: string; message: string }[], limit = 3): string | null {
  const picked = events.filter((e) => ANNOUNCED_EVENTS.has(e.type));
  if (picked.length === 0) return null;
  const text = picked
    .slice(0, limit)
    // The engine's messages already name the Kafka term (e.g. "... (BrokerFenced)").
    .map((e) => e.message)
    .join(' ');
  return picked.length > limit ? `${text} And ${picked.length - limit} more.` : text;
}
