// Why a running broker is fenced, in Kafka's words, read off the snapshot (KIP-631).
import type { NodeView, Snapshot } from '../../sim/types';
import type { FencedReason } from './types';

/** broker.heartbeat.interval.ms (Kafka's default): a broker heard from within two is still heartbeating. */
const HEARTBEAT_INTERVAL_MS = 2000;

/**
 * Why a running broker is fenced, read off the snapshot (KIP-631): it has no registration yet
 * (BrokerRegistration, brokerEpoch −1); it has not applied the metadata log up to its own
 * registration record (the broker epoch is that record's offset); or it has, and the active
 * controller unfences it on its next BrokerHeartbeat. A broker the controller has not heard from
 * for a while is fenced because its heartbeats do not arrive. Null when it is not fenced.
 */
export function fencedReason(n: NodeView, snapshot: Snapshot): FencedReason | null {
  if (n.state !== 'running' || !n.fenced || !n.roles.includes('broker') || n.shuttingDown) return null;
  if (snapshot.quorum.leaderId === null || snapshot.quorum.leaderId < 0)
    return { text: 'waiting for the controllers to elect a leader', short: 'no active controller' };
  const silentMs = n.lastHeartbeatMs == null ? 0 : snapshot.timeMs - n.lastHeartbeatMs;
  if (n.brokerEpoch >= 0 && silentMs > 2 * HEARTBEAT_INTERVAL_MS) {
    const s = Math.floor(silentMs / 1000);
    return { text: `no BrokerHeartbeat reached the controller for ${s} s`, short: `no heartbeat for ${s} s` };
  }
  if (n.brokerEpoch < 0)
    return { text: 'registering with the controller (BrokerRegistration)', short: 'registering' };
  if (n.metadataOffset < n.brokerEpoch)
    return {
      text: `catching up on metadata: offset ${Math.max(0, n.metadataOffset)} of ${n.brokerEpoch}`,
      short: 'catching up on metadata',
    };
  return { text: 'caught up; waiting for the controller to unfence it', short: 'waiting to be unfenced' };
}
