// The consumer's fetcher (Fetcher, OffsetFetcher): the position of each assigned partition, asked
// of its leader with ListOffsets and validated after a leader change with OffsetsForLeaderEpoch
// (KIP-320), and the Fetch requests to each partition's leader and their records.

import { emit, nextReqId, send } from '../kernel/kernel';
import type { AbortedTxn, Body, ConsumerFetchPart, LogRecord, Message } from '../model/messages';
import { tpKey } from '../model/metadata';
import type { ConsumedRecordView } from '../model/views';
import type { ConsumerClient, ConsumerFetchState, ConsumerPartition, World } from '../model/world';
import type { NodeId } from '../model/types';
import { num, request } from './consumerNetworkClient';

/** Records kept per group for consumedRecords() (the most recent ones). */
export const CONSUMED_TRACE_MAX = 20000;

const LAST_RECORDS = 10;

const NO_ABORTED: readonly AbortedTxn[] = [];

/** OffsetFetch for partitions without a position, ListOffsets to reset, OffsetsForLeaderEpoch to validate. */
export function sendPositionRequests(w: World, c: ConsumerClient): void {
  if (c.state !== 'stable') return;
  const needOffsets = [...c.parts.values()].filter((p) => p.pending === 'offset');
  if (
    needOffsets.length &&
    c.coordinator >= 0 &&
    !c.pendingReq.has('offsets') &&
    w.nowMs >= (c.offsetFetchRetryAtMs ?? 0)
  )
    request(w, c, 'offsets', c.coordinator, {
      kind: 'OffsetFetch',
      groupId: c.groupId,
      partitions: needOffsets.map((p) => ({ topic: p.topic, partition: p.partition })),
      // ConsumerCoordinator.fetchCommittedOffsets: read_committed asks for stable offsets (KIP-447).
      ...(c.config['isolation.level'] === 'read_committed' ? { requireStable: true as const } : {}),
    });
  const byLeader = new Map<string, ConsumerPartition[]>();
  for (const p of c.parts.values()) {
    if (p.pending !== 'reset' && p.pending !== 'validate') continue;
    const l = leaderOf(c, p);
    if (!l || l.leader < 0) {
      c.needMetadata = true;
      continue;
    }
    const k = `${p.pending}:${l.leader}`;
    if (c.pendingReq.has(k)) continue;
    let list = byLeader.get(k);
    if (!list) byLeader.set(k, (list = []));
    list.push(p);
  }
  for (const [k, list] of byLeader) {
    const [kind, leader] = k.split(':') as [string, string];
    if (kind === 'reset') {
      const earliest = c.config['auto.offset.reset'] === 'earliest';
      request(w, c, k, Number(leader), {
        kind: 'ListOffsets',
        parts: list.map((p) => ({ topic: p.topic, partition: p.partition, timestamp: earliest ? -2 : -1 })),
        ...(c.config['isolation.level'] === 'read_committed' ? { readCommitted: true as const } : {}),
      });
    } else {
      request(w, c, k, Number(leader), {
        kind: 'OffsetsForLeaderEpoch',
        parts: list.map((p) => ({
          topic: p.topic,
          partition: p.partition,
          leaderEpoch: p.positionEpoch,
          currentLeaderEpoch: leaderOf(c, p)!.leaderEpoch,
        })),
      });
    }
  }
}

export function leaderOf(c: ConsumerClient, p: { topic: string; partition: number }) {
  return c.leaders.get(p.topic)?.[p.partition];
}

/**
 * After a clean response, the same leader's partitions are fetched again (a full tick picks up the
 * rest). `empty`: the response named no partition (nothing new for any of the session's).
 */
export function refetch(w: World, c: ConsumerClient, leader: NodeId, empty = false): void {
  const f = c.fetches.get(leader);
  if (!f) return;
  // Nothing reached the clients since the request and the answer brought nothing: the session's
  // partitions are all still fetchable at the positions and leader epochs the leader knows, so the
  // next request is the incremental fetch that names none (the walk below would find just that).
  if (empty && !f.rescan && f.backoffUntilMs <= w.nowMs && f.sessionEpoch !== 0 && f.session.size > 0) {
    const quiet = sentAtActivity.get(f);
    if (quiet !== undefined && quiet === activityOf(w).n) {
      sendFetch(w, c, leader, f, [], []);
      return;
    }
  }
  const list: ConsumerPartition[] = [];
  if (f.rescan) {
    f.rescan = false;
    // The partitions the last full look wanted from this leader, when it kept them (a memo): those
    // still assigned, in the same order a walk over every partition would give.
    const wanted = wantedFrom.get(f);
    wantedFrom.delete(f);
    if (wanted) {
      for (const p of wanted)
        if (c.parts.get(tpKey(p.topic, p.partition)) === p && fetchable(c, p, leader)) list.push(p);
    } else for (const p of c.parts.values()) if (fetchable(c, p, leader)) list.push(p);
  } else
    for (const k of f.session.keys()) {
      const p = c.parts.get(k);
      if (p && fetchable(c, p, leader)) list.push(p);
    }
  if (list.length) fetchFrom(w, c, leader, list);
}

function fetchable(c: ConsumerClient, p: ConsumerPartition, leader: NodeId): boolean {
  return !p.pending && p.position >= 0 && leaderOf(c, p)?.leader === leader;
}

/**
 * Per fetch state, the partitions the consumer's last full look (consumer.ts sendFetches, every
 * assigned partition) wanted from that leader while a fetch was in flight: after the response the
 * next fetch takes them instead of walking every assigned partition again (a consumer of 1,000
 * partitions on 48 leaders walked them all at each response). Every change that makes a partition
 * fetchable ticks the consumer, so the last full look is current; a memo of the World, not state
 * (a cloned World walks every partition once).
 */
const wantedFrom = new WeakMap<ConsumerFetchState, ConsumerPartition[]>();

/**
 * Per World, a count of what may change a consumer's fetchable partitions: every command, every
 * client timer and every message to a client but an empty clean fetch response (noteClientActivity,
 * from dispatch.ts and commands.ts); per fetch state, the count when its request went out. Equal
 * counts after an empty answer let refetch skip the walk over the session's partitions (a memory
 * touch each: the large preset's consumers of 1,000 partitions spent a tenth of the worker there).
 * Memos of the World, not state: a cloned World starts without them and walks once.
 */
const activity = new WeakMap<World, { n: number }>();
const sentAtActivity = new WeakMap<ConsumerFetchState, number>();

function activityOf(w: World): { n: number } {
  let a = activity.get(w);
  if (!a) activity.set(w, (a = { n: 0 }));
  return a;
}

/** Something happened that may change what a consumer fetches (see `activity`). */
export function noteClientActivity(w: World): void {
  const a = activity.get(w);
  if (a) a.n++;
}

function newFetchState(): ConsumerFetchState {
  return {
    reqId: 0,
    sentAtMs: 0,
    backoffUntilMs: 0,
    rescan: false,
    sessionId: 0,
    sessionEpoch: 0,
    session: new Map(),
  };
}

/**
 * Fetches `list` from its leader (FetchSessionHandler.Builder): a full fetch names every partition;
 * an incremental one only the partitions whose position or leader epoch the leader does not know yet,
 * and forgets those no longer fetched from it.
 */
export function fetchFrom(
  w: World,
  c: ConsumerClient,
  leader: NodeId,
  list: ConsumerPartition[],
  fullLook = false,
): void {
  let f = c.fetches.get(leader);
  if (!f) c.fetches.set(leader, (f = newFetchState()));
  if (f.reqId !== 0 || f.backoffUntilMs > w.nowMs) {
    f.rescan = true;
    if (fullLook) wantedFrom.set(f, list);
    else wantedFrom.delete(f);
    return;
  }
  wantedFrom.delete(f);
  if (f.sessionEpoch === 0) f.session.clear();
  const parts: ConsumerFetchPart[] = [];
  const before = f.session.size;
  let kept = 0;
  for (const p of list) {
    const k = tpKey(p.topic, p.partition);
    const leaderEpoch = leaderOf(c, p)!.leaderEpoch;
    const known = f.session.get(k);
    if (known) {
      kept++;
      if (known.position === p.position && known.leaderEpoch === leaderEpoch) continue;
      known.position = p.position;
      known.leaderEpoch = leaderEpoch;
    } else f.session.set(k, { topic: p.topic, partition: p.partition, position: p.position, leaderEpoch });
    parts.push({
      topic: p.topic,
      partition: p.partition,
      fetchOffset: p.position,
      currentLeaderEpoch: leaderEpoch,
    });
  }
  const forgotten: { topic: string; partition: number }[] = [];
  if (kept < before) {
    const fetched = new Set(list.map((p) => tpKey(p.topic, p.partition)));
    for (const [k, known] of f.session)
      if (!fetched.has(k)) {
        f.session.delete(k);
        forgotten.push({ topic: known.topic, partition: known.partition });
      }
  }
  sendFetch(w, c, leader, f, parts, forgotten);
}

function sendFetch(
  w: World,
  c: ConsumerClient,
  leader: NodeId,
  f: ConsumerFetchState,
  parts: ConsumerFetchPart[],
  forgotten: { topic: string; partition: number }[],
): void {
  f.reqId = nextReqId(w);
  f.sentAtMs = w.nowMs;
  sentAtActivity.set(f, activityOf(w).n);
  send(
    w,
    c.id,
    leader,
    {
      kind: 'ConsumerFetch',
      sessionId: f.sessionId,
      sessionEpoch: f.sessionEpoch,
      parts,
      forgotten,
      maxWaitMs: num(c, 'fetch.max.wait.ms'),
      ...(c.config['isolation.level'] === 'read_committed' ? { readCommitted: true as const } : {}),
    },
    f.reqId,
  );
}

/** The fetch to this leader got no answer: the next one closes the session and opens another (FetchSessionHandler.handleError). */
export function fetchFailed(w: World, c: ConsumerClient, f: ConsumerFetchState): void {
  f.reqId = 0;
  f.sessionEpoch = 0;
  f.backoffUntilMs = w.nowMs + num(c, 'retry.backoff.ms');
  c.needMetadata = true;
}

/**
 * The application processed a record poll() returned (a processor, or a consumer with processMs):
 * the group's consumed trace holds processed records, which the delivery views count.
 */
export function noteProcessed(w: World, c: ConsumerClient, view: ConsumedRecordView): void {
  let trace = w.consumedTrace.get(c.groupId);
  if (!trace) w.consumedTrace.set(c.groupId, (trace = []));
  trace.push(view);
  c.lastRecords.push(view);
  c.consumed++;
  w.consumedCount.set(c.groupId, (w.consumedCount.get(c.groupId) ?? 0) + 1);
  if (c.lastRecords.length > LAST_RECORDS) c.lastRecords.splice(0, c.lastRecords.length - LAST_RECORDS);
  if (trace.length > 2 * CONSUMED_TRACE_MAX) trace.splice(0, trace.length - CONSUMED_TRACE_MAX);
}

export function onFetchResponse(
  w: World,
  c: ConsumerClient,
  msg: Message,
  b: Extract<Body, { kind: 'ConsumerFetchResponse' }>,
): boolean {
  const f = c.fetches.get(msg.from as NodeId);
  if (!f || f.reqId !== msg.reqId) return false;
  f.reqId = 0;
  if (b.error) {
    // FetchSessionHandler.handleResponse: the session is gone, or a request was lost (its epoch moved
    // on without us); the next fetch is a full one, and nothing in this response is used.
    if (b.error === 'FETCH_SESSION_ID_NOT_FOUND') f.sessionId = 0;
    f.sessionEpoch = 0;
    return true;
  }
  if (f.sessionEpoch === 0) f.sessionId = b.sessionId;
  f.sessionEpoch = f.sessionEpoch === 0x7fffffff ? 1 : f.sessionEpoch + 1;
  const parts = b.parts;
  let clean = true;
  let trace = w.consumedTrace.get(c.groupId);
  if (!trace) w.consumedTrace.set(c.groupId, (trace = []));
  for (const part of parts) {
    const k = tpKey(part.topic, part.partition);
    const p = c.parts.get(k);
    // A partition revoked or re-positioned while the fetch was out: its data is dropped.
    if (!p || p.pending || p.position !== f.session.get(k)?.position) continue;
    if (part.error) {
      clean = false;
      if (part.error === 'OFFSET_OUT_OF_RANGE') {
        emit(
          w,
          'ConsumerOffsetOutOfRange',
          `${c.id}: position ${p.position} of ${k} is out of range (log ${part.logStartOffset}..): auto.offset.reset=${c.config['auto.offset.reset']}.`,
          { consumerId: c.id, groupId: c.groupId, topic: part.topic, partition: part.partition },
        );
        p.pending = 'reset';
      } else {
        c.needMetadata = true;
        f.backoffUntilMs = w.nowMs + num(c, 'retry.backoff.ms');
      }
      continue;
    }
    // CompletedFetch: read_committed skips the records of aborted transactions (a producer is
    // aborted from its transaction's first offset to its ABORT marker); no consumer ever returns a
    // control record, though it takes an offset (the position moves past it).
    // The leader forgot the records from our position to firstOffset (the simulator's record ceiling): skip them.
    if (part.firstOffset !== undefined && part.firstOffset > p.position) p.position = part.firstOffset;
    const aborted = part.abortedTransactions ?? NO_ABORTED;
    const abortedPids = aborted.length ? new Set<number>() : null;
    let nextAborted = 0;
    let delivered = 0;
    for (let i = 0; i < part.records.length; i++) {
      const r: LogRecord = part.records[i]!;
      const offset = p.position + i;
      if (abortedPids)
        for (; nextAborted < aborted.length && aborted[nextAborted]!.firstOffset <= offset; nextAborted++)
          abortedPids.add(aborted[nextAborted]!.producerId);
      if (r.control) {
        if (r.control === 'ABORT') abortedPids?.delete(r.pid);
        continue;
      }
      if (r.transactional && abortedPids?.has(r.pid)) continue;
      const view = {
        consumerId: c.id,
        topic: part.topic,
        partition: part.partition,
        offset,
        key: r.key,
        value: r.value,
        recordId: r.id,
        atMs: w.nowMs,
      };
      if (c.polled) c.polled.push(view);
      else {
        delivered++;
        trace.push(view);
        c.lastRecords.push(view);
      }
    }
    if (part.records.length) {
      const last = part.records[part.records.length - 1]!;
      p.position += part.records.length;
      p.positionEpoch = last.epoch;
      c.consumed += delivered;
      w.consumedCount.set(c.groupId, (w.consumedCount.get(c.groupId) ?? 0) + delivered);
    }
  }
  if (c.lastRecords.length > LAST_RECORDS) c.lastRecords.splice(0, c.lastRecords.length - LAST_RECORDS);
  if (trace.length > 2 * CONSUMED_TRACE_MAX) trace.splice(0, trace.length - CONSUMED_TRACE_MAX);
  return clean;
}
