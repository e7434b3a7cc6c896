// Step helpers shared by the lessons: the boot step, a produce command, and the small clusters
// most lessons start from.
import { allLed, lessonCluster } from '../predicates';
import type { Command } from '../..';
import type { LessonStep } from '../types';

/** The first step of a lesson: the quorum has a leader and every partition (of `topic`) a leader. */
export const bootStep = (text: string, topic?: string): LessonStep => ({
  id: 'boot',
  title: 'The cluster starts',
  term: 'KRaft cluster',
  text,
  until: ({ snapshot }) => snapshot.quorum.leaderId !== null && allLed(snapshot, topic),
  waitMs: 20_000,
});

type Produce = Extract<Command, { type: 'produce' }>;

/** A produce command: records of `value` from `producerId`, acks=all and no key unless `more` says otherwise. */
export const produce = (
  producerId: string,
  topic: string,
  value: string,
  more: Partial<Pick<Produce, 'key' | 'partition' | 'count' | 'acks'>> = {},
): Produce => ({ type: 'produce', topic, key: null, value, acks: 'all', producerId, ...more });

/** One partition on brokers 2, 3 and 4 (2 leads), replication factor 3. */
export const onePartitionOn234 = (name: string, minInsyncReplicas = 2) => ({
  name,
  partitions: 1,
  replicationFactor: 3,
  assignment: [[2, 3, 4]],
  config: { 'min.insync.replicas': minInsyncReplicas },
});

/** One controller (1) and three brokers (2, 3, 4). */
export const threeBrokers = (topics: Parameters<typeof lessonCluster>[0]['topics'], config = {}) =>
  lessonCluster({
    controllers: [{ id: 1 }],
    brokers: [{ id: 2 }, { id: 3 }, { id: 4 }],
    config,
    topics,
  });
