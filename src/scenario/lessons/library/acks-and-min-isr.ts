// Lesson 4: acks and min.insync.replicas. One lesson a file; index.ts keeps the order.
import { acked, elapsed, eventsSince, metadataCaughtUp, partitionOf, producerOf } from '../predicates';
import { bootStep, onePartitionOn234, produce, threeBrokers } from './steps';
import type { Lesson } from '../types';

export const acksAndMinIsr: Lesson = {
  id: 'acks-and-min-isr',
  number: 4,
  title: 'acks and min.insync.replicas',
  summary:
    'acks is the dial between speed and safety; min.insync.replicas sets how many in-sync copies acks=all needs. Setting it equal to the replication factor removes all failure tolerance.',
  concepts: ['acks', 'acks=0', 'acks=1', 'acks=all', 'min.insync.replicas', 'NOT_ENOUGH_REPLICAS'],
  scenario: {
    ...threeBrokers([onePartitionOn234('t')]),
    // The followers are in another region, 150 ms from the leader: acks=all pays that distance.
    network: {
      latencyMs: 2,
      jitterMs: 1,
      links: [
        { from: 2, to: 3, latencyMs: 150 },
        { from: 3, to: 2, latencyMs: 150 },
        { from: 2, to: 4, latencyMs: 150 },
        { from: 4, to: 2, latencyMs: 150 },
      ],
    },
  },
  steps: [
    bootStep(
      'Topic t: replication factor 3, min.insync.replicas=2. Broker 2 leads partition t-0; its followers 3 and 4 are 150 ms away.',
      't',
    ),
    {
      id: 'dial',
      title: 'The dial between speed and safety',
      term: 'acks',
      text: 'Two producers send 20 records each: "fast" with acks=1 (the leader alone confirms), "safe" with acks=all (every in-sync replica has the record).',
      commands: [
        produce('fast', 't', 'fast', { count: 20, acks: 1 }),
        produce('safe', 't', 'safe', { count: 20 }),
      ],
      predict: {
        question: 'Which producer gets its acknowledgements sooner?',
        choices: ['acks=1', 'acks=all', 'Both at the same time'],
        answer: 0,
        answerHolds: ({ snapshot }) => {
          const fast = producerOf(snapshot, 'fast')?.latencyP50Ms;
          const safe = producerOf(snapshot, 'safe')?.latencyP50Ms;
          return fast != null && safe != null ? fast < safe : acked(snapshot, 'safe') < 20;
        },
        explanation:
          'acks=1 answers once the leader has written; acks=all waits for the followers to fetch. Speed costs safety: an acks=1 record can be lost if the leader dies before anyone copied it.',
      },
      until: ({ snapshot }) => acked(snapshot, 'fast') === 20,
      waitMs: 10_000,
      reveal: 'acks=1 is done while acks=all still waits for the followers to fetch.',
    },
    {
      id: 'safe-done',
      title: 'acks=all, a little later',
      term: 'acks=all',
      text: 'The acks=all records are acknowledged once both followers have fetched them: every in-sync replica has a copy.',
      until: ({ snapshot }) => acked(snapshot, 'safe') === 20,
      waitMs: 10_000,
    },
    {
      id: 'one-down',
      title: 'One broker down',
      term: 'min.insync.replicas',
      text: 'Broker 4 crashes, and the "safe" producer sends again with acks=all.',
      commands: [{ type: 'crashNode', nodeId: 4 }, produce('safe', 't', 'safe')],
      predict: {
        question: 'With one broker of three down and min.insync.replicas=2, does the acks=all write succeed?',
        choices: [
          'No: acks=all needs all three replicas',
          'Yes: once broker 4 leaves the ISR, the two left are enough',
          'Yes, but the record is kept on the leader only',
        ],
        answer: 1,
        answerHolds: ({ snapshot }) =>
          acked(snapshot, 'safe') === 21 && partitionOf(snapshot, 't')!.isr.length === 2,
        explanation:
          'acks=all means "every replica in the ISR". The ISR shrinks to {2, 3} once broker 4 is fenced, and two copies meet min.insync.replicas=2.',
      },
      until: ({ snapshot }) => acked(snapshot, 'safe') === 21,
      waitMs: 90_000,
    },
    {
      id: 'strict',
      title: 'The anti-pattern: min.insync.replicas = replication factor',
      term: 'min.insync.replicas',
      text: 'An operator sets min.insync.replicas=3 on t "for maximum safety", while broker 4 is still down.',
      task: {
        text: 'Set min.insync.replicas to 3 on topic t.',
        commands: [
          {
            type: 'alterConfig',
            resourceType: 'topic',
            resourceName: 't',
            configs: { 'min.insync.replicas': 3 },
          },
        ],
      },
      until: (view) =>
        view.snapshot.topics.find((t) => t.name === 't')?.config['min.insync.replicas'] === 3 &&
        metadataCaughtUp(view.snapshot) &&
        elapsed(view) >= 1000,
    },
    {
      id: 'rejected',
      title: 'Writes refused',
      term: 'NOT_ENOUGH_REPLICAS',
      text: 'The "safe" producer sends one more record with acks=all.',
      commands: [produce('safe', 't', 'safe')],
      predict: {
        question: 'What does the acks=all write get now?',
        choices: [
          'It succeeds on the two brokers left',
          'NOT_ENOUGH_REPLICAS, until a third replica is in sync',
          'It waits forever',
        ],
        answer: 1,
        answerHolds: (view) =>
          eventsSince(view, 'ProduceFailed', (e) => e.error === 'NOT_ENOUGH_REPLICAS').length > 0 ||
          (producerOf(view.snapshot, 'safe')?.retries ?? 0) > (producerOf(view.start, 'safe')?.retries ?? 0),
        explanation:
          'With min.insync.replicas equal to the replication factor, losing any one broker stops every acks=all write: no failure tolerance at all. Use min.insync.replicas = replication factor − 1.',
      },
      until: (view) =>
        (producerOf(view.snapshot, 'safe')?.retries ?? 0) > (producerOf(view.start, 'safe')?.retries ?? 0) ||
        eventsSince(view, 'ProduceFailed').length > 0,
      waitMs: 150_000,
    },
  ],
};
