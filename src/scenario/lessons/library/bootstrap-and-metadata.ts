// Lesson 9: Bootstrap servers, metadata and NOT_LEADER_OR_FOLLOWER. One lesson a file; index.ts keeps the order.
import { acked, elapsed, metadataCaughtUp, nodeOf, partitionOf, producerOf } from '../predicates';
import { bootStep, onePartitionOn234, produce, threeBrokers } from './steps';
import type { Lesson } from '../types';

export const bootstrap: Lesson = {
  id: 'bootstrap-and-metadata',
  number: 9,
  title: 'Bootstrap servers, metadata and NOT_LEADER_OR_FOLLOWER',
  summary:
    'bootstrap.servers is only the first contact: the client asks one broker for metadata and then talks to each partition leader directly, refreshing when told it is wrong.',
  concepts: [
    'bootstrap.servers',
    'metadata request',
    'partition leader',
    'NOT_LEADER_OR_FOLLOWER',
    'preferred leader',
  ],
  scenario: threeBrokers([onePartitionOn234('t')]),
  steps: [
    bootStep('Partition t-0 has replicas 2, 3, 4; broker 2 leads.', 't'),
    {
      id: 'bootstrap',
      title: 'First contact',
      term: 'bootstrap.servers',
      text: 'A producer whose bootstrap.servers lists the brokers writes one record to t-0. It first asks one bootstrap broker for the cluster metadata.',
      commands: [produce('app', 't', 'hello', { partition: 0 })],
      predict: {
        question: 'Where does the record go?',
        choices: [
          'To the bootstrap broker, which forwards it to the leader',
          'To the leader, broker 2: the bootstrap broker only answered the metadata request',
          'To all bootstrap servers',
        ],
        answer: 1,
        answerHolds: ({ snapshot }) =>
          producerOf(snapshot, 'app')?.metadataFrom !== null &&
          partitionOf(snapshot, 't')!.leader === 2 &&
          acked(snapshot, 'app') === 1,
        explanation:
          'Only the leader accepts writes. Brokers do not forward: the client learns the leaders from metadata and connects to them directly.',
      },
      until: ({ snapshot }) => acked(snapshot, 'app') === 1,
      waitMs: 10_000,
    },
    {
      id: 'move',
      title: 'Leadership moves',
      term: 'controlled shutdown',
      text: 'Broker 2 is shut down for maintenance. In a controlled shutdown it hands its leaderships over before it stops.',
      commands: [{ type: 'shutdownNode', nodeId: 2 }],
      until: ({ snapshot }) =>
        partitionOf(snapshot, 't')!.leader !== 2 && nodeOf(snapshot, 2)?.state === 'stopped',
      waitMs: 30_000,
    },
    {
      id: 'back',
      title: 'Broker 2 returns',
      term: 'metadata',
      text: 'Broker 2 restarts and rejoins the ISR as a follower. The producer writes again and learns the current leader.',
      commands: [{ type: 'restartNode', nodeId: 2 }, produce('app', 't', 'again', { partition: 0 })],
      until: ({ snapshot }) => partitionOf(snapshot, 't')!.isr.includes(2) && acked(snapshot, 'app') === 2,
    },
    {
      id: 'preferred',
      title: 'Preferred leader election',
      term: 'preferred leader',
      text: 'An operator moves leadership back to broker 2, the preferred (first) replica. The producer has not noticed.',
      task: {
        text: 'Run a preferred leader election.',
        commands: [{ type: 'electLeaders', electionType: 'preferred' }],
      },
      until: (view) =>
        partitionOf(view.snapshot, 't')!.leader === 2 &&
        metadataCaughtUp(view.snapshot) &&
        elapsed(view) >= 1000,
      waitMs: 10_000,
    },
    {
      id: 'stale',
      title: 'A stale leader',
      term: 'NOT_LEADER_OR_FOLLOWER',
      text: 'The producer writes once more, using its cached metadata, which still names broker 3 as the leader.',
      commands: [produce('app', 't', 'third', { partition: 0 })],
      predict: {
        question: 'What happens to this write?',
        choices: [
          'It fails for good',
          'The old leader answers NOT_LEADER_OR_FOLLOWER; the producer retries on broker 2 and succeeds',
          'The old leader accepts it anyway',
        ],
        answer: 1,
        answerHolds: ({ snapshot, start }) =>
          (producerOf(snapshot, 'app')?.retries ?? 0) > (producerOf(start, 'app')?.retries ?? 0) &&
          acked(snapshot, 'app') === 3,
        explanation:
          'A broker that is not the leader refuses with NOT_LEADER_OR_FOLLOWER (and names the new leader, KIP-951). The producer updates its metadata and retries.',
      },
      until: ({ snapshot }) => acked(snapshot, 'app') === 3,
      waitMs: 60_000,
      reveal:
        "All of it took a few milliseconds, too fast to see: broker 3 refused with NOT_LEADER_OR_FOLLOWER and named broker 2, and broker 2 acknowledged the retry (acked 3 of 3 on the producer's card).",
    },
  ],
};
