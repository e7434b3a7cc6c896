// Lesson 12: Dynamic configuration through the metadata log. One lesson a file; index.ts keeps the order.
import { eventsSince, metadataCaughtUp } from '../predicates';
import { bootStep, onePartitionOn234, threeBrokers } from './steps';
import type { Lesson } from '../types';

export const dynamicConfig: Lesson = {
  id: 'dynamic-config',
  number: 12,
  title: 'Dynamic configuration through the metadata log',
  summary:
    'A dynamic config change is a record in the @metadata log: the controller commits it and every broker applies it, with no restart.',
  concepts: [
    'dynamic configuration',
    'incrementalAlterConfigs',
    'static configuration',
    'ConfigRecord',
    '@metadata log',
  ],
  scenario: threeBrokers([onePartitionOn234('t', 1)]),
  steps: [
    bootStep(
      'Topic t runs with min.insync.replicas=1. Static settings (listeners, log.dirs) live in server.properties and need a restart; topic and many broker settings are dynamic.',
      't',
    ),
    {
      id: 'alter',
      title: 'Change a setting live',
      term: 'incrementalAlterConfigs',
      text: 'An operator sets min.insync.replicas=2 on t with kafka-configs (incrementalAlterConfigs).',
      task: {
        text: 'Set min.insync.replicas to 2 on topic t.',
        commands: [
          {
            type: 'alterConfig',
            resourceType: 'topic',
            resourceName: 't',
            configs: { 'min.insync.replicas': 2 },
          },
        ],
      },
      predict: {
        question: 'What does it take for the brokers to use the new value?',
        choices: [
          'A rolling restart of every broker',
          'Nothing more: the controller writes a ConfigRecord to the metadata log and each broker applies it',
          'Recreating the topic',
        ],
        answer: 1,
        answerHolds: (view) =>
          eventsSince(view, 'NodeRestarted').length === 0 &&
          view.snapshot.nodes.every((n) => n.state === 'running') &&
          // The ConfigRecord committed (the log's end also moves by a NoOpRecord twice a second).
          eventsSince(view, 'ConfigChanged').length > 0,
        explanation:
          'In KRaft, metadata — configs included — is a replicated log. Brokers follow it and apply each change in memory within milliseconds.',
      },
      until: (view) =>
        view.snapshot.topics.find((t) => t.name === 't')?.config['min.insync.replicas'] === 2 &&
        eventsSince(view, 'ConfigChanged').length > 0 &&
        metadataCaughtUp(view.snapshot),
      waitMs: 10_000,
    },
  ],
};
