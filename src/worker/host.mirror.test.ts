import { describe, expect, it } from 'vitest';
import { presets } from '../scenario/presets';
import { checkHash, decodeSession, encodeSession, replaySession } from '../scenario/session';
import { createSimulation } from '../sim';
import { startHost } from './host';
import { FakeClock } from './testing/fakeClock';
import { latestSnapshot } from './testing/latestSnapshot';
import type { WorkerToPage } from './protocol';
import { Timeline } from './timeline';

const scenario = presets['two-regions'].scenario;

describe('the worker host with two regions', () => {
  it('streams the mirror part, and the failover report after loseRegion, as the engine has them', () => {
    const clock = new FakeClock();
    const sent: WorkerToPage[] = [];
    const host = startHost((m) => sent.push(m), clock, scenario);
    host.receive({ type: 'setSpeed', speed: 10 });
    clock.pass(1500);
    const before = latestSnapshot(sent);
    expect(before.mirror?.lag.length).toBe(3);
    expect(before.mirror?.regionLost).toBe(false);

    host.receive({ type: 'command', id: 1, command: { type: 'loseRegion' } });
    expect(sent.find((m) => m.type === 'commandResult')).toMatchObject({ id: 1, result: { ok: true } });
    const lostAtMs = latestSnapshot(sent).timeMs;
    clock.pass(500);
    host.receive({ type: 'pause' });
    const after = latestSnapshot(sent);
    expect(after.mirror?.regionLost).toBe(true);
    expect(after.mirror?.failover?.missingCount).toBeGreaterThan(0);

    const reference = createSimulation(scenario);
    reference.advance(lostAtMs);
    reference.apply({ type: 'loseRegion' });
    reference.advance(after.timeMs - lostAtMs);
    expect(after).toEqual(reference.snapshot());
  });

  it('seeks back over the loss and plays it again to the same state', () => {
    const timeline = new Timeline(scenario, { checkpointEveryMs: 2000 });
    timeline.advance(7300);
    expect(timeline.apply({ type: 'loseRegion' })).toEqual({ ok: true });
    timeline.advance(3000);
    const hash = timeline.sim.stateHash();
    const report = JSON.stringify(timeline.sim.snapshot().mirror);
    timeline.seek(3000);
    expect(timeline.sim.snapshot().mirror?.regionLost).toBe(false);
    timeline.seek(10300);
    expect(timeline.sim.stateHash()).toBe(hash);
    expect(JSON.stringify(timeline.sim.snapshot().mirror)).toBe(report);
  });

  it('a shared link of a run with a lost region replays to the same state hash', () => {
    const timeline = new Timeline(scenario);
    timeline.advance(9100);
    timeline.apply({ type: 'loseRegion' });
    timeline.advance(1500);
    const session = timeline.session();
    const decoded = decodeSession(encodeSession(session));
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) return;
    const replay = replaySession(decoded.session);
    expect(checkHash(decoded.session, replay.sim.stateHash())).toMatchObject({ status: 'match' });
    expect(replay.sim.snapshot().mirror?.failover?.missingCount).toBeGreaterThan(0);
  });
});
