// The producer client (KafkaProducer + Sender): metadata from a bootstrap broker, requests
// straight to each partition's leader, KIP-951 leader hints, retries with exponential backoff
// until delivery.timeout.ms, and idempotence (producer id + sequence numbers) with acks=all.
// Simplification: one record per batch (no linger.ms / batch.size accumulation yet).

import { emit, nextReqId, send, setClientTimer } from './kernel';
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
      queue: [],
      inFlight: new Map(),
      retryToken: 0,
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
    p.queue.push({ recordId, partition: entry.partition, pid: -1, seq: -1, attempts: 0, readyAtMs: w.nowMs, inFlight: false, deadlineMs });
    setClientTimer(w, p.id, num(p, 'delivery.timeout.ms'), 'deliveryTimeout', String(recordId));
  }
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
  const topics = [...new Set(p.queue.map((r) => w.ledgerIndex.get(r.recordId)!.topic))];
  send(w, p.id, target, { kind: 'Metadata', topics }, p.metadataReqId);
  p.metadataToken = setClientTimer(w, p.id, num(p, 'request.timeout.ms'), 'metadataRefresh');
}

/** Sends every ready record whose leader is known. */
export function drain(w: World, p: ProducerClient): void {
  const stale = w.nowMs - p.metadataFetchedAtMs > num(p, 'metadata.max.age.ms');
  if (p.needMetadata || stale) requestMetadata(w, p);
  let waitMs = Infinity;
  for (const r of p.queue) {
    if (r.inFlight) continue;
    if (r.readyAtMs > w.nowMs) {
      waitMs = Math.min(waitMs, r.readyAtMs - w.nowMs);
      continue;
    }
    const entry = w.ledgerIndex.get(r.recordId)!;
    const leaders = p.leaders.get(entry.topic);
    if (!leaders) continue;
    if (r.partition < 0) {
      r.partition = entry.key !== null ? partitionForKey(entry.key, leaders.length) : stickyPartition(w, leaders);
      entry.partition = r.partition;
    }
    const leader = leaders[r.partition]?.leader ?? -1;
    if (leader < 0) {
      p.needMetadata = true;
      continue;
    }
    const inFlightToLeader = [...p.inFlight.values()].filter((f) => f.brokerId === leader).length;
    if (inFlightToLeader >= num(p, 'max.in.flight.requests.per.connection')) continue;
    sendRecord(w, p, r, entry, leader);
  }
  if (p.needMetadata && !p.metadataInFlight) requestMetadata(w, p);
  if (waitMs < Infinity) p.retryToken = setClientTimer(w, p.id, waitMs, 'retry');
}

/** KIP-480/794: a record without a key goes to a random partition that has a leader. */
function stickyPartition(w: World, leaders: { leader: NodeId }[]): number {
  const available = leaders.map((l, i) => (l.leader >= 0 ? i : -1)).filter((i) => i >= 0);
  const pool = available.length ? available : leaders.map((_, i) => i);
  return pool[nextInt(w.rng, pool.length)]!;
}

function sendRecord(w: World, p: ProducerClient, r: ProducerRecordState, entry: LedgerEntry, leader: NodeId): void {
  const idempotent = entry.acks === 'all' && p.config['enable.idempotence'] === true;
  if (idempotent && r.seq < 0) {
    const key = `${entry.topic}-${r.partition}`;
    r.pid = p.pid;
    r.seq = p.nextSeq.get(key) ?? 0;
    p.nextSeq.set(key, r.seq + 1);
  }
  r.attempts++;
  if (r.attempts > 1) p.counters.retries++;
  entry.attempts.push({ atMs: w.nowMs, brokerId: leader });
  const reqId = nextReqId(w);
  send(
    w,
    p.id,
    leader,
    {
      kind: 'Produce',
      topic: entry.topic,
      partition: r.partition,
      acks: entry.acks,
      timeoutMs: num(p, 'request.timeout.ms'),
      records: [
        {
          id: entry.recordId,
          key: entry.key,
          value: entry.value,
          producerId: p.id,
          pid: idempotent ? r.pid : -1,
          seq: idempotent ? r.seq : -1,
          timestampMs: entry.sentAtMs,
        },
      ],
    },
    reqId,
  );
  if (entry.acks === 0) {
    // acks=0: no response; the client counts the record as sent with offset -1.
    p.queue = p.queue.filter((x) => x !== r);
    settle(w, p, entry, 'acked');
    return;
  }
  r.inFlight = true;
  const token = setClientTimer(w, p.id, num(p, 'request.timeout.ms'), 'requestTimeout', String(reqId));
  p.inFlight.set(reqId, { reqId, recordIds: [r.recordId], brokerId: leader, topic: entry.topic, partition: r.partition, sentAtMs: w.nowMs, token });
}

function settle(w: World, p: ProducerClient, entry: LedgerEntry, status: 'acked' | 'failed', error?: string): void {
  entry.status = status;
  if (status === 'acked') {
    entry.ackedAtMs = w.nowMs;
    p.counters.acknowledged++;
  } else {
    entry.error = error;
    p.counters.failed[error!] = (p.counters.failed[error!] ?? 0) + 1;
    emit(w, 'ProduceFailed', `${p.id}: record ${entry.key ?? 'null'}=${entry.value} to ${entry.topic} failed: ${error}.`, {
      topic: entry.topic,
      partition: entry.partition,
      producerId: p.id,
      error,
      recordId: entry.recordId,
    });
  }
}

function finishAttempt(w: World, p: ProducerClient, reqId: number, error: string | undefined, baseOffset: number): void {
  const req = p.inFlight.get(reqId);
  if (!req) return;
  p.inFlight.delete(reqId);
  for (const recordId of req.recordIds) {
    const r = p.queue.find((x) => x.recordId === recordId);
    const entry = w.ledgerIndex.get(recordId);
    if (!r || !entry) continue;
    r.inFlight = false;
    const attempt = entry.attempts[entry.attempts.length - 1];
    if (attempt && error) attempt.error = error;
    if (!error) {
      entry.offset = baseOffset;
      p.queue = p.queue.filter((x) => x !== r);
      settle(w, p, entry, 'acked');
      continue;
    }
    entry.error = error;
    const backoffMs = retryBackoffMs(w, p, r.attempts);
    if (!RETRIABLE.has(error) || w.nowMs + backoffMs >= r.deadlineMs) {
      p.queue = p.queue.filter((x) => x !== r);
      settle(w, p, entry, 'failed', error);
      continue;
    }
    r.readyAtMs = w.nowMs + backoffMs;
  }
}

/** retry.backoff.ms doubling up to retry.backoff.max.ms, with ±20% jitter (KIP-580). */
function retryBackoffMs(w: World, p: ProducerClient, attempts: number): number {
  const base = Math.min(num(p, 'retry.backoff.ms') * 2 ** Math.max(0, attempts - 1), num(p, 'retry.backoff.max.ms'));
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
  } else if (b.kind === 'ProduceResponse') {
    if (b.error === 'NOT_LEADER_OR_FOLLOWER') {
      const arr = p.leaders.get(b.topic);
      // KIP-951: use the leader the broker names, else ask for fresh metadata.
      if (b.currentLeader && arr && arr[b.partition] && b.currentLeader.leaderEpoch > arr[b.partition]!.leaderEpoch)
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
      p.retryToken = setClientTimer(w, p.id, num(p, 'retry.backoff.ms'), 'retry');
      return;
    }
    p.needMetadata = true;
    finishAttempt(w, p, msg.reqId, 'NETWORK_EXCEPTION', -1);
  }
  drain(w, p);
}

export function onProducerTimer(w: World, clientId: string, name: string, token: number, key?: string): void {
  const p = w.producers.get(clientId);
  if (!p) return;
  if (name === 'requestTimeout') {
    const req = p.inFlight.get(Number(key));
    if (!req || req.token !== token) return;
    p.needMetadata = true;
    finishAttempt(w, p, req.reqId, 'REQUEST_TIMED_OUT', -1);
  } else if (name === 'metadataRefresh') {
    if (token !== p.metadataToken || !p.metadataInFlight) return;
    p.metadataInFlight = false;
    p.bootstrapIdx++;
    p.needMetadata = true;
  } else if (name === 'deliveryTimeout') {
    const r = p.queue.find((x) => x.recordId === Number(key));
    if (!r || r.inFlight) return; // an in-flight batch expires when its response or timeout comes
    const entry = w.ledgerIndex.get(r.recordId)!;
    p.queue = p.queue.filter((x) => x !== r);
    settle(w, p, entry, 'failed', entry.error ?? 'TimeoutException');
    return;
  } else if (name === 'retry' && token !== p.retryToken) {
    return;
  }
  drain(w, p);
}
