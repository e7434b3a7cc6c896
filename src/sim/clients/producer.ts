// The producer client (KafkaProducer + Sender): metadata from a bootstrap broker, requests
// straight to each partition's leader, KIP-951 leader hints, retries with exponential backoff
// until delivery.timeout.ms, and idempotence (producer id + sequence numbers) with acks=all.
// startProducer runs one in a loop at a fixed rate, as an application calling send() would.

import { trailExplicitPartition } from '../model/trail';
import { clientTimerMs, bootstrapError, brokerList, resolveProducerConfig } from '../model/clientConfig';
import { armClientDeadline, emit, setClientTimer } from '../kernel/kernel';
import { addLedgerEntry } from '../kernel/ledger';
import { CEILING_CHECK_EVERY, checkRecordCeiling } from '../kernel/recordCeiling';
import { noteFailed } from '../kernel/memoryBounds';
import type { MessageOf } from '../model/messages';
import { changesLeaders, setLeaders } from './metadataCache';
import type { ProducerClient, ProducerRecordState, World } from '../model/world';
import type { Acks, ConfigValue, LedgerEntry, NodeId, Produce, StartProducer } from '../model/types';
import { armDeliveryTimer, num, settle } from './producerDelivery';
import { metadataFailed, requestMetadata } from './producerMetadata';
import { choosePartition, drain } from './recordAccumulator';
import { finishAttempt } from './sender';
import { connectionFailed } from './connectionBackoff';
import { appendWaiting, topicWaiting } from './accumulatorQueues';
import {
  DEFAULT_TRANSACTION_MS,
  abortTransaction,
  checkTransactionCall,
  initTransactions,
  noteTransactionalSend,
  onTransactionRequestDisconnected,
  onTransactionTimer,
} from './transactionManager';

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
      metadataEquivalent: 0,
      metadataAllowedAtMs: -Infinity,
      needMetadata: true,
      bootstrapIdx: 0,
      nextSeq: new Map(),
      records: new Map(),
      queues: new Map(),
      inFlight: new Map(),
      inFlightPerBroker: new Map(),
      connections: new Map(),
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
  if (p?.txn) {
    if (cmd.acks !== undefined && cmd.acks !== 'all')
      return `ConfigException: ${p.id} is transactional: Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence.`;
    const refused = checkTransactionCall(p, 'send', p.id);
    if (refused) return refused;
  }
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

/**
 * send() from an application (a stream processor): the record joins the accumulator; the caller
 * arms the delivery timer and drains (armDeliveryTimer, drain) once its records are in.
 */
export function sendRecord(
  w: World,
  p: ProducerClient,
  topic: string,
  key: string | null,
  value: string,
): LedgerEntry {
  // KafkaProducer.waitOnMetadata: a topic the producer has no metadata for is added to the next request.
  if (!p.leaders.has(topic)) p.needMetadata = true;
  return enqueue(w, p, topic, key, value, p.acks, undefined);
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
): LedgerEntry {
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
  if (recordId % CEILING_CHECK_EVERY === 0) checkRecordCeiling(w);
  p.counters.sent++;
  noteTransactionalSend(p, recordId);
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
  if (partition !== undefined) trailExplicitPartition(w.trail, recordId);
  choosePartition(w, p, r, entry);
  appendWaiting(p, entry, r.partition);
  return entry;
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
  const transactional = p.config['transactional.id'] !== undefined;
  // A loop at a rate commits on its own; one at rate 0 waits for commitTransaction commands.
  if (transactional && cmd.ratePerSec > 0) p.loop.transactionMs = cmd.transactionMs ?? DEFAULT_TRANSACTION_MS;
  const keys =
    p.loop.keyPattern === null ? 'null keys' : `keys ${p.loop.keyPattern} over ${p.loop.keyCount} values`;
  emit(
    w,
    'ProducerStarted',
    `${p.id} starts sending ${cmd.ratePerSec} records/s to ${cmd.topic} (acks=${p.acks}, ${keys}, idempotence ${p.idempotent ? 'on' : 'off'}${
      transactional
        ? `, transactional.id ${String(p.config['transactional.id'])}${cmd.ratePerSec > 0 ? `, a transaction committed every ${p.loop.transactionMs} ms` : ''}`
        : ''
    }).`,
    { producerId: p.id, topic: cmd.topic },
  );
  requestMetadata(w, p);
  if (transactional) initTransactions(w, p);
  produceTick(w, p);
}

export function stopProducer(w: World, id: string, graceful = true): string | null {
  const p = w.producers.get(id);
  if (!graceful) {
    if (!p) return `producer ${id} does not exist`;
    crashProducer(w, p);
    return null;
  }
  if (!p?.loop) return `producer ${id} is not running`;
  p.loop = null;
  // KafkaProducer.close(): the Sender aborts a transaction still open.
  const open = p.txn && (p.txn.state === 'IN_TRANSACTION' || p.txn.state === 'ABORTABLE_ERROR');
  emit(
    w,
    'ProducerStopped',
    `${id} stops sending; records already sent still complete (close())${open ? ', and its open transaction is aborted' : ''}.`,
    { producerId: id },
  );
  if (open) abortTransaction(w, p);
  return null;
}

/**
 * The producer's process dies: its memory is gone (nothing more is sent, no transaction is ended).
 * Records it had not sent fail; those in flight stay pending: they may or may not have been written.
 */
function crashProducer(w: World, p: ProducerClient): void {
  w.producers.delete(p.id);
  let unsent = 0;
  for (const r of p.records.values()) {
    if (r.inFlight || r.attempts > 0) continue;
    const entry = w.ledgerIndex.get(r.recordId);
    if (!entry) continue;
    entry.status = 'failed';
    entry.error = 'the producer crashed before sending it';
    noteFailed(w, entry);
    unsent++;
  }
  emit(
    w,
    'ProducerCrashed',
    `${p.id} crashed: ${unsent} record(s) it had not sent are lost${p.txn?.state === 'IN_TRANSACTION' ? `; its open transaction stays open until the coordinator aborts it (transaction.timeout.ms ${p.txn.timeoutMs} ms) or a new producer with transactional.id ${p.txn.transactionalId} fences it` : ''}.`,
    { producerId: p.id },
  );
}

/** The application loop: send() the records due by now at the configured rate. */
function produceTick(w: World, p: ProducerClient): void {
  const loop = p.loop;
  if (!loop) return;
  const due =
    Math.floor((loop.ratePerSec * (w.nowMs - loop.startedAtMs)) / 1000) + (loop.ratePerSec > 0 ? 1 : 0);
  // With the topic absent from metadata, send() blocks up to max.block.ms: the loop waits with it;
  // a transactional loop sends only inside a transaction (between two, the application waits).
  const blocked =
    (p.txn !== undefined && p.txn.state !== 'IN_TRANSACTION') ||
    (!p.leaders.has(loop.topic) && topicWaiting(p, loop.topic));
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
 * The producer's handlers of what the brokers answer, one per message kind (dispatch.ts
 * CLIENT_ROUTES). A handler returns true when it did all there is to do; otherwise the producer
 * drains after it (`drain`: the batches it may send now).
 */
export function onProducerMetadataResponse(
  w: World,
  p: ProducerClient,
  msg: MessageOf<'MetadataResponse'>,
): boolean | void {
  const b = msg.body;
  if (!p.metadataInFlight || msg.reqId !== p.metadataReqId) return true;
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
  // Metadata.update: a response that shows no newer leader epoch and no new partition is
  // "equivalent", and the next refresh backs off further (updateLatestMetadata resets the count).
  p.metadataEquivalent = changesLeaders(p.leaders, b.partitions) ? 0 : p.metadataEquivalent + 1;
  p.metadataAllowedAtMs = -Infinity;
  setLeaders(p.leaders, b.partitions);
  if (b.unknownTopics.length) {
    // The broker does not know the topic yet (its metadata lags): ask again after retry.backoff.ms.
    p.needMetadata = true;
    p.metadataInFlight = true;
    p.metadataReqId = 0; // a backoff, not a request: its timer is no failure
    p.metadataToken = setClientTimer(w, p.id, num(p, 'retry.backoff.ms'), 'metadataRefresh');
  }
}

export function onProducerProduceResponse(
  w: World,
  p: ProducerClient,
  msg: MessageOf<'ProduceResponse'>,
): void {
  const b = msg.body;
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
}

export function onProducerDisconnected(
  w: World,
  p: ProducerClient,
  msg: MessageOf<'Disconnected'>,
): boolean | void {
  if (typeof msg.from === 'number')
    connectionFailed(
      w,
      p.connections,
      msg.from,
      num(p, 'reconnect.backoff.ms'),
      num(p, 'reconnect.backoff.max.ms'),
    );
  if (msg.body.requestKind === 'Metadata') {
    if (msg.reqId !== p.metadataReqId || !p.metadataInFlight) return true;
    metadataFailed(w, p);
    armClientDeadline(w, p.id, p.retryTimer, w.nowMs + num(p, 'retry.backoff.ms'), 'retry');
    return true;
  }
  if (onTransactionRequestDisconnected(w, p, msg.reqId)) return;
  p.needMetadata = true;
  finishAttempt(w, p, msg.reqId, 'NETWORK_EXCEPTION', -1);
}

export function onProducerTimer(w: World, clientId: string, name: string, token: number): void {
  const p = w.producers.get(clientId);
  if (!p) return;
  if (name === 'requestTimeout') {
    if (token !== p.requestTimer.token) return;
    p.requestTimer.token = 0;
    const timeoutMs = clientTimerMs(num(p, 'request.timeout.ms'));
    let next = Infinity;
    for (const req of [...p.inFlight.values()]) {
      if (w.nowMs - req.sentAtMs >= timeoutMs) {
        p.needMetadata = true;
        // NetworkClient.handleTimedOutRequests: a request that timed out closes its connection.
        connectionFailed(
          w,
          p.connections,
          req.brokerId,
          num(p, 'reconnect.backoff.ms'),
          num(p, 'reconnect.backoff.max.ms'),
        );
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
    // Records fail oldest first (deadlines are in send order): the walk stops at the first one still
    // in time, so it costs what expires, not the backlog (deleting the current entry is safe in a walk).
    let expired = false;
    for (const r of p.records.values()) {
      if (r.deadlineMs > w.nowMs) break;
      if (r.inFlight) continue;
      const entry = w.ledgerIndex.get(r.recordId)!;
      p.records.delete(r.recordId);
      settle(w, p, entry, 'failed', entry.error ?? 'TimeoutException');
      expired = true;
    }
    armDeliveryTimer(w, p);
    // Sender.sendProducerData fails the expired batches, then drains in the same pass: what waited
    // behind them (a partition held behind a retry that expired) goes now, and so does a commit.
    if (!expired) return;
  } else if (name === 'retry') {
    if (token !== p.retryTimer.token) return;
    p.retryTimer.token = 0;
  } else if (name === 'transaction') {
    onTransactionTimer(w, p, token);
  }
  drain(w, p);
}
