// The consumer client (KafkaConsumer): it finds the group coordinator, joins (classic protocol:
// JoinGroup / SyncGroup, the leader runs the assignor; group.protocol=consumer: KIP-848's
// ConsumerGroupHeartbeat, in consumerMembership.ts), heartbeats, fetches each assigned partition from
// its leader, commits offsets (auto-commit every 5 s by default), and validates its position after a
// leader change (KIP-320).

import type { Assignment } from '../model/assignors';
import { cooperativeStickyAssign, rangeAssign } from '../model/assignors';
import { bootstrapBrokers, bootstrapError, brokerList, resolveConsumerConfig } from '../model/clientConfig';
import { CONSUMER_GROUP_SESSION_TIMEOUT_MS } from '../model/config';
import type { MemberIo } from './consumerMembership';
import { leaveGroup, maybeHeartbeat, newMemberId, onHeartbeatResponse } from './consumerMembership';
import { armClientDeadline, emit, nextReqId, send, setClientTimer } from '../kernel/kernel';
import type {
  Body,
  CommittedOffset,
  ConsumerFetchPart,
  LogRecord,
  Message,
  TopicPartition,
} from '../model/messages';
import { tpKey } from '../model/metadata';
import { setLeaders } from './metadataCache';
import type { ConsumerClient, ConsumerFetchState, ConsumerPartition, World } from '../model/world';
import type { NodeId, StartConsumer } from '../model/types';

/** Records kept per group for consumedRecords() (the most recent ones). */
export const CONSUMED_TRACE_MAX = 20000;
const LAST_RECORDS = 10;

const num = (c: ConsumerClient, name: string) => Number(c.config[name]);

export function checkStartConsumer(w: World, cmd: StartConsumer): string | null {
  const c = w.consumers.get(cmd.consumerId);
  if (c && c.state !== 'stopped' && c.state !== 'crashed')
    return `consumer ${cmd.consumerId} is already running`;
  if (w.producers.has(cmd.consumerId)) return `${cmd.consumerId} is already a producer's client id`;
  const r = resolveConsumerConfig(cmd.config ?? {});
  return r.error ?? bootstrapError(w, r.config);
}

export function startConsumer(w: World, cmd: StartConsumer): void {
  const old = w.consumers.get(cmd.consumerId);
  const c: ConsumerClient = {
    id: cmd.consumerId,
    groupId: cmd.groupId,
    topics: [...cmd.topics],
    config: resolveConsumerConfig(cmd.config ?? {}).config,
    state: 'finding-coordinator',
    incarnation: (old?.incarnation ?? 0) + 1,
    coordinator: -1,
    memberId: '',
    generation: -1,
    protocol: '',
    pendingReq: new Map(),
    backoffUntilMs: 0,
    rejoinNeeded: true,
    isLeader: false,
    groupTopics: [],
    needMetadata: true,
    assignedWith: null,
    parts: new Map(),
    leaders: new Map(),
    metadataFetchedAtMs: -Infinity,
    metadataRetryAtMs: 0,
    bootstrapIdx: 0,
    fetches: new Map(),
    pollTimer: { dueMs: -1, token: 0 },
    heartbeatToken: 0,
    commitToken: 0,
    consumed: old?.consumed ?? 0,
    lastRecords: old?.lastRecords ?? [],
  };
  if (c.config['group.protocol'] === 'consumer') {
    c.membership = { heartbeatIntervalMs: 0, heartbeatDueMs: 0, revoking: false };
    c.memberId = newMemberId(w);
  }
  w.consumers.set(c.id, c);
  emit(
    w,
    'ConsumerStarted',
    c.membership
      ? `${c.id} starts in group ${c.groupId}, subscribed to ${c.topics.join(', ')} with group.protocol=consumer (KIP-848: the broker assigns partitions; member id ${c.memberId}, auto.offset.reset=${c.config['auto.offset.reset']}).`
      : `${c.id} starts in group ${c.groupId}, subscribed to ${c.topics.join(', ')} (${c.config['partition.assignment.strategy']}, auto.offset.reset=${c.config['auto.offset.reset']}).`,
    { consumerId: c.id, groupId: c.groupId },
  );
  if (c.config['enable.auto.commit'] === true)
    c.commitToken = setClientTimer(w, c.id, num(c, 'auto.commit.interval.ms'), 'autoCommit');
  tick(w, c);
}

/** close(): commit and LeaveGroup; or, with graceful=false, a crash: the coordinator finds out after session.timeout.ms. */
export function stopConsumer(w: World, id: string, graceful: boolean): string | null {
  const c = w.consumers.get(id);
  if (!c || c.state === 'stopped' || c.state === 'crashed') return `consumer ${id} is not running`;
  if (graceful) {
    if (c.config['enable.auto.commit'] === true) commit(w, c);
    if (c.membership) leaveGroup(w, c, MEMBER_IO);
    else if (c.coordinator >= 0 && c.memberId)
      send(
        w,
        c.id,
        c.coordinator,
        { kind: 'LeaveGroup', groupId: c.groupId, memberId: c.memberId },
        nextReqId(w),
      );
    emit(w, 'ConsumerStopped', `${id} closes: it commits its positions and leaves group ${c.groupId}.`, {
      consumerId: id,
      groupId: c.groupId,
    });
  } else {
    emit(
      w,
      'ConsumerCrashed',
      `${id} crashes without leaving group ${c.groupId}: the coordinator removes it after ${
        c.membership
          ? `the broker's group.consumer.session.timeout.ms (${CONSUMER_GROUP_SESSION_TIMEOUT_MS} ms)`
          : `session.timeout.ms (${num(c, 'session.timeout.ms')} ms)`
      }; what it consumed after its last commit will be consumed again.`,
      { consumerId: id, groupId: c.groupId },
    );
  }
  shutDown(c, graceful ? 'stopped' : 'crashed');
  return null;
}

/** commitSync() of the current positions (the commitOffsets command). */
export function commitOffsets(w: World, id: string): string | null {
  const c = w.consumers.get(id);
  if (!c || c.state === 'stopped' || c.state === 'crashed') return `consumer ${id} is not running`;
  if (c.generation < 0 || c.coordinator < 0) return `consumer ${id} has not joined group ${c.groupId} yet`;
  commit(w, c);
  return null;
}

function commit(w: World, c: ConsumerClient, purpose = 'commit'): void {
  if (c.coordinator < 0 || c.generation < 0) return;
  const offsets: CommittedOffset[] = [];
  for (const p of c.parts.values())
    if (p.position >= 0 && p.pending !== 'offset' && p.pending !== 'reset')
      offsets.push({
        topic: p.topic,
        partition: p.partition,
        offset: p.position,
        leaderEpoch: p.positionEpoch,
      });
  if (offsets.length === 0) return;
  request(w, c, purpose, c.coordinator, {
    kind: 'OffsetCommit',
    groupId: c.groupId,
    memberId: c.memberId,
    generation: c.generation,
    offsets,
  });
}

function request(
  w: World,
  c: ConsumerClient,
  purpose: string,
  to: NodeId,
  body: Body,
  timeoutMs?: number,
): void {
  const reqId = nextReqId(w);
  c.pendingReq.set(purpose, {
    reqId,
    sentAtMs: w.nowMs,
    timeoutMs: timeoutMs ?? num(c, 'request.timeout.ms'),
    to,
  });
  send(w, c.id, to, body, reqId);
}

function anyBroker(w: World, c: ConsumerClient): NodeId {
  const list = bootstrapBrokers(w, brokerList(c.config['bootstrap.servers']));
  return list[c.bootstrapIdx % list.length]!;
}

const COORDINATOR_REQUESTS = ['join', 'sync', 'heartbeat', 'commit', 'revokeCommit', 'offsets'];

/** A fatal group error: poll() throws it and the application closes the consumer. */
function consumerFailed(w: World, c: ConsumerClient, error: string, why: string): void {
  emit(
    w,
    'ConsumerFailed',
    `${c.id} cannot be a member of group ${c.groupId}: ${error}${why ? ` (${why})` : ''}. poll() throws and the consumer closes.`,
    { consumerId: c.id, groupId: c.groupId, error },
  );
  shutDown(c, 'stopped');
}

/** The consumer is gone: its partitions, requests and fetches with it. */
function shutDown(c: ConsumerClient, state: 'stopped' | 'crashed'): void {
  c.state = state;
  c.parts.clear();
  c.pendingReq.clear();
  c.fetches.clear();
}

const MEMBER_IO: MemberIo = { request, commit, coordinatorUnknown, fail: consumerFailed };

function coordinatorUnknown(w: World, c: ConsumerClient): void {
  c.coordinator = -1;
  for (const k of COORDINATOR_REQUESTS) c.pendingReq.delete(k);
  if (c.state === 'joining' || c.state === 'syncing') c.state = 'finding-coordinator';
  c.backoffUntilMs = w.nowMs + num(c, 'retry.backoff.ms');
}

// ---- the poll loop ---------------------------------------------------------------------------

/** Moves the consumer on: coordinator, join, metadata, positions, fetches; then arms its next wake-up. */
function tick(w: World, c: ConsumerClient): void {
  if (c.state === 'stopped' || c.state === 'crashed') return;
  expireRequests(w, c);
  const stale = w.nowMs - c.metadataFetchedAtMs >= num(c, 'metadata.max.age.ms');
  if ((c.needMetadata || stale) && w.nowMs >= c.metadataRetryAtMs && !c.pendingReq.has('metadata')) {
    c.needMetadata = false;
    c.metadataRetryAtMs = w.nowMs + num(c, 'retry.backoff.ms');
    const topics = [...new Set([...c.topics, ...c.groupTopics])];
    request(w, c, 'metadata', anyBroker(w, c), { kind: 'Metadata', topics });
  }
  if (w.nowMs >= c.backoffUntilMs) {
    if (c.coordinator < 0) {
      if (!c.pendingReq.has('find'))
        request(w, c, 'find', anyBroker(w, c), { kind: 'FindCoordinator', groupId: c.groupId });
    } else if (c.membership) {
      maybeHeartbeat(w, c, MEMBER_IO);
    } else if (c.rejoinNeeded && !c.pendingReq.has('join') && !c.pendingReq.has('sync')) {
      sendJoin(w, c);
    }
  }
  if (c.state === 'stable' && c.isLeader && assignmentStale(c)) {
    // ConsumerCoordinator: the leader rejoins when the subscribed topics' partitions change.
    c.rejoinNeeded = true;
    c.assignedWith = null;
    if (!c.pendingReq.has('join') && c.coordinator >= 0) prepareJoin(w, c);
  }
  sendPositionRequests(w, c);
  sendFetches(w, c);
  armWakeUp(w, c);
}

function expireRequests(w: World, c: ConsumerClient): void {
  for (const [purpose, r] of [...c.pendingReq]) {
    if (w.nowMs - r.sentAtMs < r.timeoutMs) continue;
    c.pendingReq.delete(purpose);
    failed(w, c, purpose);
  }
  for (const f of c.fetches.values())
    if (f.reqId !== 0 && w.nowMs - f.sentAtMs >= num(c, 'request.timeout.ms')) fetchFailed(w, c, f);
}

/** A request got no answer (timeout) or the connection was refused. */
function failed(w: World, c: ConsumerClient, purpose: string): void {
  if (purpose === 'metadata') {
    c.bootstrapIdx++;
    c.needMetadata = true;
  } else if (purpose === 'find') {
    c.bootstrapIdx++;
    c.backoffUntilMs = w.nowMs + num(c, 'retry.backoff.ms');
  } else if (COORDINATOR_REQUESTS.includes(purpose)) {
    coordinatorUnknown(w, c);
    if (purpose === 'join' || purpose === 'sync') c.rejoinNeeded = true;
  } else {
    c.needMetadata = true; // reset:<leader> or validate:<leader>
  }
}

function armWakeUp(w: World, c: ConsumerClient): void {
  let due = Infinity;
  for (const r of c.pendingReq.values()) due = Math.min(due, r.sentAtMs + r.timeoutMs);
  for (const f of c.fetches.values())
    due = Math.min(
      due,
      f.reqId !== 0
        ? f.sentAtMs + num(c, 'request.timeout.ms')
        : f.backoffUntilMs > w.nowMs
          ? f.backoffUntilMs
          : Infinity,
    );
  if (c.backoffUntilMs > w.nowMs) due = Math.min(due, c.backoffUntilMs);
  if (c.membership && c.coordinator >= 0 && !c.pendingReq.has('heartbeat'))
    due = Math.min(due, c.membership.heartbeatDueMs);
  if (c.needMetadata && !c.pendingReq.has('metadata')) due = Math.min(due, c.metadataRetryAtMs);
  if (c.metadataFetchedAtMs > -Infinity)
    due = Math.min(due, c.metadataFetchedAtMs + num(c, 'metadata.max.age.ms'));
  if (due < Infinity) armClientDeadline(w, c.id, c.pollTimer, Math.max(due, w.nowMs + 1), 'consumerPoll');
}

function assignmentStale(c: ConsumerClient): boolean {
  if (!c.assignedWith) return false;
  for (const t of c.groupTopics) {
    const n = c.leaders.get(t)?.length ?? 0;
    if ((c.assignedWith[t] ?? 0) !== n) return true;
  }
  return false;
}

/** onJoinPrepare: commit what was consumed; the eager range protocol also gives up every partition. */
function prepareJoin(w: World, c: ConsumerClient): void {
  if (c.config['enable.auto.commit'] === true) commit(w, c);
  if (c.protocol !== 'cooperative-sticky') {
    c.parts.clear();
    c.fetches.clear();
  }
  sendJoin(w, c);
}

function sendJoin(w: World, c: ConsumerClient): void {
  c.state = 'joining';
  c.pendingReq.delete('heartbeat');
  const protocols = String(c.config['partition.assignment.strategy']).split(',');
  request(
    w,
    c,
    'join',
    c.coordinator,
    {
      kind: 'JoinGroup',
      groupId: c.groupId,
      memberId: c.memberId,
      clientId: c.id,
      sessionTimeoutMs: num(c, 'session.timeout.ms'),
      rebalanceTimeoutMs: num(c, 'max.poll.interval.ms'),
      protocols,
      subscription: {
        topics: c.topics,
        ownedPartitions: [...c.parts.values()].map((p) => ({ topic: p.topic, partition: p.partition })),
      },
    },
    // AbstractCoordinator: a JoinGroup may wait the whole rebalance timeout, plus 5 s.
    num(c, 'max.poll.interval.ms') + 5000,
  );
}

function sendHeartbeat(w: World, c: ConsumerClient): void {
  if (c.coordinator < 0 || c.pendingReq.has('heartbeat') || (c.state !== 'stable' && c.state !== 'syncing'))
    return;
  request(w, c, 'heartbeat', c.coordinator, {
    kind: 'Heartbeat',
    groupId: c.groupId,
    memberId: c.memberId,
    generation: c.generation,
  });
}

/** OffsetFetch for partitions without a position, ListOffsets to reset, OffsetsForLeaderEpoch to validate. */
function sendPositionRequests(w: World, c: ConsumerClient): void {
  if (c.state !== 'stable') return;
  const needOffsets = [...c.parts.values()].filter((p) => p.pending === 'offset');
  if (needOffsets.length && c.coordinator >= 0 && !c.pendingReq.has('offsets'))
    request(w, c, 'offsets', c.coordinator, {
      kind: 'OffsetFetch',
      groupId: c.groupId,
      partitions: needOffsets.map((p) => ({ topic: p.topic, partition: p.partition })),
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

function leaderOf(c: ConsumerClient, p: { topic: string; partition: number }) {
  return c.leaders.get(p.topic)?.[p.partition];
}

/** One fetch per leader broker in flight at a time. */
function sendFetches(w: World, c: ConsumerClient): void {
  // Partitions kept through a cooperative rebalance are fetched throughout it.
  const byLeader = new Map<NodeId, ConsumerPartition[]>();
  for (const p of c.parts.values()) {
    if (p.pending || p.position < 0) continue;
    const l = leaderOf(c, p);
    if (!l || l.leader < 0) {
      // AbstractFetch.prepareFetchRequests: no known leader, so ask for fresh metadata.
      c.needMetadata = true;
      continue;
    }
    let list = byLeader.get(l.leader);
    if (!list) byLeader.set(l.leader, (list = []));
    list.push(p);
  }
  for (const [leader, list] of byLeader) fetchFrom(w, c, leader, list);
}

/** After a clean response, the same leader's partitions are fetched again (a full tick picks up the rest). */
function refetch(w: World, c: ConsumerClient, leader: NodeId): void {
  const f = c.fetches.get(leader);
  if (!f) return;
  const list: ConsumerPartition[] = [];
  if (f.rescan) {
    f.rescan = false;
    for (const p of c.parts.values()) if (fetchable(c, p, leader)) list.push(p);
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
function fetchFrom(w: World, c: ConsumerClient, leader: NodeId, list: ConsumerPartition[]): void {
  let f = c.fetches.get(leader);
  if (!f) c.fetches.set(leader, (f = newFetchState()));
  if (f.reqId !== 0 || f.backoffUntilMs > w.nowMs) {
    f.rescan = true;
    return;
  }
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
  f.reqId = nextReqId(w);
  f.sentAtMs = w.nowMs;
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
    },
    f.reqId,
  );
}

/** The fetch to this leader got no answer: the next one closes the session and opens another (FetchSessionHandler.handleError). */
function fetchFailed(w: World, c: ConsumerClient, f: ConsumerFetchState): void {
  f.reqId = 0;
  f.sessionEpoch = 0;
  f.backoffUntilMs = w.nowMs + num(c, 'retry.backoff.ms');
  c.needMetadata = true;
}

// ---- responses -------------------------------------------------------------------------------

/** Takes the request this response answers, or null when it is stale. */
function answered(c: ConsumerClient, msg: Message, purpose: string): boolean {
  const r = c.pendingReq.get(purpose);
  if (!r || r.reqId !== msg.reqId) return false;
  c.pendingReq.delete(purpose);
  return true;
}

function purposeOf(c: ConsumerClient, reqId: number): string | undefined {
  for (const [k, r] of c.pendingReq) if (r.reqId === reqId) return k;
  return undefined;
}

export function onConsumerMessage(w: World, msg: Message): void {
  const c = w.consumers.get(msg.to as string);
  if (!c || c.state === 'stopped' || c.state === 'crashed') return;
  const b = msg.body;
  switch (b.kind) {
    case 'MetadataResponse': {
      if (!answered(c, msg, 'metadata')) break;
      c.metadataFetchedAtMs = w.nowMs;
      setLeaders(c.leaders, b.partitions);
      // A subscribed topic not created yet: ask again soon (the client logs UNKNOWN_TOPIC_OR_PARTITION).
      if (b.unknownTopics.length) c.needMetadata = true;
      for (const p of c.parts.values()) {
        const l = leaderOf(c, p);
        // KIP-320: a newer leader epoch means the position must be validated before fetching on.
        if (l && l.leaderEpoch > p.validatedEpoch && p.positionEpoch >= 0 && p.pending === null)
          p.pending = 'validate';
      }
      break;
    }
    case 'FindCoordinatorResponse':
      if (!answered(c, msg, 'find')) break;
      if (b.error) {
        c.bootstrapIdx++;
        c.backoffUntilMs = w.nowMs + num(c, 'retry.backoff.ms');
        break;
      }
      if (c.coordinator !== b.nodeId)
        emit(
          w,
          'CoordinatorFound',
          `${c.id} found the coordinator of group ${c.groupId}: broker ${b.nodeId}.`,
          {
            consumerId: c.id,
            groupId: c.groupId,
            nodeId: b.nodeId,
          },
        );
      c.coordinator = b.nodeId;
      if (c.state === 'finding-coordinator' && c.generation >= 0 && !c.rejoinNeeded) c.state = 'stable';
      break;
    case 'JoinGroupResponse':
      if (!answered(c, msg, 'join')) break;
      onJoinResponse(w, c, b);
      break;
    case 'SyncGroupResponse':
      if (!answered(c, msg, 'sync')) break;
      onSyncResponse(w, c, b);
      break;
    case 'HeartbeatResponse':
      if (!answered(c, msg, 'heartbeat')) break;
      if (!b.error) break;
      groupError(w, c, b.error);
      break;
    case 'ConsumerGroupHeartbeatResponse':
      if (!answered(c, msg, 'heartbeat')) break;
      onHeartbeatResponse(w, c, b, MEMBER_IO);
      break;
    case 'OffsetCommitResponse':
      // A commit before a KIP-848 revocation: the revocation completes in the tick below.
      if (!answered(c, msg, 'commit') && !answered(c, msg, 'revokeCommit')) break;
      if (b.error) {
        emit(w, 'OffsetCommitFailed', `${c.id}: offset commit for group ${c.groupId} failed: ${b.error}.`, {
          consumerId: c.id,
          groupId: c.groupId,
          error: b.error,
        });
        if (b.error === 'NOT_COORDINATOR' || b.error === 'COORDINATOR_NOT_AVAILABLE')
          coordinatorUnknown(w, c);
      }
      break;
    case 'OffsetFetchResponse':
      if (!answered(c, msg, 'offsets')) break;
      if (b.error) {
        groupError(w, c, b.error);
        break;
      }
      for (const o of b.offsets) {
        const p = c.parts.get(tpKey(o.topic, o.partition));
        if (!p || p.pending !== 'offset') continue;
        if (o.offset < 0) {
          p.pending = 'reset';
          continue;
        }
        p.position = o.offset;
        p.positionEpoch = o.leaderEpoch;
        // KIP-320: a committed offset with its epoch is validated against the current leader first.
        p.pending = o.leaderEpoch >= 0 ? 'validate' : null;
      }
      break;
    case 'ListOffsetsResponse': {
      const purpose = purposeOf(c, msg.reqId);
      if (!purpose || !answered(c, msg, purpose)) break;
      for (const o of b.parts) {
        const p = c.parts.get(tpKey(o.topic, o.partition));
        if (!p || p.pending !== 'reset') continue;
        if (o.error) {
          c.needMetadata = true;
          continue;
        }
        p.position = o.offset;
        p.positionEpoch = o.leaderEpoch;
        p.validatedEpoch = leaderOf(c, p)?.leaderEpoch ?? -1;
        p.pending = null;
        emit(
          w,
          'ConsumerOffsetReset',
          `${c.id} has no committed offset for ${o.topic}-${o.partition}: auto.offset.reset=${c.config['auto.offset.reset']} puts its position at ${o.offset}.`,
          { consumerId: c.id, groupId: c.groupId, topic: o.topic, partition: o.partition, offset: o.offset },
        );
      }
      break;
    }
    case 'OffsetsForLeaderEpochResponse': {
      const purpose = purposeOf(c, msg.reqId);
      if (!purpose || !answered(c, msg, purpose)) break;
      for (const o of b.parts) {
        const p = c.parts.get(tpKey(o.topic, o.partition));
        if (!p || p.pending !== 'validate') continue;
        if (o.error) {
          c.needMetadata = true;
          continue;
        }
        p.validatedEpoch = leaderOf(c, p)?.leaderEpoch ?? -1;
        p.pending = null;
        if (o.endOffset >= 0 && o.endOffset < p.position) {
          // KIP-320: the log was truncated below our position; go back to where it diverged.
          emit(
            w,
            'ConsumerLogTruncationDetected',
            `${c.id}: ${o.topic}-${o.partition} was truncated below its position ${p.position} (the leader's epoch ${o.leaderEpoch} ends at ${o.endOffset}): it seeks to ${o.endOffset} (KIP-320).`,
            {
              consumerId: c.id,
              groupId: c.groupId,
              topic: o.topic,
              partition: o.partition,
              from: p.position,
              to: o.endOffset,
            },
          );
          p.position = o.endOffset;
          p.positionEpoch = o.leaderEpoch;
        }
      }
      break;
    }
    case 'ConsumerFetchResponse':
      // The hot path: without errors, only this leader's next fetch goes out.
      if (onFetchResponse(w, c, msg, b)) {
        refetch(w, c, msg.from as NodeId);
        return;
      }
      break;
    case 'Disconnected': {
      const f = c.fetches.get(msg.from as NodeId);
      if (f && f.reqId === msg.reqId) {
        fetchFailed(w, c, f);
        break;
      }
      const purpose = purposeOf(c, msg.reqId);
      if (!purpose) break;
      c.pendingReq.delete(purpose);
      failed(w, c, purpose);
      break;
    }
  }
  tick(w, c);
}

function groupError(w: World, c: ConsumerClient, error: string): void {
  if (
    error === 'NOT_COORDINATOR' ||
    error === 'COORDINATOR_NOT_AVAILABLE' ||
    error === 'COORDINATOR_LOAD_IN_PROGRESS'
  ) {
    coordinatorUnknown(w, c);
    return;
  }
  if (error === 'REBALANCE_IN_PROGRESS') {
    // A SyncGroup in flight is answered REBALANCE_IN_PROGRESS too; the rejoin follows that answer.
    if (!c.pendingReq.has('join') && !c.pendingReq.has('sync')) {
      c.rejoinNeeded = true;
      prepareJoin(w, c);
    }
    return;
  }
  if (error === 'UNKNOWN_MEMBER_ID' || error === 'ILLEGAL_GENERATION') {
    // The group moved on without us: our partitions are lost (onPartitionsLost), join again.
    if (error === 'UNKNOWN_MEMBER_ID') c.memberId = '';
    c.generation = -1;
    c.parts.clear();
    c.fetches.clear();
    c.rejoinNeeded = true;
    if (!c.pendingReq.has('join') && c.coordinator >= 0) sendJoin(w, c);
  }
}

function onJoinResponse(w: World, c: ConsumerClient, b: Extract<Body, { kind: 'JoinGroupResponse' }>): void {
  if (b.error) {
    if (b.error === 'MEMBER_ID_REQUIRED') {
      c.memberId = b.memberId;
      sendJoin(w, c);
      return;
    }
    if (b.error === 'INCONSISTENT_GROUP_PROTOCOL') {
      // AbstractCoordinator.JoinGroupResponseHandler: fatal (InconsistentGroupProtocolException).
      consumerFailed(
        w,
        c,
        b.error,
        `the group's members speak another protocol; with group.protocol=classic it cannot join a non-empty group.protocol=consumer group`,
      );
      return;
    }
    if (b.error === 'UNKNOWN_MEMBER_ID') c.memberId = '';
    if (b.error === 'NOT_COORDINATOR' || b.error === 'COORDINATOR_NOT_AVAILABLE') coordinatorUnknown(w, c);
    else c.backoffUntilMs = w.nowMs + num(c, 'retry.backoff.ms');
    c.rejoinNeeded = true;
    return;
  }
  c.memberId = b.memberId;
  c.generation = b.generation;
  c.protocol = b.protocol;
  c.isLeader = b.leaderId === b.memberId;
  c.state = 'syncing';
  let assignments: { memberId: string; partitions: TopicPartition[] }[] = [];
  if (c.isLeader) {
    c.groupTopics = [...new Set(b.members.flatMap((m) => m.subscription.topics))].sort();
    const counts: Record<string, number> = {};
    for (const t of c.groupTopics) counts[t] = c.leaders.get(t)?.length ?? 0;
    c.assignedWith = counts;
    if (c.groupTopics.some((t) => !c.leaders.has(t))) c.needMetadata = true;
    const result: Assignment =
      b.protocol === 'cooperative-sticky'
        ? cooperativeStickyAssign(b.members, counts)
        : rangeAssign(b.members, counts);
    assignments = [...result].map(([memberId, partitions]) => ({ memberId, partitions }));
  }
  request(w, c, 'sync', c.coordinator, {
    kind: 'SyncGroup',
    groupId: c.groupId,
    memberId: c.memberId,
    generation: c.generation,
    assignments,
  });
  if (!c.heartbeatToken)
    c.heartbeatToken = setClientTimer(w, c.id, num(c, 'heartbeat.interval.ms'), 'heartbeat');
}

function onSyncResponse(w: World, c: ConsumerClient, b: Extract<Body, { kind: 'SyncGroupResponse' }>): void {
  if (b.error) {
    groupError(w, c, b.error);
    return;
  }
  c.state = 'stable';
  c.rejoinNeeded = false;
  const assigned = new Set(b.partitions.map((tp) => tpKey(tp.topic, tp.partition)));
  let revoked = 0;
  for (const [k] of c.parts)
    if (!assigned.has(k)) {
      c.parts.delete(k);
      revoked++;
    }
  for (const tp of b.partitions) {
    const k = tpKey(tp.topic, tp.partition);
    if (!c.parts.has(k))
      c.parts.set(k, { ...tp, position: -1, positionEpoch: -1, pending: 'offset', validatedEpoch: -1 });
  }
  // KIP-429: partitions revoked in a cooperative rebalance are re-assigned in a follow-up rebalance.
  if (revoked && c.protocol === 'cooperative-sticky') {
    if (c.config['enable.auto.commit'] === true) commit(w, c);
    c.rejoinNeeded = true;
  }
}

function onFetchResponse(
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
    for (let i = 0; i < part.records.length; i++) {
      const r: LogRecord = part.records[i]!;
      const offset = p.position + i;
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
      trace.push(view);
      c.lastRecords.push(view);
    }
    if (part.records.length) {
      const last = part.records[part.records.length - 1]!;
      p.position += part.records.length;
      p.positionEpoch = last.epoch;
      c.consumed += part.records.length;
      w.consumedCount.set(c.groupId, (w.consumedCount.get(c.groupId) ?? 0) + part.records.length);
    }
  }
  if (c.lastRecords.length > LAST_RECORDS) c.lastRecords.splice(0, c.lastRecords.length - LAST_RECORDS);
  if (trace.length > 2 * CONSUMED_TRACE_MAX) trace.splice(0, trace.length - CONSUMED_TRACE_MAX);
  return clean;
}

export function onConsumerTimer(w: World, id: string, name: string, token: number): void {
  const c = w.consumers.get(id);
  if (!c || c.state === 'stopped' || c.state === 'crashed') return;
  if (name === 'heartbeat') {
    if (token !== c.heartbeatToken) return;
    sendHeartbeat(w, c);
    c.heartbeatToken = setClientTimer(w, c.id, num(c, 'heartbeat.interval.ms'), 'heartbeat');
  } else if (name === 'autoCommit') {
    if (token !== c.commitToken) return;
    if (c.state === 'stable' && !c.pendingReq.has('commit')) commit(w, c);
    c.commitToken = setClientTimer(w, c.id, num(c, 'auto.commit.interval.ms'), 'autoCommit');
  } else if (name === 'consumerPoll') {
    if (token !== c.pollTimer.token) return;
    c.pollTimer.token = 0;
  }
  tick(w, c);
}
