// View models of the Messages tab: the lanes of the message diagram (one per node and client),
// what a message says to a screen reader, how sampling is told, and the client history's marks.
import type {
  ClientSendView,
  MessageCategory,
  MessageSampling,
  NodeView,
  SendOutcome,
  WireMessageView,
} from '../sim/types';

export type {
  ClientHistoryView,
  ClientSendView,
  MessageCategory,
  MessageDiagramView,
  WireMessageView,
} from '../sim/types';

export type Addr = number | string;

export interface Lane {
  addr: Addr;
  /** In full, for labels: "controller 1", "broker 4", "producer producer-1". */
  label: string;
  /** On the lane's header. */
  short: string;
  role: 'controller' | 'broker' | 'producer' | 'consumer' | 'client';
  down: boolean;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(3)} s`;

/**
 * Controllers, then brokers (by id), then producers and consumers (by id), then any other address
 * the window saw: a lane for each.
 */
export function diagramLanes(
  nodes: readonly Pick<NodeView, 'id' | 'roles' | 'state'>[],
  producers: readonly string[],
  consumers: readonly string[],
  seen: readonly Addr[],
): Lane[] {
  const lanes: Lane[] = [];
  const byId = [...nodes].sort((a, b) => a.id - b.id);
  const controllerOnly = (n: (typeof byId)[number]) => !n.roles.includes('broker');
  for (const n of [...byId.filter(controllerOnly), ...byId.filter((n) => !controllerOnly(n))]) {
    const role = n.roles.includes('broker') ? 'broker' : 'controller';
    lanes.push({
      addr: n.id,
      label: `${n.roles.includes('broker') && n.roles.includes('controller') ? 'broker and controller' : role} ${n.id}`,
      short: `${role === 'broker' ? 'B' : 'C'}${n.id}`,
      role,
      down: n.state !== 'running',
    });
  }
  // The canvas's glyphs: ⇢ a producer, ⇠ a consumer, with the id's number (or its start).
  const clientLane = (id: string, role: Lane['role']): Lane => ({
    addr: id,
    label: `${role} ${id}`,
    short: `${role === 'producer' ? '⇢' : role === 'consumer' ? '⇠' : '·'}${/\d+$/.exec(id)?.[0] ?? id.slice(0, 3)}`,
    role,
    down: false,
  });
  for (const id of [...producers].sort()) lanes.push(clientLane(id, 'producer'));
  for (const id of [...consumers].sort()) lanes.push(clientLane(id, 'consumer'));
  const known = new Set(lanes.map((l) => l.addr));
  for (const a of seen)
    if (!known.has(a)) {
      known.add(a);
      lanes.push(
        typeof a === 'number'
          ? { addr: a, label: `node ${a}`, short: `N${a}`, role: 'broker', down: false }
          : clientLane(a, 'client'),
      );
    }
  return lanes;
}

/** How each kind of message is drawn: a colour and a dash pattern, never the colour alone. */
export const CATEGORY_STYLE: Readonly<
  Record<MessageCategory, { color: string; dash: string; label: string }>
> = {
  produce: { color: 'var(--msg-produce)', dash: '', label: 'Produce' },
  replication: { color: 'var(--msg-fetch)', dash: '6 3', label: 'Replica fetch' },
  'consumer fetch': { color: 'var(--msg-consume)', dash: '2 3', label: 'Consumer fetch' },
  heartbeat: { color: 'var(--msg-heartbeat)', dash: '1 4', label: 'Heartbeats' },
  raft: { color: 'var(--msg-vote)', dash: '8 2 2 2', label: 'Raft (votes, fetch)' },
  controller: { color: 'var(--leader)', dash: '4 2 1 2', label: 'Controller RPCs' },
  metadata: { color: 'var(--msg-metadata)', dash: '3 2', label: 'Metadata' },
  group: { color: 'var(--msg-ack)', dash: '10 3', label: 'Group RPCs' },
  transaction: { color: 'var(--elr)', dash: '5 2 5 6', label: 'Transaction RPCs' },
  connection: { color: 'var(--danger)', dash: '1 2', label: 'Connection reset' },
};

/** The kinds in the order the filters and the legend list them. */
export const MESSAGE_CATEGORIES = Object.keys(CATEGORY_STYLE) as MessageCategory[];

export function laneLabel(lanes: readonly Lane[], addr: Addr): string {
  return lanes.find((l) => l.addr === addr)?.label ?? String(addr);
}

/** What a message says to a screen reader and in its tooltip. */
export function messageLabel(m: WireMessageView, lanes: readonly Lane[]): string {
  const route = `${m.kind} from ${laneLabel(lanes, m.from)} to ${laneLabel(lanes, m.to)}, sent at ${seconds(m.sentMs)}`;
  if (m.lost) return `${route}, lost (${m.lost}) at ${seconds(m.atMs)}`;
  if (m.inFlight) return `${route}, on the wire, due at ${seconds(m.atMs)}`;
  return `${route}, arrived at ${seconds(m.atMs)}`;
}

/** "Showing 1 in 2 replica fetch messages (of 560)", one clause per sampled kind; '' when nothing was. */
export function samplingText(sampled: readonly MessageSampling[]): string {
  if (sampled.length === 0) return '';
  return `Showing ${sampled
    .map((s) => `1 in ${s.every} ${CATEGORY_STYLE[s.category].label.toLowerCase()} messages (of ${s.total})`)
    .join(', ')}; every lost message is shown.`;
}

/** The client history's mark of an outcome: a glyph and a word. */
export const OUTCOME_MARK: Readonly<Record<SendOutcome, { glyph: string; word: string }>> = {
  acknowledged: { glyph: '✔', word: 'acknowledged' },
  failed: { glyph: '✖', word: 'failed' },
  indefinite: { glyph: '◌', word: 'indefinite' },
  pending: { glyph: '…', word: 'pending' },
};

export function sendLabel(s: ClientSendView): string {
  const what = `${s.key === null ? '' : `${s.key}=`}${s.value} to ${s.topic}-${s.partition}, sent at ${seconds(s.sentMs)}`;
  switch (s.outcome) {
    case 'acknowledged':
      return `${what}: acknowledged at offset ${s.landedOffset}`;
    case 'pending':
      return `${what}: pending`;
    case 'failed':
      return `${what}: failed with ${s.error ?? 'an error'}, not written`;
    case 'indefinite':
      return `${what}: indefinite (${s.error ?? 'no answer'} after a request got no answer): ${
        s.landedOffset >= 0 ? `it did land, at offset ${s.landedOffset}` : 'not in the leader’s log now'
      }`;
  }
}
