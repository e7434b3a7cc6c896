// The __consumer_offsets topic: which of its partitions holds a group (abs(hash(groupId)) % N, so
// its leader is the group's coordinator), and its creation on first use
// (offsets.topic.num.partitions, offsets.topic.replication.factor).

import { activeController } from '../kraft/quorumController';
import { createTopic } from '../kraft/replicationControl';
import { javaStringHashCode } from '../kernel/javaHash';
import { emit } from '../kernel/kernel';
import { tpKey } from '../model/metadata';
import { coordinatorMem } from '../model/coordinatorMem';
import type { SimNode, World } from '../model/world';

export const OFFSETS_TOPIC = '__consumer_offsets';

/** offsets.commit.timeout.ms (GroupCoordinatorConfig default). */
export const OFFSETS_COMMIT_TIMEOUT_MS = 5000;

/** GroupCoordinator.partitionFor: Utils.abs(groupId.hashCode) % offsets.topic.num.partitions. */
export function offsetsPartitionFor(groupId: string, numPartitions: number): number {
  const h = javaStringHashCode(groupId);
  return (h === -2147483648 ? 0 : Math.abs(h)) % numPartitions;
}

/** The partition count of __consumer_offsets as a broker sees it (the config until it exists). */
export function offsetsPartitionCount(w: World, node: SimNode | null): number {
  const t = node?.raft?.image.topics.get(OFFSETS_TOPIC);
  return t ? t.partitions : Number(w.config['offsets.topic.num.partitions']);
}

/** The __consumer_offsets partition ("topic-partition") that holds the group, as this broker sees the topic. */
export function groupTp(w: World, node: SimNode, groupId: string): string {
  return tpKey(OFFSETS_TOPIC, offsetsPartitionFor(groupId, offsetsPartitionCount(w, node)));
}

export function maybeCreateOffsetsTopic(w: World, node: SimNode): void {
  const ctl = activeController(w);
  if (!ctl || ctl.controller!.work!.topics.has(OFFSETS_TOPIC)) return;
  const rf = Number(w.config['offsets.topic.replication.factor']);
  const partitions = Number(w.config['offsets.topic.num.partitions']);
  const alive = [...ctl.controller!.work!.brokers.values()].filter((x) => !x.fenced).length;
  const cm = coordinatorMem(w, node);
  if (alive < rf) {
    if (w.nowMs - cm.offsetsTopicWarnedAtMs < 30000) return;
    cm.offsetsTopicWarnedAtMs = w.nowMs;
    // AutoTopicCreationManager: the offsets topic waits for enough brokers.
    emit(
      w,
      'OffsetsTopicNotCreated',
      `Number of alive brokers '${alive}' does not meet the required replication factor '${rf}' for the offsets topic (configured via 'offsets.topic.replication.factor'). Consumers get COORDINATOR_NOT_AVAILABLE until enough brokers are up.`,
      { nodeId: node.id, topic: OFFSETS_TOPIC },
    );
    return;
  }
  const error = createTopic(w, ctl, {
    name: OFFSETS_TOPIC,
    partitions,
    replicationFactor: rf,
    config: { 'cleanup.policy': 'compact' },
  });
  if (error) emit(w, 'OffsetsTopicNotCreated', `${OFFSETS_TOPIC} could not be created: ${error}`, { error });
}
