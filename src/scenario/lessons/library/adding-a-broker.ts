// Lesson 10: Adding a broker. One lesson a file; index.ts keeps the order.
import { acked, brokerUp, elapsed, partitionOf } from '../predicates';
import { bootStep, produce, threeBrokers } from './steps';
import type { Lesson } from '../types';

export const addBroker: Lesson = {
  id: 'adding-a-broker',
  number: 10,
  title: 'Adding a broker',
  summary:
    'A new broker joins empty. Only a partition reassignment moves replicas onto it and makes it share the load.',
  concepts: ['horizontal scaling', 'addNode', 'partition reassignment', 'kafka-reassign-partitions'],
  scenario: threeBrokers([
    { name: 'orders', partitions: 3, replicationFactor: 3, config: { 'min.insync.replicas': 2 } },
  ]),
  steps: [
    bootStep('Three brokers hold every replica of "orders".', 'orders'),
    {
      id: 'data',
      title: 'Some data',
      term: 'partition',
      text: 'A producer writes 30 records, 10 to each of the 3 partitions.',
      commands: [0, 1, 2].map((partition) => produce('shop', 'orders', 'order', { partition, count: 10 })),
      until: ({ snapshot }) => acked(snapshot, 'shop') === 30,
      waitMs: 10_000,
    },
    {
      id: 'join',
      title: 'Broker 5 joins',
      term: 'horizontal scaling',
      text: 'A fourth broker, 5, is started. It registers with the controller.',
      task: { text: 'Add broker 5.', commands: [{ type: 'addNode', nodeId: 5, roles: ['broker'] }] },
      predict: {
        question: 'Does broker 5 take over some partitions of "orders" on its own?',
        choices: ['Yes, Kafka rebalances at once', 'No: it joins empty', 'Only the leaders move'],
        answer: 1,
        answerHolds: ({ snapshot }) => snapshot.partitions.every((p) => !p.replicas.includes(5)),
        explanation:
          'Existing partitions stay where they are; only new topics may be placed on the new broker.',
      },
      until: (view) => brokerUp(view.snapshot, 5) && elapsed(view) >= 3000,
      waitMs: 20_000,
    },
    {
      id: 'reassign',
      title: 'Move a partition',
      term: 'partition reassignment',
      text: 'The operator reassigns orders-0 to replicas 5, 3, 4. Broker 5 is added as a replica, copies the 10 records of orders-0 from the leader, joins the ISR; then broker 2, the replica left out, drops its copy.',
      task: {
        text: 'Reassign orders-0 to brokers 5, 3, 4.',
        commands: [
          {
            type: 'reassignPartitions',
            partitions: [{ topic: 'orders', partition: 0, replicas: [5, 3, 4] }],
          },
        ],
      },
      until: ({ snapshot }) => {
        const p = partitionOf(snapshot, 'orders')!;
        return p.replicas.join() === '5,3,4' && p.isr.includes(5);
      },
    },
  ],
};
