// The worker host: owns the running Simulation and maps wall time to virtual time. It is the
// only place that reads the wall clock; the engine only ever sees advance(ms) and step().
import { defaultScenario } from '../scenario/presets';
import { createSimulation, ScenarioError } from '../sim';
import type { PartitionView, Scenario, SimEvent, Snapshot } from '../sim/types';
import { answerLedgerQuery, answerRecordQuery } from './ledgerQuery';
import { checkHash, type Session } from '../scenario/session';
import { CompareJob, EXPERIMENTS } from './compare';
import { Timeline } from './timeline';
import { LessonPlayer } from './lessonPlayer';
import { WhatIfJob } from './whatIf';
import {
  MAX_SPEED,
  MAX_STEPPED_EVENTS,
  MIN_SPEED,
  unknownMessageError,
  type PageToWorker,
  type SnapshotDelta,
  type WorkerToPage,
} from './protocol';

type Simulation = ReturnType<typeof createSimulation>;

/** Wall-clock milliseconds from the start of one tick of the loop to the start of the next. */
const TICK_INTERVAL_MS = 16;
/**
 * Wall-clock milliseconds one tick may spend advancing: most of the interval (the worker has a
 * thread of its own), and little enough that a message from the page waits at most this long.
 */
const TICK_BUDGET_MS = 14;
/**
 * The wall-clock time the virtual time owed may stand for: a run that fell behind by less (a
 * checkpoint, a busy machine) catches up; what is owed beyond it is dropped, so a run the engine
 * cannot keep up with falls behind (and the stats say so) rather than building a backlog.
 */
const MAX_BEHIND_MS = 250;
/**
 * Wall-clock milliseconds between two checkpoints at least. A checkpoint copies the cluster (6 ms
 * for the default one, more with a backlog of retried records): at 1000×, one every 5 simulated
 * seconds cost more than the run itself.
 */
const CHECKPOINT_WALL_MS = 100;
/** The share of wall time checkpoints may take, by the cost of the last one. */
const CHECKPOINT_SHARE = 0.05;
/** Virtual milliseconds per advance() call while events are due: small enough to check the budget often. */
const SLICE_MS = 100;
/** Wall-clock milliseconds between two snapshots, about the pace a display can show. */
const SNAPSHOT_INTERVAL_MS = 50;
/**
 * The same from FAST_SPEED up: each snapshot then jumps ten simulated seconds or more,
 * too fast to follow one by one, and drawing half as many leaves the CPU to the engine.
 */
const FAST_SNAPSHOT_INTERVAL_MS = 100;
const FAST_SPEED = 100;
/**
 * The share of wall time building and posting snapshots may take, by the cost of the last one: a
 * snapshot of 2,000 partitions takes about 40 ms to build, diff and post, which twenty times a
 * second would leave the engine little.
 */
const SNAPSHOT_SHARE = 0.2;
/** Wall-clock milliseconds the host waits for the page to draw a snapshot before it sends the next anyway. */
const SNAPSHOT_WAIT_MS = 1000;
/** Wall-clock milliseconds between two `stats` messages, and the window the achieved speed is measured over. */
const STATS_INTERVAL_MS = 1000;
/** Wall-clock milliseconds a session's replay runs before it lets the page's messages in (a cancel among them). */
const REPLAY_BUDGET_MS = 40;
/** Virtual milliseconds per advance of a replay, so the budget is checked often. */
const REPLAY_SLICE_MS = 1000;
/** Wall-clock milliseconds between two `replay` progress messages (a replay quicker than this says nothing). */
const REPLAY_PROGRESS_MS = 250;
/** Wall-clock milliseconds a what-if question runs before the live run and the page's messages get a turn. */
const WHAT_IF_BUDGET_MS = 12;

/** The wall clock and timer the host runs on (injected so tests can drive it). */
export interface HostClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** A task run as soon as the worker is free (queued behind the page's messages), cancelled by `cancelled`. */
interface SoonTask {
  run: () => void;
  cancelled: boolean;
}

/**
 * setTimeout(run, 0) as a message to itself: a browser clamps nested timers to 4 ms, which after
 * every tick of a run that cannot keep up left the worker idle a fifth of the time.
 */
let soon: { port: MessagePort; tasks: SoonTask[] } | null = null;

function soonQueue(): { port: MessagePort; tasks: SoonTask[] } | null {
  if (soon || typeof MessageChannel !== 'function') return soon;
  const channel = new MessageChannel();
  const tasks: SoonTask[] = [];
  channel.port1.onmessage = () => {
    const task = tasks.shift();
    if (task && !task.cancelled) task.run();
  };
  // Node (the benchmarks' harnesses): an open port must not keep the process alive.
  (channel.port1 as MessagePort & { unref?: () => void }).unref?.();
  return (soon = { port: channel.port2, tasks });
}

const realClock: HostClock = {
  now: () => performance.now(),
  setTimeout: (run, ms) => {
    const queue = ms > 0 ? null : soonQueue();
    if (!queue) return setTimeout(run, ms);
    const task: SoonTask = { run, cancelled: false };
    queue.tasks.push(task);
    queue.port.postMessage(null);
    return task;
  },
  clearTimeout: (handle) => {
    if (handle && typeof handle === 'object' && 'cancelled' in handle) (handle as SoonTask).cancelled = true;
    else clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const sameIds = (a: number[], b: number[]): boolean =>
  a.length === b.length && a.every((id, i) => id === b[i]);

/** Whether a partition looks the same to the page (what a delta may leave out). */
function samePartition(a: PartitionView, b: PartitionView): boolean {
  if (
    a.topic !== b.topic ||
    a.partition !== b.partition ||
    a.leader !== b.leader ||
    a.leaderEpoch !== b.leaderEpoch ||
    a.highWatermark !== b.highWatermark ||
    !sameIds(a.replicas, b.replicas) ||
    !sameIds(a.isr, b.isr) ||
    !sameIds(a.elr, b.elr) ||
    a.replicaLogs.length !== b.replicaLogs.length
  )
    return false;
  return a.replicaLogs.every((log, i) => {
    const other = b.replicaLogs[i];
    return (
      other !== undefined &&
      log.brokerId === other.brokerId &&
      log.logEndOffset === other.logEndOffset &&
      log.highWatermark === other.highWatermark &&
      log.logStartOffset === other.logStartOffset &&
      // The page counts a lagging follower's time from this (it changes on a fetch, not as time passes).
      log.lastCaughtUpAtMs === other.lastCaughtUpAtMs
    );
  });
}

export interface Host {
  receive(message: PageToWorker): void;
}

/** Starts a simulation of the default scenario, playing at 1×, and returns its message handler. */
export function startHost(
  post: (message: WorkerToPage) => void,
  clock: HostClock = realClock,
  scenario: Scenario = defaultScenario,
): Host {
  // The timeline records the user's actions and checkpoints the run (rewind, branches); `sim` is
  // its live simulation, replaced when the timeline restores a checkpoint.
  let timeline = new Timeline(scenario);
  let sim: Simulation = timeline.sim.watchInvariants();
  let run = 0;
  let playing = false;
  let speed = 1;
  let timer: unknown;
  let lastTickAtMs = 0;
  let lastSentAtMs = -Infinity;
  let lastSentSeq = -Infinity;
  // The partitions of the last snapshot posted in this run, which a delta builds on.
  let lastPartitions: PartitionView[] | null = null;
  // The JSON of each other field of the last snapshot posted, which a delta leaves out when unchanged.
  const lastFieldJson = new Map<string, string>();
  // Virtual time owed but not yet advanced: a fraction of a millisecond carried between ticks,
  // so the engine only ever sees whole milliseconds.
  let owedMs = 0;
  // Wall-clock milliseconds the last checkpoint took, which paces the next (paceCheckpoints).
  let checkpointCostMs = 0;
  // Wall-clock milliseconds the last snapshot took to build and post, which paces the next.
  let snapshotCostMs = 0;
  // The achieved speed: virtual and wall milliseconds since the last stats message.
  let statsSinceMs = clock.now();
  let statsVirtualMs = 0;
  let measuring = false;
  let bytesPosted = 0;
  // Flow control: a page that says when it drew a snapshot gets the next one only then (or after
  // SNAPSHOT_WAIT_MS), so snapshots never queue up behind a busy page. Pages that never say so
  // (the tests) get one every SNAPSHOT_INTERVAL_MS.
  let pageAcknowledges = false;
  let snapshotUnseen = false;
  // A session being replayed in slices: the running simulation plays on untouched until it is done.
  let replay: {
    timeline: Timeline;
    session: Session;
    refused: string[];
    /** Whether the running simulation was playing (it pauses during the replay, and resumes on a cancel). */
    resume: boolean;
    timer: unknown;
    lastProgressAtMs: number;
  } | null = null;
  // The what-if question being answered, a slice between ticks (src/worker/whatIf.ts).
  let whatIf: { id: number; job: WhatIfJob; timer: unknown } | null = null;
  // The comparison being run (Compare tab), a slice between ticks (src/worker/compare.ts CompareJob).
  let comparing: { id: number; labels: [string, string]; job: CompareJob; timer: unknown } | null = null;
  // The lesson being played: it holds and resumes the clock, and judges each step on the engine.
  const lessons = new LessonPlayer({
    timeline: () => timeline,
    init: (lesson) => init(lesson.scenario, true),
    play,
    pause,
    traveled: () => {
      if (timeline.sim !== sim) restart();
      else {
        publish();
        postTimeline();
      }
    },
    post: (state) => post({ type: 'lessonState', state }),
  });

  function postSnapshot(message: WorkerToPage): void {
    if (measuring) bytesPosted += JSON.stringify(message).length;
    post(message);
  }

  function publish(): void {
    const startMs = clock.now();
    publishSnapshot();
    snapshotCostMs = clock.now() - startMs;
  }

  function publishSnapshot(): void {
    const log = sim.events();
    let first = log.length;
    while (first > 0 && (log[first - 1]?.seq ?? -Infinity) > lastSentSeq) first--;
    const events = log.slice(first);
    lastSentSeq = events.at(-1)?.seq ?? lastSentSeq;
    const snapshot = sim.snapshot();
    const previous = lastPartitions;
    lastPartitions = snapshot.partitions;
    lastSentAtMs = clock.now();
    snapshotUnseen = true;
    // The other fields as JSON, to send only those that changed (a new run starts from scratch).
    const { partitions, ...rest } = snapshot;
    const fields: Partial<Omit<Snapshot, 'partitions'>> = { timeMs: rest.timeMs };
    for (const key of Object.keys(rest) as (keyof typeof rest)[]) {
      if (key === 'timeMs') continue;
      const json = JSON.stringify(rest[key]);
      if (previous && lastFieldJson.get(key) === json) continue;
      lastFieldJson.set(key, json);
      Object.assign(fields, { [key]: rest[key] });
    }
    if (!previous) {
      postSnapshot({ type: 'snapshot', run, snapshot, events });
      return;
    }
    const changed: [number, PartitionView][] = [];
    partitions.forEach((partition, index) => {
      const before = previous[index];
      if (before && samePartition(before, partition)) partitions[index] = before;
      else changed.push([index, partition]);
    });
    postSnapshot({
      type: 'snapshotDelta',
      run,
      delta: { snapshot: fields as SnapshotDelta['snapshot'], partitionCount: partitions.length, changed },
      events,
    });
  }

  function postStats(): void {
    const nowMs = clock.now();
    const wallMs = nowMs - statsSinceMs;
    post({
      type: 'stats',
      stats: {
        speed,
        playing,
        achievedSpeed: playing && wallMs > 0 ? statsVirtualMs / wallMs : 0,
        snapshotBytesPerSecond: measuring && wallMs > 0 ? (bytesPosted * 1000) / wallMs : null,
      },
    });
    statsSinceMs = nowMs;
    statsVirtualMs = 0;
    bytesPosted = 0;
  }

  /** The engine threw while running: the simulation cannot go on (the page restarts the worker). */
  function fail(error: unknown): void {
    pause();
    post({ type: 'error', message: errorText(error), fatal: true });
  }

  function tick(): void {
    timer = undefined;
    const startMs = clock.now();
    owedMs = Math.min(owedMs + (startMs - lastTickAtMs) * speed, MAX_BEHIND_MS * speed);
    lastTickAtMs = startMs;
    const fromMs = sim.nowMs;
    try {
      while (playing && owedMs >= 1 && clock.now() - startMs < TICK_BUDGET_MS) {
        const next = sim.nextEventAtMs();
        const wholeMs = Math.floor(owedMs);
        // Nothing due in the time owed: jump over the idle stretch in one call.
        let sliceMs = next === null || next > sim.nowMs + wholeMs ? wholeMs : Math.min(wholeMs, SLICE_MS);
        // A lesson step is judged at fixed instants: never run past the next one unchecked.
        const checkAtMs = lessons.nextCheckAtMs;
        if (checkAtMs !== null) sliceMs = Math.max(0, Math.min(sliceMs, checkAtMs - sim.nowMs));
        const taken = timeline.checkpointsTaken;
        const sliceStartMs = clock.now();
        // Event by event within the budget: one crowded instant does not hold the worker for seconds.
        const sliceFromMs = sim.nowMs;
        timeline.advanceWithin(sliceMs, () => clock.now() - startMs >= TICK_BUDGET_MS);
        if (timeline.checkpointsTaken !== taken) {
          // The slice's time is about the checkpoint's (a slice of engine time is far shorter).
          checkpointCostMs = clock.now() - sliceStartMs;
          paceCheckpoints();
        }
        owedMs -= sim.nowMs - sliceFromMs;
        lessons.afterAdvance();
      }
    } catch (error) {
      fail(error);
      return;
    }
    statsVirtualMs += sim.nowMs - fromMs;
    // The lesson paused on its moment: show it at once, and tick no more.
    if (!playing) {
      publish();
      return;
    }
    const nowMs = clock.now();
    const sinceMs = nowMs - lastSentAtMs;
    const pageReady = !pageAcknowledges || !snapshotUnseen || sinceMs >= SNAPSHOT_WAIT_MS;
    const intervalMs = Math.max(
      speed >= FAST_SPEED ? FAST_SNAPSHOT_INTERVAL_MS : SNAPSHOT_INTERVAL_MS,
      snapshotCostMs / SNAPSHOT_SHARE,
    );
    if (sinceMs >= intervalMs && pageReady) publish();
    if (nowMs - statsSinceMs >= STATS_INTERVAL_MS) {
      postStats();
      postTimeline();
    }
    // The next tick starts an interval after this one started: the budget and the gap add up to it.
    // Still behind (the budget ran out with time owed): at once, after what the page sent meanwhile;
    // a gap of TICK_INTERVAL_MS - TICK_BUDGET_MS (4 ms in a browser, which clamps nested timers)
    // after every budget held the engine to 78% of the worker when it could not keep up.
    const behind = owedMs >= 1;
    timer = clock.setTimeout(tick, behind ? 0 : Math.max(1, TICK_INTERVAL_MS - (clock.now() - startMs)));
  }

  /**
   * Checkpoints no more often than every CHECKPOINT_WALL_MS of wall time at the speed played, and
   * rarer when one costs more than CHECKPOINT_SHARE of that.
   */
  function paceCheckpoints(): void {
    timeline.minCheckpointEveryMs = speed * Math.max(CHECKPOINT_WALL_MS, checkpointCostMs / CHECKPOINT_SHARE);
  }

  function play(): void {
    if (playing) return;
    playing = true;
    lastTickAtMs = clock.now();
    timer = clock.setTimeout(tick, TICK_INTERVAL_MS);
    postStats();
  }

  function pause(): void {
    playing = false;
    owedMs = 0;
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
    postStats();
  }

  function postTimeline(): void {
    post({ type: 'timeline', timeline: timeline.info() });
  }

  /** After the timeline swapped the live simulation: the page starts a new event log. */
  function restart(): void {
    // A restored checkpoint is a clone without a monitor: its history would be of the other timeline.
    sim = timeline.sim.watchInvariants();
    paceCheckpoints();
    run++;
    lastSentSeq = -Infinity;
    lastPartitions = null;
    publish();
    postTimeline();
  }

  /**
   * Replays a session into a new timeline, REPLAY_BUDGET_MS of wall time at a go, so a long one
   * keeps the worker answering (and can be cancelled); the running simulation is replaced only
   * once the replay reached the session's position.
   */
  function loadSession(session: Session): void {
    let loaded: Timeline;
    try {
      loaded = Timeline.forSession(session);
    } catch (error) {
      refuse(error);
      return;
    }
    const resume = replay ? replay.resume : playing;
    stopReplay();
    pause();
    replay = {
      timeline: loaded,
      session,
      refused: [],
      resume,
      timer: undefined,
      lastProgressAtMs: clock.now(),
    };
    continueReplay();
  }

  function continueReplay(): void {
    const job = replay;
    if (!job) return;
    job.timer = undefined;
    const startMs = clock.now();
    const { positionMs } = job.session;
    try {
      do {
        const untilMs = Math.min(positionMs, job.timeline.nowMs + REPLAY_SLICE_MS);
        job.refused.push(...job.timeline.advanceTo(untilMs));
      } while (job.timeline.nowMs < positionMs && clock.now() - startMs < REPLAY_BUDGET_MS);
    } catch (error) {
      replay = null;
      if (job.resume) play();
      post({ type: 'error', message: `The session could not be replayed: ${errorText(error)}` });
      return;
    }
    if (job.timeline.nowMs < positionMs) {
      const nowMs = clock.now();
      if (nowMs - job.lastProgressAtMs >= REPLAY_PROGRESS_MS) {
        job.lastProgressAtMs = nowMs;
        post({ type: 'replay', state: 'running', atMs: job.timeline.nowMs, positionMs });
      }
      job.timer = clock.setTimeout(continueReplay, 0);
      return;
    }
    replay = null;
    lessons.detach();
    timeline = job.timeline;
    restart();
    post({ type: 'sessionLoaded', check: checkHash(job.session, sim.stateHash()), refused: job.refused });
  }

  /** Drops the replay under way, if any (its timeline is never shown). */
  function stopReplay(): void {
    if (!replay) return;
    if (replay.timer !== undefined) clock.clearTimeout(replay.timer);
    replay = null;
  }

  function cancelReplay(): void {
    const job = replay;
    if (!job) return;
    stopReplay();
    post({
      type: 'replay',
      state: 'cancelled',
      atMs: job.timeline.nowMs,
      positionMs: job.session.positionMs,
    });
    if (job.resume) play();
  }

  /** One slice of a what-if or compare job, within the budget: true once the job is done (errors throw). */
  function runSlice(job: { run(shouldYield: () => boolean): boolean }): boolean {
    const startMs = clock.now();
    return job.run(() => clock.now() - startMs >= WHAT_IF_BUDGET_MS);
  }

  function startCompare(id: number, experimentId: string, topic: string): void {
    const experiment = EXPERIMENTS.find((e) => e.id === experimentId);
    const labels: [string, string] = experiment ? [experiment.labelA, experiment.labelB] : ['', ''];
    if (comparing) {
      // A new comparison replaces the one under way, which is answered as replaced.
      if (comparing.timer !== undefined) clock.clearTimeout(comparing.timer);
      post({
        type: 'comparison',
        id: comparing.id,
        comparison: null,
        labels: comparing.labels,
        error: 'A newer comparison replaced this one.',
      });
      comparing = null;
    }
    try {
      if (!experiment) throw new Error(`unknown experiment ${JSON.stringify(experimentId)}`);
      comparing = { id, labels, job: new CompareJob(sim, experiment, topic), timer: undefined };
    } catch (error) {
      post({ type: 'comparison', id, comparison: null, labels, error: errorText(error) });
      return;
    }
    comparing.timer = clock.setTimeout(continueCompare, 0);
  }

  function continueCompare(): void {
    const current = comparing;
    if (!current) return;
    current.timer = undefined;
    let done: boolean;
    try {
      done = runSlice(current.job);
    } catch (error) {
      comparing = null;
      post({
        type: 'comparison',
        id: current.id,
        comparison: null,
        labels: current.labels,
        error: errorText(error),
      });
      return;
    }
    if (!done) {
      // The live run ticks in between, so the page sees it keep playing and its clicks answered.
      current.timer = clock.setTimeout(continueCompare, TICK_INTERVAL_MS);
      return;
    }
    comparing = null;
    post({ type: 'comparison', id: current.id, comparison: current.job.result(), labels: current.labels });
  }

  function startWhatIf(id: number, targets: Extract<PageToWorker, { type: 'whatIf' }>['targets']): void {
    if (whatIf?.timer !== undefined) clock.clearTimeout(whatIf.timer);
    try {
      whatIf = { id, job: new WhatIfJob(sim, targets), timer: undefined };
    } catch (error) {
      whatIf = null;
      post({ type: 'whatIfResult', id, result: null, error: errorText(error) });
      return;
    }
    whatIf.timer = clock.setTimeout(continueWhatIf, 0);
  }

  function continueWhatIf(): void {
    const current = whatIf;
    if (!current) return;
    current.timer = undefined;
    let done: boolean;
    try {
      done = runSlice(current.job);
    } catch (error) {
      whatIf = null;
      post({ type: 'whatIfResult', id: current.id, result: null, error: errorText(error) });
      return;
    }
    post({ type: 'whatIfProgress', id: current.id, done: current.job.done, total: current.job.total });
    if (!done) {
      // Past the tick's interval: the live run ticks in between, so the page sees it keep playing.
      current.timer = clock.setTimeout(continueWhatIf, TICK_INTERVAL_MS);
      return;
    }
    whatIf = null;
    post({ type: 'whatIfResult', id: current.id, result: current.job.result() });
  }

  /** Runs a timeline operation that may replace the live simulation. */
  function travel(operation: () => void): void {
    try {
      operation();
    } catch (error) {
      fail(error);
      return;
    }
    if (timeline.sim !== sim) restart();
    else {
      publish();
      postTimeline();
    }
  }

  /** `forLesson`: the lesson player asks (it keeps its lesson); otherwise a lesson being played ends. */
  function init(next: Scenario, forLesson = false): boolean {
    // A new scenario wins over a link still being replayed.
    stopReplay();
    try {
      timeline = new Timeline(next);
    } catch (error) {
      refuse(error);
      return false;
    }
    if (!forLesson) lessons.detach();
    restart();
    return true;
  }

  /** A scenario or session that cannot be loaded: its problems go to the page, the running simulation stays. */
  function refuse(error: unknown): void {
    post(
      error instanceof ScenarioError
        ? { type: 'error', message: error.message, issues: error.issues }
        : { type: 'error', message: errorText(error) },
    );
  }

  function receive(message: PageToWorker): void {
    switch (message.type) {
      case 'init':
        init(message.scenario);
        return;
      case 'play':
        play();
        return;
      case 'pause':
        pause();
        publish();
        return;
      case 'setSpeed':
        if (!(message.speed >= MIN_SPEED && message.speed <= MAX_SPEED)) {
          post({
            type: 'error',
            message: `speed must be from ${MIN_SPEED} to ${MAX_SPEED}, got ${message.speed}`,
          });
          return;
        }
        speed = message.speed;
        paceCheckpoints();
        postStats();
        return;
      case 'command': {
        let result;
        try {
          result = timeline.apply(message.command);
        } catch (error) {
          result = { ok: false as const, error: errorText(error) };
        }
        post({ type: 'commandResult', id: message.id, result });
        if (result.ok) lessons.afterUserCommand();
        publish();
        postTimeline();
        return;
      }
      case 'step':
        try {
          timeline.stepOne();
        } catch (error) {
          fail(error);
          return;
        }
        lessons.afterAdvance();
        publish();
        return;
      case 'snapshotShown':
        pageAcknowledges = true;
        snapshotUnseen = false;
        return;
      case 'measure':
        measuring = message.enabled;
        bytesPosted = 0;
        statsSinceMs = clock.now();
        statsVirtualMs = 0;
        return;
      case 'getLedger':
        try {
          post(answerLedgerQuery(sim, message.id, message.query));
        } catch (error) {
          post({ type: 'ledger', id: message.id, entries: [], lostAcknowledged: [], matched: 0 });
          post({ type: 'error', message: errorText(error) });
        }
        return;
      case 'getMetrics': {
        const samples = sim.metrics();
        const limit = message.limit ?? samples.length;
        post({
          type: 'metrics',
          id: message.id,
          samples: samples.slice(Math.max(0, samples.length - limit)),
          violations: [...sim.violations()],
        });
        return;
      }
      case 'getPartitionLog':
      case 'getRecordJourney':
        post(answerRecordQuery(sim, message));
        return;
      case 'getMessages':
        post({ type: 'messages', id: message.id, view: sim.messageDiagram(message.query) });
        return;
      case 'getClientHistory':
        post({
          type: 'clientHistory',
          id: message.id,
          history: sim.clientHistory(message.fromMs, message.toMs),
        });
        return;
      case 'generateReassignment':
        try {
          const plan = sim.generateReassignment(message.topics, message.brokerIds);
          post({ type: 'reassignmentPlan', id: message.id, plan });
        } catch (error) {
          post({ type: 'reassignmentPlan', id: message.id, plan: null, error: errorText(error) });
        }
        return;
      case 'loadSession':
        loadSession(message.session);
        return;
      case 'cancelReplay':
        cancelReplay();
        return;
      case 'getSession':
        // During a lesson, a link opens the current step from its beginning.
        post({
          type: 'session',
          id: message.id,
          session: lessons.session() ?? timeline.session(message.withHash ?? true),
        });
        return;
      case 'seek':
        travel(() => timeline.seek(message.timeMs));
        return;
      case 'stepEvent': {
        const { direction } = message;
        const landed: SimEvent[][] = [];
        travel(() => landed.push(direction === 'back' ? timeline.stepBack() : timeline.stepForward()));
        // A step that failed has said so with an error; it landed nowhere.
        const [events] = landed;
        if (!events) return;
        post({
          type: 'steppedTo',
          direction,
          timeMs: timeline.nowMs,
          events: events.slice(0, MAX_STEPPED_EVENTS),
          count: events.length,
        });
        return;
      }
      case 'switchBranch':
        travel(() => timeline.switchBranch(message.branchId));
        return;
      case 'compare':
        startCompare(message.id, message.experimentId, message.topic);
        return;
      case 'whatIf':
        startWhatIf(message.id, message.targets);
        return;
      case 'lesson':
        try {
          lessons.receive(message.action);
        } catch (error) {
          fail(error);
          return;
        }
        publish();
        postTimeline();
        return;
      default:
        post(unknownMessageError(message));
    }
  }

  publish();
  play();
  return { receive };
}
