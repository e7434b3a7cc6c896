// The lesson library: one lesson per concept of the course texts, each a short guided sequence on
// the real simulator, one lesson a file. lessons.test.ts plays every lesson headless to its end.
import { acksAndMinIsr } from './acks-and-min-isr';
import { addBroker } from './adding-a-broker';
import { bootstrap } from './bootstrap-and-metadata';
import { brokerDies } from './broker-failure';
import { consumers } from './consumer-groups';
import { deliveryGuarantees } from './delivery-guarantees';
import { dynamicConfig } from './dynamic-config';
import { isr } from './isr';
import { messageLifecycle } from './message-lifecycle';
import { quorum } from './kraft-quorum';
import { partitionsAndKeys } from './partitions-and-keys';
import { racks } from './racks-and-zones';
import { replication } from './replication';
import { twoRegions } from './two-regions';
import { unclean } from './unclean-election';
import type { Lesson } from '../types';

/** The lessons in the order a course takes them (each lesson's `number` is its place here). */
export const lessons: readonly Lesson[] = [
  partitionsAndKeys,
  replication,
  isr,
  acksAndMinIsr,
  brokerDies,
  quorum,
  unclean,
  racks,
  bootstrap,
  addBroker,
  consumers,
  dynamicConfig,
  twoRegions,
  messageLifecycle,
  deliveryGuarantees,
];

export function lessonById(id: string): Lesson | undefined {
  return lessons.find((l) => l.id === id);
}
