// Lesson 15: the three delivery guarantees on one scene: at most once (acks=0), at least once (a
// consumer that crashes after processing and before its commit), exactly once (Kafka's
// transactions, KIP-98, read with isolation.level=read_committed). One lesson a file; index.ts
// keeps the order.
import { acked, elapsed, eventsSince, partitionOf, producerOf } from '../predicates';
import { bootStep, produce, threeBrokers } from './steps';
import type { Snapshot } from '../..';
import type { Lesson } from '../types';

const consumerOf = (s: Snapshot, id: string) => s.clients.consumers.find((c) => c.id === id);

/** The records consumer `id` received, as `offset` numbers of `topic`-0 (its last ten). */
const offsetsRead = (s: Snapshot, id: string, topic: string): number[] =>
  (consumerOf(s, id)?.lastRecords ?? []).filter((r) => r.topic === topic).map((r) => r.offset);

const valuesRead = (s: Snapshot, id: string, topic: string): string[] =>
  (consumerOf(s, id)?.lastRecords ?? []).filter((r) => r.topic === topic).map((r) => r.value);

const consumed = (s: Snapshot, id: string): number => consumerOf(s, id)?.recordsConsumed ?? 0;

const committed = (s: Snapshot, groupId: string, topic: string): number =>
  s.clients.groups
    .find((g) => g.groupId === groupId)
    ?.offsets.find((o) => o.topic === topic && o.partition === 0)?.committed ?? -1;

const positionOf = (s: Snapshot, id: string, topic: string): number =>
  consumerOf(s, id)?.positions.find((p) => p.topic === topic && p.partition === 0)?.offset ?? -1;

const ready = (s: Snapshot, id: string): boolean => {
  const c = consumerOf(s, id);
  return c?.state === 'stable' && c.assignment.length > 0;
};

/** Every replica of `topic`-0 holds nothing. */
const emptyEverywhere = (s: Snapshot, topic: string): boolean =>
  (partitionOf(s, topic)?.replicaLogs ?? []).every((l) => l.logEndOffset === 0);

/** A consumer of group `groupId` that processes what it reads and commits only when told to. */
const manualConsumer = (consumerId: string, groupId: string) => ({
  type: 'startConsumer' as const,
  consumerId,
  groupId,
  topics: ['orders'],
  config: {
    'auto.offset.reset': 'earliest',
    'enable.auto.commit': false,
    // A crashed member leaves the group after this long without heartbeats (Kafka: 45 s).
    'session.timeout.ms': 10_000,
  },
});

/** A reader of `topic` (invoices unless named) with the given isolation.level. */
const reader = (
  consumerId: string,
  isolation: 'read_committed' | 'read_uncommitted',
  topic = 'invoices',
) => ({
  type: 'startConsumer' as const,
  consumerId,
  groupId: consumerId,
  topics: [topic],
  config: { 'auto.offset.reset': 'earliest', 'isolation.level': isolation },
});

const processorOf = (s: Snapshot) => s.clients.processors.find((p) => p.processorId === PROCESSOR);

/** Orders written to orders-0 (acknowledged), by the producers that send the processor's input. */
const ordersIn = (s: Snapshot): number => acked(s, 'shop') + acked(s, 'shop-load');

/** The consume-transform-produce application: orders in, one receipt per order out. */
const PROCESSOR = 'invoicer';
const startInvoicer = {
  type: 'startProcessor' as const,
  processorId: PROCESSOR,
  groupId: 'receipts-app',
  inputTopic: 'orders',
  outputTopic: 'receipts',
  processingGuarantee: 'exactly_once_v2' as const,
  commitIntervalMs: 2_000,
  // A restarted instance replaces the crashed member 10 s after the crash (Kafka: 45 s).
  config: { 'session.timeout.ms': 10_000 },
};

const onePartition = (name: string) => ({
  name,
  partitions: 1,
  replicationFactor: 3,
  assignment: [[2, 3, 4]],
  config: { 'min.insync.replicas': 2 },
});

export const deliveryGuarantees: Lesson = {
  id: 'delivery-guarantees',
  number: 15,
  title: 'Delivery guarantees',
  summary:
    'At most once loses records and never repeats them; at least once never loses them but may repeat them; exactly once, with a transactional producer and read_committed consumers, neither loses nor repeats.',
  concepts: [
    'at most once',
    'acks=0',
    'at least once',
    'committed offset',
    'exactly once',
    'transactional.id',
    'isolation.level',
    'read_committed',
    'last stable offset',
    'abortTransaction',
    'consume-transform-produce',
    'exactly_once_v2',
    'sendOffsetsToTransaction',
    'zombie fencing',
  ],
  scenario: threeBrokers([onePartition('orders'), onePartition('invoices'), onePartition('receipts')]),
  steps: [
    bootStep(
      'Topics orders and invoices, one partition each on brokers 2, 3 and 4 (broker 2 leads), replication factor 3, min.insync.replicas=2.',
      'orders',
    ),
    {
      id: 'fire-and-forget',
      title: 'At most once: acks=0',
      term: 'acks=0',
      text: 'The producer "fire" sends 10 records to orders with acks=0: it writes them to the socket and never waits for an answer. At that very moment broker 2, the leader of orders-0, crashes.',
      commands: [
        { type: 'startProducer', producerId: 'fire', topic: 'orders', ratePerSec: 0, acks: 0 },
        produce('fire', 'orders', 'fire', { count: 10, acks: 0 }),
        { type: 'crashNode', nodeId: 2 },
      ],
      predict: {
        question:
          'How many of the 10 records does orders hold afterwards, and what does the producer believe?',
        choices: [
          'All 10: the producer retries them on the new leader',
          'None, and the producer counts all 10 as sent: with acks=0 it never hears of the loss',
          'None, and the producer reports 10 errors to the application',
        ],
        answer: 1,
        answerHolds: ({ snapshot }) =>
          acked(snapshot, 'fire') === 10 &&
          Object.keys(producerOf(snapshot, 'fire')?.failed ?? {}).length === 0 &&
          emptyEverywhere(snapshot, 'orders'),
        explanation:
          'acks=0 is fire-and-forget: no acknowledgement, so no error and no retry. A record lost on the way (here, to a crashed leader) is lost without anyone knowing: at most once. acks=1 narrows the window, acks=all closes it.',
      },
      until: ({ snapshot }) => {
        const p = partitionOf(snapshot, 'orders');
        return acked(snapshot, 'fire') === 10 && p !== undefined && p.leader >= 0 && p.leader !== 2;
      },
      waitMs: 30_000,
      reveal:
        'A new leader took over orders-0: its log is empty. The 10 records are gone, and "fire" saw no error.',
    },
    {
      id: 'processed',
      title: 'At least once: process, then commit',
      term: 'at least once',
      text: 'Broker 2 restarts. "shop" sends 5 orders (acks=all). app-1, of group invoicing, reads and processes each one (it mails an invoice), and commits only when its code says so (enable.auto.commit=false).',
      commands: [
        { type: 'restartNode', nodeId: 2 },
        manualConsumer('app-1', 'invoicing'),
        produce('shop', 'orders', 'order', { count: 5 }),
      ],
      until: ({ snapshot }) => acked(snapshot, 'shop') === 5 && consumed(snapshot, 'app-1') === 5,
      waitMs: 30_000,
    },
    {
      id: 'commit-then-more',
      title: 'A commit, then more work',
      term: 'commitSync',
      text: 'app-1 commits: the group invoicing now restarts from offset 5. Then 5 more orders arrive, and app-1 processes them too; its next commit is not due yet.',
      commands: [
        { type: 'commitOffsets', consumerId: 'app-1' },
        produce('shop', 'orders', 'late', { count: 5 }),
      ],
      until: ({ snapshot }) =>
        committed(snapshot, 'invoicing', 'orders') === 5 && consumed(snapshot, 'app-1') === 10,
      waitMs: 20_000,
    },
    {
      id: 'redelivered',
      title: 'A crash before the commit',
      term: 'committed offset',
      text: 'app-1 crashes after processing offsets 5 to 9, before committing them. app-2 joins the group and gets orders-0 once the coordinator gives up on app-1 (session.timeout.ms, 10 s here).',
      commands: [
        { type: 'stopConsumer', consumerId: 'app-1', graceful: false },
        manualConsumer('app-2', 'invoicing'),
      ],
      predict: {
        question: 'Where does app-2 start reading orders-0?',
        choices: [
          'At offset 10: the broker knows app-1 processed up to there',
          'At offset 5, the committed offset: orders 5 to 9 are processed a second time',
          'At offset 0: a new member reads the partition from the start',
        ],
        answer: 1,
        answerHolds: ({ snapshot }) => offsetsRead(snapshot, 'app-2', 'orders')[0] === 5,
        explanation:
          "The group resumes from its committed offset, whatever its members did after it. Work done and not committed is done again: nothing is lost, but duplicates reach whatever app-1 wrote to (two invoices for the same order). That is at least once, Kafka consumers' default.",
      },
      until: ({ snapshot }) => consumed(snapshot, 'app-2') >= 5,
      waitMs: 60_000,
      reveal: 'app-2 read late-0 … late-4 again: app-1 had already processed them.',
    },
    {
      id: 'transactional',
      title: 'Exactly once: a transactional producer',
      term: 'transactional.id',
      text: 'The producer "tx" starts with transactional.id=billing: initTransactions() finds its transaction coordinator and gets a producer id and epoch. Two readers of invoices start: isolation.level=read_committed and read_uncommitted.',
      commands: [
        {
          type: 'startProducer',
          producerId: 'tx',
          topic: 'invoices',
          ratePerSec: 0,
          // Longer than Kafka's 60 s, so that a learner who thinks over the next question (the
          // clock running) does not see the coordinator abort the open transaction first.
          config: { 'transactional.id': 'billing', 'transaction.timeout.ms': 300_000 },
        },
        reader('committed-reader', 'read_committed'),
        reader('uncommitted-reader', 'read_uncommitted'),
      ],
      until: (view) =>
        eventsSince(view, 'TransactionsInitialized').length > 0 &&
        ready(view.snapshot, 'committed-reader') &&
        ready(view.snapshot, 'uncommitted-reader'),
      waitMs: 30_000,
    },
    {
      id: 'open',
      title: 'An open transaction',
      term: 'last stable offset',
      text: 'tx begins a transaction and writes 3 invoices. They are appended to invoices-0 and replicated, below the high watermark; the transaction is still open.',
      commands: [
        { type: 'beginTransaction', producerId: 'tx' },
        produce('tx', 'invoices', 'invoice', { count: 3 }),
      ],
      predict: {
        question: 'What do the two readers get of the 3 invoices while the transaction is open?',
        choices: [
          'Both get them: they are committed, below the high watermark',
          'read_uncommitted gets them; read_committed nothing yet: it stops at the last stable offset, which the open transaction holds back',
          "Neither: an open transaction's records are not in the log yet",
        ],
        answer: 1,
        answerHolds: ({ snapshot }) =>
          valuesRead(snapshot, 'uncommitted-reader', 'invoices').length === 3 &&
          consumed(snapshot, 'committed-reader') === 0,
        explanation:
          'The last stable offset (LSO) is the first offset of the oldest open transaction: read_committed consumers stop there, whatever the high watermark. Their lag grows while the transaction stays open.',
      },
      // A second more, for the read_committed reader to fetch (and get nothing) a few times.
      until: (view) =>
        acked(view.snapshot, 'tx') === 3 &&
        consumed(view.snapshot, 'uncommitted-reader') === 3 &&
        elapsed(view) >= 1_500,
      waitMs: 20_000,
    },
    {
      id: 'abort',
      title: 'The transaction aborts',
      term: 'abortTransaction',
      text: 'tx aborts the transaction. The coordinator writes PrepareAbort to __transaction_state, then an ABORT marker into invoices-0, at the next offset.',
      commands: [{ type: 'abortTransaction', producerId: 'tx' }],
      predict: {
        question: 'What does the read_committed reader get of the 3 aborted invoices?',
        choices: [
          'Nothing, ever: the ABORT marker tells it to skip them, and it moves past them and the marker',
          'The 3 invoices, once the marker is written',
          'An error for each aborted record',
        ],
        answer: 0,
        answerHolds: ({ snapshot }) =>
          consumed(snapshot, 'committed-reader') === 0 &&
          positionOf(snapshot, 'committed-reader', 'invoices') === 4,
        explanation:
          'Aborted records stay in the log (offsets 0 to 2) with the ABORT marker at offset 3; a read_committed consumer drops them using the aborted-transaction index and never returns the marker. The read_uncommitted reader had returned them already: what it did with them cannot be undone.',
      },
      until: (view) =>
        eventsSince(view, 'TransactionAborted').length > 0 &&
        positionOf(view.snapshot, 'committed-reader', 'invoices') === 4,
      waitMs: 20_000,
      reveal:
        'Offsets 0–2 aborted, 3 the ABORT marker: the read_committed reader is at offset 4 with nothing returned.',
    },
    {
      id: 'commit',
      title: 'The transaction commits',
      term: 'commitTransaction',
      text: 'tx begins another transaction, writes 3 invoices and commits: PrepareCommit in __transaction_state, a COMMIT marker in invoices-0, then CompleteCommit.',
      commands: [
        { type: 'beginTransaction', producerId: 'tx' },
        produce('tx', 'invoices', 'paid', { count: 3 }),
        { type: 'commitTransaction', producerId: 'tx' },
      ],
      until: ({ snapshot }) => valuesRead(snapshot, 'committed-reader', 'invoices').length === 3,
      waitMs: 20_000,
      reveal:
        'Once the COMMIT marker is replicated, the last stable offset passes it and the read_committed reader gets paid-0, paid-1 and paid-2, each once: all of a transaction or nothing.',
    },
    {
      id: 'processor',
      title: 'Consume, transform, produce',
      term: 'exactly_once_v2',
      text: 'The invoicer reads orders and writes one receipt per order to receipts. With exactly_once_v2 its receipts and its input offsets (sendOffsetsToTransaction) commit in one transaction every 2 s. Orders keep coming; two readers watch receipts.',
      commands: [
        startInvoicer,
        { type: 'startProducer', producerId: 'shop-load', topic: 'orders', ratePerSec: 10 },
        reader('auditor', 'read_committed', 'receipts'),
        reader('peeker', 'read_uncommitted', 'receipts'),
      ],
      // A transaction is open with receipts in receipts-0 (the read_uncommitted peeker has returned
      // some the read_committed auditor has not): the moment the next step's crash comes.
      until: ({ snapshot }) =>
        (processorOf(snapshot)?.commits ?? 0) >= 2 &&
        consumed(snapshot, 'peeker') >= consumed(snapshot, 'auditor') + 5,
      waitMs: 40_000,
      reveal:
        "Each commit writes the receipts and the group's new offsets together: COMMIT markers in receipts-0 and in __consumer_offsets. Right now a transaction is open, with receipts in it.",
    },
    {
      id: 'crash-mid-transaction',
      title: 'A crash in the middle of a transaction',
      term: 'zombie fencing',
      text: 'The invoicer crashes now, its receipts and offsets uncommitted; the orders stop. A new instance starts with the same transactional.id (receipts-app-invoicer) and resumes from the committed offsets.',
      commands: [
        { type: 'stopProcessor', processorId: PROCESSOR, graceful: false },
        { type: 'stopProducer', producerId: 'shop-load' },
        startInvoicer,
      ],
      predict: {
        question:
          'Once the new instance has caught up, what does the read_committed auditor find in receipts?',
        choices: [
          "Every order's receipt exactly once",
          "The receipts of the crashed transaction twice: the first instance's and the new one's",
          'No receipt for the orders of the crashed transaction',
        ],
        answer: 0,
        answerHolds: ({ snapshot }) => {
          const p = processorOf(snapshot)?.outputExactlyOnce;
          return (
            p !== undefined &&
            p.inputs === ordersIn(snapshot) &&
            p.exactlyOnce === p.inputs &&
            p.none === 0 &&
            p.duplicated === 0 &&
            consumed(snapshot, 'auditor') === p.inputs
          );
        },
        explanation:
          'initTransactions() by the new instance bumps the producer epoch: the crashed one is fenced (a zombie can no longer commit) and its open transaction is aborted, receipts and offsets together. The new instance reprocesses those orders from the committed offsets, in a transaction that commits. A read_committed reader never sees the aborted receipts: each order once.',
      },
      until: (view) => {
        const p = processorOf(view.snapshot);
        return (
          p !== undefined &&
          p.state === 'running' &&
          p.outputExactlyOnce.inputs === ordersIn(view.snapshot) &&
          p.outputExactlyOnce.exactlyOnce + p.outputExactlyOnce.duplicated === p.outputExactlyOnce.inputs &&
          consumed(view.snapshot, 'auditor') >= p.outputExactlyOnce.inputs
        );
      },
      waitMs: 90_000,
      reveal:
        "The auditor (read_committed) read one receipt per order. The peeker (read_uncommitted) also returned the receipts of the aborted transaction: compare the two readers' counts on the canvas. Those are the duplicates a read_uncommitted downstream would see.",
    },
  ],
};
