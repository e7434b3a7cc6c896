// View models of the side panels (dashboard, health bar, event log, inspector, forms): pure
// functions from what the worker sent to what the panels show.
import type { ConfigValue, LedgerEntry, NodeView, PartitionView, SimEvent, Snapshot } from '../sim/types';
import { formatSimTime } from './selectors';
import { parsePartitionId, type Selection } from './selection';

// Panels import the sim's types through the store (ARCHITECTURE.md, layers).
export type {
  Acks,
  Command,
  CommandResult,
  ConfigValue,
  LedgerEntry,
  NodeView,
  SimEvent,
  Snapshot,
} from '../sim/types';
export type { LedgerQuery } from '../worker/protocol';
export type { LedgerReply } from './connection';

// ---- dashboard ------------------------------------------------------------------------------

export interface DashboardRow {
  key: string;
  topic: string;
  partition: number;
  /** The leader's broker id, -1 when offline. */
  leader: number;
  leaderEpoch: number;
  replicas: number[];
  isr: number[];
  elr: number[];
  /** The leader is the first replica (Kafka's preferred leader). */
  preferredLeader: boolean;
  /** Fewer in-sync replicas than replicas (Kafka's UnderReplicatedPartitions). */
  underReplicated: boolean;
  /** Fewer in-sync replicas than min.insync.replicas: acks=all writes fail with NOT_ENOUGH_REPLICAS. */
  underMinIsr: boolean;
  /** No leader (Kafka's OfflinePartitionsCount). */
  offline: boolean;
  minInsyncReplicas: number;
  highWatermark: number;
  /** Topics whose names start with "__" are Kafka's own (__consumer_offsets). */
  internal: boolean;
}

/** min.insync.replicas of a topic: its own config, else Kafka's default of 1. */
export function topicMinIsr(config: Record<string, ConfigValue> | undefined): number {
  const value = Number(config?.['min.insync.replicas']);
  return Number.isInteger(value) && value >= 1 ? value : 1;
}

export function dashboardRow(p: PartitionView, minIsr: number): DashboardRow {
  const offline = p.leader === -1;
  return {
    key: `${p.topic}-${p.partition}`,
    topic: p.topic,
    partition: p.partition,
    leader: p.leader,
    leaderEpoch: p.leaderEpoch,
    replicas: p.replicas,
    isr: p.isr,
    elr: p.elr,
    preferredLeader: !offline && p.leader === p.replicas[0],
    underReplicated: p.isr.length < p.replicas.length,
    // An RF below min.insync.replicas can never reach it; Kafka then requires every replica.
    underMinIsr: p.isr.length < Math.min(minIsr, p.replicas.length),
    offline,
    minInsyncReplicas: minIsr,
    highWatermark: p.highWatermark,
    internal: p.topic.startsWith('__'),
  };
}

/** Topic-partition order: by topic name, then partition (a sort comparator). */
export const byTopicThenPartition = (
  a: { topic: string; partition: number },
  b: { topic: string; partition: number },
): number => (a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1);

/** One row per partition, in the snapshot's order. */
function dashboardRowsOf(snapshot: Snapshot | null): DashboardRow[] {
  if (!snapshot) return [];
  const minIsr = new Map(snapshot.topics.map((t) => [t.name, topicMinIsr(t.config)]));
  return snapshot.partitions.map((p) => dashboardRow(p, minIsr.get(p.topic) ?? 1));
}

/** One row per partition, in topic then partition order. */
export function selectDashboardRows(snapshot: Snapshot | null): DashboardRow[] {
  return dashboardRowsOf(snapshot).sort(byTopicThenPartition);
}

export type DashboardSortKey = 'partition' | 'leader' | 'isr' | 'status' | 'highWatermark';
export type SortDirection = 'ascending' | 'descending';

/** Worse first when ascending: offline, then under min ISR, under-replicated, not the preferred leader. */
export function problemScore(row: DashboardRow): number {
  return (
    (row.offline ? 8 : 0) +
    (row.underMinIsr ? 4 : 0) +
    (row.underReplicated ? 2 : 0) +
    (row.preferredLeader || row.offline ? 0 : 1)
  );
}

const SORTS: Record<DashboardSortKey, (a: DashboardRow, b: DashboardRow) => number> = {
  partition: byTopicThenPartition,
  leader: (a, b) => a.leader - b.leader,
  isr: (a, b) => a.isr.length - b.isr.length,
  status: (a, b) => problemScore(b) - problemScore(a),
  highWatermark: (a, b) => a.highWatermark - b.highWatermark,
};

/** A stable sort: rows that tie stay in topic then partition order. */
export function sortDashboardRows(
  rows: readonly DashboardRow[],
  key: DashboardSortKey,
  direction: SortDirection,
): DashboardRow[] {
  const sign = direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => sign * SORTS[key](a, b) || byTopicThenPartition(a, b));
}

export interface DashboardFilter {
  /** Part of the topic name, or "topic-partition" (case-insensitive). */
  text: string;
  onlyProblems: boolean;
  showInternal: boolean;
}

export function filterDashboardRows(rows: readonly DashboardRow[], filter: DashboardFilter): DashboardRow[] {
  const text = filter.text.trim().toLowerCase();
  return rows.filter(
    (row) =>
      (filter.showInternal || !row.internal) &&
      (!filter.onlyProblems || problemScore(row) > 0) &&
      (text === '' || row.key.toLowerCase().includes(text)),
  );
}

// ---- health bar -----------------------------------------------------------------------------

export interface Health {
  partitions: number;
  offline: number;
  underReplicated: number;
  underMinIsr: number;
  /** The quorum leader, which is the active controller; null while there is none. */
  activeController: number | null;
  controllerEpoch: number;
}

export function selectHealth(snapshot: Snapshot | null): Health {
  // Counts only: the header computes them on every snapshot, so the rows are not sorted.
  const rows = dashboardRowsOf(snapshot);
  return {
    partitions: rows.length,
    offline: rows.filter((r) => r.offline).length,
    underReplicated: rows.filter((r) => r.underReplicated).length,
    underMinIsr: rows.filter((r) => r.underMinIsr).length,
    activeController: snapshot?.quorum.leaderId ?? null,
    controllerEpoch: snapshot?.quorum.epoch ?? 0,
  };
}

// ---- event log ------------------------------------------------------------------------------

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

// ---- Kafka errors on form fields ------------------------------------------------------------

/**
 * A refusal placed next to the field it concerns. `field` is the command's field ("name",
 * "partitions", "replicationFactor", "topic", "partition", "resourceName", ...), or
 * "config:<key>" for one config entry, or null for the form as a whole.
 */
export interface FieldError {
  field: string | null;
  /** Kafka's error name (e.g. INVALID_REPLICATION_FACTOR), when the error has or implies one. */
  code: string | null;
  /** The explanation without the code or path prefix. */
  message: string;
}

const CODE_FIELDS: Record<string, string> = {
  INVALID_REPLICATION_FACTOR: 'replicationFactor',
  INVALID_PARTITIONS: 'partitions',
  INVALID_TOPIC_EXCEPTION: 'name',
  TOPIC_ALREADY_EXISTS: 'name',
  UNKNOWN_TOPIC_OR_PARTITION: 'topic',
  INVALID_REQUIRED_ACKS: 'acks',
};

const configKeyIn = (text: string): string | null =>
  /for configuration ([\w.-]+)/.exec(text)?.[1] ??
  /config name:? ([\w.-]+)/i.exec(text)?.[1] ??
  /'([\w.-]+)' (?:is not|cannot)/.exec(text)?.[1] ??
  null;

/** The Kafka error name a validation message of this field implies. */
function impliedCode(field: string, message: string): string | null {
  if (field.startsWith('config:')) return 'INVALID_CONFIG';
  if (field === 'name')
    return /already exists|collides/.test(message) ? 'TOPIC_ALREADY_EXISTS' : 'INVALID_TOPIC_EXCEPTION';
  if (field === 'replicationFactor') return 'INVALID_REPLICATION_FACTOR';
  if (field === 'partitions') return 'INVALID_PARTITIONS';
  if (/^no topic/.test(message)) return 'UNKNOWN_TOPIC_OR_PARTITION';
  return null;
}

function fieldErrorOfLine(line: string): FieldError {
  // A validation issue: "command.config.min.insync.replicas: Invalid value ..." (config keys hold dots).
  const issue = /^command((?:\.|\[)[^:\s]*): (.*)$/s.exec(line);
  if (issue) {
    const path = issue[1].replace(/^\./, '');
    const [head, ...rest] = path.split('.');
    const root = head.replace(/\[.*$/, '');
    const field =
      (root === 'config' || root === 'configs') && rest.length ? `config:${rest.join('.')}` : root;
    return { field, code: impliedCode(field, issue[2]), message: issue[2] };
  }
  const coded = /^([A-Z][A-Z_]+[A-Z]): (.*)$/s.exec(line);
  if (coded) {
    const [, code, message] = coded;
    if (code === 'INVALID_CONFIG' || code === 'POLICY_VIOLATION' || code === 'INVALID_REQUEST') {
      const key = configKeyIn(message);
      return { field: key ? `config:${key}` : null, code, message };
    }
    return { field: CODE_FIELDS[code] ?? null, code, message };
  }
  const key = configKeyIn(line);
  if (key) return { field: `config:${key}`, code: 'INVALID_CONFIG', message: line };
  if (/^Topic name|^Topic '/.test(line))
    return { field: 'name', code: impliedCode('name', line), message: line };
  // The engine's refusals of client commands name the client first: "producer p is already running".
  const client = /^(producer|consumer) \S+ /.exec(line);
  if (client) return { field: `${client[1]}Id`, code: null, message: line };
  return { field: null, code: null, message: line };
}

/** A refusal's lines, trimmed, without empty ones. */
export function refusalLines(error: string): string[] {
  // Validation lists its issues one a line or joined by "; ", each starting with its path.
  return error
    .split(/\n|;\s+(?=command[.[])/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** Each line of a refusal, with the field it concerns and Kafka's error name. */
export function fieldErrors(error: string): FieldError[] {
  return refusalLines(error).map(fieldErrorOfLine);
}

export const formatFieldError = (error: FieldError): string =>
  error.code ? `${error.code}: ${error.message}` : error.message;

/** The refusal's lines grouped by the form field they belong to (`aliases` renames command fields to form fields). */
export function errorsByField(
  error: string | null,
  aliases: Record<string, string> = {},
): Map<string | null, string[]> {
  const byField = new Map<string | null, string[]>();
  if (!error) return byField;
  for (const e of fieldErrors(error)) {
    const field = e.field === null ? null : (aliases[e.field] ?? e.field);
    byField.set(field, [...(byField.get(field) ?? []), formatFieldError(e)]);
  }
  return byField;
}

// ---- ledger ---------------------------------------------------------------------------------

export interface LedgerRow {
  recordId: number;
  partition: string;
  key: string;
  value: string;
  acks: string;
  status: LedgerEntry['status'];
  /** The outcome in words with Kafka's error name: "acked at offset 3", "failed: NOT_ENOUGH_REPLICAS". */
  outcome: string;
  error: string | null;
}

export function ledgerRow(entry: LedgerEntry): LedgerRow {
  let outcome: string;
  if (entry.status === 'acked')
    outcome =
      entry.offset >= 0
        ? `acked at offset ${entry.offset}`
        : 'sent (acks=0: no acknowledgement, offset unknown)';
  else if (entry.status === 'failed') outcome = `failed: ${entry.error ?? 'unknown error'}`;
  else outcome = entry.error ? `pending, retrying after ${entry.error}` : 'pending';
  return {
    recordId: entry.recordId,
    partition: `${entry.topic}-${entry.partition}`,
    key: entry.key ?? 'null',
    value: entry.value,
    acks: String(entry.acks),
    status: entry.status,
    outcome,
    error: entry.error ?? null,
  };
}

/** A one-line summary of the records a form sent, latest error first, for a live region. */
export function ledgerSummary(entries: readonly LedgerEntry[]): string {
  if (entries.length === 0) return '';
  const count = (status: LedgerEntry['status']) => entries.filter((e) => e.status === status).length;
  const errors = [...new Set(entries.filter((e) => e.status !== 'acked' && e.error).map((e) => e.error!))];
  const parts = [`${count('acked')} acked`, `${count('pending')} pending`, `${count('failed')} failed`];
  return `${errors.length ? `${errors.join(', ')}. ` : ''}${parts.join(', ')}.`;
}

// ---- inspector ------------------------------------------------------------------------------

export interface InspectorField {
  label: string;
  value: string;
}

export interface InspectorView {
  title: string;
  fields: InspectorField[];
}

const LABELS: Record<string, string> = {
  id: 'Id',
  isr: 'ISR (in-sync replicas)',
  elr: 'ELR (eligible leader replicas, KIP-966)',
  highWatermark: 'High watermark (HW)',
  logEndOffset: 'Log end offset (LEO)',
  logStartOffset: 'Log start offset',
  leaderEpoch: 'Leader epoch',
  brokerEpoch: 'Broker epoch',
  metadataOffset: 'Metadata offset',
  replicas: 'Replicas',
  leader: 'Leader',
  fenced: 'Fenced',
  rack: 'Rack',
  roles: 'Roles',
  state: 'State',
  shuttingDown: 'In controlled shutdown',
  lastHeartbeatMs: 'Last heartbeat heard by the active controller (ms)',
  lastFetchOkMs: 'Last fetch from the leader, once overdue (ms)',
  lastCaughtUpAtMs: 'Last caught up, as the leader saw it (ms)',
  oldestRequestSentAtMs: 'Oldest request in flight sent at (ms)',
  oldestRequestBrokerId: 'Oldest request in flight to broker',
  oldestRecordSentAtMs: 'Oldest unacknowledged record sent at (ms)',
  votedFor: 'Voted for',
  leaderId: 'Leader id',
  epoch: 'Epoch',
};

/** "bytesInPerSec" → "Bytes in per sec". */
export function fieldLabel(key: string): string {
  if (LABELS[key]) return LABELS[key];
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A snapshot value in words: lists joined, booleans as yes/no, null as "none", objects as JSON. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value))
    return value.length === 0
      ? 'none'
      : value.every((v) => typeof v !== 'object' || v === null)
        ? value.join(', ')
        : JSON.stringify(value);
  if (typeof value === 'object') return Object.keys(value).length === 0 ? 'none' : JSON.stringify(value);
  return String(value);
}

function fieldsOf(record: object, skip: readonly string[] = [], prefix = ''): InspectorField[] {
  return Object.entries(record)
    .filter(([key]) => !skip.includes(key))
    .map(([key, value]) => ({
      label: prefix + fieldLabel(key),
      value: key === 'leader' && value === -1 ? 'none (-1, offline)' : formatValue(value),
    }));
}

/** Every field of the selected thing's snapshot, as label and value; null when it is not there. */
export function selectInspector(
  snapshot: Snapshot | null,
  selection: Selection | null,
): InspectorView | null {
  if (!snapshot || !selection) return null;
  switch (selection.kind) {
    case 'broker':
    case 'controller': {
      const node = snapshot.nodes.find((n) => String(n.id) === String(selection.id));
      if (!node) return null;
      const voter = snapshot.quorum.voters.find((v) => String(v.id) === String(selection.id));
      const fields = fieldsOf(node);
      if (voter) fields.push(...fieldsOf(voter, ['id'], 'Quorum: '));
      if (node.roles.includes('controller'))
        fields.push({
          label: 'Active controller',
          value: snapshot.quorum.leaderId === node.id ? 'yes' : 'no',
        });
      const kind = node.roles.includes('broker') && selection.kind === 'broker' ? 'Broker' : 'Controller';
      return { title: `${kind} ${node.id}`, fields };
    }
    case 'partition': {
      const tp = parsePartitionId(selection.id);
      const p = tp && snapshot.partitions.find((x) => x.topic === tp.topic && x.partition === tp.partition);
      if (!p) return null;
      const topic = snapshot.topics.find((t) => t.name === p.topic);
      const row = dashboardRow(p, topicMinIsr(topic?.config));
      const fields = fieldsOf(p, ['replicaLogs', 'budget']);
      fields.push(
        { label: 'Preferred leader', value: formatValue(row.preferredLeader) },
        { label: 'Under-replicated', value: formatValue(row.underReplicated) },
        { label: 'Under min ISR', value: formatValue(row.underMinIsr) },
        { label: 'Offline', value: formatValue(row.offline) },
        { label: 'min.insync.replicas', value: String(row.minInsyncReplicas) },
      );
      if (p.budget) fields.push(...fieldsOf(p.budget, [], 'Failure budget: '));
      return { title: `Partition ${selection.id}`, fields };
    }
    case 'producer': {
      const producer = snapshot.clients.producers?.find((x) => x.id === selection.id);
      return producer ? { title: `Producer ${producer.id}`, fields: fieldsOf(producer) } : null;
    }
    case 'group': {
      const group = snapshot.clients.groups?.find((x) => x.groupId === selection.id);
      if (!group) return null;
      const fields = fieldsOf(group);
      // KIP-848: each member's epoch and reconciliation state, in words.
      if (group.groupProtocol === 'consumer')
        for (const m of group.members)
          fields.push({
            label: `Member ${m.consumerId}`,
            value: `member epoch ${m.memberEpoch} (${m.memberState}), assigned ${
              m.assignment.map((a) => `${a.topic}-${a.partition}`).join(', ') || 'nothing'
            }${
              m.pendingRevocation.length
                ? `, revoking ${m.pendingRevocation.map((a) => `${a.topic}-${a.partition}`).join(', ')}`
                : ''
            }`,
          });
      return { title: `Consumer group ${group.groupId}`, fields };
    }
    case 'client': {
      const producer = snapshot.clients.producers?.find((x) => x.id === selection.id);
      if (producer) return { title: `Producer ${producer.id}`, fields: fieldsOf(producer) };
      const consumer = snapshot.clients.consumers?.find((x) => x.id === selection.id);
      return consumer ? { title: `Consumer ${consumer.id}`, fields: fieldsOf(consumer) } : null;
    }
  }
}

export interface InspectableOption {
  value: string;
  label: string;
  selection: Selection;
}

export interface InspectableGroup {
  label: string;
  options: InspectableOption[];
}

export const selectionValue = (selection: Selection): string => `${selection.kind}:${selection.id}`;

export function parseSelectionValue(value: string): Selection | null {
  const colon = value.indexOf(':');
  const kind = value.slice(0, colon) as Selection['kind'];
  const id = value.slice(colon + 1);
  if (colon < 0 || id === '') return null;
  switch (kind) {
    case 'broker':
    case 'controller':
      return /^\d+$/.test(id) ? { kind, id: Number(id) } : null;
    case 'partition':
    case 'client':
    case 'producer':
    case 'group':
      return { kind, id };
    default:
      return null;
  }
}

/** Everything the inspector can show, grouped for a select. */
export function selectInspectables(snapshot: Snapshot | null): InspectableGroup[] {
  if (!snapshot) return [];
  const option = (selection: Selection, label: string): InspectableOption => ({
    value: selectionValue(selection),
    label,
    selection,
  });
  const groups: InspectableGroup[] = [
    {
      label: 'Brokers',
      options: snapshot.nodes
        .filter((n) => n.roles.includes('broker'))
        .map((n) => option({ kind: 'broker', id: n.id }, `Broker ${n.id}`)),
    },
    {
      label: 'Controllers',
      options: snapshot.nodes
        .filter((n) => n.roles.includes('controller'))
        .map((n) => option({ kind: 'controller', id: n.id }, `Controller ${n.id}`)),
    },
    {
      label: 'Partitions',
      options: selectDashboardRows(snapshot).map((r) =>
        option({ kind: 'partition', id: r.key }, `Partition ${r.key}`),
      ),
    },
    {
      label: 'Producers',
      options: (snapshot.clients.producers ?? []).map((p) =>
        option({ kind: 'producer', id: p.id }, `Producer ${p.id}`),
      ),
    },
    {
      label: 'Consumers',
      options: (snapshot.clients.consumers ?? []).map((c) =>
        option({ kind: 'client', id: c.id }, `Consumer ${c.id}`),
      ),
    },
    {
      label: 'Consumer groups',
      options: (snapshot.clients.groups ?? []).map((g) =>
        option({ kind: 'group', id: g.groupId }, `Consumer group ${g.groupId}`),
      ),
    },
  ];
  return groups.filter((g) => g.options.length > 0);
}

/** Racks (zones) and the nodes in each, for "isolate a rack". */
export function selectRacks(snapshot: Snapshot | null): { rack: string; nodeIds: number[] }[] {
  const racks = new Map<string, number[]>();
  for (const n of snapshot?.nodes ?? [])
    if (n.rack !== null) racks.set(n.rack, [...(racks.get(n.rack) ?? []), n.id]);
  return [...racks].sort(([a], [b]) => (a < b ? -1 : 1)).map(([rack, nodeIds]) => ({ rack, nodeIds }));
}

/** The groups of partitionNetwork that cut `isolated` off from every other node. */
export function isolationGroups(snapshot: Snapshot | null, isolated: readonly number[]): number[][] {
  const inside = new Set(isolated);
  const rest = (snapshot?.nodes ?? []).map((n) => n.id).filter((id) => !inside.has(id));
  return rest.length ? [[...isolated], rest] : [[...isolated]];
}

// ---- form values ----------------------------------------------------------------------------

/** A config value as typed: true/false as booleans, numbers as numbers, else the text. */
export function parseConfigValue(text: string): ConfigValue {
  const trimmed = text.trim();
  if (trimmed === 'true' || trimmed === 'false') return trimmed === 'true';
  if (/^-?\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  return trimmed;
}

/**
 * "key=value" pairs, one a line or separated by commas; an empty value ("key=") deletes the
 * override (incrementalAlterConfigs DELETE).
 */
export function parseConfigEntries(
  text: string,
): { ok: true; configs: Record<string, ConfigValue | null> } | { ok: false; error: string } {
  const configs: Record<string, ConfigValue | null> = {};
  const parts = text
    .split(/[\n,]/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.length === 0)
    return { ok: false, error: 'Enter at least one config as key=value, e.g. min.insync.replicas=2' };
  for (const part of parts) {
    const eq = part.indexOf('=');
    if (eq <= 0) return { ok: false, error: `"${part}" is not key=value, e.g. min.insync.replicas=2` };
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1);
    configs[key] = value.trim() === '' ? null : parseConfigValue(value);
  }
  return { ok: true, configs };
}

/** The next id of the form `${prefix}${n}` that no existing id uses. */
export function nextFreeId(prefix: string, used: readonly string[]): string {
  const taken = new Set(used);
  let n = 1;
  while (taken.has(`${prefix}${n}`)) n++;
  return `${prefix}${n}`;
}
