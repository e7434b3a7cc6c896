// Lesson 1: Brokers, topics, partitions and keys. One lesson a file; index.ts keeps the order.
import { acked, allLed, brokerUp, partitionsOf } from '../predicates';
import { bootStep, produce, threeBrokers } from './steps';
import type { Lesson } from '../types';

export const partitionsAndKeys: Lesson = {
  id: 'partitions-and-keys',
  number: 1,
  title: 'Brokers, topics, partitions and keys',
  summary:
    'A cluster shares the load of a topic by cutting it into partitions spread over the brokers; a key keeps related records together and in order.',
  concepts: ['broker', 'cluster', 'topic', 'partition', 'partition leader', 'record key', 'ordering'],
  scenario: threeBrokers([]),
  steps: [
    {
      ...bootStep(
        'Three brokers (2, 3 and 4) and one controller (1) form a cluster: to an application it looks like one big server. It has no topic yet.',
      ),
      until: ({ snapshot }) =>
        snapshot.quorum.leaderId !== null && [2, 3, 4].every((b) => brokerUp(snapshot, b)),
    },
    {
      id: 'spread',
      title: 'Partitions spread the load',
      term: 'partition',
      text: 'An operator creates the topic "orders" with 6 partitions (kafka-topics --create --partitions 6 --replication-factor 3). Each partition is an independent, ordered log with one leader broker that takes its writes; the controller decides where they go.',
      commands: [{ type: 'createTopic', name: 'orders', partitions: 6, replicationFactor: 3 }],
      predict: {
        question: 'How many partitions of "orders" does each broker lead?',
        choices: ['All 6 are led by broker 2', 'Two each', 'It changes with every write'],
        answer: 1,
        answerHolds: ({ snapshot }) =>
          [2, 3, 4].every((b) => partitionsOf(snapshot, 'orders').filter((p) => p.leader === b).length === 2),
        explanation:
          'Kafka spreads partition leaders evenly, so each broker serves about a third of the traffic: more brokers, more throughput.',
      },
      until: ({ snapshot }) => allLed(snapshot, 'orders'),
    },
    {
      id: 'same-key',
      title: 'A key picks the partition',
      term: 'record key',
      text: 'A producer sends three records with the key "customer-42". The default partitioner hashes the key (murmur2) to choose the partition.',
      commands: [produce('shop', 'orders', 'order', { key: 'customer-42', count: 3 })],
      predict: {
        question: 'Where do the three records with key "customer-42" go?',
        choices: [
          'One to each of three partitions, to share the load',
          'All three to the same partition, at offsets 0, 1 and 2 in the order sent',
          'To whichever broker answers first',
        ],
        answer: 1,
        answerHolds: ({ snapshot }) => partitionsOf(snapshot, 'orders').some((p) => p.highWatermark === 3),
        explanation:
          'The same key always hashes to the same partition, and a partition keeps its records in the order they were written: order holds per key.',
      },
      until: ({ snapshot }) => acked(snapshot, 'shop') === 3,
      waitMs: 10_000,
    },
    {
      id: 'other-key',
      title: 'Order only within a partition',
      term: 'ordering',
      text: 'One record of another customer, key "customer-7", hashes to another partition: here orders-1, while "customer-42" went to orders-3. Kafka orders records within a partition, never across partitions: that is the price of parallel speed.',
      commands: [produce('shop', 'orders', 'order', { key: 'customer-7' })],
      until: ({ snapshot }) => acked(snapshot, 'shop') === 4,
      waitMs: 10_000,
    },
  ],
};
