// ClusterControlManager (and BrokerHeartbeatManager): a broker is unfenced once caught up,
// fenced when its heartbeats stop for broker.session.timeout.ms, and moved out of leadership in
// a controlled shutdown.

import { setNodeTimer } from '../kernel/kernel';
import { clusterValue } from '../model/image';
import type { MetaImage, MetaRecord } from '../model/metadata';
import type { SimNode, World } from '../model/world';
import type { NodeId } from '../model/types';
import { later, write } from './controllerLog';
import { changePartitions } from './replicationControl';

export function sessionTimeoutMs(w: World, img: MetaImage): number {
  return Number(clusterValue(w, img, 'broker.session.timeout.ms'));
}

export function unfence(w: World, node: SimNode, brokerId: NodeId): void {
  const img = node.controller!.work!;
  const reg = img.brokers.get(brokerId)!;
  const rec: MetaRecord = {
    type: 'BrokerRegistrationChangeRecord',
    brokerId,
    brokerEpoch: reg.brokerEpoch,
    fenced: false,
  };
  const off = write(w, node, [rec]);
  later(
    w,
    node,
    off,
    'BrokerUnfenced',
    `Broker ${brokerId} caught up with the metadata log and is unfenced (BrokerUnfenced): it may lead partitions again.`,
    {
      nodeId: brokerId,
    },
  );
  // ReplicationControlManager.handleBrokerUnfenced: every leaderless partition is revisited
  // (partitionsWithNoLeader), so the returning broker can lead at once: from the ISR, the ELR, as
  // the last known ELR member, or by an unclean election where the topic allows one.
  const leaderless = [...img.partitions.values()].filter((p) => p.leader === -1);
  changePartitions(
    w,
    node,
    leaderless.map((p) => ({ p, req: {}, why: `broker ${brokerId} returned` })),
  );
}

/** Fencing: the broker leaves every ISR and its leaderships move (ReplicationControlManager.handleBrokerFenced). */
export function fence(w: World, node: SimNode, brokerId: NodeId, why: string): void {
  const img = node.controller!.work!;
  const reg = img.brokers.get(brokerId)!;
  const rec: MetaRecord = {
    type: 'BrokerRegistrationChangeRecord',
    brokerId,
    brokerEpoch: reg.brokerEpoch,
    fenced: true,
  };
  const off0 = write(w, node, [rec]);
  later(
    w,
    node,
    off0,
    'BrokerFenced',
    `Broker ${brokerId} ${why}: fenced (BrokerFenced). It leaves every ISR and its leaderships move.`,
    {
      nodeId: brokerId,
    },
  );
  const affected = [...img.partitions.values()].filter(
    (p) => p.isr.includes(brokerId) || p.leader === brokerId,
  );
  changePartitions(
    w,
    node,
    affected.map((p) => ({
      p,
      req: { isr: p.isr.filter((x) => x !== brokerId) },
      why: `broker ${brokerId} was fenced`,
    })),
  );
}

export function beginControlledShutdown(w: World, node: SimNode, brokerId: NodeId): void {
  const img = node.controller!.work!;
  const reg = img.brokers.get(brokerId)!;
  const off = write(w, node, [
    {
      type: 'BrokerRegistrationChangeRecord',
      brokerId,
      brokerEpoch: reg.brokerEpoch,
      inControlledShutdown: true,
    },
  ]);
  later(
    w,
    node,
    off,
    'ControlledShutdown',
    `Broker ${brokerId} asked for a controlled shutdown: the controller moves its leaderships away first.`,
    {
      nodeId: brokerId,
    },
  );
  const affected = [...img.partitions.values()].filter((p) => p.isr.includes(brokerId));
  changePartitions(
    w,
    node,
    affected.map((p) => ({
      p,
      req: { isr: p.isr.filter((x) => x !== brokerId) },
      why: `broker ${brokerId} is shutting down`,
    })),
  );
}

export function armFenceCheck(w: World, node: SimNode, delayMs: number): void {
  node.controller!.fenceToken = setNodeTimer(w, node, delayMs, 'fenceCheck');
}
