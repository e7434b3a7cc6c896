// The host answers a what-if question in slices, and the live run plays on untouched meanwhile.
import { describe, expect, it } from 'vitest';
import { startHost } from './host';
import type { WorkerToPage } from './protocol';
import { FakeClock } from './testing/fakeClock';
import { latestSnapshot } from './testing/latestSnapshot';
import { twoZonesOfOnePartition } from './testing/twoZones';

/** A wall clock on which each look costs a millisecond, so a wall-time budget runs out. */
class BusyClock extends FakeClock {
  private spentMs = 0;
  override now(): number {
    return super.now() + this.spentMs++;
  }
}

describe('a what-if question in the worker', () => {
  it('comes back worst first, in several slices, while the live cluster keeps running', () => {
    const clock = new BusyClock();
    const sent: WorkerToPage[] = [];
    const host = startHost((m) => sent.push(m), clock);
    clock.pass(15_000);
    const pair = twoZonesOfOnePartition(latestSnapshot(sent));
    host.receive({
      type: 'whatIf',
      id: 7,
      targets: [
        { kind: 'rack', rack: 'zone-a' },
        { kind: 'nodes', nodeIds: pair },
      ],
    });
    clock.pass(5_000);
    const progress = sent.filter((m) => m.type === 'whatIfProgress');
    expect(progress.length).toBeGreaterThan(2);
    const result = sent.find((m) => m.type === 'whatIfResult');
    expect(result?.type === 'whatIfResult' && result.result?.outcomes.map((o) => o.label)).toEqual([
      `Nodes ${pair.join(', ')}`,
      'Zone zone-a',
    ]);
    // Snapshots went out between the slices, and no node crashed in the live run.
    const first = sent.findIndex((m) => m.type === 'whatIfProgress');
    const last = sent.findIndex((m) => m.type === 'whatIfResult');
    expect(sent.slice(first, last).some((m) => m.type === 'snapshotDelta')).toBe(true);
    expect(latestSnapshot(sent).nodes.every((n) => n.state === 'running')).toBe(true);
  });
});
