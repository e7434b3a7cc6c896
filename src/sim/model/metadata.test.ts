// Metadata images apply records as Kafka's MetadataDelta does; the nodes of a cluster apply the same
// record objects (a Raft fetch answers with the leader's log entries), so they share its state.
import { describe, expect, it } from 'vitest';
import { applyRecord, emptyImage, tpKey, type MetaRecord } from './metadata';

const partitionRecord = (leader: number): MetaRecord => ({
  type: 'PartitionRecord',
  topic: 'orders',
  partition: 0,
  replicas: [1, 2, 3],
  isr: [1, 2, 3],
  elr: [],
  leader,
  leaderEpoch: 0,
  partitionEpoch: 0,
  adding: [],
  removing: [],
});

describe('a partition record applied by many images', () => {
  it('gives each the same frozen state, and an equal record another state of its own', () => {
    const rec = partitionRecord(1);
    const images = Array.from({ length: 200 }, () => emptyImage());
    images.forEach((img) => applyRecord(img, 5, rec));
    const states = new Set(images.map((img) => img.partitions.get(tpKey('orders', 0))));
    expect(states.size).toBe(1);
    const [state] = [...states];
    expect(state).toMatchObject({ leader: 1, isr: [1, 2, 3], replicas: [1, 2, 3] });
    expect(Object.isFrozen(state) && Object.isFrozen(state!.isr)).toBe(true);
    // Another record, even of the same partition, stands for its own state.
    const other = partitionRecord(2);
    const img = emptyImage();
    applyRecord(img, 6, other);
    expect(img.partitions.get(tpKey('orders', 0))).not.toBe(state);
    expect(img.partitions.get(tpKey('orders', 0))!.leader).toBe(2);
  });
});
