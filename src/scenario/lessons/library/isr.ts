// Lesson 3: The in-sync replicas (ISR). One lesson a file; index.ts keeps the order.
import { eventsSince, partitionOf } from '../predicates';
import { bootStep, onePartitionOn234, produce, threeBrokers } from './steps';
import type { Lesson } from '../types';

export const isr: Lesson = {
  id: 'isr',
  number: 3,
  title: 'The in-sync replicas (ISR)',
  summary:
    'A follower that stops fetching for longer than replica.lag.time.max.ms drops out of the ISR, and returns once it has caught up.',
  concepts: ['ISR', 'in-sync replica', 'replica.lag.time.max.ms', 'IsrShrunk', 'IsrExpanded'],
  scenario: threeBrokers([onePartitionOn234('t')]),
  steps: [
    bootStep(
      'Partition t-0 has replicas 2, 3, 4; broker 2 leads. All three are in sync: ISR = {2, 3, 4}.',
      't',
    ),
    {
      id: 'slow-follower',
      title: 'A follower falls behind',
      term: 'replica.lag.time.max.ms',
      text: "Broker 4's fetch requests can no longer reach the leader (the link 4 → 2 is cut one way). Broker 4 is alive and still heartbeats to the controller, but it copies nothing. A producer writes 5 records, which broker 4 never gets.",
      task: {
        text: 'Cut the link from broker 4 to broker 2, one way.',
        commands: [{ type: 'cutLink', from: 4, to: 2, oneWay: true }],
      },
      // A follower whose log ends where the leader's does is caught up by definition: new records make 4 fall behind.
      commands: [produce('app', 't', 'tick', { count: 5, acks: 1 })],
      predict: {
        question: 'When does broker 4 leave the ISR?',
        choices: [
          'At once, at its first failed fetch',
          'After replica.lag.time.max.ms (30 s) without catching up',
          'Never: it is still alive',
        ],
        answer: 1,
        answerHolds: (view) => {
          const cut =
            eventsSince(view, 'LinkCut', (e) => e.from === 4)[0] ??
            eventsSince(view, 'NetworkPartitioned')[0];
          const shrunk = eventsSince(view, 'IsrShrunk', (e) => e.topic === 't')[0];
          return cut !== undefined && shrunk !== undefined && shrunk.timeMs - cut.timeMs >= 25_000;
        },
        explanation:
          'The leader removes a follower that has not caught up for replica.lag.time.max.ms (30 s by default): a short hiccup does not shrink the ISR.',
      },
      until: ({ snapshot }) => !partitionOf(snapshot, 't')!.isr.includes(4),
      reveal:
        'ISR = {2, 3}: only in-sync replicas can become leader, so broker 4 could not be elected now. The leader checks its followers every 15 s (half of replica.lag.time.max.ms): here the shrink came about 41 s after the cut.',
    },
    {
      id: 'return',
      title: 'It returns',
      term: 'IsrExpanded',
      text: "The link is healed. Broker 4 fetches again, reaches the leader's log end, and the leader adds it back to the ISR.",
      task: { text: 'Heal the network.', commands: [{ type: 'healNetwork' }] },
      until: ({ snapshot }) => partitionOf(snapshot, 't')!.isr.includes(4),
    },
  ],
};
