// Lesson 11: Consumer groups, offsets and lag. One lesson a file; index.ts keeps the order.
import { acked } from '../predicates';
import { bootStep, produce, threeBrokers } from './steps';
import type { Lesson } from '../types';

export const consumers: Lesson = {
  id: 'consumer-groups',
  number: 11,
  title: 'Consumer groups, offsets and lag',
  summary:
    'Consumers in a group split the partitions; each commits its offsets, and lag is how far the committed offsets trail the high watermark.',
  concepts: [
    'consumer group',
    'rebalance',
    'partition assignment',
    'committed offset',
    'consumer lag',
    'group coordinator',
    'consumer group protocol (KIP-848)',
  ],
  scenario: threeBrokers([
    { name: 'orders', partitions: 4, replicationFactor: 3, config: { 'min.insync.replicas': 2 } },
  ]),
  steps: [
    bootStep('Topic "orders" has 4 partitions.', 'orders'),
    {
      id: 'data',
      title: 'Records to read',
      term: 'offset',
      text: "A producer writes 40 records without a key. The sticky partitioner (KIP-480) fills one batch for one partition, so here all 40 land in orders-2, at offsets 0 to 39: an offset is a record's position in its partition.",
      commands: [produce('shop', 'orders', 'order', { count: 40 })],
      until: ({ snapshot }) => acked(snapshot, 'shop') === 40,
      waitMs: 10_000,
    },
    {
      id: 'one',
      title: 'One consumer',
      term: 'consumer group',
      text: 'Consumer c1 joins the group "billing" and subscribes to "orders".',
      commands: [
        {
          type: 'startConsumer',
          consumerId: 'c1',
          groupId: 'billing',
          topics: ['orders'],
          config: { 'auto.offset.reset': 'earliest' },
        },
      ],
      predict: {
        question: 'Which partitions does c1 read?',
        choices: ['Partition 0 only', 'All four', 'None until a second consumer joins'],
        answer: 1,
        answerHolds: ({ snapshot }) =>
          snapshot.clients.consumers.find((c) => c.id === 'c1')?.assignment.length === 4,
        explanation: 'The group coordinator assigns every partition to some member: alone, c1 gets them all.',
      },
      until: ({ snapshot }) => snapshot.clients.consumers.find((c) => c.id === 'c1')?.state === 'stable',
    },
    {
      id: 'two',
      title: 'A second consumer joins',
      term: 'rebalance',
      text: 'Consumer c2 joins the same group.',
      commands: [
        {
          type: 'startConsumer',
          consumerId: 'c2',
          groupId: 'billing',
          topics: ['orders'],
          config: { 'auto.offset.reset': 'earliest' },
        },
      ],
      predict: {
        question: 'How are the 4 partitions shared now?',
        choices: ['c1 keeps all four', 'Two each, after a rebalance', 'Both read all four'],
        answer: 1,
        answerHolds: ({ snapshot }) =>
          ['c1', 'c2'].every(
            (id) => snapshot.clients.consumers.find((c) => c.id === id)?.assignment.length === 2,
          ),
        explanation:
          'Within a group each partition has exactly one reader; a rebalance shares them out as members come and go.',
      },
      until: ({ snapshot }) =>
        ['c1', 'c2'].every((id) => {
          const c = snapshot.clients.consumers.find((x) => x.id === id);
          return c?.state === 'stable' && c.assignment.length > 0;
        }),
    },
    {
      id: 'lag',
      title: 'Nobody reads: lag grows',
      term: 'consumer lag',
      text: 'Both consumers stop (committing their offsets); the producer writes 20 more records.',
      commands: [
        { type: 'stopConsumer', consumerId: 'c1' },
        { type: 'stopConsumer', consumerId: 'c2' },
        produce('shop', 'orders', 'order', { count: 20 }),
      ],
      predict: {
        question: "What is the group's lag once the 20 records are written?",
        choices: [
          '0: the group is empty',
          '20: the high watermarks moved, the committed offsets did not',
          '60',
        ],
        answer: 1,
        answerHolds: ({ snapshot }) =>
          snapshot.clients.groups.find((g) => g.groupId === 'billing')?.totalLag === 20,
        explanation:
          'Lag = high watermark − committed offset, per partition. It is what the group still has to read.',
      },
      until: ({ snapshot }) =>
        acked(snapshot, 'shop') === 60 &&
        (snapshot.clients.groups.find((g) => g.groupId === 'billing')?.totalLag ?? 0) >= 20,
    },
    {
      id: 'resume',
      title: 'Resume from the committed offsets',
      term: 'committed offset',
      text: 'Consumer c3 joins "billing".',
      commands: [{ type: 'startConsumer', consumerId: 'c3', groupId: 'billing', topics: ['orders'] }],
      predict: {
        question: 'Where does c3 start reading?',
        choices: [
          'At the beginning: all 60 records',
          'At the committed offsets: the 20 new records',
          'At the end: nothing',
        ],
        answer: 1,
        answerHolds: ({ snapshot }) =>
          snapshot.clients.consumers.find((c) => c.id === 'c3')?.recordsConsumed === 20,
        explanation:
          "The group's committed offsets survive its members: a new member continues where the group left off.",
      },
      until: ({ snapshot }) => snapshot.clients.groups.find((g) => g.groupId === 'billing')?.totalLag === 0,
    },
    {
      id: 'consumer-protocol',
      title: 'The other protocol: group.protocol=consumer',
      term: 'KIP-848',
      text: 'Group "audit" uses the consumer group protocol of KIP-848 (Kafka 4.0; classic stays the default): d1 and d2 send ConsumerGroupHeartbeat, and the broker, not a member, computes the assignment.',
      commands: ['d1', 'd2'].map((consumerId) => ({
        type: 'startConsumer' as const,
        consumerId,
        groupId: 'audit',
        topics: ['orders'],
        config: { 'group.protocol': 'consumer', 'auto.offset.reset': 'earliest' },
      })),
      until: ({ snapshot }) => {
        const g = snapshot.clients.groups.find((x) => x.groupId === 'audit');
        return g?.state === 'Stable' && g.members.length === 2;
      },
      reveal:
        'The group epoch went up once per member; each member reached it with its share of the target assignment.',
    },
    {
      id: 'incremental',
      title: 'A third member, without stopping the others',
      term: 'member epoch',
      text: 'd3 joins "audit" while the producer writes 20 more records.',
      commands: [
        {
          type: 'startConsumer',
          consumerId: 'd3',
          groupId: 'audit',
          topics: ['orders'],
          config: { 'group.protocol': 'consumer' },
        },
        produce('shop', 'orders', 'order', { count: 20 }),
      ],
      predict: {
        question: 'What do d1 and d2 do while d3 joins?',
        choices: [
          'All members stop and rejoin, as in "billing"',
          'Only the partitions that move are revoked by their owner, then assigned to d3; the rest are read throughout',
          'd3 reads the same partitions as d1 and d2',
        ],
        answer: 1,
        answerHolds: ({ events, start }) => {
          const now = events.filter((e) => e.timeMs >= start.timeMs && e.groupId === 'audit');
          const revoked = now.find((e) => e.type === 'MemberPartitionsRevoked');
          const assigned = now.find((e) => e.type === 'MemberPartitionsAssigned' && e.consumerId === 'd3');
          return (
            !now.some((e) => e.type === 'GroupRebalance') &&
            !!revoked &&
            !!assigned &&
            revoked.timeMs <= assigned.timeMs
          );
        },
        explanation:
          'With KIP-848 the coordinator bumps the group epoch, computes a new target assignment and reconciles each member on its own heartbeats: a partition is revoked by its owner before it is given to d3, and nobody stops for anyone else (no JoinGroup barrier).',
      },
      until: ({ snapshot }) => {
        const g = snapshot.clients.groups.find((x) => x.groupId === 'audit');
        return g?.state === 'Stable' && g.members.length === 3 && g.totalLag === 0;
      },
      waitMs: 90_000,
    },
  ],
};
