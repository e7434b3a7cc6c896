// Lesson 5: A broker dies. One lesson a file; index.ts keeps the order.
import { acked, eventsSince, lessonCluster, partitionOf, producerOf } from '../predicates';
import { bootStep, produce } from './steps';
import type { Lesson } from '../types';

export const brokerDies: Lesson = {
  id: 'broker-failure',
  number: 5,
  title: 'A broker dies',
  summary:
    'The controller notices missing heartbeats, fences the broker, elects new leaders from the ISR, and clients follow the new metadata.',
  concepts: [
    'heartbeat',
    'broker.session.timeout.ms',
    'fenced',
    'leader election',
    'leader epoch',
    'failover',
  ],
  scenario: lessonCluster({
    controllers: [{ id: 1 }, { id: 2 }, { id: 3 }],
    brokers: [{ id: 4 }, { id: 5 }, { id: 6 }],
    topics: [
      {
        name: 't',
        partitions: 3,
        replicationFactor: 3,
        assignment: [
          [4, 5, 6],
          [5, 6, 4],
          [6, 4, 5],
        ],
        config: { 'min.insync.replicas': 2 },
      },
    ],
  }),
  steps: [
    bootStep('Three controllers (1, 2, 3) and three brokers (4, 5, 6). Broker 4 leads partition t-0.', 't'),
    {
      id: 'warm',
      title: 'A producer at work',
      term: 'metadata',
      text: 'An application writes to t-0. It asked a broker for the cluster metadata and sends straight to the leader, broker 4.',
      commands: [produce('app', 't', 'before', { partition: 0 })],
      until: ({ snapshot }) => acked(snapshot, 'app') === 1,
      waitMs: 10_000,
    },
    {
      id: 'crash',
      title: 'Broker 4 crashes',
      term: 'heartbeat',
      text: 'Broker 4 loses power. Every broker sends a heartbeat to the active controller every 2 s (broker.heartbeat.interval.ms). The controller counts broker.session.timeout.ms (9 s) from the last heartbeat it received, so it acts 7 to 9 s after the crash.',
      task: { text: 'Crash broker 4.', commands: [{ type: 'crashNode', nodeId: 4 }] },
      predict: {
        question: 'When does the controller declare broker 4 dead (fenced)?',
        choices: [
          'At once',
          'When no heartbeat came for broker.session.timeout.ms (9 s since the last one)',
          'Only when an operator removes it',
        ],
        answer: 1,
        answerHolds: (view) => {
          const crashed = eventsSince(view, 'NodeCrashed', (e) => e.nodeId === 4)[0];
          const fenced = eventsSince(view, 'BrokerFenced', (e) => e.nodeId === 4)[0];
          if (!crashed || !fenced) return false;
          // broker.session.timeout.ms from the last heartbeat, which came at most one interval before the crash.
          const after = fenced.timeMs - crashed.timeMs;
          return after > 9000 - 2000 - 500 && after <= 9000 + 500;
        },
        explanation:
          "Heartbeats are the controller's only sign of life; after broker.session.timeout.ms without one, it fences the broker.",
      },
      until: (view) => eventsSince(view, 'BrokerFenced', (e) => e.nodeId === 4).length > 0,
      waitMs: 20_000,
    },
    {
      id: 'election',
      title: 'A new leader from the ISR',
      term: 'leader election',
      text: 'Fencing broker 4 took it out of every ISR, and in the same instant the controller chose a new leader for each partition broker 4 led and wrote the change to the metadata log: the ★ of t-0 is now on broker 5.',
      predict: {
        question: 'Why may broker 5 lead t-0 at once, without waiting for broker 4?',
        choices: [
          'Any running broker may lead any partition',
          'It is in the ISR, so it has every acknowledged record; the leader epoch goes up by one',
          'It had written the most records of the three',
        ],
        answer: 1,
        answerHolds: ({ snapshot }) => {
          const p = partitionOf(snapshot, 't')!;
          return [5, 6].includes(p.leader) && p.isr.includes(p.leader) && p.leaderEpoch > 0;
        },
        explanation:
          'Only an ISR member may lead, so the new leader has every acknowledged record. The leader epoch rises, so stale requests to the old leader are refused.',
      },
      until: ({ snapshot }) => [5, 6].includes(partitionOf(snapshot, 't')!.leader),
    },
    {
      id: 'redirect',
      title: 'Clients follow',
      term: 'metadata refresh',
      text: 'The producer writes to t-0 again. Its cached metadata still names broker 4.',
      commands: [produce('app', 't', 'after', { partition: 0 })],
      predict: {
        question: 'What happens to the write?',
        choices: [
          'It fails: broker 4 is gone',
          'The producer refreshes its metadata, sends to the new leader, and the write succeeds',
          "It is written to broker 4's disk for later",
        ],
        answer: 1,
        answerHolds: ({ snapshot }) =>
          acked(snapshot, 'app') === 2 && Object.keys(producerOf(snapshot, 'app')!.failed).length === 0,
        explanation:
          'The producer retries: it learns the new leader from fresh metadata and carries on. No acknowledged record is lost.',
      },
      until: ({ snapshot }) => acked(snapshot, 'app') === 2,
    },
    {
      id: 'return',
      title: 'Broker 4 returns',
      term: 'ISR',
      text: 'Broker 4 restarts, registers again, catches up as a follower and rejoins the ISR.',
      task: { text: 'Restart broker 4.', commands: [{ type: 'restartNode', nodeId: 4 }] },
      until: ({ snapshot }) => partitionOf(snapshot, 't')!.isr.includes(4),
    },
  ],
};
