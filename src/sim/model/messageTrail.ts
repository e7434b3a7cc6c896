// The message trail: every message the network carried, as the message diagram draws it (a
// space-time diagram, as Maelstrom's messages.svg and ShiViz draw one). Observe-only, like the
// record trail: nothing in the engine reads it to decide, so it never changes a run, and it is
// left out of the state hash. Bounded: the newest MESSAGE_TRAIL_MAX entries, kept in chunks that
// never change once full, so a checkpoint shares them with the live world and copies only the
// last, open chunk (checkpoint.ts).

import type { Addr, Body } from './messages';
import { tpKey } from './metadata';

/** Entries kept (sends and drops); the oldest chunk goes when the trail outgrows it. */
export const MESSAGE_TRAIL_MAX = 20_000;
/** Entries a chunk holds. */
export const MESSAGE_TRAIL_CHUNK = 1024;

/** Why a message never arrived: a cut link (when sent or on the wire), or a receiver down or restarted. */
export type LossReason = 'link cut' | 'receiver down';

/**
 * A send (drop false) or the loss of a message sent before (drop true, the same seq). A message
 * lost as it was sent is one entry: `lost` set, `seq` -1. The body is the one sent, by reference
 * (a message's body is not changed once sent), or for the bulky kinds a digest (see digest).
 */
export interface WireEntry {
  drop: boolean;
  /** The message's seq (its queue item's), unique in a run; -1 for one lost as it was sent. */
  seq: number;
  sentMs: number;
  /** When it arrives (or arrived), or when it was lost. */
  atMs: number;
  from: Addr;
  to: Addr;
  body: Body | BodyDigest;
  lost: LossReason | null;
}

/**
 * What the trail keeps of a bulky body (fetches, produce requests, metadata answers): its scalars,
 * counts instead of records and parts, and the partitions it names as interned topic-partition
 * keys (`tps`), so the trail never holds records or part objects alive.
 */
export interface BodyDigest {
  kind: Body['kind'];
  digest: true;
  tps?: string[];
  [field: string]: string | number | boolean | null | string[] | undefined;
}

const keysOf = (parts: readonly { topic: string; partition: number }[]): string[] =>
  parts.map((p) => tpKey(p.topic, p.partition));

/** The body itself when it is small; a digest of it when it carries records or many parts. */
export function digest(body: Body): Body | BodyDigest {
  switch (body.kind) {
    case 'Produce':
      return {
        kind: body.kind,
        digest: true,
        topic: body.topic,
        partition: body.partition,
        acks: body.acks,
        timeoutMs: body.timeoutMs,
        records: body.records.length,
      };
    case 'Fetch':
      return { kind: body.kind, digest: true, replicaId: body.replicaId, tps: keysOf(body.parts) };
    case 'FetchResponse':
    case 'ConsumerFetchResponse': {
      let records = 0;
      for (const p of body.parts) records += p.records.length;
      return { kind: body.kind, digest: true, tps: keysOf(body.parts), records };
    }
    case 'ConsumerFetch':
      return {
        kind: body.kind,
        digest: true,
        sessionId: body.sessionId,
        sessionEpoch: body.sessionEpoch,
        maxWaitMs: body.maxWaitMs,
        tps: keysOf(body.parts),
      };
    case 'MetadataResponse':
      return {
        kind: body.kind,
        digest: true,
        brokers: body.brokers.length,
        partitions: body.partitions.length,
      };
    case 'RaftFetchResponse':
      return {
        kind: body.kind,
        digest: true,
        epoch: body.epoch,
        leaderId: body.leaderId,
        highWatermark: body.highWatermark,
        entries: body.entries.length,
      };
    default:
      return body;
  }
}

export interface MessageTrailState {
  /** Oldest first; every chunk but the last is full and never changes. */
  chunks: WireEntry[][];
}

export function newMessageTrail(): MessageTrailState {
  return { chunks: [[]] };
}

function push(t: MessageTrailState, e: WireEntry): void {
  let last = t.chunks[t.chunks.length - 1]!;
  if (last.length >= MESSAGE_TRAIL_CHUNK) {
    last = [];
    t.chunks.push(last);
    if (t.chunks.length * MESSAGE_TRAIL_CHUNK > MESSAGE_TRAIL_MAX + MESSAGE_TRAIL_CHUNK) t.chunks.shift();
  }
  last.push(e);
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
  push(t, { drop: false, seq, sentMs: nowMs, atMs: dueMs, from, to, body: digest(body), lost: null });
}

/** A message that could not leave: its link is cut. */
export function trailLostAtSend(t: MessageTrailState, nowMs: number, from: Addr, to: Addr, body: Body): void {
  push(t, {
    drop: false,
    seq: -1,
    sentMs: nowMs,
    atMs: nowMs,
    from,
    to,
    body: digest(body),
    lost: 'link cut',
  });
}

/** A message that reached its due time and was lost (see deliver in dispatch.ts). */
/** A drop's body: the send entry holds the message's own. */
const LOSS_BODY: BodyDigest = { kind: 'Disconnected', digest: true };

export function trailDrop(
  t: MessageTrailState,
  seq: number,
  nowMs: number,
  from: Addr,
  to: Addr,
  body: Body,
  reason: LossReason,
): void {
  push(t, { drop: true, seq, sentMs: -1, atMs: nowMs, from, to, body: LOSS_BODY, lost: reason });
}

/** A copy for a checkpoint: the full chunks shared (they never change), the open one copied. */
export function cloneMessageTrail(t: MessageTrailState): MessageTrailState {
  const n = t.chunks.length;
  return { chunks: t.chunks.map((c, i) => (i === n - 1 ? c.slice() : c)) };
}
