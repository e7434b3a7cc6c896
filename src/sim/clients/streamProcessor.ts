// A consume-transform-produce processor, as Kafka Streams' StreamThread and TaskManager run one
// (simplified: one task for all the input partitions, no state stores). It is a consumer of its
// group plus a producer: each input record becomes one output record with the same key and the value
// prefixed "→". Every commit.interval.ms it commits:
// - at_least_once: flush the producer (every output acknowledged), then OffsetCommit the positions
//   (StreamThread.maybeCommit → TaskManager.commit). A crash between the two redelivers.
// - exactly_once_v2 (KIP-447): the outputs go in a transaction of a transactional producer
//   (transactional.id `${groupId}-${processorId}`), sendOffsetsToTransaction puts the input offsets in
//   the same transaction, and commitTransaction ends both (StreamsProducer.commitTransaction). A
//   crash leaves the transaction to be aborted; the restarted instance's initTransactions fences the
//   old one, and the group's committed offsets are those of the last committed transaction.

import { emit, setClientTimer } from '../kernel/kernel';
import { resolveConsumerConfig } from '../model/clientConfig';
import { tpKey } from '../model/metadata';
import type { CommittedOffset } from '../model/messages';
import type { ConsumerClient, ProcessorState, ProducerClient, World } from '../model/world';
import type { StartProcessor } from '../model/types';
import { startConsumer, stopConsumer, tick } from './consumer';
import { commit } from './consumerCoordinator';
import { noteProcessed } from './consumerFetcher';
import { getProducer, sendRecord, stopProducer } from './producer';
import { armDeliveryTimer } from './producerDelivery';
import { drain } from './recordAccumulator';
import {
  abortTransaction,
  beginTransaction,
  commitTransaction,
  initTransactions,
  sendOffsetsToTransaction,
} from './transactionManager';

/** Kafka Streams' commit.interval.ms default: 30000, or 100 under exactly_once_v2 (StreamsConfig). */
export const COMMIT_INTERVAL_MS = { at_least_once: 30000, exactly_once_v2: 100 } as const;

/** The transform: the output value an input value becomes. */
export const transformValue = (value: string): string => `→${value}`;

/** The processor's clients' ids and transactional.id (documented in docs/scenario.md). */
export function processorClientIds(processorId: string, groupId: string) {
  return {
    consumerId: `${processorId}-consumer`,
    producerId: `${processorId}-producer`,
    transactionalId: `${groupId}-${processorId}`,
  };
}

function consumerConfig(cmd: StartProcessor) {
  const eos = cmd.processingGuarantee === 'exactly_once_v2';
  // StreamsConfig's consumer overrides: no auto commit, earliest; read_committed under exactly-once.
  return {
    'enable.auto.commit': false,
    'auto.offset.reset': 'earliest',
    ...(eos ? { 'isolation.level': 'read_committed' } : {}),
    ...(cmd.config ?? {}),
  };
}

export function checkStartProcessor(w: World, cmd: StartProcessor): string | null {
  const old = w.processors?.get(cmd.processorId);
  if (old && (old.state === 'running' || old.state === 'stopping'))
    return `processor ${cmd.processorId} is already running`;
  const ids = processorClientIds(cmd.processorId, cmd.groupId);
  const c = w.consumers.get(ids.consumerId);
  if (c && c.state !== 'stopped' && c.state !== 'crashed')
    return `consumer ${ids.consumerId} is already running`;
  if (w.consumers.has(ids.producerId) || w.producers.get(ids.consumerId))
    return `${cmd.processorId}'s client ids are taken by other clients`;
  const p = w.producers.get(ids.producerId);
  if (p && !p.processorId) return `${ids.producerId} is already a producer's client id`;
  if (p && p.records.size > 0)
    return `producer ${ids.producerId} still has ${p.records.size} record(s) in flight; wait for them`;
  const eos = cmd.processingGuarantee === 'exactly_once_v2';
  const config = consumerConfig(cmd);
  if (eos && config['isolation.level'] !== 'read_committed')
    return 'ConfigException: exactly_once_v2 needs isolation.level=read_committed for the consumer';
  if (config['enable.auto.commit'] === true)
    return 'ConfigException: a processor commits on its own (commit.interval.ms): enable.auto.commit must be false';
  return resolveConsumerConfig(config).error ?? null;
}

/** startProcessor: its consumer joins the group, its producer starts (initTransactions under exactly-once). */
export function startProcessor(w: World, cmd: StartProcessor): void {
  const guarantee = cmd.processingGuarantee ?? 'at_least_once';
  const ids = processorClientIds(cmd.processorId, cmd.groupId);
  const processors = (w.processors ??= new Map());
  const old = processors.get(cmd.processorId);
  const proc: ProcessorState = {
    id: cmd.processorId,
    groupId: cmd.groupId,
    inputTopic: cmd.inputTopic,
    outputTopic: cmd.outputTopic,
    guarantee,
    commitIntervalMs: cmd.commitIntervalMs ?? COMMIT_INTERVAL_MS[guarantee],
    consumerId: ids.consumerId,
    producerId: ids.producerId,
    state: 'running',
    buffer: [],
    processedUpTo: new Map(),
    generation: -1,
    txnGroup: null,
    committing: null,
    failedBefore: 0,
    commitToken: 0,
    lastCommitMs: w.nowMs,
    counters: old?.counters ?? { processed: 0, outputs: 0, commits: 0, aborts: 0, rewinds: 0 },
    error: null,
  };
  processors.set(proc.id, proc);
  emit(
    w,
    'ProcessorStarted',
    `${proc.id} starts: it reads ${proc.inputTopic} in group ${proc.groupId} and writes each record, transformed, to ${proc.outputTopic} (processing.guarantee=${guarantee}, commit.interval.ms=${proc.commitIntervalMs}${guarantee === 'exactly_once_v2' ? `, transactional.id ${ids.transactionalId}` : ''}).`,
    { processorId: proc.id, groupId: proc.groupId },
  );
  w.producers.delete(ids.producerId);
  const p = getProducer(
    w,
    ids.producerId,
    guarantee === 'exactly_once_v2' ? { 'transactional.id': ids.transactionalId } : {},
  );
  p.processorId = proc.id;
  proc.failedBefore = failedCount(p);
  if (guarantee === 'exactly_once_v2') initTransactions(w, p);
  startConsumer(w, {
    type: 'startConsumer',
    consumerId: ids.consumerId,
    groupId: cmd.groupId,
    topics: [cmd.inputTopic],
    config: consumerConfig(cmd),
  });
  const c = w.consumers.get(ids.consumerId)!;
  c.processorId = proc.id;
  c.polled = [];
  armCommitTimer(w, proc);
}

/** stopProcessor: close() commits what was processed, then leaves; graceful=false is a crash. */
export function stopProcessor(w: World, id: string, graceful: boolean): string | null {
  const proc = w.processors?.get(id);
  if (!proc || (proc.state !== 'running' && proc.state !== 'stopping'))
    return `processor ${id} is not running`;
  if (!graceful) {
    proc.state = 'crashed';
    emit(
      w,
      'ProcessorCrashed',
      `${id} crashes: nothing is committed and nothing is aborted. ${
        proc.guarantee === 'exactly_once_v2'
          ? 'Its open transaction stays open until the coordinator aborts it (transaction.timeout.ms) or a restarted instance fences it; the group resumes from the offsets of its last committed transaction.'
          : 'The group resumes from its last committed offsets: what it processed since then is processed again (duplicates downstream).'
      }`,
      { processorId: id, groupId: proc.groupId },
    );
    stopConsumer(w, proc.consumerId, false);
    if (w.producers.has(proc.producerId)) stopProducer(w, proc.producerId, false);
    return null;
  }
  emit(
    w,
    'ProcessorStopping',
    `${id} closes: it commits what it processed, then leaves group ${proc.groupId}.`,
    {
      processorId: id,
      groupId: proc.groupId,
    },
  );
  proc.state = 'stopping';
  commitNow(w, proc);
  if (!proc.committing) finishStop(w, proc);
  return null;
}

function finishStop(w: World, proc: ProcessorState): void {
  proc.state = 'stopped';
  const c = w.consumers.get(proc.consumerId);
  if (c && c.state !== 'stopped' && c.state !== 'crashed') stopConsumer(w, proc.consumerId, true);
  emit(w, 'ProcessorStopped', `${proc.id} closed: its consumer left group ${proc.groupId}.`, {
    processorId: proc.id,
    groupId: proc.groupId,
  });
}

function failedCount(p: ProducerClient): number {
  return Object.values(p.counters.failed).reduce((a, b) => a + b, 0);
}

function armCommitTimer(w: World, proc: ProcessorState): void {
  proc.commitToken = setClientTimer(w, proc.id, proc.commitIntervalMs, 'processorCommit');
}

/** commit.interval.ms passed (StreamThread.maybeCommit). */
export function onProcessorTimer(w: World, id: string, token: number): void {
  const proc = w.processors?.get(id);
  if (!proc || proc.commitToken !== token || proc.state !== 'running') return;
  commitNow(w, proc);
  armCommitTimer(w, proc);
}

/** The consumer's poll returned records: they are processed now, or when the transaction allows. */
export function onProcessorPolled(w: World, c: ConsumerClient): void {
  const proc = w.processors?.get(c.processorId!);
  const polled = c.polled!;
  c.polled = [];
  if (!proc || (proc.state !== 'running' && proc.state !== 'stopping')) return;
  if (rebalanced(w, proc, c)) return;
  for (const r of polled) proc.buffer.push(r);
  process(w, proc);
}

/** The producer made progress (an answer came): an at_least_once commit may be waiting for its flush. */
export function onProcessorProducerProgress(w: World, p: ProducerClient): void {
  const proc = w.processors?.get(p.processorId!);
  if (!proc || proc.guarantee !== 'at_least_once' || !proc.committing || p.records.size > 0) return;
  const c = w.consumers.get(proc.consumerId);
  const failed = failedCount(p);
  if (failed > proc.failedBefore) {
    // StreamsException: an output could not be sent; the thread stops without committing
    // (the default StreamsUncaughtExceptionHandler), so the next instance processes it again.
    proc.failedBefore = failed;
    proc.committing = null;
    proc.state = 'failed';
    proc.error = 'an output record could not be sent';
    emit(
      w,
      'ProcessorFailed',
      `${proc.id}: an output record to ${proc.outputTopic} failed (StreamsException), so it stops without committing; a restarted instance processes those inputs again.`,
      { processorId: proc.id, groupId: proc.groupId },
    );
    if (c && c.state !== 'stopped' && c.state !== 'crashed') stopConsumer(w, proc.consumerId, false);
    return;
  }
  // Every output is acknowledged: now the input offsets may be committed.
  const offsets = proc.committing;
  proc.committing = null;
  if (c && c.state !== 'stopped' && c.state !== 'crashed') commit(w, c, 'commit', offsets);
  committed(proc, offsets, w.nowMs);
  if (proc.state === 'stopping') return finishStop(w, proc);
  process(w, proc);
}

/** What the processor hears of its transactions (transactionManager.ts setTransactionListener). */
export function onProcessorTransaction(
  w: World,
  p: ProducerClient,
  what: 'ready' | 'ended' | 'abortable' | 'fatal',
  wasCommitted: boolean,
): void {
  const proc = w.processors?.get(p.processorId!);
  if (!proc || (proc.state !== 'running' && proc.state !== 'stopping')) return;
  if (what === 'abortable') {
    abortTransaction(w, p);
    return;
  }
  if (what === 'fatal') {
    // ProducerFencedException → TaskMigratedException: another instance took over this transactional.id.
    proc.state = 'fenced';
    proc.error = p.txn?.lastError ?? 'fenced';
    proc.committing = null;
    emit(
      w,
      'ProcessorFenced',
      `${proc.id} is fenced (${proc.error}): a newer instance with transactional.id ${p.txn?.transactionalId} took over, or the coordinator aborted its transaction. It closes; its outputs since the last commit were never committed.`,
      { processorId: proc.id, groupId: proc.groupId },
    );
    stopConsumer(w, proc.consumerId, true);
    return;
  }
  if (what === 'ended') {
    const offsets = proc.committing;
    proc.committing = null;
    proc.txnGroup = null;
    if (wasCommitted) committed(proc, offsets ?? [], w.nowMs);
    else {
      proc.counters.aborts++;
      rewind(w, proc, 'its transaction was aborted');
    }
    if (proc.state === 'stopping') return finishStop(w, proc);
  }
  process(w, proc);
}

function committed(proc: ProcessorState, offsets: CommittedOffset[], nowMs: number): void {
  proc.counters.commits++;
  proc.lastCommitMs = nowMs;
  for (const o of offsets) {
    const k = tpKey(o.topic, o.partition);
    if (proc.processedUpTo.get(k)?.offset === o.offset) proc.processedUpTo.delete(k);
  }
}

/**
 * After an abort (or a rebalance under exactly-once), the task is closed dirty and revived
 * (TaskManager.handleCorruption): the consumer seeks back to the group's committed offsets.
 */
function rewind(w: World, proc: ProcessorState, why: string): void {
  proc.buffer = [];
  proc.processedUpTo.clear();
  proc.counters.rewinds++;
  const c = w.consumers.get(proc.consumerId);
  if (!c || c.state === 'stopped' || c.state === 'crashed') return;
  for (const part of c.parts.values()) part.pending = 'offset';
  c.polled = [];
  emit(
    w,
    'ProcessorRewound',
    `${proc.id}: ${why}, so it seeks back to group ${proc.groupId}'s committed offsets and processes those records again; their earlier outputs are aborted, never seen by read_committed readers.`,
    { processorId: proc.id, groupId: proc.groupId },
  );
  tick(w, c);
}

/** Processes what the buffer holds, if the processor may (not while a commit or initTransactions runs). */
function process(w: World, proc: ProcessorState): void {
  if (proc.state !== 'running' && proc.state !== 'stopping') return;
  const c = w.consumers.get(proc.consumerId);
  const p = w.producers.get(proc.producerId);
  if (!c || !p) return;
  const eos = proc.guarantee === 'exactly_once_v2';
  if (rebalanced(w, proc, c) || proc.committing) return;
  if (eos) {
    const t = p.txn!;
    if (t.state === 'READY' && proc.buffer.length > 0) {
      beginTransaction(w, p);
      proc.txnGroup = { memberId: c.memberId, generation: c.generation };
    }
    if (t.state !== 'IN_TRANSACTION') return;
  }
  if (proc.buffer.length > 0) {
    for (const r of proc.buffer) {
      const entry = sendRecord(w, p, proc.outputTopic, r.key, transformValue(r.value));
      entry.sourceRecordId = r.recordId;
      noteProcessed(w, c, r);
      proc.processedUpTo.set(tpKey(r.topic, r.partition), {
        topic: r.topic,
        partition: r.partition,
        offset: r.offset + 1,
        leaderEpoch: -1,
      });
      proc.counters.processed++;
      proc.counters.outputs++;
    }
    proc.buffer = [];
    armDeliveryTimer(w, p);
    drain(w, p);
  }
  // A partition with nothing waiting is done up to the consumer's position (past any markers).
  for (const part of c.parts.values()) {
    if (part.pending || part.position < 0) continue;
    const k = tpKey(part.topic, part.partition);
    const done = proc.processedUpTo.get(k);
    if (done && done.offset < part.position)
      proc.processedUpTo.set(k, { ...done, offset: part.position, leaderEpoch: part.positionEpoch });
  }
}

/**
 * The consumer's generation moved on (a rebalance): what was polled under the old one is fetched
 * again from the committed offsets. Under exactly-once an open transaction is aborted (the task
 * migrated: TaskMigratedException); true when the processor must wait for that abort.
 */
function rebalanced(w: World, proc: ProcessorState, c: ConsumerClient): boolean {
  if (c.generation === proc.generation) return false;
  const first = proc.generation === -1 && proc.processedUpTo.size === 0 && proc.buffer.length === 0;
  proc.generation = c.generation;
  if (first) return false;
  proc.buffer = [];
  proc.processedUpTo.clear();
  const p = w.producers.get(proc.producerId);
  if (
    proc.guarantee === 'exactly_once_v2' &&
    p?.txn?.state === 'IN_TRANSACTION' &&
    proc.txnGroup &&
    !proc.committing
  ) {
    abortTransaction(w, p);
    drain(w, p);
    return true;
  }
  return false;
}

/** Commits what was processed (TaskManager.commit): at once under exactly-once, after the flush otherwise. */
function commitNow(w: World, proc: ProcessorState): void {
  if (proc.committing) return;
  const p = w.producers.get(proc.producerId);
  const c = w.consumers.get(proc.consumerId);
  if (!p || !c) return;
  const offsets = [...proc.processedUpTo.values()];
  if (proc.guarantee === 'at_least_once') {
    if (offsets.length === 0) return;
    proc.committing = offsets;
    onProcessorProducerProgress(w, p);
    return;
  }
  const t = p.txn!;
  if (t.state !== 'IN_TRANSACTION' || !proc.txnGroup) return;
  proc.committing = offsets;
  if (offsets.length) sendOffsetsToTransaction(w, p, { groupId: proc.groupId, ...proc.txnGroup }, offsets);
  commitTransaction(w, p);
  drain(w, p);
}
