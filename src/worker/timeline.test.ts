import { describe, expect, it } from 'vitest';
import { presets } from '../scenario/presets';
import { replaySession } from '../scenario/session';
import type { Command } from '../sim/types';
import { describeCommand, MARKER_KINDS, Timeline } from './timeline';

const scenario = presets['three-brokers'].scenario;

/** A run with a crash, writes and a restart, recording the hash at a few times. */
function story(): { timeline: Timeline; hashes: Map<number, string> } {
  const timeline = new Timeline(scenario);
  const hashes = new Map<number, string>();
  const at = (ms: number) => {
    timeline.advanceTo(ms);
    hashes.set(ms, timeline.sim.stateHash());
  };
  // The state at a time includes the actions taken at that time.
  const act = (command: Command) => {
    expect(timeline.apply(command)).toEqual({ ok: true });
    hashes.set(timeline.nowMs, timeline.sim.stateHash());
  };
  at(5_000);
  act({ type: 'produce', topic: 'demo', key: 'k', value: 'a', acks: 'all' });
  at(12_000);
  act({ type: 'crashNode', nodeId: 2 });
  at(20_000);
  act({ type: 'produce', topic: 'demo', key: 'k', value: 'b', acks: 1 });
  at(33_000);
  act({ type: 'restartNode', nodeId: 2 });
  at(45_000);
  at(60_000);
  return { timeline, hashes };
}

describe('seeking', () => {
  it('restores the exact state at any earlier time, and playing on reproduces the branch', () => {
    const { timeline, hashes } = story();
    for (const ms of [33_000, 5_000, 20_000, 12_000, 45_000]) {
      timeline.seek(ms);
      expect(timeline.nowMs).toBe(ms);
      expect(timeline.sim.stateHash(), `at ${ms} ms`).toBe(hashes.get(ms));
    }
    timeline.seek(20_000);
    timeline.advanceTo(60_000);
    expect(timeline.sim.stateHash()).toBe(hashes.get(60_000));
    expect(timeline.info().branches).toHaveLength(1);
  });

  it('steps back to the previous event and forward to the next', () => {
    const { timeline } = story();
    timeline.seek(30_000);
    const before = timeline.sim
      .events()
      .filter((e) => e.timeMs < 30_000)
      .at(-1)!;
    timeline.stepBack();
    expect(timeline.nowMs).toBe(before.timeMs);
    const count = timeline.sim.events().length;
    timeline.stepForward();
    expect(timeline.sim.events().length).toBeGreaterThan(count);
    expect(timeline.nowMs).toBeGreaterThan(before.timeMs);
  });

  it('says which events a step landed on: those logged at the time it stopped', () => {
    const { timeline } = story();
    timeline.seek(30_000);
    const back = timeline.stepBack();
    const atBack = timeline.sim.events().filter((e) => e.timeMs === timeline.nowMs);
    expect(back.length).toBeGreaterThan(0);
    expect(back).toEqual(atBack);
    const forward = timeline.stepForward();
    expect(forward.length).toBeGreaterThan(0);
    expect(forward.every((e) => e.timeMs === timeline.nowMs)).toBe(true);
    expect(forward[0]?.seq).toBeGreaterThan(back.at(-1)!.seq);
    timeline.seek(0);
    expect(timeline.stepBack()).toEqual([]);
    expect(timeline.nowMs).toBe(0);
  });

  it('single-steps engine events, applying recorded actions where a replay would', () => {
    const { timeline, hashes } = story();
    timeline.seek(11_990);
    while (timeline.nowMs < 12_000 || timeline.sim.nextEventAtMs() === 12_000) timeline.stepOne();
    timeline.advanceTo(20_000);
    expect(timeline.sim.stateHash()).toBe(hashes.get(20_000));
  });

  it('shows crashes, fencing and elections as markers', () => {
    const { timeline } = story();
    const kinds = new Set(timeline.info().markers.map((m) => m.kind));
    for (const kind of ['crash', 'fencing', 'election', 'action']) expect(kinds).toContain(kind);
  });

  it('keeps a bounded number of checkpoints', () => {
    const timeline = new Timeline(scenario, { checkpointEveryMs: 1_000, maxCheckpoints: 16 });
    timeline.advanceTo(120_000);
    expect(timeline.checkpointCount).toBeLessThanOrEqual(16);
    const hash = timeline.sim.stateHash();
    timeline.seek(0);
    timeline.seek(120_000);
    expect(timeline.sim.stateHash()).toBe(hash);
  });

  it('checkpoints no more often than the host asks, and the run is the same either way', () => {
    const often = new Timeline(scenario);
    const rarely = new Timeline(scenario);
    // What the host asks at 1000×: one checkpoint per 100 simulated seconds at most.
    rarely.minCheckpointEveryMs = 100_000;
    for (const timeline of [often, rarely]) {
      timeline.advanceTo(150_000);
      timeline.apply({ type: 'crashNode', nodeId: 2 });
      timeline.advanceTo(300_000);
    }
    expect(often.checkpointsTaken).toBeGreaterThan(30);
    expect(rarely.checkpointsTaken).toBeLessThanOrEqual(4);
    expect(rarely.sim.stateHash()).toBe(often.sim.stateHash());
    // A seek replays from the nearest checkpoint, further back, to the same state.
    const hash = rarely.sim.stateHash();
    rarely.seek(250_000);
    rarely.seek(300_000);
    expect(rarely.sim.stateHash()).toBe(hash);
  });
});

describe('advancing within a wall-time budget', () => {
  it('stops between two events when the budget is spent, and replays a branch exactly as one advance does', () => {
    const { timeline, hashes } = story();
    // The recorded branch replayed from the start: every slice allowed a single event.
    timeline.seek(0);
    let calls = 0;
    let stillAtOneInstant = 0;
    for (const ms of [5_000, 12_000, 20_000, 33_000, 45_000, 60_000]) {
      for (let done = false; !done; calls++) {
        const fromMs = timeline.nowMs;
        done = timeline.advanceWithin(ms - fromMs, () => true);
        if (timeline.nowMs === fromMs) stillAtOneInstant++;
      }
      expect(timeline.sim.stateHash()).toBe(hashes.get(ms));
    }
    // Slices that ended at the instant they began: an instant's events were spread over calls.
    expect(stillAtOneInstant).toBeGreaterThan(0);
    expect(calls).toBeGreaterThan(1000);
    // With budget to spare, one call goes all the way (it is advance()).
    const fresh = new Timeline(scenario);
    expect(fresh.advanceWithin(5_000, () => false)).toBe(true);
    expect(fresh.nowMs).toBe(5_000);
  });
});

describe('acting after a rewind', () => {
  it('forks a new branch and keeps the old one, which can be switched back to', () => {
    const { timeline, hashes } = story();
    timeline.seek(15_000);
    timeline.apply({ type: 'restartNode', nodeId: 2 });
    timeline.advanceTo(40_000);
    const info = timeline.info();
    expect(info.branches.map((b) => [b.id, b.parentId])).toEqual([
      [1, null],
      [2, 1],
    ]);
    expect(info.currentBranchId).toBe(2);
    expect(info.branches[1]?.forkAtMs).toBe(15_000);
    // The new branch kept the actions before the fork and not the old future.
    expect(timeline.session().actions.map((a) => a.command.type)).toEqual([
      'produce',
      'crashNode',
      'restartNode',
    ]);
    const forkHash = timeline.sim.stateHash();

    timeline.switchBranch(1);
    expect(timeline.currentBranchId).toBe(1);
    timeline.seek(60_000);
    expect(timeline.sim.stateHash()).toBe(hashes.get(60_000));
    timeline.switchBranch(2);
    expect(timeline.nowMs).toBe(40_000);
    expect(timeline.sim.stateHash()).toBe(forkHash);
  });
});

describe('sessions', () => {
  it('a session of the current position replays to the same hash, fresh or through fromSession', () => {
    const { timeline } = story();
    timeline.seek(25_000);
    const session = timeline.session();
    expect(session.positionMs).toBe(25_000);
    expect(session.actions.every((a) => a.atMs <= 25_000)).toBe(true);
    expect(replaySession(session).sim.stateHash()).toBe(session.stateHash);
    const { timeline: copy, refused } = Timeline.fromSession(session);
    expect(refused).toEqual([]);
    expect(copy.sim.stateHash()).toBe(session.stateHash);
    expect(copy.info().endMs).toBe(25_000);
  });
});

describe("each branch's markers", () => {
  /** The markers a branch should show: the logged events of note and the actions of its live run. */
  function markersOfTheLiveRun(timeline: Timeline) {
    const events = timeline.sim
      .events()
      .filter((e) => MARKER_KINDS[e.type])
      .map((e) => ({ timeMs: e.timeMs, kind: MARKER_KINDS[e.type], type: e.type, label: e.message }));
    const actions = timeline.session().actions.map((a) => ({
      timeMs: a.atMs,
      kind: 'action',
      type: a.command.type,
      label: describeCommand(a.command),
    }));
    return [...events, ...actions].sort((x, y) => x.timeMs - y.timeMs);
  }

  /** Main: node 4 crashes at 10 s, played to 30 s. */
  function crashAtTen(): Timeline {
    const timeline = new Timeline(scenario);
    timeline.advanceTo(10_000);
    expect(timeline.apply({ type: 'crashNode', nodeId: 4 })).toEqual({ ok: true });
    timeline.advanceTo(30_000);
    return timeline;
  }

  const crashedNode = (timeline: Timeline, id: number) =>
    timeline.info().markers.filter((m) => m.type === 'NodeCrashed' && m.label.includes(`Node ${id}`));

  it('a branch forked before a crash does not show the crash of the branch it left', () => {
    const timeline = crashAtTen();
    expect(crashedNode(timeline, 4)).toHaveLength(1);
    timeline.seek(6_000);
    expect(timeline.apply({ type: 'crashNode', nodeId: 2 })).toEqual({ ok: true });
    timeline.advanceTo(30_000);
    expect(timeline.currentBranchId).toBe(2);
    expect(crashedNode(timeline, 4)).toEqual([]);
    // The crash done on the new branch is its own marker, at the time it was done.
    expect(crashedNode(timeline, 2).map((m) => m.timeMs)).toEqual([6_000]);
    expect(timeline.info().markers).toEqual(markersOfTheLiveRun(timeline));
  });

  it('a branch forked at the very time of a crash keeps that crash, once', () => {
    const timeline = crashAtTen();
    timeline.seek(10_000);
    expect(timeline.apply({ type: 'restartNode', nodeId: 4 })).toEqual({ ok: true });
    timeline.advanceTo(30_000);
    expect(crashedNode(timeline, 4).map((m) => m.timeMs)).toEqual([10_000]);
    expect(timeline.info().markers).toEqual(markersOfTheLiveRun(timeline));
  });

  it('switching branches and stepping through events keeps every branch to its own markers', () => {
    const timeline = crashAtTen();
    const mainMarkers = timeline.info().markers;
    timeline.seek(6_000);
    expect(timeline.apply({ type: 'crashNode', nodeId: 3 })).toEqual({ ok: true });
    timeline.advanceTo(25_000);
    timeline.switchBranch(1);
    expect(timeline.info().markers).toEqual(mainMarkers);
    timeline.switchBranch(2);
    for (let i = 0; i < 5; i++) timeline.stepBack();
    for (let i = 0; i < 8; i++) timeline.stepForward();
    timeline.seek(25_000);
    expect(crashedNode(timeline, 4)).toEqual([]);
    expect(timeline.info().markers).toEqual(markersOfTheLiveRun(timeline));
    // A third branch, from the second, before its crash.
    timeline.seek(3_000);
    expect(timeline.apply({ type: 'shutdownNode', nodeId: 2 })).toEqual({ ok: true });
    timeline.advanceTo(20_000);
    expect(timeline.currentBranchId).toBe(3);
    expect(crashedNode(timeline, 3)).toEqual([]);
    expect(crashedNode(timeline, 4)).toEqual([]);
    expect(timeline.info().markers).toEqual(markersOfTheLiveRun(timeline));
    timeline.switchBranch(1);
    expect(timeline.info().markers).toEqual(mainMarkers);
  });
});

describe("a line of Kafka's tools", () => {
  const line = (text: string): Command => ({ type: 'cli', line: text });
  it('that only reads is answered and not recorded, so it starts no branch after a rewind', () => {
    const timeline = new Timeline(scenario);
    timeline.advanceTo(10_000);
    timeline.seek(5_000);
    const result = timeline.apply(line('kafka-topics.sh --bootstrap-server localhost:9092 --list'));
    expect(result).toMatchObject({ ok: true, readOnly: true, output: expect.stringContaining('demo') });
    expect(timeline.session().actions).toEqual([]);
    expect(timeline.info().branches).toHaveLength(1);
  });
  it('that changes the cluster is recorded, and a session replays it to the same state', () => {
    const timeline = new Timeline(scenario);
    timeline.advanceTo(8_000);
    const create = 'kafka-topics.sh --bootstrap-server localhost:9092 --create --topic t2 --partitions 2';
    expect(timeline.apply(line(create))).toEqual({ ok: true, output: 'Created topic t2.' });
    timeline.advanceTo(12_000);
    const session = timeline.session();
    expect(session.actions).toEqual([{ atMs: 8_000, command: line(create) }]);
    expect(replaySession(session).sim.stateHash()).toBe(session.stateHash);
    expect(describeCommand(line(create))).toBe(
      '$ kafka-topics.sh --bootstrap-server localhost:9092 --create …',
    );
  });
});
