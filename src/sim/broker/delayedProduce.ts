// Produce requests with acks=all wait in purgatory (DelayedProduce) until the high watermark
// passes their records or request.timeout.ms expires; then the broker answers them.

import { armNodeDeadline, reply } from '../kernel/kernel';
import type { Message } from '../model/messages';
import type { PartitionDisk, ReplicaMem, SimNode, World } from '../model/world';
import type { NodeId } from '../model/types';
import { effMinIsr } from './brokerConfig';

type OffsetsMarkerListener = (
  w: World,
  nodeId: NodeId,
  partition: number,
  producerId: number,
  committed: boolean,
) => void;

let markerListener: OffsetsMarkerListener | null = null;

/** The group coordinator's hook for markers on __consumer_offsets (installed by dispatch.ts). */
export function setOffsetsMarkerListener(l: OffsetsMarkerListener): void {
  markerListener = l;
}

function maximalIsr(mem: ReplicaMem): NodeId[] {
  if (!mem.pendingIsr) return mem.isr;
  return [...new Set([...mem.isr, ...mem.pendingIsr])];
}

export function completeDelayed(w: World, node: SimNode, mem: ReplicaMem, disk: PartitionDisk): void {
  const hw = disk.highWatermark;
  const delayed = mem.delayed;
  const firstDone = delayed.findIndex((d) => d.requiredOffset <= hw);
  if (firstDone < 0) return; // none is complete (the common case: one waits for the followers)
  const enough = maximalIsr(mem).length >= effMinIsr(w, node, mem);
  // The complete ones answer in their order; the others stay, in theirs (compacted in place).
  let kept = firstDone;
  for (const d of delayed.slice(firstDone)) {
    if (d.requiredOffset > hw) delayed[kept++] = d;
    else respondProduce(w, d.msg, mem, enough ? undefined : 'NOT_ENOUGH_REPLICAS_AFTER_APPEND', d.baseOffset);
  }
  delayed.length = kept;
}

export function failDelayed(w: World, node: SimNode, mem: ReplicaMem, error: string): void {
  const hint = node.raft!.image.partitions.get(mem.key);
  for (const d of mem.delayed)
    respondProduce(
      w,
      d.msg,
      mem,
      error,
      -1,
      hint && hint.leader !== -1 ? { leaderId: hint.leader, leaderEpoch: hint.leaderEpoch } : undefined,
    );
  mem.delayed = [];
}

export function onDelayedProduceExpired(w: World, node: SimNode, key: string, token: number): void {
  const mem = node.broker?.replicas.get(key);
  if (!mem || mem.delayedTimer.token !== token) return;
  mem.delayedTimer.token = 0;
  const expired = mem.delayed.filter((d) => d.deadlineMs <= w.nowMs);
  mem.delayed = mem.delayed.filter((d) => d.deadlineMs > w.nowMs);
  for (const d of expired) respondProduce(w, d.msg, mem, 'REQUEST_TIMED_OUT', -1);
  if (mem.delayed.length)
    armNodeDeadline(
      w,
      node,
      mem.delayedTimer,
      Math.min(...mem.delayed.map((d) => d.deadlineMs)),
      'delayedProduceExpire',
      key,
    );
}

export function respondProduce(
  w: World,
  req: Message,
  mem: { topic: string; partition: number },
  error: string | undefined,
  baseOffset: number,
  currentLeader?: { leaderId: NodeId; leaderEpoch: number },
): void {
  if (req.body.kind === 'WriteTxnMarkers') {
    // A transaction marker waited as a produce with acks=all does (appendRecords.ts onWriteTxnMarkers).
    const b = req.body;
    // KafkaApis.handleWriteTxnMarkersRequest: a marker written to __consumer_offsets completes the
    // transaction's offsets at the group coordinator (GroupCoordinator.onTransactionCompleted).
    if (!error && b.topic === '__consumer_offsets' && markerListener)
      markerListener(w, req.to as NodeId, b.partition, b.producerId, b.committed);
    reply(w, req, {
      kind: 'WriteTxnMarkersResponse',
      transactionalId: b.transactionalId,
      producerId: b.producerId,
      topic: b.topic,
      partition: b.partition,
      ...(error ? { error } : {}),
      offset: baseOffset,
    });
    return;
  }
  reply(w, req, {
    kind: 'ProduceResponse',
    topic: mem.topic,
    partition: mem.partition,
    error,
    baseOffset,
    currentLeader,
  });
}
