// A broker answers Metadata requests from its own metadata image (KRaftMetadataCache behind
// KafkaApis.handleTopicMetadataRequest): possibly stale, which is the point.

import { send } from '../kernel/kernel';
import type { MessageOf } from '../model/messages';
import { tpKey } from '../model/metadata';
import type { SimNode, World } from '../model/world';

/** A broker answers Metadata from its own image: possibly stale, which is the point. */
export function answerMetadata(w: World, node: SimNode, msg: MessageOf<'Metadata'>): void {
  const b = msg.body;
  const img = node.raft!.image;
  const partitions = [];
  const unknownTopics: string[] = [];
  for (const t of b.topics) {
    const topic = img.topics.get(t);
    if (!topic) {
      unknownTopics.push(t);
      continue;
    }
    for (let p = 0; p < topic.partitions; p++) {
      const s = img.partitions.get(tpKey(t, p));
      if (s)
        partitions.push({
          topic: t,
          partition: p,
          leader: s.leader,
          leaderEpoch: s.leaderEpoch,
          replicas: s.replicas,
          isr: s.isr,
        });
    }
  }
  const brokers = [...img.brokers.values()].filter((x) => !x.fenced).map((x) => x.brokerId);
  send(w, node.id, msg.from, { kind: 'MetadataResponse', brokers, partitions, unknownTopics }, msg.reqId);
}
