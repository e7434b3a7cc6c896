// View models of the Operations section of the Controls tab: partition reassignments, leadership
// skew, config propagation and ACLs, as text a user can read (never colour alone).
import type { ReassignmentPlan } from '../sim/types';
import type { AclBinding, AppliedConfigView, ReassignmentView, Snapshot } from '../sim/types';
import { refusalLines } from './panels';

export type { AclBinding, AclOperation } from '../sim/types';

const list = (ids: readonly number[]): string => ids.join(', ');

/** A refusal's lines without the command paths ("command.partitions[0].replicas[2]: "); undefined when none. */
export function refusalMessages(error: string | null): string[] | undefined {
  const messages = refusalLines(error ?? '').map((line) => line.replace(/^command(?:\.|\[)[^:\s]*: /, ''));
  return messages.length ? messages : undefined;
}

/** "4,5, 6" → [4, 5, 6]; refuses anything but distinct broker ids. */
export function parseReplicaList(
  text: string,
): { ok: true; replicas: number[] } | { ok: false; error: string } {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (parts.length === 0) return { ok: false, error: 'Enter the target replicas as broker ids, e.g. 4,5,6.' };
  const replicas: number[] = [];
  for (const part of parts) {
    if (!/^\d+$/.test(part)) return { ok: false, error: `"${part}" is not a broker id.` };
    const id = Number(part);
    if (replicas.includes(id)) return { ok: false, error: `Broker ${id} is listed twice.` };
    replicas.push(id);
  }
  return { ok: true, replicas };
}

/** The partitions of each topic, user topics first (for the topic and partition selects). */
export function selectTopicPartitions(snapshot: Snapshot | null): { topic: string; partitions: number[] }[] {
  const byTopic = new Map<string, number[]>();
  for (const p of snapshot?.partitions ?? []) {
    const partitions = byTopic.get(p.topic) ?? [];
    partitions.push(p.partition);
    byTopic.set(p.topic, partitions);
  }
  return [...byTopic]
    .map(([topic, partitions]) => ({ topic, partitions: [...partitions].sort((a, b) => a - b) }))
    .sort(
      (a, b) =>
        Number(a.topic.startsWith('__')) - Number(b.topic.startsWith('__')) ||
        (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : 0),
    );
}

export interface ReassignmentRow {
  key: string;
  /** "orders-0" */
  partition: string;
  /** "target replicas 7, 8, 9; adding 7, 8, 9 (copied 10 of 40 records on 7, ...); removing 4, 5, 6" */
  text: string;
}

export function reassignmentText(r: ReassignmentView): string {
  const progress = r.progress.map(
    (p) => `broker ${p.brokerId} copied ${p.logEndOffset} of ${p.leaderLogEndOffset} records`,
  );
  const parts = [`replicas ${list(r.replicas)}`];
  parts.push(r.adding.length ? `adding ${list(r.adding)}` : 'adding none');
  parts.push(r.removing.length ? `removing ${list(r.removing)}` : 'removing none');
  return `${parts.join('; ')}${progress.length ? ` (${progress.join(', ')})` : ''}`;
}

export function selectReassignmentRows(snapshot: Snapshot | null): ReassignmentRow[] {
  return (snapshot?.reassignments ?? []).map((r) => ({
    key: `${r.topic}-${r.partition}`,
    partition: `${r.topic}-${r.partition}`,
    text: reassignmentText(r),
  }));
}

export interface LeadershipRow {
  brokerId: number;
  leaders: number;
  preferredLeaders: number;
  notLedByPreferred: number;
  /** "25%" */
  imbalance: string;
}

export interface LeadershipSummary {
  rows: LeadershipRow[];
  /** "2 partitions are not led by their preferred leader; leaders per broker range from 0 to 3." */
  text: string;
  partitionsNotLedByPreferred: number;
}

export function selectLeadership(snapshot: Snapshot | null): LeadershipSummary | null {
  const view = snapshot?.leadership;
  if (!view) return null;
  const n = view.partitionsNotLedByPreferred;
  return {
    rows: [...view.brokers]
      .sort((a, b) => a.brokerId - b.brokerId)
      .map((b) => ({
        brokerId: b.brokerId,
        leaders: b.leaders,
        preferredLeaders: b.preferredLeaders,
        notLedByPreferred: b.notLedByPreferred,
        imbalance: `${Math.round(b.imbalanceRatio * 100)}%`,
      })),
    partitionsNotLedByPreferred: n,
    text: `${
      n === 0
        ? 'Every partition is led by its preferred leader'
        : n === 1
          ? '1 partition is not led by its preferred leader'
          : `${n} partitions are not led by their preferred leader`
    }; leaders per broker range from ${view.minLeaders} to ${view.maxLeaders}.`,
  };
}

export interface ConfigRow {
  key: string;
  /** "topic orders: min.insync.replicas=3" */
  change: string;
  /** "applied by 4, 5, 6; pending on 7" */
  propagation: string;
  complete: boolean;
}

export function configPropagationText(c: AppliedConfigView): string {
  const applied = c.appliedBy.length ? `applied by ${list(c.appliedBy)}` : 'applied by no broker yet';
  return c.pendingOn.length
    ? `${applied}; pending on ${list(c.pendingOn)}`
    : `${applied}; applied everywhere`;
}

export function selectConfigRows(snapshot: Snapshot | null): ConfigRow[] {
  return (snapshot?.configs ?? []).map((c) => {
    const resource = c.resourceType === 'cluster' ? 'cluster' : `${c.resourceType} ${c.resourceName}`;
    return {
      key: `${c.resourceType}:${c.resourceName}:${c.name}`,
      change: `${resource}: ${c.name}=${String(c.value)}`,
      propagation: configPropagationText(c),
      complete: c.pendingOn.length === 0,
    };
  });
}

/** "deny User:* Write on topic orders (literal)" */
export function aclText(acl: AclBinding): string {
  return `${acl.permission} ${acl.principal} ${acl.operation} on ${acl.resourceType} ${acl.resourceName} (${acl.patternType ?? 'literal'})`;
}

export function selectAcls(snapshot: Snapshot | null): { key: string; acl: AclBinding; text: string }[] {
  return (snapshot?.security?.acls ?? []).map((acl) => ({ key: aclText(acl), acl, text: aclText(acl) }));
}

// ---- adding brokers and balanced plans (kafka-reassign-partitions --generate) ----------------

export type { ReassignmentPlan } from '../sim/types';

export interface BrokerOption {
  id: number;
  rack: string | null;
  /** "broker 4 (zone-a)" */
  label: string;
}

/** The cluster's brokers, by id, with their racks. */
export function selectBrokerOptions(snapshot: Snapshot | null): BrokerOption[] {
  return (snapshot?.nodes ?? [])
    .filter((n) => n.roles.includes('broker'))
    .map((n) => ({ id: n.id, rack: n.rack, label: `broker ${n.id}${n.rack ? ` (${n.rack})` : ''}` }))
    .sort((a, b) => a.id - b.id);
}

/** The racks the brokers are in, sorted (for a new broker's rack). */
export function selectBrokerRacks(snapshot: Snapshot | null): string[] {
  const racks = new Set<string>();
  for (const b of selectBrokerOptions(snapshot)) if (b.rack) racks.add(b.rack);
  return [...racks].sort();
}

/** The id a new node gets unless the user picks another: one above the highest id in use. */
export function nextNodeId(snapshot: Snapshot | null): number {
  return Math.max(0, ...(snapshot?.nodes ?? []).map((n) => n.id)) + 1;
}

/** "7" → 7; refuses anything but a positive integer. */
export function parseNodeId(text: string): { ok: true; nodeId: number } | { ok: false; error: string } {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed) || Number(trimmed) < 1)
    return { ok: false, error: 'Enter the node id as a positive integer, e.g. 10.' };
  return { ok: true, nodeId: Number(trimmed) };
}

export interface PlanRow {
  key: string;
  /** "orders-0" */
  partition: string;
  /** "4, 5, 6" */
  current: string;
  proposed: string;
  /** "1 (adds 7, removes 4)", "0 (preferred leader 4 → 5)", "0": new replicas copy the whole log. */
  moved: string;
}

export interface PlanView {
  rows: PlanRow[];
  /** Replicas that move (a new replica for each), over the plan. */
  movedReplicas: number;
  totalReplicas: number;
  /** Partitions whose replica list changes (in membership or order). */
  changedPartitions: number;
  /** "5 of 18 replicas move; 4 of 6 partitions change." */
  summary: string;
  /** The reassignPartitions entries that execute the plan: only the partitions that change. */
  execute: { topic: string; partition: number; replicas: number[] }[];
}

/** "1 of 18 replicas moves", "5 of 6 partitions change" */
const ofTotal = (n: number, total: number, noun: string, verb: string): string =>
  `${n} of ${total} ${total === 1 ? noun : `${noun}s`} ${n === 1 ? `${verb}s` : verb}`;

/** The current and proposed assignment side by side, and what executing the plan would move. */
export function planView(plan: ReassignmentPlan): PlanView {
  const current = new Map(plan.current.map((p) => [`${p.topic}-${p.partition}`, p.replicas]));
  let movedReplicas = 0;
  let totalReplicas = 0;
  const execute: PlanView['execute'] = [];
  const rows = plan.proposed.map((p) => {
    const key = `${p.topic}-${p.partition}`;
    const now = current.get(key) ?? [];
    const added = p.replicas.filter((r) => !now.includes(r));
    const removed = now.filter((r) => !p.replicas.includes(r));
    const reordered = now.length === p.replicas.length && now.some((r, i) => r !== p.replicas[i]);
    movedReplicas += added.length;
    totalReplicas += p.replicas.length;
    const changes: string[] = [];
    if (added.length) changes.push(`adds ${list(added)}`);
    if (removed.length) changes.push(`removes ${list(removed)}`);
    if (!added.length && !removed.length && reordered)
      changes.push(`preferred leader ${now[0]} → ${p.replicas[0]}`);
    if (changes.length) execute.push({ topic: p.topic, partition: p.partition, replicas: [...p.replicas] });
    return {
      key,
      partition: key,
      current: list(now),
      proposed: list(p.replicas),
      moved: changes.length ? `${added.length} (${changes.join(', ')})` : '0',
    };
  });
  return {
    rows,
    movedReplicas,
    totalReplicas,
    changedPartitions: execute.length,
    summary: `${ofTotal(movedReplicas, totalReplicas, 'replica', 'move')}; ${ofTotal(execute.length, rows.length, 'partition', 'change')}.`,
    execute,
  };
}
