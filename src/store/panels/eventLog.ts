// The event log: each event's category (for the filters), what it is about (for the inspector),
// and the rows the log shows, newest first.
import type { NodeView, SimEvent } from '../../sim/types';
import { formatSimTime } from '../selectors';
import type { Selection } from '../selection';

export type EventCategory =
  | 'elections'
  | 'quorum'
  | 'fencing'
  | 'isr'
  | 'produce'
  | 'network'
  | 'dataLoss'
  | 'nodes'
  | 'admin'
  | 'clients'
  | 'other';

export const EVENT_CATEGORIES: readonly { id: EventCategory; label: string }[] = [
  { id: 'elections', label: 'Leader elections' },
  { id: 'quorum', label: 'KRaft quorum and metadata' },
  { id: 'fencing', label: 'Broker registration and fencing' },
  { id: 'isr', label: 'ISR and ELR' },
  { id: 'produce', label: 'Produce errors' },
  { id: 'network', label: 'Network' },
  { id: 'dataLoss', label: 'Data loss and truncation' },
  { id: 'nodes', label: 'Node crashes and restarts' },
  { id: 'admin', label: 'Topics, configs and admin' },
  { id: 'clients', label: 'Clients and consumer groups' },
  { id: 'other', label: 'Other' },
];

const CATEGORY_OF: Record<string, EventCategory> = {
  LeaderElected: 'elections',
  PartitionOffline: 'elections',
  VoteRequested: 'quorum',
  ControllerElected: 'quorum',
  ControllerFollowing: 'quorum',
  ControllerActivated: 'quorum',
  ControllerDeactivated: 'quorum',
  ControllerResigned: 'quorum',
  ControllerLeaderLost: 'quorum',
  MetadataApplied: 'quorum',
  MetadataLogTruncated: 'quorum',
  BrokerRegistered: 'fencing',
  BrokerFenced: 'fencing',
  BrokerUnfenced: 'fencing',
  IsrShrunk: 'isr',
  IsrExpanded: 'isr',
  IsrShrinkProposed: 'isr',
  ElrChanged: 'isr',
  ProduceFailed: 'produce',
  NetworkPartitioned: 'network',
  LinkCut: 'network',
  NetworkHealed: 'network',
  AcknowledgedRecordsLost: 'dataLoss',
  LogTruncated: 'dataLoss',
  NodeCrashed: 'nodes',
  NodeRestarted: 'nodes',
  NodeAdded: 'nodes',
  ShutdownRequested: 'nodes',
  BrokerStopped: 'nodes',
  TopicCreated: 'admin',
  StrayLogsRemoved: 'admin',
  ConfigChanged: 'admin',
  CommandRefused: 'admin',
};

// For event types added after this table: the first pattern that matches the name wins.
const CATEGORY_PATTERNS: [RegExp, EventCategory][] = [
  [/RecordsLost|DataLoss|Truncat/, 'dataLoss'],
  [/^(Isr|Elr)/, 'isr'],
  [/Fenc|^BrokerRegist/, 'fencing'],
  [/^(Controller|Vote|Quorum|Metadata)/, 'quorum'],
  [/Leader|Elect/, 'elections'],
  [/Produce|NotEnoughReplicas/, 'produce'],
  [/Network|Link/, 'network'],
  [/^Node|Shutdown|Stopped/, 'nodes'],
  [/Consumer|Group|Rebalance|Producer|Offset|Member|Commit/, 'clients'],
  [/Topic|Config|Reassign|Acl|Command/, 'admin'],
];

export function eventCategory(type: string): EventCategory {
  return CATEGORY_OF[type] ?? CATEGORY_PATTERNS.find(([pattern]) => pattern.test(type))?.[1] ?? 'other';
}

/**
 * What an event is about, for the inspector: a partition when it names one, else the node (a
 * controller for quorum events or a controller-only node), else a client.
 */
export function eventSelection(event: SimEvent, nodes: readonly NodeView[] = []): Selection | null {
  if (typeof event.topic === 'string' && typeof event.partition === 'number')
    return { kind: 'partition', id: `${event.topic}-${event.partition}` };
  if (typeof event.nodeId === 'number') {
    const roles = nodes.find((n) => n.id === event.nodeId)?.roles;
    const aboutQuorum = eventCategory(event.type) === 'quorum' && /^(Controller|Vote)/.test(event.type);
    const kind =
      roles === undefined
        ? aboutQuorum
          ? 'controller'
          : 'broker'
        : !roles.includes('broker') || (roles.includes('controller') && aboutQuorum)
          ? 'controller'
          : 'broker';
    return { kind, id: event.nodeId };
  }
  if (typeof event.groupId === 'string') return { kind: 'group', id: event.groupId };
  if (typeof event.producerId === 'string') return { kind: 'producer', id: event.producerId };
  if (typeof event.consumerId === 'string') return { kind: 'client', id: event.consumerId };
  return null;
}

export function selectionLabel(selection: Selection): string {
  switch (selection.kind) {
    case 'broker':
      return `Broker ${selection.id}`;
    case 'controller':
      return `Controller ${selection.id}`;
    case 'partition':
      return `Partition ${selection.id}`;
    case 'producer':
      return `Producer ${selection.id}`;
    case 'group':
      return `Consumer group ${selection.id}`;
    case 'client':
      return `Client ${selection.id}`;
  }
}

export interface EventLogRow {
  seq: number;
  time: string;
  type: string;
  message: string;
  category: EventCategory;
  categoryLabel: string;
  selection: Selection | null;
  /** The node the event is about, if any (the folding of routine events names them). */
  nodeId: number | null;
  /** MetadataApplied: the offset the node applied up to. */
  metadataOffset: number | null;
}

/** The latest `limit` events of the shown categories, newest first. */
export function selectEventLogRows(
  events: readonly SimEvent[],
  shown: ReadonlySet<EventCategory>,
  nodes: readonly NodeView[] = [],
  limit = 200,
): EventLogRow[] {
  const rows: EventLogRow[] = [];
  for (let i = events.length - 1; i >= 0 && rows.length < limit; i--) {
    const event = events[i];
    if (!event) continue;
    const category = eventCategory(event.type);
    if (!shown.has(category)) continue;
    rows.push({
      seq: event.seq,
      time: formatSimTime(event.timeMs),
      type: event.type,
      message: event.message,
      category,
      categoryLabel: EVENT_CATEGORIES.find((c) => c.id === category)!.label,
      selection: eventSelection(event, nodes),
      nodeId: typeof event.nodeId === 'number' ? event.nodeId : null,
      metadataOffset: typeof event.metadataOffset === 'number' ? event.metadataOffset : null,
    });
  }
  return rows;
}
