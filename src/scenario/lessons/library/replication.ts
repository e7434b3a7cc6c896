// Lesson 2: Replication, leaders and followers. One lesson a file; index.ts keeps the order.
import { acked, partitionOf } from '../predicates';
import { bootStep, onePartitionOn234, produce, threeBrokers } from './steps';
import type { Lesson } from '../types';

export const replication: Lesson = {
  id: 'replication',
  number: 2,
  title: 'Replication, leaders and followers',
  summary:
    'The replication factor is the number of copies of each partition; the leader takes the writes and followers fetch them.',
  concepts: ['replication', 'replication factor', 'replica', 'leader', 'follower', 'fetch', 'LEO'],
  scenario: threeBrokers([onePartitionOn234('payments')]),
  steps: [
    bootStep(
      'The topic "payments" has one partition with replication factor 3: three copies, on brokers 2, 3 and 4, never two on the same broker.',
      'payments',
    ),
    {
      id: 'copies',
      title: 'Every write is copied',
      term: 'replication factor',
      text: 'A producer writes 5 records with acks=all. Broker 2 is the leader: it appends them to its log, and the followers 3 and 4 fetch them.',
      commands: [produce('bank', 'payments', 'payment', { count: 5 })],
      predict: {
        question: 'Once the writes are acknowledged, how many brokers hold the 5 records?',
        choices: ['Only the leader, broker 2', 'Two of them', 'All three replicas'],
        answer: 2,
        answerHolds: ({ snapshot }) =>
          partitionOf(snapshot, 'payments')!.replicaLogs.filter((r) => r.logEndOffset === 5).length === 3,
        explanation:
          'With replication factor 3, each record lives on three brokers: one broker can die and the data stays.',
      },
      until: ({ snapshot }) =>
        acked(snapshot, 'bank') === 5 &&
        partitionOf(snapshot, 'payments')!.replicaLogs.every((r) => r.logEndOffset === 5),
      waitMs: 10_000,
    },
    {
      id: 'follower-down',
      title: 'Followers copy by fetching',
      term: 'follower',
      text: 'Broker 4 crashes, and 3 more records are sent with acks=all. The leader appends them at once, but acknowledges them only when the controller has fenced broker 4 (9 s after its last heartbeat) and the ISR has shrunk to {2, 3}.',
      commands: [{ type: 'crashNode', nodeId: 4 }, produce('bank', 'payments', 'payment', { count: 3 })],
      predict: {
        question: "What happens to broker 4's copy (its log end offset, LEO) while it is down?",
        choices: [
          'It stays at 5: a follower only has what it fetched',
          'It reaches 8 as well',
          'It is deleted',
        ],
        answer: 0,
        answerHolds: ({ snapshot }) =>
          partitionOf(snapshot, 'payments')!.replicaLogs.find((r) => r.brokerId === 4)?.logEndOffset === 5,
        explanation: 'Followers pull: a crashed follower fetches nothing, so its log ends where it stopped.',
      },
      until: ({ snapshot }) => acked(snapshot, 'bank') === 8,
    },
    {
      id: 'catch-up',
      title: 'A returning follower catches up',
      term: 'log end offset (LEO)',
      text: 'Broker 4 restarts, fetches what it missed from the leader and is an equal copy again.',
      commands: [{ type: 'restartNode', nodeId: 4 }],
      until: ({ snapshot }) =>
        partitionOf(snapshot, 'payments')!.replicaLogs.find((r) => r.brokerId === 4)?.logEndOffset === 8 &&
        partitionOf(snapshot, 'payments')!.isr.includes(4),
    },
  ],
};
