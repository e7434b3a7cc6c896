// Lesson 6: The KRaft controller quorum. One lesson a file; index.ts keeps the order.
import { lessonCluster, oneLeaderPerEpoch } from '../predicates';
import { bootStep } from './steps';
import type { Lesson } from '../types';

export const quorum: Lesson = {
  id: 'kraft-quorum',
  number: 6,
  title: 'The KRaft controller quorum',
  summary:
    'Controllers elect one active controller by majority vote; each term has an epoch, so an isolated old leader can never act beside a new one.',
  concepts: [
    'KRaft',
    'controller quorum',
    'active controller',
    'epoch',
    'majority',
    'split brain',
    '@metadata log',
  ],
  scenario: lessonCluster({
    controllers: [{ id: 1 }, { id: 2 }, { id: 3 }],
    brokers: [{ id: 4 }, { id: 5 }, { id: 6 }],
    topics: [{ name: 't', partitions: 3, replicationFactor: 3, config: { 'min.insync.replicas': 2 } }],
  }),
  steps: [
    bootStep(
      'Controllers 1, 2 and 3 form the quorum. They elected one active controller, which writes every metadata change to the replicated @metadata log.',
      't',
    ),
    {
      id: 'isolate',
      title: 'Cut the active controller off',
      term: 'controller failover',
      text: 'A network partition isolates the active controller: it still runs and still believes it leads, but it cannot reach the others. To them it is as good as crashed: after controller.quorum.fetch.timeout.ms without hearing from it, they hold an election.',
      task: {
        text: 'Partition the network so the active controller is alone.',
        commands: (s) => {
          const leader = s.quorum.leaderId!;
          return [
            {
              type: 'partitionNetwork',
              groups: [[leader], s.nodes.map((n) => n.id).filter((id) => id !== leader)],
            },
          ];
        },
      },
      predict: {
        question: 'Can two controllers act as leader of the same epoch?',
        choices: [
          'Yes, until the network heals',
          'No: the majority side elects a leader at a higher epoch; the isolated one can commit nothing',
          'No, because the isolated one shuts down',
        ],
        answer: 1,
        answerHolds: ({ snapshot, start }) =>
          oneLeaderPerEpoch(snapshot) && snapshot.quorum.epoch > start.quorum.epoch,
        explanation:
          'A leader needs a majority to commit. The isolated controller has only itself, so nothing it does counts; the higher epoch tells everyone which leader is current.',
      },
      until: ({ snapshot, start }) =>
        snapshot.quorum.leaderId !== null && snapshot.quorum.leaderId !== start.quorum.leaderId,
      waitMs: 20_000,
    },
    {
      id: 'heal',
      title: 'The stale leader steps down',
      term: 'epoch',
      text: 'The network heals. The old leader has heard from no majority for 3 s (1.5 × controller.quorum.fetch.timeout.ms), so it resigns; then it learns the higher epoch and follows the new leader.',
      task: { text: 'Heal the network.', commands: [{ type: 'healNetwork' }] },
      until: ({ snapshot }) =>
        snapshot.quorum.voters.filter((v) => v.state === 'leader').length === 1 &&
        snapshot.quorum.voters.every((v) => v.state === 'leader' || v.epoch === snapshot.quorum.epoch),
      waitMs: 20_000,
    },
    {
      id: 'failover',
      title: 'The active controller crashes',
      term: 'controller failover',
      text: 'Now the active controller dies outright. The other two controllers stop hearing from it.',
      task: {
        text: 'Crash the active controller.',
        commands: (s) => [{ type: 'crashNode', nodeId: s.quorum.leaderId! }],
      },
      predict: {
        question: 'What do the other controllers do?',
        choices: [
          'Nothing until it comes back',
          'They elect a new active controller at a higher epoch (2 of 3 is a majority)',
          'Each of them becomes active on its own',
        ],
        answer: 1,
        answerHolds: ({ snapshot, start }) =>
          snapshot.quorum.epoch > start.quorum.epoch &&
          snapshot.quorum.voters.filter((v) => v.state === 'leader').length === 1,
        explanation:
          'A majority (2 of 3) can elect a leader; the epoch counts the terms. A quorum of 3 tolerates one lost controller, a quorum of 5 two.',
      },
      until: ({ snapshot, start }) =>
        snapshot.quorum.leaderId !== null && snapshot.quorum.leaderId !== start.quorum.leaderId,
      waitMs: 20_000,
    },
    {
      id: 'rejoin',
      title: 'The old controller returns as a follower',
      term: 'epoch',
      text: 'The crashed controller restarts. It sees a higher epoch than its own and follows the new leader.',
      commands: (s) => {
        const down = s.nodes.find((n) => n.roles.includes('controller') && n.state === 'crashed');
        return down ? [{ type: 'restartNode', nodeId: down.id }] : [];
      },
      until: ({ snapshot }) =>
        snapshot.quorum.voters.every(
          (v) => v.state === 'leader' || (v.state === 'follower' && v.epoch === snapshot.quorum.epoch),
        ),
      waitMs: 20_000,
    },
  ],
};
