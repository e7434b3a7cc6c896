// The standby region of a scenario with a mirror: one card to the right of the cluster.
import type { Snapshot } from '../../sim/types';
import { standbyKey } from './keys';
import { CLIENT_WIDTH, ZONE_GAP, type Layout } from './layout';
import type { ClientData, LayoutNode } from './types';

/** Adds the standby card to `clients` and its box to `layout`: its brokers, the lag, the loss. */
export function placeStandby(
  m: NonNullable<Snapshot['mirror']>,
  layout: Layout,
  clients: ClientData[],
): void {
  const brokers = m.standby.nodes.filter((n) => n.roles.includes('broker'));
  const lagRecords = m.lag.reduce((a, l) => a + l.lagRecords, 0);
  const lagMs = m.lag.reduce((a, l) => Math.max(a, l.lagMs), 0);
  const lines = [
    `mirrors ${m.topics.join(', ')} from ${m.primaryRegion}`,
    `${m.crossRegionLatencyMs} ms away, polls every ${m.pollIntervalMs} ms`,
    `brokers ${brokers.map((n) => `${n.alive ? '✓' : '✕'}${n.id}`).join(' ')}`,
    m.regionLost
      ? `✕ primary lost, ${m.failover?.missingCount ?? 0} acked missing`
      : lagRecords === 0
        ? '✓ caught up'
        : `lag ${lagRecords} record(s), ${lagMs} ms`,
  ];
  const data: ClientData = {
    clientKind: 'standby',
    id: m.standbyRegion,
    title: `Standby region ${m.standbyRegion}`,
    lines,
    label: `Standby region ${m.standbyRegion}, ${lines.join(', ')}`,
  };
  const right = Math.max(0, ...[...layout.zones, ...layout.clients].map((b) => b.absX + b.width));
  const width = CLIENT_WIDTH + 60;
  const height = 64 + lines.length * 18;
  const box: LayoutNode = {
    key: standbyKey(m.standbyRegion),
    parent: null,
    x: right + ZONE_GAP * 2,
    y: 0,
    absX: right + ZONE_GAP * 2,
    absY: 0,
    width,
    height,
  };
  layout.clients.push(box);
  layout.byKey.set(box.key, box);
  clients.push(data);
}
