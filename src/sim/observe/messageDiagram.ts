// The message diagram's query: the messages of a time window from the message trail
// (model/messageTrail.ts), filtered by kind and by partition, sampled where dense, each with a
// compact body. Observe-only: reading it changes nothing.

import type { Addr, Body, MessageKind } from '../model/messages';
import { addrOf, entryBody, entryMs, isDrop, lossOf } from '../model/messageTrail';
import type { BodyDigest, LossReason, TrailChunk } from '../model/messageTrail';
import type { World } from '../model/world';

/** The kinds of message the diagram filters by, as a learner names them. */
export type MessageCategory =
  | 'produce'
  | 'replication'
  | 'consumer fetch'
  | 'heartbeat'
  | 'raft'
  | 'controller'
  | 'metadata'
  | 'group'
  | 'transaction'
  | 'connection';

export const MESSAGE_CATEGORIES: readonly MessageCategory[] = [
  'produce',
  'replication',
  'consumer fetch',
  'heartbeat',
  'raft',
  'controller',
  'metadata',
  'group',
  'transaction',
  'connection',
];

const CATEGORY: { readonly [K in MessageKind]: MessageCategory } = {
  Produce: 'produce',
  ProduceResponse: 'produce',
  Fetch: 'replication',
  FetchResponse: 'replication',
  ConsumerFetch: 'consumer fetch',
  ConsumerFetchResponse: 'consumer fetch',
  ListOffsets: 'consumer fetch',
  ListOffsetsResponse: 'consumer fetch',
  OffsetsForLeaderEpoch: 'consumer fetch',
  OffsetsForLeaderEpochResponse: 'consumer fetch',
  BrokerHeartbeat: 'heartbeat',
  BrokerHeartbeatResponse: 'heartbeat',
  Heartbeat: 'heartbeat',
  HeartbeatResponse: 'heartbeat',
  ConsumerGroupHeartbeat: 'heartbeat',
  ConsumerGroupHeartbeatResponse: 'heartbeat',
  Vote: 'raft',
  VoteResponse: 'raft',
  BeginQuorumEpoch: 'raft',
  RaftFetch: 'raft',
  RaftFetchResponse: 'raft',
  BrokerRegistration: 'controller',
  BrokerRegistrationResponse: 'controller',
  AlterPartition: 'controller',
  AlterPartitionResponse: 'controller',
  Metadata: 'metadata',
  MetadataResponse: 'metadata',
  FindCoordinator: 'group',
  FindCoordinatorResponse: 'group',
  JoinGroup: 'group',
  JoinGroupResponse: 'group',
  SyncGroup: 'group',
  SyncGroupResponse: 'group',
  LeaveGroup: 'group',
  LeaveGroupResponse: 'group',
  OffsetCommit: 'group',
  OffsetCommitResponse: 'group',
  OffsetFetch: 'group',
  OffsetFetchResponse: 'group',
  InitProducerId: 'transaction',
  InitProducerIdResponse: 'transaction',
  AddPartitionsToTxn: 'transaction',
  AddPartitionsToTxnResponse: 'transaction',
  AddOffsetsToTxn: 'transaction',
  AddOffsetsToTxnResponse: 'transaction',
  TxnOffsetCommit: 'transaction',
  TxnOffsetCommitResponse: 'transaction',
  EndTxn: 'transaction',
  EndTxnResponse: 'transaction',
  WriteTxnMarkers: 'transaction',
  WriteTxnMarkersResponse: 'transaction',
  Disconnected: 'connection',
};

/** The category of a body (FindCoordinator for a transactional.id is a transaction RPC). */
export function messageCategory(body: Body | BodyDigest): MessageCategory {
  if (
    (body.kind === 'FindCoordinator' || body.kind === 'FindCoordinatorResponse') &&
    'keyType' in body &&
    body.keyType
  )
    return 'transaction';
  return CATEGORY[body.kind];
}

/** The category of entry i of a trail chunk (its body is read only for FindCoordinator). */
function entryCategory(c: TrailChunk, i: number): MessageCategory {
  const kind = c.kind[i]!;
  return kind === 'FindCoordinator' || kind === 'FindCoordinatorResponse'
    ? messageCategory(entryBody(c, i))
    : CATEGORY[kind];
}

export interface MessageQuery {
  fromMs: number;
  toMs: number;
  /** Only these categories (all when absent). */
  categories?: MessageCategory[];
  /** Only messages about this topic (and partition, when given). */
  topic?: string;
  partition?: number;
  /** The most messages answered (the rest sampled out); default and cap MESSAGE_QUERY_MAX. */
  maxMessages?: number;
}

export const MESSAGE_QUERY_MAX = 800;
/** Longer than any message stays on the wire (link latencies are far below it). */
const WIRE_SLACK_MS = 60_000;

export interface WireMessageView {
  /** Unique in the run (the message's sequence; negative for one lost as it was sent). */
  id: number;
  kind: MessageKind;
  category: MessageCategory;
  from: Addr;
  to: Addr;
  sentMs: number;
  /** When it arrived, arrives, or was lost. */
  atMs: number;
  lost: LossReason | null;
  /** Still on the wire at the time of the query. */
  inFlight: boolean;
  /** The body, compact: each field as name and short text. */
  fields: [string, string][];
  /** The partitions it is about (topic-partition). */
  partitions: string[];
}

export interface MessageSampling {
  category: MessageCategory;
  /** One message in `every` of this category is shown (lost ones always are). */
  every: number;
  /** How many of this category the window holds after filtering. */
  total: number;
}

export interface MessageDiagramView {
  fromMs: number;
  toMs: number;
  nowMs: number;
  /** Oldest first, by send time. */
  messages: WireMessageView[];
  /** Matching messages in the window, before sampling. */
  matched: number;
  sampled: MessageSampling[];
  /** The send time of the oldest message the trail still holds (-1: none yet): the window cannot reach before it. */
  oldestMs: number;
  /** Every address that sent or received a message of the window (before filtering), for the lanes. */
  addrs: Addr[];
}

const FIELD_TEXT_MAX = 90;

const short = (s: string): string => (s.length > FIELD_TEXT_MAX ? `${s.slice(0, FIELD_TEXT_MAX - 1)}…` : s);

/** topic-partition of each element that names one, with its offset when it carries one. */
function partsText(xs: unknown[]): string | null {
  const out: string[] = [];
  for (const x of xs) {
    if (typeof x !== 'object' || x === null || !('topic' in x) || !('partition' in x)) return null;
    const p = x as { topic: string; partition: number; fetchOffset?: number; offset?: number };
    const at = p.fetchOffset ?? p.offset;
    out.push(`${p.topic}-${p.partition}${at !== undefined ? `@${at}` : ''}`);
  }
  return out.join(', ');
}

function fieldText(key: string, value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (key === 'records' || key === 'entries') return String(value.length);
    const parts = partsText(value);
    if (parts !== null) return parts;
    if (value.every((v) => typeof v !== 'object')) return value.join(', ');
    return `${value.length} items`;
  }
  return JSON.stringify(value);
}

/** The body as short name/value pairs (records as a count, partitions as topic-partition@offset). */
export function bodyFields(body: Body | BodyDigest): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, value] of Object.entries(body)) {
    if (key === 'kind' || key === 'digest' || value === undefined) continue;
    out.push([key === 'tps' ? 'partitions' : key, short(fieldText(key, value))]);
  }
  return out;
}

/** The partitions a body is about, as topic-partition. */
export function bodyPartitions(body: Body | BodyDigest): string[] {
  const b = body as Partial<Record<string, unknown>>;
  if (Array.isArray(b.tps)) return b.tps as string[];
  if (typeof b.topic === 'string' && typeof b.partition === 'number') return [`${b.topic}-${b.partition}`];
  const out: string[] = [];
  for (const key of ['parts', 'partitions', 'offsets']) {
    const xs = b[key];
    if (!Array.isArray(xs)) continue;
    for (const x of xs as { topic?: unknown; partition?: unknown }[])
      if (typeof x?.topic === 'string' && typeof x.partition === 'number')
        out.push(`${x.topic}-${x.partition}`);
  }
  // A MetadataResponse lists every partition: it is about none in particular.
  return body.kind === 'MetadataResponse' ? [] : out;
}

/**
 * The messages of [fromMs, toMs] (sent before its end and arriving, or lost, after its start),
 * matching the query, at most maxMessages: a dense category is sampled (one in N, by order sent;
 * lost messages always kept), and the answer says so.
 */
export function messageDiagram(w: World, q: MessageQuery): MessageDiagramView {
  const fromMs = Math.max(0, Math.floor(q.fromMs) || 0);
  const toMs = Math.max(fromMs, Math.floor(q.toMs) || 0);
  const max = Math.max(1, Math.min(Math.floor(q.maxMessages ?? MESSAGE_QUERY_MAX) || 1, MESSAGE_QUERY_MAX));
  const categories = q.categories ? new Set(q.categories) : null;
  const tp = q.topic === undefined ? null : q.partition === undefined ? null : `${q.topic}-${q.partition}`;
  const topicPrefix = q.topic === undefined ? null : `${q.topic}-`;
  const trail = w.messageTrail;
  const chunks = trail.chunks;
  const drops = new Map<number, { atMs: number; lost: LossReason }>();
  const seen: WireMessageView[] = [];
  // Where each seen message's body is: its chunk and index (read only for what is answered).
  const at: [TrailChunk, number][] = [];
  const addrs = new Set<Addr>();
  let lostAtSend = 0;
  const oldestMs = chunks[0]!.length > 0 ? chunks[0]!.sentMs[0]! : -1;
  // Entries are in the order they happened: chunks that ended long before the window hold nothing
  // of it (a message is on the wire far less than WIRE_SLACK_MS).
  let first = 0;
  while (
    first < chunks.length - 1 &&
    entryMs(chunks[first]!, chunks[first]!.length - 1) < fromMs - WIRE_SLACK_MS
  )
    first++;
  for (let ci = first; ci < chunks.length; ci++) {
    const c = chunks[ci]!;
    for (let i = 0; i < c.length; i++) {
      const seq = c.seq[i]!;
      if (isDrop(c, i)) {
        drops.set(seq, { atMs: c.atMs[i]!, lost: lossOf(c, i)! });
        continue;
      }
      if (seq < 0) lostAtSend++;
      const sentMs = c.sentMs[i]!;
      const atMs = c.atMs[i]!;
      if (sentMs > toMs || atMs < fromMs) continue;
      const from = addrOf(trail, c.from[i]!);
      const to = addrOf(trail, c.to[i]!);
      addrs.add(from);
      addrs.add(to);
      const category = entryCategory(c, i);
      if (categories && !categories.has(category)) continue;
      let partitions: string[] | null = null;
      if (topicPrefix !== null) {
        partitions = bodyPartitions(entryBody(c, i));
        if (!partitions.some((p) => (tp === null ? p.startsWith(topicPrefix) : p === tp))) continue;
      }
      seen.push({
        id: seq < 0 ? -lostAtSend : seq,
        kind: c.kind[i]!,
        category,
        from,
        to,
        sentMs,
        atMs,
        lost: lossOf(c, i),
        inFlight: false,
        fields: [],
        partitions: partitions ?? [],
      });
      at.push([c, i]);
    }
  }
  // Losses on the wire: the drop entry comes after its send, so they join now.
  for (const m of seen) {
    const d = m.id >= 0 ? drops.get(m.id) : undefined;
    if (d) {
      m.atMs = d.atMs;
      m.lost = d.lost;
    } else if (m.lost === null && m.atMs > w.nowMs) m.inFlight = true;
  }
  const { kept, sampled } = sample(seen, max);
  // Bodies only for what is answered (the costly part).
  for (const i of kept) {
    const m = seen[i]!;
    const [c, ci] = at[i]!;
    const body = entryBody(c, ci);
    m.fields = bodyFields(body);
    if (m.partitions.length === 0) m.partitions = bodyPartitions(body);
  }
  const messages = kept.map((i) => seen[i]!);
  return {
    fromMs,
    toMs,
    nowMs: w.nowMs,
    messages,
    matched: seen.length,
    sampled,
    oldestMs,
    addrs: [...addrs],
  };
}

/** Keeps at most `max`: categories that fit are kept whole, the densest thinned to one in N. */
function sample(all: WireMessageView[], max: number): { kept: number[]; sampled: MessageSampling[] } {
  if (all.length <= max) return { kept: all.map((_, i) => i), sampled: [] };
  const byCategory = new Map<MessageCategory, number>();
  for (const m of all) if (m.lost === null) byCategory.set(m.category, (byCategory.get(m.category) ?? 0) + 1);
  const lost = all.length - [...byCategory.values()].reduce((a, b) => a + b, 0);
  let budget = Math.max(max - lost, byCategory.size);
  const order = [...byCategory.entries()].sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
  const every = new Map<MessageCategory, number>();
  const sampled: MessageSampling[] = [];
  order.forEach(([category, total], i) => {
    const share = Math.max(1, Math.floor(budget / (order.length - i)));
    const n = total <= share ? 1 : Math.ceil(total / share);
    every.set(category, n);
    budget -= Math.ceil(total / n);
    if (n > 1) sampled.push({ category, every: n, total });
  });
  const index = new Map<MessageCategory, number>();
  const kept: number[] = [];
  all.forEach((m, k) => {
    if (m.lost !== null) {
      kept.push(k);
      return;
    }
    const i = index.get(m.category) ?? 0;
    index.set(m.category, i + 1);
    if (i % every.get(m.category)! === 0) kept.push(k);
  });
  return {
    kept,
    sampled: sampled.sort(
      (a, b) => MESSAGE_CATEGORIES.indexOf(a.category) - MESSAGE_CATEGORIES.indexOf(b.category),
    ),
  };
}
