// What the assignors share (assignors.ts, cooperativeStickyAssignor.ts, uniformAssignor.ts): the
// assignment's shape, Kafka's assignor failure, and the orders and hashes Kafka's collections use.

import type { TopicPartition } from '../model/messages';
import { tpKey } from '../model/metadata';
import { javaHashMapOrder, javaStringHashCode } from '../kernel/javaHash';

export type Assignment = Map<string, TopicPartition[]>;

/** Kafka's IllegalStateException from an assignor: the leader's poll() fails with it. */
export class AssignorError extends Error {}

export const key = (tp: TopicPartition) => tpKey(tp.topic, tp.partition);
export const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Members in member-id order (how the simulator lists an assignment). */
export function byMemberId<M extends { memberId: string }>(members: M[]): M[] {
  return [...members].sort((a, b) => byString(a.memberId, b.memberId));
}

/** TopicPartition.hashCode. */
export function topicPartitionHash(tp: TopicPartition): number {
  // org.apache.kafka.common.TopicPartition#hashCode
  const result = (31 + tp.partition) | 0;
  return (Math.imul(31, result) + javaStringHashCode(tp.topic)) | 0;
}

/** The order a `new HashMap<String, _>()` filled in `ids` order iterates its keys. */
export const hashOrder = (ids: string[]) => javaHashMapOrder(ids, javaStringHashCode);
