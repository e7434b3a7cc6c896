// Lesson 8: Racks, zones and the one-host trap. One lesson a file; index.ts keeps the order.
import { allLed, eventsSince, lessonCluster, partitionOf, partitionsOf } from '../predicates';
import { bootStep } from './steps';
import type { Lesson } from '../types';

const HOST_X = [7, 8, 9];
export const racks: Lesson = {
  id: 'racks-and-zones',
  number: 8,
  title: 'Racks, zones and the one-host trap',
  summary:
    'broker.rack lets Kafka put each replica in a different zone, so a zone outage costs one copy; three brokers on one host die together.',
  concepts: ['broker.rack', 'rack awareness', 'availability zone', 'zone outage', 'single point of failure'],
  scenario: lessonCluster({
    controllers: [
      { id: 1, rack: 'zone-a' },
      { id: 2, rack: 'zone-b' },
      { id: 3, rack: 'zone-c' },
    ],
    brokers: [
      { id: 4, rack: 'zone-a' },
      { id: 5, rack: 'zone-b' },
      { id: 6, rack: 'zone-c' },
      // Three VMs on one physical host: one rack.
      { id: 7, rack: 'host-x' },
      { id: 8, rack: 'host-x' },
      { id: 9, rack: 'host-x' },
    ],
    topics: [
      { name: 'orders', partitions: 4, replicationFactor: 3, config: { 'min.insync.replicas': 2 } },
      {
        name: 'fragile',
        partitions: 1,
        replicationFactor: 3,
        assignment: [HOST_X],
        config: { 'min.insync.replicas': 2 },
      },
    ],
  }),
  steps: [
    bootStep(
      'Brokers 4, 5, 6 sit in zones a, b, c (broker.rack=zone-a ...). Brokers 7, 8, 9 are three VMs on one physical host, rack "host-x". Topic "orders" was placed by Kafka; topic "fragile" was put on 7, 8, 9 by hand.',
    ),
    {
      id: 'placement',
      title: 'Rack-aware placement',
      term: 'broker.rack',
      text: 'Look at the replicas of each "orders" partition and the rack of each broker.',
      predict: {
        question: 'How many replicas of one "orders" partition sit on host-x?',
        choices: [
          'At most one: Kafka puts each replica on a different rack',
          'Usually all three',
          'It depends on the seed',
        ],
        answer: 0,
        answerHolds: ({ snapshot }) =>
          partitionsOf(snapshot, 'orders').every(
            (p) => p.replicas.filter((r) => HOST_X.includes(r)).length <= 1,
          ),
        explanation:
          "With broker.rack set, the placer spreads a partition's replicas over distinct racks, never two in the same one while others are free.",
      },
      until: ({ snapshot }) => allLed(snapshot, 'orders'),
    },
    {
      id: 'zone-outage',
      title: 'Zone A goes dark',
      term: 'availability zone',
      text: 'A power cut takes out zone A: controller 1 and broker 4.',
      task: {
        text: 'Crash controller 1 and broker 4.',
        commands: [
          { type: 'crashNode', nodeId: 1 },
          { type: 'crashNode', nodeId: 4 },
        ],
      },
      predict: {
        question: 'Do all "orders" partitions stay available?',
        choices: [
          'Yes: every partition has copies in other zones, and 2 of 3 controllers still form a majority',
          'No, the partitions led in zone A go offline',
        ],
        answer: 0,
        answerHolds: ({ snapshot }) => allLed(snapshot, 'orders') && snapshot.quorum.leaderId !== null,
        explanation:
          'One copy per zone means one zone outage costs one copy per partition; leaders move to the survivors.',
      },
      until: (view) =>
        eventsSince(view, 'BrokerFenced', (e) => e.nodeId === 4).length > 0 &&
        allLed(view.snapshot, 'orders'),
      waitMs: 30_000,
    },
    {
      id: 'host-dies',
      title: 'The one host dies',
      term: 'single point of failure',
      text: 'The physical host under brokers 7, 8 and 9 fails: three brokers at once.',
      task: {
        text: 'Crash brokers 7, 8 and 9.',
        commands: HOST_X.map((nodeId) => ({ type: 'crashNode' as const, nodeId })),
      },
      predict: {
        question: 'What happens to the topic "fragile", whose three replicas are all on host-x?',
        choices: [
          'It survives: it has three replicas',
          'It goes offline: all three copies died together',
          'It moves to zone B',
        ],
        answer: 1,
        answerHolds: ({ snapshot }) => partitionOf(snapshot, 'fragile')!.leader === -1,
        explanation:
          'Three brokers on one host give the illusion of redundancy. Replicas must be on hardware that fails independently.',
      },
      until: (view) =>
        HOST_X.every((id) => eventsSince(view, 'BrokerFenced', (e) => e.nodeId === id).length > 0),
      waitMs: 30_000,
    },
  ],
};
