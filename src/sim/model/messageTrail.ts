// The message trail: every message the network carried, as the message diagram draws it (a
// space-time diagram, as Maelstrom's messages.svg and ShiViz draw one). Observe-only, like the
// record trail: nothing in the engine reads it to decide, so it never changes a run, and it is
// left out of the state hash. Bounded: the newest MESSAGE_TRAIL_MAX entries, kept in chunks that
// never change once full, so a checkpoint shares them with the live world and copies only the
// last, open chunk (checkpoint.ts). A chunk is columns (typed arrays and two arrays of references),
// not an object per entry: a send adds no object that outlives it, so the trail costs the
// collector next to nothing (an entry per send was a third of the engine's time on the small bench).

import type { Addr, Body, MessageKind } from './messages';
import { tpKey } from './metadata';

/** Entries kept (sends and drops); the oldest chunk goes when the trail outgrows it. */
export const MESSAGE_TRAIL_MAX = 20_000;
/** Entries a chunk holds. */
export const MESSAGE_TRAIL_CHUNK = 1024;

/** Why a message never arrived: a cut link (when sent or on the wire), or a receiver down or restarted. */
export type LossReason = 'link cut' | 'receiver down';

/**
 * What the diagram shows of a bulky body (fetches, produce requests, metadata answers): its scalars,
 * counts instead of records and parts, and the partitions it names as interned topic-partition
 * keys (`tps`). Made from the trail's columns when the diagram asks (entryBody).
 */
export interface BodyDigest {
  kind: Body['kind'];
  digest: true;
  tps?: readonly string[];
  [field: string]: string | number | boolean | null | readonly string[] | undefined;
}

/** The numbers a chunk keeps per entry for a bulky body (see encode). */
const NUMS = 5;

/**
 * Entries `0 … length-1`, oldest first. For entry i: `seq` is its message's seq (its queue item's,
 * unique in a run; -1 for one lost as it was sent); `atMs` when it arrives (or arrived), or when
 * it was lost; `from`/`to` addresses as codes (a node id, or -1 - the index of a client id in the
 * trail's `clients`); `flags` bit 0 a drop (the loss of a message sent before, the same seq),
 * bits 1–2 the loss (LOSS_CODE). `ref` is the body itself for the small kinds (by reference: a
 * message's body is not changed once sent); for a bulky one its topic, or where its partitions
 * start in `tps` (their count the entry's last number), with its numbers in `nums` (NUMS an entry).
 */
export interface TrailChunk {
  length: number;
  seq: Float64Array;
  sentMs: Float64Array;
  atMs: Float64Array;
  from: Int32Array;
  to: Int32Array;
  flags: Uint8Array;
  kind: MessageKind[];
  ref: (Body | string | number | null)[];
  /** The partitions the bulky bodies name, one after another (interned topic-partition keys). */
  tps: string[];
  nums: Float64Array;
  /** Held by a checkpoint's copy of the trail too (cloneMessageTrail): never reused. */
  shared: boolean;
}

export interface MessageTrailState {
  /** Oldest first; every chunk but the last is full and never changes. */
  chunks: TrailChunk[];
  /** The client ids the chunks' address codes name (only ever appended to). */
  clients: string[];
  clientCodes: Map<string, number>;
}

const LOSS_CODE: Record<LossReason, number> = { 'link cut': 1, 'receiver down': 2 };
const LOSS_OF: (LossReason | null)[] = [null, 'link cut', 'receiver down'];

/** Bytes a chunk's columns take per entry: seq, sentMs, atMs and NUMS numbers; from, to; flags. */
const ENTRY_BYTES = 8 * (3 + NUMS) + 4 * 2 + 1;

/** A chunk's columns over one buffer (one allocation a chunk). */
function columns(buffer: ArrayBuffer): TrailChunk {
  const n = MESSAGE_TRAIL_CHUNK;
  return {
    length: 0,
    seq: new Float64Array(buffer, 0, n),
    sentMs: new Float64Array(buffer, 8 * n, n),
    atMs: new Float64Array(buffer, 16 * n, n),
    nums: new Float64Array(buffer, 24 * n, n * NUMS),
    from: new Int32Array(buffer, 8 * (3 + NUMS) * n, n),
    to: new Int32Array(buffer, (8 * (3 + NUMS) + 4) * n, n),
    flags: new Uint8Array(buffer, (8 * (3 + NUMS) + 8) * n, n),
    kind: [],
    ref: [],
    tps: [],
    shared: false,
  };
}

/**
 * Chunks the trail let go that no checkpoint holds, for the next ones: a fresh buffer a chunk cost
 * the small bench about a tenth of its speed (measured; not the allocation count: a buffer of 16
 * chunks did no better). A memo, not state: only the entries below `length` are ever read.
 */
const spare: TrailChunk[] = [];
const SPARE_MAX = 4;

function newChunk(): TrailChunk {
  const c = spare.pop();
  if (!c) return columns(new ArrayBuffer(ENTRY_BYTES * MESSAGE_TRAIL_CHUNK));
  c.length = 0;
  c.kind.length = 0;
  c.ref.length = 0;
  c.tps.length = 0;
  return c;
}

export function newMessageTrail(): MessageTrailState {
  return { chunks: [newChunk()], clients: [], clientCodes: new Map() };
}

function addrCode(t: MessageTrailState, a: Addr): number {
  if (typeof a === 'number') return a;
  let code = t.clientCodes.get(a);
  if (code === undefined) {
    code = -1 - t.clients.length;
    t.clients.push(a);
    t.clientCodes.set(a, code);
  }
  return code;
}

/** The address an entry's code names. */
export function addrOf(t: MessageTrailState, code: number): Addr {
  return code >= 0 ? code : t.clients[-1 - code]!;
}

// Numbers that are not a field's integer: a null, an absent field, acks=all.
const NULL = -1.5;
const ABSENT = -2.5;
const ACKS_ALL = -3.5;
const num = (v: number | null | undefined): number => (v === null ? NULL : v === undefined ? ABSENT : v);
const unnum = (v: number): number | null | undefined => (v === NULL ? null : v === ABSENT ? undefined : v);

/** Entry i of c names the partitions of `parts`: they join the chunk's `tps`. */
function putTps(c: TrailChunk, i: number, parts: readonly { topic: string; partition: number }[]): void {
  c.ref.push(c.tps.length);
  c.nums[i * NUMS + NUMS - 1] = parts.length;
  for (const p of parts) c.tps.push(tpKey(p.topic, p.partition));
}

/** The partitions entry i names (see putTps). */
function tpsAt(c: TrailChunk, i: number): string[] {
  const start = c.ref[i] as number;
  return c.tps.slice(start, start + c.nums[i * NUMS + NUMS - 1]!);
}

/** Entry i of c gets what the diagram shows of `body`: the body itself, or its numbers and partitions. */
function encode(c: TrailChunk, i: number, body: Body): void {
  const k = i * NUMS;
  const n = c.nums;
  c.kind.push(body.kind);
  switch (body.kind) {
    case 'Produce':
      c.ref.push(body.topic);
      n[k] = body.partition;
      n[k + 1] = body.acks === 'all' ? ACKS_ALL : num(body.acks);
      n[k + 2] = num(body.timeoutMs);
      n[k + 3] = body.records.length;
      return;
    case 'Fetch':
      putTps(c, i, body.parts);
      n[k] = num(body.replicaId);
      return;
    case 'FetchResponse':
    case 'ConsumerFetchResponse': {
      let records = 0;
      for (const p of body.parts) records += p.records.length;
      putTps(c, i, body.parts);
      n[k] = records;
      return;
    }
    case 'ConsumerFetch':
      putTps(c, i, body.parts);
      n[k] = num(body.sessionId);
      n[k + 1] = num(body.sessionEpoch);
      n[k + 2] = num(body.maxWaitMs);
      return;
    case 'MetadataResponse':
      c.ref.push(null);
      n[k] = body.brokers.length;
      n[k + 1] = body.partitions.length;
      return;
    case 'RaftFetchResponse':
      c.ref.push(null);
      n[k] = num(body.epoch);
      n[k + 1] = num(body.leaderId);
      n[k + 2] = num(body.highWatermark);
      n[k + 3] = body.entries.length;
      return;
    default:
      c.ref.push(body);
  }
}

/**
 * The body of entry i, as the diagram shows it: the body itself when it is small; for a bulky one
 * (records, many parts) a digest with its scalars, counts and partitions (`tps`).
 */
export function entryBody(c: TrailChunk, i: number): Body | BodyDigest {
  const kind = c.kind[i]!;
  const ref = c.ref[i]!;
  const k = i * NUMS;
  const n = c.nums;
  switch (kind) {
    case 'Produce':
      return {
        kind,
        digest: true,
        topic: ref as string,
        partition: n[k]!,
        acks: n[k + 1] === ACKS_ALL ? 'all' : unnum(n[k + 1]!),
        timeoutMs: unnum(n[k + 2]!),
        records: n[k + 3]!,
      };
    case 'Fetch':
      return { kind, digest: true, replicaId: unnum(n[k]!), tps: tpsAt(c, i) };
    case 'FetchResponse':
    case 'ConsumerFetchResponse':
      return { kind, digest: true, tps: tpsAt(c, i), records: n[k]! };
    case 'ConsumerFetch':
      return {
        kind,
        digest: true,
        sessionId: unnum(n[k]!),
        sessionEpoch: unnum(n[k + 1]!),
        maxWaitMs: unnum(n[k + 2]!),
        tps: tpsAt(c, i),
      };
    case 'MetadataResponse':
      return { kind, digest: true, brokers: n[k]!, partitions: n[k + 1]! };
    case 'RaftFetchResponse':
      return {
        kind,
        digest: true,
        epoch: unnum(n[k]!),
        leaderId: unnum(n[k + 1]!),
        highWatermark: unnum(n[k + 2]!),
        entries: n[k + 3]!,
      };
    default:
      return ref as Body;
  }
}

/** Whether entry i is a drop (the loss of a message sent before). */
export const isDrop = (c: TrailChunk, i: number): boolean => (c.flags[i]! & 1) === 1;

/** Entry i's loss, or null. */
export const lossOf = (c: TrailChunk, i: number): LossReason | null => LOSS_OF[c.flags[i]! >> 1]!;

/** When entry i happened: a send when sent, a drop when lost. */
export const entryMs = (c: TrailChunk, i: number): number => (isDrop(c, i) ? c.atMs[i]! : c.sentMs[i]!);

/** The chunk that takes the next entry (a new one when the last is full, the oldest dropped past the bound). */
function open(t: MessageTrailState): TrailChunk {
  let last = t.chunks[t.chunks.length - 1]!;
  if (last.length >= MESSAGE_TRAIL_CHUNK) {
    last = newChunk();
    t.chunks.push(last);
    if (t.chunks.length * MESSAGE_TRAIL_CHUNK > MESSAGE_TRAIL_MAX + MESSAGE_TRAIL_CHUNK) {
      const gone = t.chunks.shift()!;
      if (!gone.shared && spare.length < SPARE_MAX) spare.push(gone);
    }
  }
  return last;
}

function put(
  t: MessageTrailState,
  seq: number,
  sentMs: number,
  atMs: number,
  from: Addr,
  to: Addr,
  flags: number,
): TrailChunk {
  const c = open(t);
  const i = c.length++;
  c.seq[i] = seq;
  c.sentMs[i] = sentMs;
  c.atMs[i] = atMs;
  c.from[i] = addrCode(t, from);
  c.to[i] = addrCode(t, to);
  c.flags[i] = flags;
  return c;
}

/** A message put on the wire, arriving at `dueMs`. */
export function trailSend(
  t: MessageTrailState,
  seq: number,
  nowMs: number,
  dueMs: number,
  from: Addr,
  to: Addr,
  body: Body,
): void {
  const c = put(t, seq, nowMs, dueMs, from, to, 0);
  encode(c, c.length - 1, body);
}

/** A message that could not leave: its link is cut. */
export function trailLostAtSend(t: MessageTrailState, nowMs: number, from: Addr, to: Addr, body: Body): void {
  const c = put(t, -1, nowMs, nowMs, from, to, LOSS_CODE['link cut'] << 1);
  encode(c, c.length - 1, body);
}

/** A message that reached its due time and was lost (see deliver in dispatch.ts); its send entry holds its body. */
export function trailDrop(
  t: MessageTrailState,
  seq: number,
  nowMs: number,
  from: Addr,
  to: Addr,
  _body: Body,
  reason: LossReason,
): void {
  const c = put(t, seq, -1, nowMs, from, to, 1 | (LOSS_CODE[reason] << 1));
  c.kind.push('Disconnected');
  c.ref.push(null);
}

/** A copy for a checkpoint: the full chunks shared (they never change), the open one copied. */
export function cloneMessageTrail(t: MessageTrailState): MessageTrailState {
  const n = t.chunks.length;
  return {
    chunks: t.chunks.map((c, i) => {
      if (i === n - 1) return copyChunk(c);
      c.shared = true;
      return c;
    }),
    clients: t.clients.slice(),
    clientCodes: new Map(t.clientCodes),
  };
}

function copyChunk(c: TrailChunk): TrailChunk {
  const copy = newChunk();
  new Uint8Array(copy.seq.buffer).set(new Uint8Array(c.seq.buffer));
  copy.length = c.length;
  for (let i = 0; i < c.length; i++) {
    copy.kind.push(c.kind[i]!);
    copy.ref.push(c.ref[i]!);
  }
  for (const tp of c.tps) copy.tps.push(tp);
  return copy;
}
