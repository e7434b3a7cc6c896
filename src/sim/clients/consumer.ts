// The consumer client (KafkaConsumer): it finds the group coordinator, joins (classic protocol:
// JoinGroup / SyncGroup, the leader runs the assignor; group.protocol=consumer: KIP-848's
// ConsumerGroupHeartbeat, in consumerMembership.ts), heartbeats, fetches each assigned partition from
// its leader, commits offsets (auto-commit every 5 s by default), and validates its position after a
// leader change (KIP-320).

import { clientTimerMs, bootstrapError, resolveConsumerConfig } from '../model/clientConfig';
import { CONSUMER_GROUP_SESSION_TIMEOUT_MS } from '../model/config';
import { leaveGroup, maybeHeartbeat, newMemberId, onHeartbeatResponse } from './consumerMembership';
import { armClientDeadline, emit, nextReqId, send, setClientTimer } from '../kernel/kernel';
import type { CommittedOffset, MessageOf } from '../model/messages';
import { tpKey } from '../model/metadata';
import { changesLeaders, setLeaders } from './metadataCache';
import { exponentialBackoffBoundMs, exponentialBackoffMs } from './connectionBackoff';
import type { ConsumerClient, ConsumerPartition, World } from '../model/world';
import type { NodeId, StartConsumer } from '../model/types';
import {
  MEMBER_IO,
  assignmentStale,
  commit,
  coordinatorUnknown,
  failed,
  groupError,
  onJoinResponse,
  onSyncResponse,
  prepareJoin,
  sendHeartbeat,
  sendJoin,
  shutDown,
} from './consumerCoordinator';
import {
  fetchFailed,
  fetchFrom,
  noteProcessed,
  leaderOf,
  onFetchResponse,
  refetch,
  sendPositionRequests,
} from './consumerFetcher';
import { answered, anyBroker, num, purposeOf, request } from './consumerNetworkClient';

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
    metadataEquivalent: 0,
    metadataBackoffDrawn: false,
    metadataRetryAtMs: 0,
    bootstrapIdx: 0,
    fetches: new Map(),
    pollTimer: { dueMs: -1, token: 0 },
    heartbeatToken: 0,
    commitToken: 0,
    consumed: old?.consumed ?? 0,
    lastRecords: old?.lastRecords ?? [],
  };
  if (cmd.commitBeforeProcess || (cmd.processMs ?? 0) > 0) {
    c.processing = {
      commitBeforeProcess: cmd.commitBeforeProcess ?? false,
      processMs: cmd.processMs ?? 0,
      busyUntilMs: -1,
      batch: [],
      token: 0,
    };
    c.polled = [];
  }
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
    c.commitToken = setClientTimer(w, c.id, clientTimerMs(num(c, 'auto.commit.interval.ms')), 'autoCommit');
  tick(w, c);
}

/**
 * The application's processing of what poll() returned (startConsumer's commitBeforeProcess and
 * processMs, simulator options): one batch at a time, processMs each. "Commit, then process"
 * commits the fetched position first (at most once: a crash during the batch loses it); otherwise
 * the commits cover only processed records (at least once: a crash redelivers what was processed
 * after the last commit).
 */
export function onConsumerPolled(w: World, c: ConsumerClient): void {
  const pr = c.processing;
  if (!pr || pr.busyUntilMs >= 0 || !c.polled?.length) return;
  pr.batch = c.polled;
  c.polled = [];
  if (pr.commitBeforeProcess && c.state === 'stable') {
    const upTo = new Map<string, CommittedOffset>();
    for (const r of pr.batch)
      upTo.set(tpKey(r.topic, r.partition), {
        topic: r.topic,
        partition: r.partition,
        offset: r.offset + 1,
        leaderEpoch: -1,
      });
    commit(w, c, 'commit', [...upTo.values()]);
  }
  if (pr.processMs <= 0) return finishBatch(w, c);
  pr.busyUntilMs = w.nowMs + pr.processMs;
  pr.token = setClientTimer(w, c.id, pr.processMs, 'consumerProcess');
}

function finishBatch(w: World, c: ConsumerClient): void {
  const pr = c.processing!;
  for (const r of pr.batch) noteProcessed(w, c, r);
  pr.batch = [];
  pr.busyUntilMs = -1;
  onConsumerPolled(w, c);
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

/**
 * Metadata.timeToAllowUpdate, as for the producer (producerMetadata.ts): after n answers in a row
 * that changed no leader epoch, the next request waits the ExponentialBackoff of n - 1 from the
 * last answer (retry.backoff.ms doubling to retry.backoff.max.ms, ±20%), so a consumer whose
 * partition has no leader asks about once a second. Drawn once per wait, and only when it matters;
 * a topic not known yet, or metadata past metadata.max.age.ms, is asked for without it.
 */
function equivalentBackoff(w: World, c: ConsumerClient, stale: boolean): void {
  if (c.metadataEquivalent === 0 || c.metadataBackoffDrawn) return;
  const topics = [...c.topics, ...c.groupTopics];
  if (stale || topics.some((t) => !c.leaders.has(t))) {
    c.metadataEquivalent = 0;
    return;
  }
  const initial = num(c, 'retry.backoff.ms');
  const max = num(c, 'retry.backoff.max.ms');
  const n = c.metadataEquivalent - 1;
  const last = c.metadataFetchedAtMs;
  if (w.nowMs - last >= exponentialBackoffBoundMs(initial, max, n)) return;
  c.metadataBackoffDrawn = true;
  c.metadataRetryAtMs = Math.max(c.metadataRetryAtMs, last + exponentialBackoffMs(w, initial, max, n));
}

/** Moves the consumer on: coordinator, join, metadata, positions, fetches; then arms its next wake-up. */
export function tick(w: World, c: ConsumerClient): void {
  if (c.state === 'stopped' || c.state === 'crashed') return;
  expireRequests(w, c);
  const stale = w.nowMs - c.metadataFetchedAtMs >= num(c, 'metadata.max.age.ms');
  if ((c.needMetadata || stale) && !c.pendingReq.has('metadata')) equivalentBackoff(w, c, stale);
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
  if ((c.offsetFetchRetryAtMs ?? 0) > w.nowMs) due = Math.min(due, c.offsetFetchRetryAtMs!);
  if (c.membership && c.coordinator >= 0 && !c.pendingReq.has('heartbeat'))
    due = Math.min(due, c.membership.heartbeatDueMs);
  if (c.needMetadata && !c.pendingReq.has('metadata')) due = Math.min(due, c.metadataRetryAtMs);
  if (c.metadataFetchedAtMs > -Infinity)
    due = Math.min(due, c.metadataFetchedAtMs + num(c, 'metadata.max.age.ms'));
  if (due < Infinity) armClientDeadline(w, c.id, c.pollTimer, Math.max(due, w.nowMs + 1), 'consumerPoll');
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
  for (const [leader, list] of byLeader) fetchFrom(w, c, leader, list, true);
}

/**
 * The consumer's handlers of what the brokers answer, one per message kind (dispatch.ts
 * CLIENT_ROUTES). A handler returns true when it did all there is to do; otherwise the consumer
 * ticks after it (`tick`: what to send next).
 */
export function onConsumerMetadataResponse(
  w: World,
  c: ConsumerClient,
  msg: MessageOf<'MetadataResponse'>,
): void {
  const b = msg.body;
  if (!answered(c, msg, 'metadata')) return;
  c.metadataFetchedAtMs = w.nowMs;
  c.metadataEquivalent = changesLeaders(c.leaders, b.partitions) ? 0 : c.metadataEquivalent + 1;
  c.metadataBackoffDrawn = false;
  setLeaders(c.leaders, b.partitions);
  // A subscribed topic not created yet: ask again soon (the client logs UNKNOWN_TOPIC_OR_PARTITION).
  if (b.unknownTopics.length) c.needMetadata = true;
  for (const p of c.parts.values()) {
    const l = leaderOf(c, p);
    // KIP-320: a newer leader epoch means the position must be validated before fetching on.
    if (l && l.leaderEpoch > p.validatedEpoch && p.positionEpoch >= 0 && p.pending === null)
      p.pending = 'validate';
  }
}

export function onConsumerFindCoordinatorResponse(
  w: World,
  c: ConsumerClient,
  msg: MessageOf<'FindCoordinatorResponse'>,
): void {
  const b = msg.body;
  if (!answered(c, msg, 'find')) return;
  if (b.error) {
    c.bootstrapIdx++;
    c.backoffUntilMs = w.nowMs + num(c, 'retry.backoff.ms');
    return;
  }
  if (c.coordinator !== b.nodeId)
    emit(w, 'CoordinatorFound', `${c.id} found the coordinator of group ${c.groupId}: broker ${b.nodeId}.`, {
      consumerId: c.id,
      groupId: c.groupId,
      nodeId: b.nodeId,
    });
  c.coordinator = b.nodeId;
  if (c.state === 'finding-coordinator' && c.generation >= 0 && !c.rejoinNeeded) c.state = 'stable';
}

export function onConsumerJoinGroupResponse(
  w: World,
  c: ConsumerClient,
  msg: MessageOf<'JoinGroupResponse'>,
): void {
  const b = msg.body;
  if (!answered(c, msg, 'join')) return;
  onJoinResponse(w, c, b);
}

export function onConsumerSyncGroupResponse(
  w: World,
  c: ConsumerClient,
  msg: MessageOf<'SyncGroupResponse'>,
): void {
  const b = msg.body;
  if (!answered(c, msg, 'sync')) return;
  onSyncResponse(w, c, b);
}

export function onConsumerHeartbeatResponse(
  w: World,
  c: ConsumerClient,
  msg: MessageOf<'HeartbeatResponse'>,
): void {
  const b = msg.body;
  if (!answered(c, msg, 'heartbeat')) return;
  if (!b.error) return;
  groupError(w, c, b.error);
}

export function onConsumerGroupHeartbeatResponse(
  w: World,
  c: ConsumerClient,
  msg: MessageOf<'ConsumerGroupHeartbeatResponse'>,
): void {
  const b = msg.body;
  if (!answered(c, msg, 'heartbeat')) return;
  onHeartbeatResponse(w, c, b, MEMBER_IO);
}

export function onConsumerOffsetCommitResponse(
  w: World,
  c: ConsumerClient,
  msg: MessageOf<'OffsetCommitResponse'>,
): void {
  const b = msg.body;
  // A commit before a KIP-848 revocation: the revocation completes in the tick below.
  if (!answered(c, msg, 'commit') && !answered(c, msg, 'revokeCommit')) return;
  if (b.error) {
    emit(w, 'OffsetCommitFailed', `${c.id}: offset commit for group ${c.groupId} failed: ${b.error}.`, {
      consumerId: c.id,
      groupId: c.groupId,
      error: b.error,
    });
    if (b.error === 'NOT_COORDINATOR' || b.error === 'COORDINATOR_NOT_AVAILABLE') coordinatorUnknown(w, c);
  }
}

export function onConsumerOffsetFetchResponse(
  w: World,
  c: ConsumerClient,
  msg: MessageOf<'OffsetFetchResponse'>,
): void {
  const b = msg.body;
  if (!answered(c, msg, 'offsets')) return;
  if (b.error) {
    groupError(w, c, b.error);
    return;
  }
  for (const o of b.offsets) {
    const p = c.parts.get(tpKey(o.topic, o.partition));
    if (!p || p.pending !== 'offset') continue;
    if (o.error === 'UNSTABLE_OFFSET_COMMIT') {
      // KIP-447: a transaction holds an offset for the partition; ask again after retry.backoff.ms.
      c.offsetFetchRetryAtMs = w.nowMs + num(c, 'retry.backoff.ms');
      continue;
    }
    if (o.offset < 0) {
      p.pending = 'reset';
      continue;
    }
    p.position = o.offset;
    p.positionEpoch = o.leaderEpoch;
    // KIP-320: a committed offset with its epoch is validated against the current leader first.
    p.pending = o.leaderEpoch >= 0 ? 'validate' : null;
  }
}

export function onConsumerListOffsetsResponse(
  w: World,
  c: ConsumerClient,
  msg: MessageOf<'ListOffsetsResponse'>,
): void {
  const b = msg.body;
  const purpose = purposeOf(c, msg.reqId);
  if (!purpose || !answered(c, msg, purpose)) return;
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
}

export function onConsumerOffsetsForLeaderEpochResponse(
  w: World,
  c: ConsumerClient,
  msg: MessageOf<'OffsetsForLeaderEpochResponse'>,
): void {
  const b = msg.body;
  const purpose = purposeOf(c, msg.reqId);
  if (!purpose || !answered(c, msg, purpose)) return;
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
}

export function onConsumerFetchResponse(
  w: World,
  c: ConsumerClient,
  msg: MessageOf<'ConsumerFetchResponse'>,
): boolean | void {
  const b = msg.body;
  // The hot path: without errors, only this leader's next fetch goes out.
  if (onFetchResponse(w, c, msg, b)) {
    refetch(w, c, msg.from as NodeId, b.parts.length === 0);
    return true;
  }
}

export function onConsumerDisconnected(w: World, c: ConsumerClient, msg: MessageOf<'Disconnected'>): void {
  const f = c.fetches.get(msg.from as NodeId);
  if (f && f.reqId === msg.reqId) {
    fetchFailed(w, c, f);
    return;
  }
  const purpose = purposeOf(c, msg.reqId);
  if (!purpose) return;
  c.pendingReq.delete(purpose);
  failed(w, c, purpose);
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
    c.commitToken = setClientTimer(w, c.id, clientTimerMs(num(c, 'auto.commit.interval.ms')), 'autoCommit');
  } else if (name === 'consumerProcess') {
    if (!c.processing || token !== c.processing.token) return;
    finishBatch(w, c);
  } else if (name === 'consumerPoll') {
    if (token !== c.pollTimer.token) return;
    c.pollTimer.token = 0;
  }
  tick(w, c);
}
