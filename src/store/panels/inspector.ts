// The inspector: every field of the selected broker, controller, partition or client in words,
// and the list of everything it can show.
import type { Snapshot } from '../../sim/types';
import { parsePartitionId, type Selection } from '../selection';
import { dashboardRow, selectDashboardRows, topicMinIsr } from './dashboard';

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
      const fields = fieldsOf(group, ['staleCoordinators']);
      // A broker cut off from the controllers that still acts as the group's coordinator.
      fields.push({
        label: 'Stale coordinators',
        value:
          (group.staleCoordinators ?? [])
            .map((c) => `broker ${c.brokerId} (${c.state}, ${c.members} member(s), on stale metadata)`)
            .join('; ') || 'none',
      });
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
