// Time travel over one run: the user's actions are recorded with their virtual times, the engine
// is checkpointed (sim.clone()) every few simulated seconds, and seeking restores the nearest
// checkpoint and replays the recorded actions up to the target. Acting after a rewind forks a new
// branch; the old one is kept. Pure: no wall clock, no worker; the host drives it.
import { newSession, type Session, type SessionAction } from '../scenario/session';
import { createSimulation } from '../sim';
import type { Simulation } from '../sim/types';
import type { Command, CommandResult, Scenario, SimEvent } from '../sim/types';

export type MarkerKind = 'crash' | 'cut' | 'election' | 'fencing' | 'loss' | 'offline' | 'action';

/** A point of interest on the scrubber. */
export interface Marker {
  timeMs: number;
  kind: MarkerKind;
  /** The event type (`BrokerFenced`) or the command type for an action. */
  type: string;
  label: string;
}

/** Event types shown as markers, by kind. */
export const MARKER_KINDS: Readonly<Record<string, MarkerKind>> = {
  NodeCrashed: 'crash',
  BrokerStopped: 'crash',
  LinkCut: 'cut',
  NetworkPartitioned: 'cut',
  NetworkHealed: 'cut',
  LeaderElected: 'election',
  ControllerElected: 'election',
  BrokerFenced: 'fencing',
  AcknowledgedRecordsLost: 'loss',
  PartitionOffline: 'offline',
  RegionLost: 'crash',
  ZoneLost: 'crash',
};

export interface BranchInfo {
  id: number;
  parentId: number | null;
  /** Where it left its parent (0 for the first branch). */
  forkAtMs: number;
  /** The furthest virtual time this branch was played to. */
  endMs: number;
  actionCount: number;
  label: string;
}

/** What the page's timeline shows. */
export interface TimelineInfo {
  branches: BranchInfo[];
  currentBranchId: number;
  nowMs: number;
  /** endMs of the current branch. */
  endMs: number;
  markers: Marker[];
}

/** An exact point of a branch: a time, and how many of its actions were applied by then. */
export interface TimelinePosition {
  timeMs: number;
  applied: number;
}

interface Checkpoint {
  atMs: number;
  /** How many of the branch's actions the checkpoint includes. */
  applied: number;
  /** Never advanced: restoring clones it. */
  sim: Simulation;
}

interface Branch {
  id: number;
  parentId: number | null;
  forkAtMs: number;
  endMs: number;
  actions: SessionAction[];
  checkpoints: Checkpoint[];
  checkpointEveryMs: number;
  /** Markers of logged events, with their seq (events are deterministic, so seqs replay). */
  eventMarkers: (Marker & { seq: number })[];
  /** The seq of the last event looked at for markers. */
  markedSeq: number;
}

export interface TimelineOptions {
  /** Simulated milliseconds between checkpoints (doubles when a branch has too many). */
  checkpointEveryMs?: number;
  /** Checkpoints kept per branch. */
  maxCheckpoints?: number;
  /** Markers kept per branch (the latest ones). */
  maxMarkers?: number;
}

const DEFAULTS: Required<TimelineOptions> = {
  checkpointEveryMs: 5_000,
  maxCheckpoints: 40,
  maxMarkers: 2_000,
};

/**
 * A checkpoint copies the whole cluster, which costs about a millisecond per partition: bigger
 * clusters are checkpointed less often, and the largest only at the start (seeking replays more).
 */
const PARTITIONS_PER_INTERVAL = 100;
const MAX_CHECKPOINTED_PARTITIONS = 500;

/** How far stepForward looks for the next logged event before giving up. */
const STEP_FORWARD_LIMIT_MS = 60_000;

export class Timeline {
  readonly scenario: Scenario;
  private readonly options: Required<TimelineOptions>;
  private readonly branchList: Branch[] = [];
  private branch: Branch;
  private live: Simulation;
  /** How many of the current branch's actions the live simulation has applied. */
  private applied = 0;
  /**
   * Simulated milliseconds between two checkpoints at least, whatever the branch's interval: the
   * host raises it with the speed, so checkpoints cost the same share of wall time at 1× and at
   * 1000× (seeking then replays up to this much). Checkpoints never change what the engine does.
   */
  minCheckpointEveryMs = 0;
  private taken = 0;

  /** Throws a ScenarioError for a bad scenario (nothing is built then). */
  constructor(scenario: Scenario, options: TimelineOptions = {}) {
    this.scenario = scenario;
    this.options = { ...DEFAULTS, ...options };
    this.live = createSimulation(scenario);
    this.branch = this.newBranch(null, 0, [], []);
    this.checkpoint();
  }

  /** A timeline that replays a session and stands at its position. */
  static fromSession(session: Session, options?: TimelineOptions): { timeline: Timeline; refused: string[] } {
    const timeline = Timeline.forSession(session, options);
    const refused = timeline.advanceTo(session.positionMs);
    return { timeline, refused };
  }

  /**
   * A timeline at time 0 whose branch holds a session's actions: advancing it replays them. The
   * host replays a long session this way in slices (advanceTo in steps gives the same state as one
   * advanceTo: the engine is deterministic under any split of its advances).
   */
  static forSession(session: Session, options?: TimelineOptions): Timeline {
    const timeline = new Timeline(session.scenario, options);
    timeline.branch.actions = session.actions.map((a) => ({ ...a }));
    return timeline;
  }

  /** The live simulation. Read it freely; drive it only through the timeline. */
  get sim(): Simulation {
    return this.live;
  }

  get nowMs(): number {
    return this.live.nowMs;
  }

  get currentBranchId(): number {
    return this.branch.id;
  }

  /**
   * Advances by `ms`, applying the branch's recorded actions at their times (after a rewind,
   * playing on reproduces the branch) and taking checkpoints. Returns the errors of recorded
   * actions the engine refused (none in a faithful replay).
   */
  advance(ms: number): string[] {
    return this.advanceTo(this.live.nowMs + ms);
  }

  /** `actionLimit`: apply no more than this many of the branch's actions (a rewind to an exact point). */
  advanceTo(untilMs: number, actionLimit = Infinity): string[] {
    const refused: string[] = [];
    const b = this.branch;
    for (;;) {
      const next = this.applied < actionLimit ? b.actions[this.applied] : undefined;
      const nextCheckpoint = this.nextCheckpointAtMs();
      const target = Math.min(untilMs, next && next.atMs <= untilMs ? next.atMs : Infinity, nextCheckpoint);
      if (target > this.live.nowMs) this.live.advance(target - this.live.nowMs);
      if (this.live.nowMs >= nextCheckpoint) this.checkpoint();
      if (next && next.atMs <= this.live.nowMs) {
        const result = this.live.apply(next.command);
        if (!result.ok) refused.push(`${next.command.type} at ${next.atMs} ms: ${result.error}`);
        this.applied++;
        continue;
      }
      if (this.live.nowMs >= untilMs) break;
    }
    this.noteProgress();
    return refused;
  }

  /**
   * Advances up to `ms` as advance() does, but stops between two events once `overBudget()` says so,
   * and returns the virtual milliseconds advanced. A slice crowded with events (200 brokers each
   * applying one metadata batch of 20,000 partitions at one instant) is so cut into pieces, and the
   * worker answers between them. The run is the same however it is sliced into advance() and step()
   * calls: recorded actions and checkpoints still come at their instants, after every event due then.
   * True once the whole slice is done (the actions at its end applied); false when the budget ran
   * out first, maybe within an instant (call again, with 0 ms if need be, to finish it).
   */
  advanceWithin(ms: number, overBudget: () => boolean): boolean {
    const untilMs = this.live.nowMs + ms;
    let done = false;
    for (;;) {
      const due = this.live.nextEventAtMs();
      const action = this.branch.actions[this.applied];
      const markMs = Math.min(untilMs, action?.atMs ?? Infinity, this.nextCheckpointAtMs());
      if (due === null || due > markMs) {
        // No event before the next action, checkpoint or the slice's end: advanceTo reaches it.
        this.advanceTo(markMs);
        if (this.live.nowMs >= untilMs) {
          done = true;
          break;
        }
        continue;
      }
      this.live.step();
      if (overBudget()) break;
    }
    this.noteProgress();
    return done;
  }

  /**
   * Performs a user action now and records it. After a rewind (the branch has a recorded future),
   * the action starts a new branch from here; the old branch is kept.
   */
  apply(command: Command): CommandResult {
    // Events due at this instant run first, so that a replay (advance, then apply) sees the same state.
    this.live.advance(0);
    // The last event before the action: a fork shares the parent's markers up to it, no further
    // (the action's own events take seqs that the parent's future used).
    const seqBefore = lastSeq(this.live);
    const result = this.live.apply(command);
    // A line that only reads (kafka-topics.sh --describe) changes nothing, so it is not an action.
    if (!result.ok || ('readOnly' in result && result.readOnly)) return result;
    const b = this.branch;
    const now = this.live.nowMs;
    if (this.applied < b.actions.length || b.endMs > now) this.fork(seqBefore);
    this.branch.actions.push({ atMs: now, command });
    this.applied++;
    this.noteProgress();
    return result;
  }

  /** Restores the state at `timeMs` on the current branch (clamped to [0, its end]). */
  seek(timeMs: number): void {
    this.restore(timeMs, true);
  }

  private restore(timeMs: number, mayPlayOn: boolean): void {
    const target = Math.max(0, Math.min(Math.round(timeMs), this.branch.endMs));
    const cp = latestCheckpoint(this.branch.checkpoints, (c) => c.atMs <= target);
    // Forward and no further than from the checkpoint: play on, no restore needed.
    if (mayPlayOn && target >= this.live.nowMs && this.live.nowMs >= cp.atMs) {
      this.advanceTo(target);
      return;
    }
    this.live = cp.sim.clone();
    this.applied = cp.applied;
    this.advanceTo(target);
  }

  /** Where the live simulation stands: its time, and how many of the branch's actions it applied. */
  get position(): TimelinePosition {
    return { timeMs: this.live.nowMs, applied: this.applied };
  }

  /**
   * Restores an exact earlier point of the current branch (its time and the actions applied by then,
   * so actions recorded at that very instant stay out) and, when the branch has a recorded future,
   * starts a new branch there: the future is kept as the old branch and does not replay. A lesson's
   * Back uses it, so a step can be done again.
   */
  rewindTo(position: TimelinePosition): void {
    // A branch a rewind just made, never played on, is not kept as one more branch: rewind its parent.
    const last = this.branchList[this.branchList.length - 1];
    const parent = this.branchList.find((x) => x.id === this.branch.parentId);
    if (parent && this.branch === last && this.branch.endMs === this.branch.forkAtMs) {
      this.branchList.pop();
      this.branch = parent;
    }
    const b = this.branch;
    const target = Math.max(0, Math.min(position.timeMs, b.endMs));
    const applied = Math.min(position.applied, b.actions.length);
    const cp = latestCheckpoint(b.checkpoints, (c) => c.atMs <= target && c.applied <= applied);
    this.live = cp.sim.clone();
    this.applied = cp.applied;
    this.advanceTo(target, applied);
    if (this.applied < b.actions.length || b.endMs > this.live.nowMs) this.fork(lastSeq(this.live));
  }

  /** Runs exactly the next scheduled engine event (single-step playback). */
  stepOne(): void {
    const action = this.branch.actions[this.applied];
    const due = this.live.nextEventAtMs();
    // A recorded action due before the next event is applied first, as a replay would.
    if (action && (due === null || action.atMs < due)) this.advanceTo(action.atMs);
    else this.live.step();
    this.noteProgress();
  }

  /** Runs on to the next logged event (or up to a minute of quiet); returns the events it landed on. */
  stepForward(): SimEvent[] {
    const count = this.live.eventCount();
    const limit = this.live.nowMs + STEP_FORWARD_LIMIT_MS;
    while (this.live.eventCount() === count && this.live.nowMs < limit) {
      const due = this.live.nextEventAtMs();
      const action = this.branch.actions[this.applied];
      const next = Math.min(due ?? limit, action?.atMs ?? Infinity, limit);
      this.advanceTo(Math.max(next, this.live.nowMs + (next <= this.live.nowMs ? 1 : 0)));
    }
    return [...this.live.eventsSince(count)];
  }

  /** Seeks to the time of the last logged event before now; returns the events logged at that time. */
  stepBack(): SimEvent[] {
    const events = this.live.events();
    const now = this.live.nowMs;
    const before = events[lastIndexWhere(events, (e) => e.timeMs < now)];
    if (!before) {
      this.seek(0);
      return [];
    }
    const atMs = before.timeMs;
    this.seek(atMs);
    return eventsAt(this.live, atMs);
  }

  /** Makes another branch current, at the same virtual time where it reaches (else at its end). */
  switchBranch(id: number): boolean {
    const target = this.branchList.find((b) => b.id === id);
    if (!target) return false;
    const now = this.live.nowMs;
    this.branch = target;
    // The live simulation belongs to the other branch: always restore.
    this.restore(Math.min(now, target.endMs), false);
    return true;
  }

  /** The session at the current position: what a link or a file carries (`withHash: false` skips hashing). */
  session(withHash = true): Session {
    const session: Session = {
      ...newSession(this.scenario),
      actions: this.branch.actions.slice(0, this.applied).map((a) => ({ ...a })),
      positionMs: this.live.nowMs,
    };
    if (withHash) session.stateHash = this.live.stateHash();
    return session;
  }

  /** The session at an earlier exact point of the current branch, whose state hash the caller knows. */
  sessionAt(position: TimelinePosition, stateHash: string): Session {
    return {
      ...newSession(this.scenario),
      actions: this.branch.actions.slice(0, position.applied).map((a) => ({ ...a })),
      positionMs: position.timeMs,
      stateHash,
    };
  }

  info(): TimelineInfo {
    return {
      branches: this.branchList.map((b) => ({
        id: b.id,
        parentId: b.parentId,
        forkAtMs: b.forkAtMs,
        endMs: b.endMs,
        actionCount: b.actions.length,
        label: b.parentId === null ? 'Main' : `Branch ${b.id} (from ${formatSeconds(b.forkAtMs)})`,
      })),
      currentBranchId: this.branch.id,
      nowMs: this.live.nowMs,
      endMs: this.branch.endMs,
      markers: this.markers(),
    };
  }

  /** The current branch's markers: its events of note and the user's actions, in time order. */
  markers(): Marker[] {
    const actions: Marker[] = this.branch.actions.map((a) => ({
      timeMs: a.atMs,
      kind: 'action',
      type: a.command.type,
      label: describeCommand(a.command),
    }));
    return [...this.branch.eventMarkers.map(({ seq: _seq, ...m }) => m), ...actions].sort(
      (x, y) => x.timeMs - y.timeMs,
    );
  }

  /** Checkpoints taken since the timeline was made, on any branch (the host paces them by their cost). */
  get checkpointsTaken(): number {
    return this.taken;
  }

  /** Number of checkpoints held on the current branch (for tests and the bench). */
  get checkpointCount(): number {
    return this.branch.checkpoints.length;
  }

  // ---- inside ------------------------------------------------------------------------------------

  /** `sharedSeq`: the last event the new branch shares with its parent (its later ones are its own). */
  private newBranch(
    parent: Branch | null,
    forkAtMs: number,
    actions: SessionAction[],
    checkpoints: Checkpoint[],
    sharedSeq = -1,
  ): Branch {
    const b: Branch = {
      id: this.branchList.length + 1,
      parentId: parent?.id ?? null,
      forkAtMs,
      endMs: forkAtMs,
      actions,
      checkpoints,
      checkpointEveryMs: parent?.checkpointEveryMs ?? this.options.checkpointEveryMs,
      eventMarkers: parent ? parent.eventMarkers.filter((m) => m.seq <= sharedSeq) : [],
      markedSeq: parent ? sharedSeq : -1,
    };
    this.branchList.push(b);
    return b;
  }

  private fork(sharedSeq: number): void {
    const parent = this.branch;
    const now = this.live.nowMs;
    const actions = parent.actions.slice(0, this.applied).map((a) => ({ ...a }));
    const checkpoints = parent.checkpoints.filter((c) => c.atMs <= now && c.applied <= this.applied);
    this.branch = this.newBranch(parent, now, actions, checkpoints, sharedSeq);
  }

  private nextCheckpointAtMs(): number {
    const b = this.branch;
    const last = b.checkpoints[b.checkpoints.length - 1];
    return last ? last.atMs + Math.max(b.checkpointEveryMs, this.minCheckpointEveryMs) : 0;
  }

  private checkpoint(): void {
    const b = this.branch;
    const now = this.live.nowMs;
    const last = b.checkpoints[b.checkpoints.length - 1];
    // Past the branch's end only: within it, the checkpoints already exist.
    if (last && now <= last.atMs) return;
    if (last) {
      const partitions = this.live.snapshot().partitions.length;
      if (partitions > MAX_CHECKPOINTED_PARTITIONS) {
        b.checkpointEveryMs = Infinity;
        return;
      }
      const scaled =
        this.options.checkpointEveryMs * Math.max(1, Math.ceil(partitions / PARTITIONS_PER_INTERVAL));
      if (scaled > b.checkpointEveryMs) {
        b.checkpointEveryMs = scaled;
        if (now - last.atMs < scaled) return;
      }
    }
    b.checkpoints.push({ atMs: now, applied: this.applied, sim: this.live.clone() });
    this.taken++;
    if (b.checkpoints.length > this.options.maxCheckpoints) {
      // Thin out: keep every other one (the first always), and space the next ones twice as far.
      b.checkpoints = b.checkpoints.filter((_, i) => i % 2 === 0);
      b.checkpointEveryMs *= 2;
    }
  }

  private noteProgress(): void {
    const b = this.branch;
    if (this.live.nowMs > b.endMs) b.endMs = this.live.nowMs;
    const events = this.live.events();
    const unseen = lastIndexWhere(events, (e) => e.seq <= b.markedSeq) + 1;
    for (const e of events.slice(unseen)) {
      b.markedSeq = e.seq;
      const kind = MARKER_KINDS[e.type];
      if (kind) b.eventMarkers.push({ timeMs: e.timeMs, kind, type: e.type, label: e.message, seq: e.seq });
    }
    if (b.eventMarkers.length > this.options.maxMarkers)
      b.eventMarkers.splice(0, b.eventMarkers.length - this.options.maxMarkers);
  }
}

/** The events logged at `atMs`, in log order. */
function eventsAt(sim: Simulation, atMs: number): SimEvent[] {
  const events = sim.events();
  const end = lastIndexWhere(events, (e) => e.timeMs <= atMs) + 1;
  const start = lastIndexWhere(events, (e) => e.timeMs !== atMs, end) + 1;
  return events.slice(start, end);
}

function lastSeq(sim: Simulation): number {
  return sim.events().at(-1)?.seq ?? -1;
}

/** The index of the last of `xs[0..end)` that `fits`, or -1. */
function lastIndexWhere<T>(xs: readonly T[], fits: (x: T) => boolean, end = xs.length): number {
  for (let i = end - 1; i >= 0; i--) {
    const x = xs[i];
    if (x !== undefined && fits(x)) return i;
  }
  return -1;
}

/**
 * The latest checkpoint that `fits`, else the branch's first: every branch holds the one of time 0
 * (the constructor takes it, and a fork keeps the parent's checkpoints up to the fork).
 */
function latestCheckpoint(cps: readonly Checkpoint[], fits: (cp: Checkpoint) => boolean): Checkpoint {
  const cp = cps[Math.max(0, lastIndexWhere(cps, fits))];
  if (!cp) throw new Error('Timeline: a branch without its first checkpoint');
  return cp;
}

/** A short label for a user action on the scrubber. */
export function describeCommand(c: Command): string {
  switch (c.type) {
    case 'crashNode':
      return `Crash node ${c.nodeId}`;
    case 'restartNode':
      return `Restart node ${c.nodeId}`;
    case 'shutdownNode':
      return `Shut down node ${c.nodeId}`;
    case 'produce':
      return `Produce to ${c.topic} (acks=${c.acks ?? 'all'})`;
    case 'cutLink':
      return `Cut link ${c.from} → ${c.to}`;
    case 'healNetwork':
      return 'Heal the network';
    case 'loseRegion':
      return 'Lose the primary region';
    case 'loseZone':
      return `Lose zone ${c.rack}`;
    case 'alterConfig':
      return `Alter config of ${c.resourceType} ${c.resourceName ?? ''}`.trim();
    case 'cli':
      return `$ ${c.line.length > 60 ? `${c.line.slice(0, 59)}…` : c.line}`;
    default:
      return c.type;
  }
}

function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
