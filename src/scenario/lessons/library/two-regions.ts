// Lesson 13: Two regions: mirroring is asynchronous. One lesson a file; index.ts keeps the order.
import { presets } from '../..';
import { bootStep } from './steps';
import type { Lesson } from '../types';

const mirroredRecords = (view: { snapshot: { mirror?: { lag: { mirrored: number }[] } } }) =>
  (view.snapshot.mirror?.lag ?? []).reduce((a, l) => a + l.mirrored, 0);

export const twoRegions: Lesson = {
  id: 'two-regions',
  number: 13,
  title: 'Two regions: mirroring is asynchronous',
  summary:
    'MirrorMaker 2 copies a topic to a standby cluster in another region after the primary acknowledged it: lose the primary region and the newest acknowledged records are missing in the standby.',
  concepts: ['MirrorMaker 2', 'standby cluster', 'asynchronous replication', 'failover', 'RPO'],
  scenario: presets['two-regions'].scenario,
  steps: [
    bootStep(
      'Two clusters, each with its own controllers: the primary in eu-west-1, a standby in eu-central-1, 60 ms away. producer-1 writes orders with acks=all to the primary.',
      'orders',
    ),
    {
      id: 'mirror',
      title: 'MirrorMaker copies, a moment later',
      term: 'MirrorMaker 2',
      text: 'Every 500 ms MirrorMaker reads what the primary committed and produces it to the same partition of orders in the standby. Open the Regions tab: the standby trails by a few records and a few hundred milliseconds.',
      until: (view) =>
        mirroredRecords(view) > 20 &&
        (view.snapshot.mirror?.lag ?? []).reduce((a, l) => a + l.lagRecords, 0) >= 3,
      waitMs: 30_000,
    },
    {
      id: 'lose-region',
      title: 'Lose the primary region',
      term: 'asynchronous replication',
      text: 'The whole of eu-west-1 goes dark: every primary node, and the link between the regions. Clients would now fail over to the standby.',
      task: {
        text: 'In the Regions tab, press Lose primary region.',
        commands: [{ type: 'loseRegion' }],
      },
      predict: {
        question:
          'producer-1 writes with acks=all. Does the standby hold every record the primary had acknowledged?',
        choices: [
          'Yes: acks=all waited for every copy',
          'No: the newest acknowledged records were not mirrored yet, and are missing in the standby',
          'No: the standby loses everything and must copy the topic again',
        ],
        answer: 1,
        answerHolds: (view) =>
          (view.snapshot.mirror?.failover?.missingCount ?? 0) > 0 && mirroredRecords(view) > 0,
        explanation:
          'acks=all counts the in-sync replicas of one cluster. MirrorMaker copies only what the primary already committed, so the standby always trails: the records of the last moments before the loss (the failover report lists them) are gone with the region. The recovery point objective (RPO) of asynchronous mirroring is not zero.',
      },
      until: (view) => !!view.snapshot.mirror?.regionLost && !!view.snapshot.mirror.failover,
      waitMs: 5_000,
    },
  ],
};
