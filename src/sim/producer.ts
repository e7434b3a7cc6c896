// The producer client (KafkaProducer + Sender): metadata from a bootstrap broker, requests
// straight to each partition's leader, KIP-951 leader hints, retries with exponential backoff
// until delivery.timeout.ms, and idempotence (producer id + sequence numbers) with acks=all.

import { armClientDeadline, emit, nextReqId, send, setClientTimer } from './kernel';
import { addLedgerEntry } from './ledger';
import type { Message } from './messages';
import { partitionForKey } from './partitioner';
import { nextFloat, nextInt } from './rng';
import type { ProducerClient, ProducerRecordState, World } from './state';
import type { Acks, ConfigValue, LedgerEntry, NodeId, Produce } from './types';

export const PRODUCER_CONFIG_DEFAULTS: Record<string, ConfigValue> = {
  'request.timeout.ms': 30000,
  'delivery.timeout.ms': 120000,
  'retry.backoff.ms': 100,
  'retry.backoff.max.ms': 1000,
  'metadata.max.age.ms': 300000,
  'max.in.flight.requests.per.connection': 5,
  'batch.size': 16384,
  'linger.ms': 5, // KIP-1030: 5 ms from Kafka 4.0
  'enable.idempotence': true,
};

const RETRIABLE = new Set([
  'NOT_LEADER_OR_FOLLOWER',
  'NOT_ENOUGH_REPLICAS',
  'NOT_ENOUGH_REPLICAS_AFTER_APPEND',
  'REQUEST_TIMED_OUT',
  'NETWORK_EXCEPTION',
  'LEADER_NOT_AVAILABLE',
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
  'UNKNOWN_TOPIC_OR_PARTITION',
]);

function num(p: ProducerClient, name: string): number {
  return Number(p.config[name]);
}

export function getProducer(w: World, id: string): ProducerClient {
  let p = w.producers.get(id);
  if (!p) {
    p = {
      id,
      acks: 'all',
      idempotent: true,
      pid: w.nextPid++,
      config: { ...PRODUCER_CONFIG_DEFAULTS },
      leaders: new Map(),
      metadataInFlight: false,
      metadataReqId: 0,
      metadataToken: 0,
      metadataFetchedAtMs: -Infinity,
      needMetadata: true,
      bootstrapIdx: 0,
      nextSeq: new Map(),
      records: new Map(),
      ready: [],
      inFlight: new Map(),
      inFlightPerBroker: new Map(),
      requestTimer: { dueMs: -1, token: 0 },
      retryTimer: { dueMs: -1, token: 0 },
      sticky: new Map(),
      deliveryToken: 0,
      deliveryDueMs: -1,
      counters: { sent: 0, acknowledged: 0, failed: {}, retries: 0 },
    };
    w.producers.set(id, p);
  }
  return p;
}

/** The produce command: records enter the producer's queue as pending ledger entries. */
export function produce(w: World, cmd: Produce): void {
  const p = getProducer(w, cmd.producerId ?? 'producer-1');
  const acks: Acks = cmd.acks ?? 'all';
  const count = cmd.count ?? 1;
  for (let i = 0; i < count; i++) {
    const recordId = w.nextRecordId++;
    const entry: LedgerEntry = {
      recordId,
      producerId: p.id,
      topic: cmd.topic,
      partition: cmd.partition ?? -1,
      offset: -1,
      key: cmd.key ?? null,
      value: count > 1 ? `${cmd.value}-${i}` : cmd.value,
      acks,
      status: 'pending',
      sentAtMs: w.nowMs,
      attempts: [],
    };
    addLedgerEntry(w, entry);
    p.counters.sent++;
    const deadlineMs = w.nowMs + num(p, 'delivery.timeout.ms');
    // linger.ms: wait a little so that records travel together in one batch.
    const readyAtMs = w.nowMs + num(p, 'linger.ms');
    p.records.set(recordId, {
      recordId,
      partition: entry.partition,
      pid: -1,
      seq: -1,
      attempts: 0,
      readyAtMs,
      inFlight: false,
      deadlineMs,
    });
    p.ready.push(recordId);
  }
  armDeliveryTimer(w, p);
  drain(w, p);
}

function brokersForBootstrap(w: World): NodeId[] {
  return [...w.nodes.values()].filter((n) => n.isBroker).map((n) => n.id);
}

function requestMetadata(w: World, p: ProducerClient): void {
  if (p.metadataInFlight) return;
  const brokers = brokersForBootstrap(w);
  const target = brokers[p.bootstrapIdx % brokers.length]!;
  p.metadataInFlight = true;
  p.metadataReqId = nextReqId(w);
  const topics = [...new Set([...p.records.keys()].map((id) => w.ledgerIndex.get(id)!.topic))];
  send(w, p.id, target, { kind: 'Metadata', topics }, p.metadataReqId);
  p.metadataToken = setClientTimer(w, p.id, num(p, 'request.timeout.ms'), 'metadataRefresh');
}

interface Batch {
  leader: NodeId;
  topic: string;
  partition: number;
  acks: Acks;
  records: ProducerRecordState[];
  entries: LedgerEntry[];
  bytes: number;
}

/** Approximate size of a record in a batch (record overhead plus key and value). */
function recordBytes(e: LedgerEntry): number {
  return 70 + (e.key?.length ?? 0) + e.value.length;
}

/**
 * The Sender: records whose linger.ms (or retry backoff) has passed go out in batches of up to
 * batch.size per partition, at most max.in.flight.requests.per.connection requests per broker.
 */
export function drain(w: World, p: ProducerClient): void {
  const stale = w.nowMs - p.metadataFetchedAtMs > num(p, 'metadata.max.age.ms');
  if (p.needMetadata || stale) requestMetadata(w, p);
  let wakeAtMs = Infinity;
  const maxInFlight = num(p, 'max.in.flight.requests.per.connection');
  const batchSize = num(p, 'batch.size');
  const waiting: number[] = [];
  const batches = new Map<string, Batch[]>();
  // With idempotence, a batch waiting to be retried holds back newer records of its partition (ordering).
  const held = new Set<string>();
  for (const id of p.ready) {
    const r = p.records.get(id);
    if (!r || r.inFlight) continue;
    const entry = w.ledgerIndex.get(id)!;
    const tp = `${entry.topic}-${r.partition}`;
    if (r.readyAtMs > w.nowMs || held.has(tp)) {
      if (r.readyAtMs > w.nowMs) wakeAtMs = Math.min(wakeAtMs, r.readyAtMs);
      if (r.attempts > 0 && r.pid >= 0) held.add(tp);
      waiting.push(id);
      continue;
    }
    const leaders = p.leaders.get(entry.topic);
    if (!leaders) {
      waiting.push(id);
      continue;
    }
    if (r.partition < 0) {
      r.partition =
        entry.key !== null
          ? partitionForKey(entry.key, leaders.length)
          : stickyPartition(w, p, entry.topic, leaders);
      entry.partition = r.partition;
    }
    const leader = leaders[r.partition]?.leader ?? -1;
    if (leader < 0) {
      p.needMetadata = true;
      waiting.push(id);
      continue;
    }
    const key = `${entry.topic}-${r.partition}-${entry.acks}`;
    let list = batches.get(key);
    if (!list) batches.set(key, (list = []));
    let b = list[list.length - 1];
    const size = recordBytes(entry);
    if (!b || (b.records.length > 0 && b.bytes + size > batchSize)) {
      b = {
        leader,
        topic: entry.topic,
        partition: r.partition,
        acks: entry.acks,
        records: [],
        entries: [],
        bytes: 0,
      };
      list.push(b);
    }
    b.records.push(r);
    b.entries.push(entry);
    b.bytes += size;
  }
  for (const list of batches.values()) {
    for (const b of list) {
      // Batches that find the connection full wait for a response to free a slot.
      if ((p.inFlightPerBroker.get(b.leader) ?? 0) >= maxInFlight)
        for (const r of b.records) waiting.push(r.recordId);
      else sendBatch(w, p, b);
    }
  }
  p.ready = waiting.sort((a, b) => a - b);
  if (p.needMetadata && !p.metadataInFlight) requestMetadata(w, p);
  if (wakeAtMs < Infinity) armClientDeadline(w, p.id, p.retryTimer, Math.max(wakeAtMs, w.nowMs), 'retry');
}

/** One timer per producer, at the oldest unsettled record's delivery deadline. */
function armDeliveryTimer(w: World, p: ProducerClient): void {
  for (const r of p.records.values()) {
    if (r.inFlight) continue;
    const due = Math.max(w.nowMs, r.deadlineMs);
    // Keep the armed timer if it fires no later: no pile of stale timers in the queue.
    if (p.deliveryDueMs >= w.nowMs && p.deliveryDueMs <= due) return;
    p.deliveryDueMs = due;
    p.deliveryToken = setClientTimer(w, p.id, due - w.nowMs, 'deliveryTimeout');
    return;
  }
}

/** KIP-480/794: records without a key stick to one random available partition until a batch fills. */
function stickyPartition(w: World, p: ProducerClient, topic: string, leaders: { leader: NodeId }[]): number {
  const current = p.sticky.get(topic);
  if (current && current.bytes < num(p, 'batch.size') && leaders[current.partition]?.leader !== -1)
    return current.partition;
  const available = leaders.map((l, i) => (l.leader >= 0 ? i : -1)).filter((i) => i >= 0);
  const pool = available.length ? available : leaders.map((_, i) => i);
  const partition = pool[nextInt(w.rng, pool.length)]!;
  p.sticky.set(topic, { partition, bytes: 0 });
  return partition;
}

function sendBatch(w: World, p: ProducerClient, b: Batch): void {
  const idempotent = b.acks === 'all' && p.config['enable.idempotence'] === true;
  const tp = `${b.topic}-${b.partition}`;
  const sticky = p.sticky.get(b.topic);
  if (sticky && sticky.partition === b.partition) sticky.bytes += b.bytes;
  for (const r of b.records) {
    if (idempotent && r.seq < 0) {
      r.pid = p.pid;
      r.seq = p.nextSeq.get(tp) ?? 0;
      p.nextSeq.set(tp, r.seq + 1);
    }
    r.attempts++;
    if (r.attempts > 1) p.counters.retries++;
  }
  for (const e of b.entries) e.attempts.push({ atMs: w.nowMs, brokerId: b.leader });
  const reqId = nextReqId(w);
  send(
    w,
    p.id,
    b.leader,
    {
      kind: 'Produce',
      topic: b.topic,
      partition: b.partition,
      acks: b.acks,
      timeoutMs: num(p, 'request.timeout.ms'),
      records: b.records.map((r, i) => {
        const e = b.entries[i]!;
        return {
          id: e.recordId,
          key: e.key,
          value: e.value,
          producerId: p.id,
          pid: idempotent ? r.pid : -1,
          seq: idempotent ? r.seq : -1,
          timestampMs: e.sentAtMs,
        };
      }),
    },
    reqId,
  );
  if (b.acks === 0) {
    // acks=0: no response; the client counts the records as sent with offset -1.
    for (const e of b.entries) {
      p.records.delete(e.recordId);
      settle(w, p, e, 'acked');
    }
    return;
  }
  for (const r of b.records) r.inFlight = true;
  p.inFlightPerBroker.set(b.leader, (p.inFlightPerBroker.get(b.leader) ?? 0) + 1);
  p.inFlight.set(reqId, {
    reqId,
    recordIds: b.records.map((r) => r.recordId),
    brokerId: b.leader,
    topic: b.topic,
    partition: b.partition,
    sentAtMs: w.nowMs,
  });
  armClientDeadline(w, p.id, p.requestTimer, w.nowMs + num(p, 'request.timeout.ms'), 'requestTimeout');
}

function settle(
  w: World,
  p: ProducerClient,
  entry: LedgerEntry,
  status: 'acked' | 'failed',
  error?: string,
): void {
  entry.status = status;
  if (status === 'acked') {
    entry.ackedAtMs = w.nowMs;
    p.counters.acknowledged++;
  } else {
    entry.error = error;
    p.counters.failed[error!] = (p.counters.failed[error!] ?? 0) + 1;
    emit(
      w,
      'ProduceFailed',
      `${p.id}: record ${entry.key ?? 'null'}=${entry.value} to ${entry.topic} failed: ${error}.`,
      {
        topic: entry.topic,
        partition: entry.partition,
        producerId: p.id,
        error,
        recordId: entry.recordId,
      },
    );
  }
}

function finishAttempt(
  w: World,
  p: ProducerClient,
  reqId: number,
  error: string | undefined,
  baseOffset: number,
): void {
  const req = p.inFlight.get(reqId);
  if (!req) return;
  p.inFlight.delete(reqId);
  p.inFlightPerBroker.set(req.brokerId, (p.inFlightPerBroker.get(req.brokerId) ?? 1) - 1);
  for (const [i, recordId] of req.recordIds.entries()) {
    const r = p.records.get(recordId);
    const entry = w.ledgerIndex.get(recordId);
    if (!r || !entry) continue;
    r.inFlight = false;
    const attempt = entry.attempts[entry.attempts.length - 1];
    if (attempt && error) attempt.error = error;
    if (!error) {
      entry.offset = baseOffset + i;
      p.records.delete(recordId);
      settle(w, p, entry, 'acked');
      continue;
    }
    entry.error = error;
    const backoffMs = retryBackoffMs(w, p, r.attempts);
    if (!RETRIABLE.has(error) || w.nowMs + backoffMs >= r.deadlineMs) {
      p.records.delete(recordId);
      settle(w, p, entry, 'failed', error);
      continue;
    }
    r.readyAtMs = w.nowMs + backoffMs;
    p.ready.push(recordId);
  }
  // Retried records go back in send order, ahead of newer ones (ordering, as the accumulator keeps it).
  p.ready.sort((a, b) => a - b);
  armDeliveryTimer(w, p);
}

/** retry.backoff.ms doubling up to retry.backoff.max.ms, with ±20% jitter (KIP-580). */
function retryBackoffMs(w: World, p: ProducerClient, attempts: number): number {
  const base = Math.min(
    num(p, 'retry.backoff.ms') * 2 ** Math.max(0, attempts - 1),
    num(p, 'retry.backoff.max.ms'),
  );
  return Math.round(base * (0.8 + 0.4 * nextFloat(w.rng)));
}

export function onProducerMessage(w: World, msg: Message): void {
  const p = w.producers.get(msg.to as string);
  if (!p) return;
  const b = msg.body;
  if (b.kind === 'MetadataResponse') {
    if (!p.metadataInFlight || msg.reqId !== p.metadataReqId) return;
    p.metadataInFlight = false;
    p.metadataToken = 0;
    p.metadataFetchedAtMs = w.nowMs;
    p.needMetadata = false;
    const byTopic = new Map<string, { leader: NodeId; leaderEpoch: number }[]>();
    for (const part of b.partitions) {
      let arr = byTopic.get(part.topic);
      if (!arr) byTopic.set(part.topic, (arr = []));
      arr[part.partition] = { leader: part.leader, leaderEpoch: part.leaderEpoch };
    }
    for (const [t, arr] of byTopic) p.leaders.set(t, arr);
    if (b.unknownTopics.length) {
      // The broker does not know the topic yet (its metadata lags): ask again after retry.backoff.ms.
      p.needMetadata = true;
      p.metadataInFlight = true;
      p.metadataToken = setClientTimer(w, p.id, num(p, 'retry.backoff.ms'), 'metadataRefresh');
      return;
    }
  } else if (b.kind === 'ProduceResponse') {
    if (b.error === 'NOT_LEADER_OR_FOLLOWER') {
      const arr = p.leaders.get(b.topic);
      // KIP-951: use the leader the broker names, else ask for fresh metadata.
      if (
        b.currentLeader &&
        arr &&
        arr[b.partition] &&
        b.currentLeader.leaderEpoch > arr[b.partition]!.leaderEpoch
      )
        arr[b.partition] = { leader: b.currentLeader.leaderId, leaderEpoch: b.currentLeader.leaderEpoch };
      else p.needMetadata = true;
    }
    finishAttempt(w, p, msg.reqId, b.error, b.baseOffset);
  } else if (b.kind === 'Disconnected') {
    if (b.requestKind === 'Metadata') {
      if (msg.reqId !== p.metadataReqId) return;
      p.metadataInFlight = false;
      p.bootstrapIdx++;
      p.needMetadata = true;
      armClientDeadline(w, p.id, p.retryTimer, w.nowMs + num(p, 'retry.backoff.ms'), 'retry');
      return;
    }
    p.needMetadata = true;
    finishAttempt(w, p, msg.reqId, 'NETWORK_EXCEPTION', -1);
  }
  drain(w, p);
}

export function onProducerTimer(w: World, clientId: string, name: string, token: number): void {
  const p = w.producers.get(clientId);
  if (!p) return;
  if (name === 'requestTimeout') {
    if (token !== p.requestTimer.token) return;
    p.requestTimer.token = 0;
    const timeoutMs = num(p, 'request.timeout.ms');
    let next = Infinity;
    for (const req of [...p.inFlight.values()]) {
      if (w.nowMs - req.sentAtMs >= timeoutMs) {
        p.needMetadata = true;
        finishAttempt(w, p, req.reqId, 'REQUEST_TIMED_OUT', -1);
      } else next = Math.min(next, req.sentAtMs + timeoutMs);
    }
    if (next < Infinity) armClientDeadline(w, p.id, p.requestTimer, next, 'requestTimeout');
  } else if (name === 'metadataRefresh') {
    if (token !== p.metadataToken || !p.metadataInFlight) return;
    p.metadataInFlight = false;
    p.bootstrapIdx++;
    p.needMetadata = true;
  } else if (name === 'deliveryTimeout') {
    if (token !== p.deliveryToken) return;
    p.deliveryDueMs = -1;
    // An in-flight batch expires when its response or request timeout comes, not before.
    for (const r of [...p.records.values()]) {
      if (r.deadlineMs > w.nowMs) break;
      if (r.inFlight) continue;
      const entry = w.ledgerIndex.get(r.recordId)!;
      p.records.delete(r.recordId);
      settle(w, p, entry, 'failed', entry.error ?? 'TimeoutException');
    }
    armDeliveryTimer(w, p);
    return;
  } else if (name === 'retry') {
    if (token !== p.retryTimer.token) return;
    p.retryTimer.token = 0;
  }
  drain(w, p);
}
