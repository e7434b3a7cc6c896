// Lesson 7: When every in-sync copy is gone. One lesson a file; index.ts keeps the order.
import { acked, brokerUp, elapsed, eventsSince, partitionOf } from '../predicates';
import { bootStep, onePartitionOn234, produce, threeBrokers } from './steps';
import type { Lesson } from '../types';

export const unclean: Lesson = {
  id: 'unclean-election',
  number: 7,
  title: 'When every in-sync copy is gone',
  summary:
    'With no ISR member left, Kafka waits (safe, unavailable) unless unclean.leader.election.enable lets an out-of-sync replica lead, losing acknowledged records.',
  concepts: [
    'unclean leader election',
    'unclean.leader.election.enable',
    'offline partition',
    'ELR',
    'data loss',
    'log truncation',
  ],
  scenario: threeBrokers(
    [onePartitionOn234('t', 1)],
    // Eligible leader replicas off, to show the classic dilemma first (see the last step).
    { 'eligible.leader.replicas.version': 0 },
  ),
  steps: [
    bootStep('Partition t-0 on brokers 2, 3, 4; min.insync.replicas=1 (a risky setting, on purpose).', 't'),
    {
      id: 'behind',
      title: 'Broker 4 falls out of sync',
      term: 'ISR',
      text: 'Broker 4 crashes. 9 s after its last heartbeat the controller fences it, and it leaves the ISR: ISR = {2, 3}.',
      commands: [{ type: 'crashNode', nodeId: 4 }],
      until: ({ snapshot }) => !partitionOf(snapshot, 't')!.isr.includes(4),
      waitMs: 20_000,
    },
    {
      id: 'write',
      title: 'An acknowledged record',
      term: 'acks=all',
      text: 'The producer writes "important" with acks=all; brokers 2 and 3 have it, broker 4 does not.',
      commands: [produce('app', 't', 'important')],
      until: ({ snapshot }) => acked(snapshot, 'app') === 1,
      waitMs: 10_000,
    },
    {
      id: 'last-isr',
      title: 'The in-sync copies die',
      term: 'ISR',
      text: 'Broker 3 crashes too. Broker 2, the leader, is now the only in-sync replica: ISR = {2}. Broker 4 is still down.',
      commands: [{ type: 'crashNode', nodeId: 3 }],
      until: ({ snapshot }) => partitionOf(snapshot, 't')!.isr.length === 1,
      waitMs: 20_000,
    },
    {
      id: 'wait',
      title: 'Wait, or lose data?',
      term: 'offline partition',
      text: 'Now broker 2, the last in-sync replica, crashes, and broker 4, the stale one, restarts. It never got "important". By default unclean.leader.election.enable=false.',
      commands: [
        { type: 'crashNode', nodeId: 2 },
        { type: 'restartNode', nodeId: 4 },
      ],
      predict: {
        question: 'What does the controller do with t-0?',
        choices: [
          'Makes broker 4 the leader at once',
          'Keeps t-0 offline, waiting for an in-sync replica to return',
          'Copies the record from a backup',
        ],
        answer: 1,
        answerHolds: ({ snapshot }) => partitionOf(snapshot, 't')!.leader === -1,
        explanation:
          'Kafka prefers consistency: a partition without an in-sync replica stays offline (no leader) rather than serve a copy that lacks acknowledged records.',
      },
      until: (view) => brokerUp(view.snapshot, 4) && elapsed(view) >= 15_000,
      waitMs: 30_000,
    },
    {
      id: 'unclean',
      title: 'Allow an unclean election',
      term: 'unclean.leader.election.enable',
      text: 'An operator, choosing availability over data, runs an unclean leader election (kafka-leader-election --election-type unclean).',
      task: {
        text: 'Run an unclean leader election for t-0.',
        commands: [
          { type: 'electLeaders', electionType: 'unclean', partitions: [{ topic: 't', partition: 0 }] },
        ],
      },
      predict: {
        question: 'Broker 4 becomes the leader. What happens to "important"?',
        choices: [
          'Nothing: it is safe',
          'It is lost: broker 4 never had it, and acknowledged data is gone',
          'Broker 4 fetches it from broker 2',
        ],
        answer: 1,
        answerHolds: (view) => eventsSince(view, 'AcknowledgedRecordsLost').length > 0,
        explanation:
          "Unclean election trades data for availability: the new leader's log is the truth, so acknowledged records it lacks are gone, and brokers 2 and 3 will truncate theirs to match. With eligible leader replicas (ELR, KIP-966, on in new Kafka 4 clusters) the controller remembers which replicas were safe to elect and waits for one of them instead.",
      },
      until: (view) => partitionOf(view.snapshot, 't')!.leader === 4 && elapsed(view) >= 2000,
      waitMs: 10_000,
    },
    {
      id: 'truncate',
      title: 'The old leader comes back',
      term: 'log truncation',
      text: 'Broker 2 restarts. Its log still holds "important" at offset 0, but the new leader, broker 4, has nothing there.',
      commands: [{ type: 'restartNode', nodeId: 2 }],
      predict: {
        question: 'What does broker 2 do with its copy of "important"?',
        choices: [
          'Sends it to broker 4, so the record comes back',
          'Truncates it: a follower makes its log match the leader (KIP-101/279)',
          'Keeps it, and the two logs stay different',
        ],
        answer: 1,
        answerHolds: (view) => eventsSince(view, 'LogTruncated').some((e) => e.nodeId === 2),
        explanation:
          'A follower asks the leader where their histories part (the diverging leader epoch) and truncates its log to that point. The leader is the truth, even after an unclean election: the record is gone for good.',
      },
      until: (view) => eventsSince(view, 'LogTruncated').some((e) => e.nodeId === 2),
      waitMs: 30_000,
    },
  ],
};
