// A partition's leader replica (Partition.scala): the high watermark, the followers' fetch state,
// and the ISR's shrink and expand, proposed to the controller with AlterPartition (KIP-497).

import { completeDelayedConsumerFetches } from './consumerFetch';
import { emit, nextReqId, send, setNodeTimer } from '../kernel/kernel';
import { latestEpochStart, logEndOffset } from '../model/log';
import type { MessageOf } from '../model/messages';
import { isActiveBroker, tpKey } from '../model/metadata';
import { trailHighWatermark } from '../model/trail';
import type { FollowerProgress, PartitionDisk, ReplicaMem, SimNode, World } from '../model/world';
import type { NodeId } from '../model/types';
import { brokerValue, effMinIsr } from './brokerConfig';
import { completeDelayed } from './delayedProduce';
import { diskOf } from './logManager';
import { itemAt } from '../model/arrays';

/** Replica.updateFetchState: the follower's LEO and lastCaughtUpTimeMs. */
export function updateFollowerFetchState(
  w: World,
  node: SimNode,
  mem: ReplicaMem,
  disk: PartitionDisk,
  follower: NodeId,
  fetchOffset: number,
): void {
  const fs = mem.followers.get(follower);
  if (!fs) return;
  const leaderLeo = logEndOffset(disk.log);
  if (fetchOffset >= leaderLeo) fs.lastCaughtUpTimeMs = Math.max(fs.lastCaughtUpTimeMs, w.nowMs);
  else if (fetchOffset >= fs.lastFetchLeaderLogEndOffset)
    fs.lastCaughtUpTimeMs = Math.max(fs.lastCaughtUpTimeMs, fs.lastFetchTimeMs);
  fs.logEndOffset = fetchOffset;
  fs.lastFetchLeaderLogEndOffset = leaderLeo;
  fs.lastFetchTimeMs = w.nowMs;
  maybeExpandIsr(w, node, mem, disk, fs);
  maybeIncrementHighWatermark(w, node, mem, disk);
}

/** KIP-841: LEO >= HW, LEO >= the leader epoch's start offset, and the broker unfenced and not shutting down. */
function maybeExpandIsr(
  w: World,
  node: SimNode,
  mem: ReplicaMem,
  disk: PartitionDisk,
  fs: FollowerProgress,
): void {
  const follower = fs.replicaId;
  if (mem.pendingIsr || mem.isr.includes(follower)) return;
  if (fs.logEndOffset < disk.highWatermark || fs.logEndOffset < latestEpochStart(disk.log)) return;
  if (!isActiveBroker(node.raft!.image, follower)) return;
  proposeIsr(w, node, mem, [...mem.isr, follower]);
}

function proposeIsr(w: World, node: SimNode, mem: ReplicaMem, isr: NodeId[]): void {
  mem.pendingIsr = mem.replicas.filter((r) => isr.includes(r));
  sendAlterPartition(w, node, mem);
}

function sendAlterPartition(w: World, node: SimNode, mem: ReplicaMem): void {
  const target = node.raft!.leaderId ?? itemAt(w.voterIds, 0);
  send(
    w,
    node.id,
    target,
    {
      kind: 'AlterPartition',
      brokerId: node.id,
      brokerEpoch: node.broker!.brokerEpoch,
      topic: mem.topic,
      partition: mem.partition,
      leaderEpoch: mem.leaderEpoch,
      partitionEpoch: mem.partitionEpoch,
      newIsr: mem.pendingIsr!,
    },
    nextReqId(w),
  );
  mem.alterToken = setNodeTimer(w, node, 5000, 'alterPartitionRetry', mem.key);
}

export function onAlterPartitionRetry(w: World, node: SimNode, key: string, token: number): void {
  const mem = node.broker?.replicas.get(key);
  if (!mem || mem.alterToken !== token || !mem.pendingIsr || mem.role !== 'leader') return;
  sendAlterPartition(w, node, mem);
}

export function onAlterPartitionResponse(
  w: World,
  node: SimNode,
  msg: MessageOf<'AlterPartitionResponse'>,
): void {
  const body = msg.body;
  const mem = node.broker!.replicas.get(tpKey(body.topic, body.partition));
  if (!mem || mem.role !== 'leader' || !mem.pendingIsr) return;
  if (body.error === 'NOT_CONTROLLER') return; // retried by the timer, to the leader we learn of
  mem.pendingIsr = null;
  mem.alterToken = 0;
  if (
    body.state &&
    body.state.leaderEpoch === mem.leaderEpoch &&
    body.state.partitionEpoch >= mem.partitionEpoch
  ) {
    mem.isr = body.state.isr;
    mem.partitionEpoch = body.state.partitionEpoch;
  }
  maybeIncrementHighWatermark(w, node, mem);
}

/** Partition.maybeIncrementLeaderHW, with KAFKA-15583: frozen while the ISR is below min ISR. */
export function maybeIncrementHighWatermark(
  w: World,
  node: SimNode,
  mem: ReplicaMem,
  partitionDisk?: PartitionDisk,
): void {
  if (mem.role !== 'leader') return;
  const disk = partitionDisk ?? diskOf(node, mem.key);
  let hw = logEndOffset(disk.log);
  if (hw <= disk.highWatermark) return; // nothing above the HW: it cannot move
  if (mem.isr.length < effMinIsr(w, node, mem)) return;
  let lagMaxMs = -1;
  for (const fs of mem.followers.values()) {
    const r = fs.replicaId;
    const inIsr = mem.isr.includes(r) || (mem.pendingIsr !== null && mem.pendingIsr.includes(r));
    if (!inIsr && fs.logEndOffset >= 0 && lagMaxMs < 0)
      lagMaxMs = Number(brokerValue(w, node, 'replica.lag.time.max.ms'));
    // A caught-up replica that is eligible for the ISR also holds the HW back (Partition.maybeIncrementLeaderHW).
    if (
      inIsr ||
      (fs.logEndOffset >= 0 &&
        w.nowMs - fs.lastCaughtUpTimeMs <= lagMaxMs &&
        isActiveBroker(node.raft!.image, r))
    )
      hw = Math.min(hw, Math.max(fs.logEndOffset, 0));
  }
  if (hw <= disk.highWatermark) return;
  disk.highWatermark = hw;
  trailHighWatermark(w.trail, mem.key, node.id, hw, w.nowMs);
  completeDelayedConsumerFetches(w, node, mem.topic, mem.partition); // consumer fetches parked at this leader
  completeDelayed(w, node, mem, disk);
}

/** ISR shrink: every replica.lag.time.max.ms / 2, followers not caught up for longer than it leave. */
export function onIsrShrinkCheck(w: World, node: SimNode, token: number): void {
  const b = node.broker;
  if (!b || token !== b.isrToken) return;
  const lagMaxMs = Number(brokerValue(w, node, 'replica.lag.time.max.ms'));
  b.isrToken = setNodeTimer(w, node, lagMaxMs / 2, 'isrShrinkCheck');
  for (const mem of b.replicas.values()) {
    if (mem.role !== 'leader' || mem.pendingIsr) continue;
    const leo = logEndOffset(diskOf(node, mem.key).log);
    const lagging = mem.isr.filter((r) => {
      if (r === node.id) return false;
      const fs = mem.followers.get(r);
      return !!fs && fs.logEndOffset !== leo && w.nowMs - fs.lastCaughtUpTimeMs > lagMaxMs;
    });
    if (lagging.length) {
      emit(
        w,
        'IsrShrinkProposed',
        `Leader ${node.id} of ${mem.topic}-${mem.partition}: follower(s) [${lagging}] not caught up for over ${lagMaxMs / 1000} s (replica.lag.time.max.ms); asks the controller to shrink the ISR (AlterPartition).`,
        { nodeId: node.id, topic: mem.topic, partition: mem.partition, lagging },
      );
      proposeIsr(
        w,
        node,
        mem,
        mem.isr.filter((r) => !lagging.includes(r)),
      );
    }
  }
}
