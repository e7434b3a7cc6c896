// Lesson 14: a record's life, from send() to the consumer's commit. One lesson a file; index.ts
// keeps the order. The Partition log tab (src/panels/PartitionLogPanel.tsx) shows each stage as the
// record's journey; src/lessons/subject.ts opens it on orders-0 for the steps about it.
import { acked, elapsed, partitionOf, partitionsOf, producerOf } from '../predicates';
import { bootStep, produce, threeBrokers } from './steps';
import type { Snapshot } from '../..';
import type { Lesson } from '../types';

/** The producer's linger.ms here: long enough to see the batch wait. */
const LINGER_MS = 100;
/** One-way latency from brokers 3 and 4 to broker 2, the leader of orders-0. */
const FOLLOWER_DELAY_MS = 300;

const consumerOf = (s: Snapshot, id: string) => s.clients.consumers.find((c) => c.id === id);
const groupOf = (s: Snapshot, id: string) => s.clients.groups.find((g) => g.groupId === id);

/** The values group billing's member has received (its last ten). */
const read = (s: Snapshot): string[] => (consumerOf(s, 'billing-1')?.lastRecords ?? []).map((r) => r.value);

/** The committed offset of group billing on orders-0 (-1 before any). */
const committed = (s: Snapshot): number =>
  groupOf(s, 'billing')?.offsets.find((o) => o.topic === 'orders' && o.partition === 0)?.committed ?? -1;

const leaderLeo = (s: Snapshot): number => {
  const p = partitionOf(s, 'orders', 0);
  return p?.replicaLogs.find((l) => l.brokerId === p.leader)?.logEndOffset ?? -1;
};

/** "customer-42" hashes to orders-0 (murmur2 of the key, modulo 3 partitions): its leader is broker 2. */
const order = (value: string) => produce('shop', 'orders', value, { key: 'customer-42' });

export const messageLifecycle: Lesson = {
  id: 'message-lifecycle',
  number: 14,
  title: 'A record from send() to commit',
  summary:
    "One record's life: send() and the partition its key picks, the batch that waits for linger.ms, the produce request to the leader, the append at an offset in a leader epoch, the followers' fetches, the high watermark, the acknowledgement, the consumer's fetch and its offset commit.",
  concepts: [
    'send()',
    'default partitioner',
    'linger.ms',
    'record batch',
    'Produce request',
    'offset',
    'leader epoch',
    'high watermark',
    'acks=all',
    'Fetch',
    'committed offset',
    '__consumer_offsets',
  ],
  scenario: {
    ...threeBrokers([
      {
        name: 'orders',
        partitions: 3,
        replicationFactor: 3,
        assignment: [
          [2, 3, 4],
          [3, 4, 2],
          [4, 2, 3],
        ],
        config: { 'min.insync.replicas': 2 },
      },
    ]),
    // Messages from the followers of orders-0 to its leader take FOLLOWER_DELAY_MS: a Fetch that
    // brings a record back (and so moves the high watermark) arrives that much later.
    network: {
      latencyMs: 2,
      jitterMs: 1,
      links: [
        { from: 3, to: 2, latencyMs: FOLLOWER_DELAY_MS },
        { from: 4, to: 2, latencyMs: FOLLOWER_DELAY_MS },
      ],
    },
  },
  steps: [
    bootStep(
      `Topic orders: 3 partitions, replication factor 3. Broker 2 leads orders-0, broker 3 orders-1, broker 4 orders-2; each partition has the other two brokers as followers. Messages from brokers 3 and 4 to broker 2 take ${FOLLOWER_DELAY_MS} ms (a far zone), so each stage of a record of orders-0 can be seen.`,
      'orders',
    ),
    {
      id: 'clients',
      title: 'A producer and a consumer group',
      term: 'consumer group',
      text: `The application "shop" starts a producer (acks=all, linger.ms=${LINGER_MS}), and the consumer group "billing" starts one member, billing-1, subscribed to orders from the earliest offset. The group's coordinator assigns it all three partitions.`,
      commands: [
        {
          type: 'startProducer',
          producerId: 'shop',
          topic: 'orders',
          ratePerSec: 0,
          config: { 'linger.ms': LINGER_MS },
        },
        {
          type: 'startConsumer',
          consumerId: 'billing-1',
          groupId: 'billing',
          topics: ['orders'],
          config: { 'auto.offset.reset': 'earliest' },
        },
      ],
      until: ({ snapshot }) => {
        const c = consumerOf(snapshot, 'billing-1');
        return c?.state === 'stable' && c.assignment.length === 3;
      },
      waitMs: 30_000,
    },
    {
      id: 'send',
      title: 'send() and the partition',
      term: 'default partitioner',
      text: 'shop calls send() with one record: key "customer-42", value "order-1". send() returns at once; the producer first has to choose the record\'s partition.',
      commands: [order('order-1')],
      predict: {
        question: 'Which partition of orders does the record go to?',
        choices: [
          'The next partition in turn: the producer deals records out round-robin',
          'The one its key hashes to: murmur2("customer-42") modulo 3, the same partition for every record with this key',
          'The partition whose leader answers first',
        ],
        answer: 1,
        answerHolds: ({ snapshot }) =>
          partitionOf(snapshot, 'orders', 0)?.highWatermark === 1 &&
          partitionsOf(snapshot, 'orders').every((p) => p.partition === 0 || p.highWatermark === 0),
        explanation:
          'With a key, the default partitioner hashes it (murmur2) and takes it modulo the partition count: "customer-42" lands in orders-0, and so will every later record with that key, in order. Only records without a key are spread (sticky partitioner, KIP-480).',
      },
      until: ({ snapshot }) => acked(snapshot, 'shop') === 1,
      waitMs: 10_000,
      reveal: 'orders-0, offset 0: murmur2("customer-42") mod 3 = 0. Its leader is broker 2.',
    },
    {
      id: 'batch',
      title: 'The batch waits for linger.ms',
      term: 'linger.ms',
      text: `shop sends a second record with the same key, "order-2". The producer does not send each record alone: it adds it to the open batch of orders-0 in its accumulator.`,
      commands: [order('order-2')],
      predict: {
        question: 'When does the batch leave for broker 2, the leader of orders-0?',
        choices: [
          'At once: every send() is its own request',
          `When linger.ms (${LINGER_MS} ms) has passed since the batch's first record, or sooner if it fills batch.size (16384 bytes)`,
          'Once a second, with every record sent in that second',
        ],
        answer: 1,
        answerHolds: ({ snapshot }) => (producerOf(snapshot, 'shop')?.latencyP50Ms ?? 0) >= LINGER_MS,
        explanation: `The record accumulator keeps one open batch per partition. The sender thread sends it in a Produce request once linger.ms (${LINGER_MS} ms here; Kafka 4.0's default is 5 ms, KIP-1030) has passed or it is full: fewer, larger requests, for a little latency.`,
      },
      until: ({ snapshot }) => acked(snapshot, 'shop') === 2,
      waitMs: 10_000,
      reveal: `order-2 was acknowledged more than ${LINGER_MS} ms after send(): the batch waited for linger.ms before its Produce request left.`,
    },
    {
      id: 'journey',
      title: "The record's journey",
      term: 'leader epoch',
      text: "The Partition log tab is open on orders-0, one column per replica. Select order-1 (offset 0, broker 2) for its journey: the batch, the Produce request, the append in leader epoch 0, the followers' Fetch, the HW, the ack, billing's fetch.",
      until: (view) => elapsed(view) >= 2_000,
      waitMs: 10_000,
      reveal:
        "Each stage is a link: it seeks the timeline to that moment. The offset and the leader epoch (the leader's term) together name a record's place in the log; a new leader starts a new epoch.",
    },
    {
      id: 'followers',
      title: 'Appended, but not committed',
      term: 'high watermark',
      text: `shop sends "order-3" (acks=all). Broker 2 appends it at offset 2; the followers' Fetch that shows they have it takes ${FOLLOWER_DELAY_MS} ms to arrive.`,
      commands: [order('order-3')],
      predict: {
        question: 'Until that Fetch arrives, may billing read order-3, and is shop acknowledged?',
        choices: [
          'Both: the leader has it',
          'Neither: both wait for the high watermark to pass it',
          'billing may read it; the acknowledgement comes later',
        ],
        answer: 1,
        answerHolds: ({ snapshot }) =>
          acked(snapshot, 'shop') === 2 &&
          !read(snapshot).includes('order-3') &&
          (producerOf(snapshot, 'shop')?.pending ?? 0) === 1,
        explanation:
          'A consumer reads only below the high watermark: records every in-sync replica has (committed), which no clean leader election can take away. acks=all waits for the same moment. Here the log end offset (LEO) of broker 2 is 3 and its HW 2.',
      },
      until: ({ snapshot }) =>
        leaderLeo(snapshot) === 3 && partitionOf(snapshot, 'orders', 0)?.highWatermark === 2,
      waitMs: 10_000,
      reveal:
        'The clock is paused on the moment: in the Partition log, order-3 is ○ (above the HW ▔) at offset 2.',
    },
    {
      id: 'fetched',
      title: 'Committed, acknowledged, read',
      term: 'Fetch',
      text: "The followers' Fetch arrives: broker 2 moves the high watermark past order-3, answers shop's Produce request, and billing's next Fetch returns the record.",
      until: ({ snapshot }) => acked(snapshot, 'shop') === 3 && read(snapshot).includes('order-3'),
      waitMs: 10_000,
      reveal:
        "order-3's journey now reads: appended, copied by brokers 3 and 4, HW passed; then both the acknowledgement to shop and billing's fetch, each only after the HW.",
    },
    {
      id: 'commit',
      title: 'The offset commit',
      term: 'committed offset',
      text: 'billing-1 has read offsets 0, 1 and 2 of orders-0. It commits its progress to its group coordinator every auto.commit.interval.ms (5 s), so that a member taking over knows where to start.',
      predict: {
        question: 'Which offset does group billing commit for orders-0?',
        choices: [
          '2: the last record it read',
          '3: the next record it will read',
          'None: Kafka deletes records once they are read',
        ],
        answer: 1,
        answerHolds: ({ snapshot }) => committed(snapshot) === 3,
        explanation:
          'A committed offset is the position of the next record to read, stored as a record in __consumer_offsets (the partition of abs(hash("billing")) % 50, replicated like any other). Records stay in orders until retention deletes them; other groups read them independently.',
      },
      until: ({ snapshot }) => committed(snapshot) === 3,
      waitMs: 15_000,
      reveal:
        'The journey of order-3 ends with the commit that covers it. From send() to commit: partition, batch, request, append, replication, HW, ack, fetch, commit.',
    },
  ],
};
