// The producer client (KafkaProducer + Sender): metadata from a bootstrap broker, requests
// straight to each partition's leader, KIP-951 leader hints, retries with exponential backoff
// until delivery.timeout.ms, and idempotence (producer id + sequence numbers) with acks=all.
// startProducer runs one in a loop at a fixed rate, as an application calling send() would.

import { bootstrapBrokers, bootstrapError, brokerList, resolveProducerConfig } from '../model/clientConfig';
import { armClientDeadline, emit, nextReqId, send, setClientTimer } from '../kernel/kernel';
import { addLedgerEntry } from '../kernel/ledger';
import type { Message } from '../model/messages';
import { tpKey } from '../model/metadata';
import { partitionForKey } from './partitioner';
import { recordSizeBytes } from '../model/messages';
import { setLeaders } from './metadataCache';
import { nextFloat, nextInt } from '../kernel/rng';
import type { ProducerClient, ProducerRecordState, World } from '../model/world';
import type { Acks, ConfigValue, LedgerEntry, NodeId, Produce, StartProducer } from '../model/types';

/** Ack latencies kept per producer for its percentiles (a ring: bounded, deterministic). */
const LATENCY_RING = 1024;

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

/** The producer named `id`, created with Kafka's defaults (and `config`) if it does not exist. */
export function getProducer(w: World, id: string, given: Record<string, ConfigValue> = {}): ProducerClient {
  let p = w.producers.get(id);
  if (!p) {
    const resolved = resolveProducerConfig(given);
    p = {
      id,
      acks: resolved.config.acks as Acks,
      idempotent: resolved.idempotent,
      idempotenceExplicit: resolved.idempotenceExplicit,
      pid: w.nextPid++,
      config: resolved.config,
      bootstrap: brokerList(resolved.config['bootstrap.servers']),
      knownBrokers: [],
      metadataFailures: 0,
      noMetadataReported: false,
      metadataFrom: null,
      latencies: [],
      latencyNext: 0,
      loop: null,
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

/** Why a produce command cannot run on its producer (a ConfigException), or null. */
export function checkProduce(w: World, cmd: Produce): string | null {
  const p = w.producers.get(cmd.producerId ?? 'producer-1');
  if (p && p.idempotenceExplicit && cmd.acks !== undefined && cmd.acks !== 'all')
    return `ConfigException: ${p.id} has enable.idempotence=true: Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence.`;
  return null;
}

/** The produce command: records enter the producer's queue as pending ledger entries. */
export function produce(w: World, cmd: Produce): void {
  const p = getProducer(w, cmd.producerId ?? 'producer-1');
  const acks: Acks = cmd.acks ?? p.acks;
  const count = cmd.count ?? 1;
  for (let i = 0; i < count; i++)
    enqueue(
      w,
      p,
      cmd.topic,
      cmd.key ?? null,
      count > 1 ? `${cmd.value}-${i}` : cmd.value,
      acks,
      cmd.partition,
    );
  armDeliveryTimer(w, p);
  drain(w, p);
}

/** KafkaProducer.send(): the record joins the accumulator as a pending ledger entry. */
function enqueue(
  w: World,
  p: ProducerClient,
  topic: string,
  key: string | null,
  value: string,
  acks: Acks,
  partition: number | undefined,
): void {
  const recordId = w.nextRecordId++;
  const entry: LedgerEntry = {
    recordId,
    producerId: p.id,
    topic,
    partition: partition ?? -1,
    offset: -1,
    key,
    value,
    acks,
    status: 'pending',
    sentAtMs: w.nowMs,
    attempts: [],
  };
  addLedgerEntry(w, entry);
  p.counters.sent++;
  const r: ProducerRecordState = {
    recordId,
    partition: entry.partition,
    pid: -1,
    seq: -1,
    batchId: -1,
    attempts: 0,
    // linger.ms: wait a little so that records travel together in one batch.
    readyAtMs: w.nowMs + num(p, 'linger.ms'),
    inFlight: false,
    deadlineMs: w.nowMs + num(p, 'delivery.timeout.ms'),
  };
  p.records.set(recordId, r);
  choosePartition(w, p, r, entry);
  p.ready.push(recordId);
}

/**
 * KafkaProducer.doSend: the partition is chosen as the record is sent, once the topic's metadata
 * is known (otherwise the Sender chooses it when the metadata arrives): an explicit partition, the
 * key's murmur2 hash, or the sticky partitioner.
 */
function choosePartition(w: World, p: ProducerClient, r: ProducerRecordState, entry: LedgerEntry): void {
  if (r.partition >= 0) return;
  const leaders = p.leaders.get(entry.topic);
  if (!leaders) return;
  r.partition =
    entry.key !== null
      ? partitionForKey(entry.key, leaders.length)
      : stickyPartition(w, p, entry.topic, leaders);
  entry.partition = r.partition;
}

/** Why startProducer cannot run (a ConfigException, or the producer is busy), or null. */
export function checkStartProducer(w: World, cmd: StartProducer): string | null {
  const existing = w.producers.get(cmd.producerId);
  if (existing?.loop) return `producer ${cmd.producerId} is already running; stop it first`;
  if (existing && existing.records.size > 0)
    return `producer ${cmd.producerId} still has ${existing.records.size} record(s) in flight; wait for them or use another id`;
  if (w.consumers.has(cmd.producerId)) return `${cmd.producerId} is already a consumer's client id`;
  const resolved = resolveProducerConfig(cmd.config ?? {}, cmd.acks);
  return resolved.error ?? bootstrapError(w, resolved.config);
}

/** startProducer: a (re)configured producer that sends ratePerSec records per second until stopped. */
export function startProducer(w: World, cmd: StartProducer): void {
  const given = { ...(cmd.config ?? {}), ...(cmd.acks !== undefined ? { acks: cmd.acks } : {}) };
  const old = w.producers.get(cmd.producerId);
  if (old) w.producers.delete(cmd.producerId);
  const p = getProducer(w, cmd.producerId, given);
  if (old) {
    // The same client keeps its counters; its new configuration takes effect now.
    p.counters = old.counters;
    p.latencies = old.latencies;
    p.latencyNext = old.latencyNext;
  }
  p.loop = {
    topic: cmd.topic,
    ratePerSec: cmd.ratePerSec,
    keyPattern: cmd.keyPattern ?? null,
    keyCount: cmd.keyCount ?? 10,
    acks: p.acks,
    startedAtMs: w.nowMs,
    emitted: 0,
    token: 0,
  };
  const keys =
    p.loop.keyPattern === null ? 'null keys' : `keys ${p.loop.keyPattern} over ${p.loop.keyCount} values`;
  emit(
    w,
    'ProducerStarted',
    `${p.id} starts sending ${cmd.ratePerSec} records/s to ${cmd.topic} (acks=${p.acks}, ${keys}, idempotence ${p.idempotent ? 'on' : 'off'}).`,
    { producerId: p.id, topic: cmd.topic },
  );
  requestMetadata(w, p);
  produceTick(w, p);
}

export function stopProducer(w: World, id: string): string | null {
  const p = w.producers.get(id);
  if (!p?.loop) return `producer ${id} is not running`;
  p.loop = null;
  emit(w, 'ProducerStopped', `${id} stops sending; records already sent still complete (close()).`, {
    producerId: id,
  });
  return null;
}

/** The application loop: send() the records due by now at the configured rate. */
function produceTick(w: World, p: ProducerClient): void {
  const loop = p.loop;
  if (!loop) return;
  const due =
    Math.floor((loop.ratePerSec * (w.nowMs - loop.startedAtMs)) / 1000) + (loop.ratePerSec > 0 ? 1 : 0);
  // With the topic absent from metadata, send() blocks up to max.block.ms: the loop waits with it.
  const blocked =
    !p.leaders.has(loop.topic) && p.ready.some((id) => w.ledgerIndex.get(id)?.topic === loop.topic);
  if (blocked) loop.emitted = due;
  const keyParts = loop.keyPattern === null ? null : splitKeyPattern(loop.keyPattern);
  for (; loop.emitted < due; loop.emitted++) {
    const n = loop.emitted;
    const key = keyParts === null ? null : fillKeyPattern(keyParts, String(n % loop.keyCount));
    enqueue(w, p, loop.topic, key, `${p.id}-${n}`, loop.acks, undefined);
    if (!p.leaders.has(loop.topic)) {
      loop.emitted = due;
      break;
    }
  }
  if (loop.ratePerSec > 0) {
    const nextDue = loop.startedAtMs + Math.ceil((loop.emitted * 1000) / loop.ratePerSec);
    // Ticks at least 10 ms apart: at high rates several records leave per tick.
    loop.token = setClientTimer(w, p.id, Math.max(10, nextDue - w.nowMs), 'produceTick');
  }
  armDeliveryTimer(w, p);
  drain(w, p);
}

/** keyPattern.split('{n}') per pattern, made once (a pure function of the pattern; not state). */
const keyPatternParts = new Map<string, string[]>();

function splitKeyPattern(pattern: string): string[] {
  let parts = keyPatternParts.get(pattern);
  if (!parts) keyPatternParts.set(pattern, (parts = pattern.split('{n}')));
  return parts;
}

/** The key for `n`: keyParts.join(n), with the usual single '{n}' joined directly. */
function fillKeyPattern(parts: string[], n: string): string {
  return parts.length === 2 ? parts[0]! + n + parts[1]! : parts.join(n);
}

/**
 * Where the next Metadata request goes: the brokers the last response named, else bootstrap.servers
 * (every broker when unset). After a whole round of them failed, back to bootstrap.servers.
 */
function metadataTargets(w: World, p: ProducerClient): NodeId[] {
  if (p.knownBrokers.length) return p.knownBrokers;
  return bootstrapBrokers(w, p.bootstrap);
}

function requestMetadata(w: World, p: ProducerClient): void {
  if (p.metadataInFlight) return;
  const brokers = metadataTargets(w, p);
  const target = brokers[p.bootstrapIdx % brokers.length]!;
  p.metadataInFlight = true;
  p.metadataReqId = nextReqId(w);
  const topics = new Set<string>();
  for (const id of p.records.keys()) topics.add(w.ledgerIndex.get(id)!.topic);
  if (p.loop) topics.add(p.loop.topic);
  send(w, p.id, target, { kind: 'Metadata', topics: [...topics] }, p.metadataReqId);
  p.metadataToken = setClientTimer(w, p.id, num(p, 'request.timeout.ms'), 'metadataRefresh');
}

/** A metadata request got no answer: try the next broker; a whole round failed is reported once. */
function metadataFailed(w: World, p: ProducerClient): void {
  p.metadataInFlight = false;
  p.bootstrapIdx++;
  p.needMetadata = true;
  p.metadataFailures++;
  const targets = metadataTargets(w, p);
  if (p.metadataFailures < targets.length) return;
  p.metadataFailures = 0;
  if (p.knownBrokers.length) {
    // Every broker it knew is gone: rebootstrap (metadata.recovery.strategy=rebootstrap, KIP-899).
    p.knownBrokers = [];
    return;
  }
  if (p.noMetadataReported) return;
  p.noMetadataReported = true;
  emit(
    w,
    'ProducerNoMetadata',
    `${p.id} cannot reach any bootstrap server (${targets.join(', ')}): no metadata. Records wait up to max.block.ms (${num(p, 'max.block.ms')} ms) for it, then fail with TimeoutException.`,
    { producerId: p.id, bootstrap: targets },
  );
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

/**
 * The Sender: records whose linger.ms (or retry backoff) has passed go out in batches of up to
 * batch.size per partition, at most max.in.flight.requests.per.connection requests per broker.
 */
export function drain(w: World, p: ProducerClient): void {
  const stale = w.nowMs - p.metadataFetchedAtMs > num(p, 'metadata.max.age.ms');
  if (p.needMetadata || stale) requestMetadata(w, p);
  if (p.ready.length === 0) return; // nothing waits to be sent (most responses find it so)
  if (nothingDue(w, p)) return;
  let wakeAtMs = Infinity;
  const maxInFlight = num(p, 'max.in.flight.requests.per.connection');
  const batchSize = num(p, 'batch.size');
  const waiting: number[] = [];
  // Made when first needed: most wake-ups find nothing to send.
  let batches: Map<string | number, Batch[]> | null = null;
  // With idempotence, a batch waiting to be retried holds back newer records of its partition (ordering).
  let held: Set<string> | null = null;
  for (const id of p.ready) {
    const r = p.records.get(id);
    if (!r || r.inFlight) continue;
    const entry = w.ledgerIndex.get(id)!;
    const leaders = p.leaders.get(entry.topic);
    // A record sent before its topic's metadata arrived gets its partition now, so that it is held
    // with the others behind a retry of that partition.
    choosePartition(w, p, r, entry);
    const tp = tpKey(entry.topic, r.partition);
    if (r.readyAtMs > w.nowMs || held?.has(tp)) {
      if (r.readyAtMs > w.nowMs) wakeAtMs = Math.min(wakeAtMs, r.readyAtMs);
      if (r.attempts > 0 && r.pid >= 0) (held ??= new Set()).add(tp);
      waiting.push(id);
      continue;
    }
    if (!leaders) {
      // KafkaProducer.waitOnMetadata: send() gives up after max.block.ms without the topic's metadata.
      const blockedUntil = entry.sentAtMs + num(p, 'max.block.ms');
      if (w.nowMs >= blockedUntil) {
        p.records.delete(id);
        settle(
          w,
          p,
          entry,
          'failed',
          'TimeoutException',
          `Topic ${entry.topic} not present in metadata after ${num(p, 'max.block.ms')} ms`,
        );
        continue;
      }
      wakeAtMs = Math.min(wakeAtMs, blockedUntil);
      waiting.push(id);
      continue;
    }
    const leader = leaders[r.partition]?.leader ?? -1;
    if (leader < 0) {
      p.needMetadata = true;
      waiting.push(id);
      continue;
    }
    // A batch that was sent keeps its records on retry (RecordAccumulator.reenqueue): the broker
    // recognises a duplicate only as the same batch, first to last sequence number.
    const key = r.batchId >= 0 ? r.batchId : entry.acks === 'all' ? tp : `${tp}|${entry.acks}`;
    batches ??= new Map();
    const list = batches.get(key);
    const b = list?.[list.length - 1];
    const size = recordSizeBytes(entry);
    if (!b || (b.records.length > 0 && b.bytes + size > batchSize)) {
      // A new batch starts with its first record (arrays made to size: most batches keep one record).
      const first: Batch = {
        leader,
        topic: entry.topic,
        partition: r.partition,
        acks: entry.acks,
        records: [r],
        entries: [entry],
        bytes: size,
      };
      if (list) list.push(first);
      else batches.set(key, [first]);
      continue;
    }
    b.records.push(r);
    b.entries.push(entry);
    b.bytes += size;
  }
  if (batches)
    for (const list of batches.values()) {
      for (const b of list) {
        // Batches that find the connection full wait for a response to free a slot.
        if ((p.inFlightPerBroker.get(b.leader) ?? 0) >= maxInFlight)
          for (const r of b.records) waiting.push(r.recordId);
        else sendBatch(w, p, b);
      }
    }
  // In record order (send order); batches put back for a full connection may break it.
  let sorted = true;
  for (let i = 1; i < waiting.length && sorted; i++) sorted = waiting[i - 1]! < waiting[i]!;
  p.ready = sorted ? waiting : waiting.sort((a, b) => a - b);
  if (p.needMetadata && !p.metadataInFlight) requestMetadata(w, p);
  if (wakeAtMs < Infinity) armClientDeadline(w, p.id, p.retryTimer, Math.max(wakeAtMs, w.nowMs), 'retry');
}

/**
 * The Sender's quick look: when every waiting record still lingers (and has its partition), it only
 * makes sure that it wakes up for the first one, and the full pass is skipped. So a send() with
 * linger.ms arms the Sender's wake-up instead of running it (RecordAccumulator.append).
 */
function nothingDue(w: World, p: ProducerClient): boolean {
  let wakeAtMs = Infinity;
  for (const id of p.ready) {
    const r = p.records.get(id);
    if (!r || r.inFlight) continue;
    if (r.readyAtMs <= w.nowMs || r.partition < 0) return false;
    if (r.readyAtMs < wakeAtMs) wakeAtMs = r.readyAtMs;
  }
  if (wakeAtMs < Infinity) armClientDeadline(w, p.id, p.retryTimer, wakeAtMs, 'retry');
  return true;
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
  // Idempotence is off for acks 0 and 1 (ProducerConfig), and when a conflicting config turned it off.
  const idempotent = b.acks === 'all' && p.idempotent;
  const tp = tpKey(b.topic, b.partition);
  const sticky = p.sticky.get(b.topic);
  if (sticky && sticky.partition === b.partition) sticky.bytes += b.bytes;
  const batchId = b.records[0]!.batchId >= 0 ? b.records[0]!.batchId : b.records[0]!.recordId;
  for (const r of b.records) {
    r.batchId = batchId;
    if (idempotent && r.seq < 0) {
      r.pid = p.pid;
      r.seq = p.nextSeq.get(tp) ?? 0;
      p.nextSeq.set(tp, r.seq + 1);
    }
    r.attempts++;
    if (r.attempts > 1) p.counters.retries++;
  }
  for (const e of b.entries) {
    const attempt = { atMs: w.nowMs, brokerId: b.leader };
    // The ledger keeps every entry: a first attempt gets an array of its size, not push()'s spare room.
    if (e.attempts.length === 0) e.attempts = [attempt];
    else e.attempts.push(attempt);
  }
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
          epoch: -1,
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
  detail?: string,
): void {
  entry.status = status;
  if (status === 'acked') {
    entry.ackedAtMs = w.nowMs;
    p.counters.acknowledged++;
    if (p.latencies.length < LATENCY_RING) p.latencies.push(w.nowMs - entry.sentAtMs);
    else p.latencies[p.latencyNext] = w.nowMs - entry.sentAtMs;
    p.latencyNext = (p.latencyNext + 1) % LATENCY_RING;
  } else {
    entry.error = error;
    p.counters.failed[error!] = (p.counters.failed[error!] ?? 0) + 1;
    emit(
      w,
      'ProduceFailed',
      `${p.id}: record ${entry.key ?? 'null'}=${entry.value} to ${entry.topic} failed: ${error}${detail ? ` (${detail})` : ''}.`,
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
  if (error === 'OUT_OF_ORDER_SEQUENCE_NUMBER' && isNextSequence(w, p, req.recordIds)) {
    failAndBumpEpoch(w, p, req.recordIds);
    return;
  }
  let requeued = false;
  let bump: string | null = null;
  for (let i = 0; i < req.recordIds.length; i++) {
    const recordId = req.recordIds[i]!;
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
    if (!RETRIABLE.has(error) || r.attempts > num(p, 'retries') || w.nowMs + backoffMs >= r.deadlineMs) {
      p.records.delete(recordId);
      settle(w, p, entry, 'failed', error);
      // Sender.completeBatch: a batch the broker refused for good (retries not used up) leaves a gap
      // in the sequence numbers, so the idempotent producer bumps its epoch at once
      // (TransactionManager.handleFailedBatch → requestEpochBumpForPartition).
      if (!RETRIABLE.has(error) && r.pid === p.pid && r.attempts <= num(p, 'retries')) bump = error;
      continue;
    }
    r.readyAtMs = w.nowMs + backoffMs;
    p.ready.push(recordId);
    requeued = true;
  }
  // Retried records go back in send order, ahead of newer ones (ordering, as the accumulator keeps it).
  if (requeued) {
    p.ready.sort((a, b) => a - b);
    // Records back in the accumulator count toward delivery.timeout.ms again (in flight they do not).
    armDeliveryTimer(w, p);
  }
  if (bump)
    bumpEpoch(
      w,
      p,
      `a batch was refused with ${bump}, which leaves a gap in its sequence numbers; the producer`,
    );
}

/**
 * Sender.canRetry: OUT_OF_ORDER_SEQUENCE_NUMBER is retriable while an earlier batch of the partition
 * is unsettled; for the earliest one the gap is permanent (its predecessor is gone from the log).
 */
function isNextSequence(w: World, p: ProducerClient, recordIds: number[]): boolean {
  const first = p.records.get(recordIds[0]!);
  if (!first || first.seq < 0) return false;
  const topic = w.ledgerIndex.get(first.recordId)!.topic;
  for (const r of p.records.values())
    if (
      r.pid === first.pid &&
      r.partition === first.partition &&
      r.seq >= 0 &&
      r.seq < first.seq &&
      w.ledgerIndex.get(r.recordId)?.topic === topic
    )
      return false;
  return true;
}

/**
 * KIP-360: the batch fails with OutOfOrderSequenceException, and the idempotent producer bumps its
 * epoch, which restarts every partition's sequence at 0 (a new producer id stands for the new epoch).
 */
function failAndBumpEpoch(w: World, p: ProducerClient, recordIds: number[]): void {
  for (const recordId of recordIds) {
    const r = p.records.get(recordId);
    const entry = w.ledgerIndex.get(recordId);
    if (!r || !entry) continue;
    r.inFlight = false;
    const attempt = entry.attempts[entry.attempts.length - 1];
    if (attempt) attempt.error = 'OUT_OF_ORDER_SEQUENCE_NUMBER';
    p.records.delete(recordId);
    settle(w, p, entry, 'failed', 'OUT_OF_ORDER_SEQUENCE_NUMBER');
  }
  bumpEpoch(
    w,
    p,
    'a batch was refused with OUT_OF_ORDER_SEQUENCE_NUMBER, its predecessor is gone from the log; the producer fails it and',
  );
}

/**
 * KIP-360: the idempotent producer restarts every partition's sequence at 0 with a new epoch (a new
 * producer id stands for it); records not yet acknowledged get new sequence numbers when sent again.
 */
function bumpEpoch(w: World, p: ProducerClient, why: string): void {
  const old = p.pid;
  p.pid = w.nextPid++;
  p.nextSeq.clear();
  for (const r of p.records.values()) {
    r.pid = -1;
    r.seq = -1;
    r.batchId = -1;
  }
  emit(
    w,
    'ProducerEpochBumped',
    `${p.id}: ${why} restarts its sequence numbers with a new epoch (producer id ${old} → ${p.pid}, KIP-360).`,
    { producerId: p.id },
  );
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
    p.metadataFailures = 0;
    p.metadataFrom = msg.from as NodeId;
    if (b.brokers.length) p.knownBrokers = [...b.brokers].sort((x, y) => x - y);
    if (p.noMetadataReported) {
      p.noMetadataReported = false;
      emit(w, 'ProducerMetadataRecovered', `${p.id} got metadata from broker ${String(msg.from)} again.`, {
        producerId: p.id,
        nodeId: msg.from as NodeId,
      });
    }
    setLeaders(p.leaders, b.partitions);
    if (b.unknownTopics.length) {
      // The broker does not know the topic yet (its metadata lags): ask again after retry.backoff.ms.
      p.needMetadata = true;
      p.metadataInFlight = true;
      p.metadataReqId = 0; // a backoff, not a request: its timer is no failure
      p.metadataToken = setClientTimer(w, p.id, num(p, 'retry.backoff.ms'), 'metadataRefresh');
      drain(w, p);
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
      if (msg.reqId !== p.metadataReqId || !p.metadataInFlight) return;
      metadataFailed(w, p);
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
    if (p.metadataReqId === 0) {
      p.metadataInFlight = false;
      p.needMetadata = true;
    } else metadataFailed(w, p);
  } else if (name === 'produceTick') {
    if (!p.loop || token !== p.loop.token) return;
    produceTick(w, p);
    return;
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
