// The one message protocol between the page and the simulation worker, shared by both sides.
// Each direction is one discriminated union; a message of an unknown type is answered with an
// error, never dropped, so a mismatch between the two sides shows at once.
import type {
  Command,
  ClientHistoryView,
  CommandResult,
  LedgerEntry,
  MessageDiagramView,
  MessageQuery,
  PartitionLogView,
  PartitionView,
  RecordJourneyView,
  Scenario,
  ScenarioIssue,
  SimEvent,
  Snapshot,
} from '../sim/types';
import type { MetricsSample } from '../sim/types';
import type { Violation } from '../sim/types';
import type { ReassignmentPlan } from '../sim/types';
import type { HashCheck, Session } from '../scenario/session';
import type { Comparison } from './compare';
import type { TimelineInfo } from './timeline';
import type { WhatIfResult, WhatIfTarget } from './whatIf';

/** The slowest and fastest playback speeds, in simulated milliseconds per wall-clock millisecond. */
export const MIN_SPEED = 0.1;
export const MAX_SPEED = 1000;
/** The most events a `steppedTo` carries (a crash on a large cluster logs hundreds at one instant). */
export const MAX_STEPPED_EVENTS = 20;

/** Which ledger entries a `getLedger` asks for: every field given must match. */
export interface LedgerQuery {
  topic?: string;
  partition?: number;
  producerId?: string;
  /** The latest entries that match, at most this many (default 50, at most 500). */
  limit?: number;
}

export type PageToWorker =
  /** Replace the running simulation with a new one built from this scenario. */
  | { type: 'init'; scenario: Scenario }
  | { type: 'play' }
  | { type: 'pause' }
  /** Simulated milliseconds per wall-clock millisecond, from MIN_SPEED to MAX_SPEED. */
  | { type: 'setSpeed'; speed: number }
  /** Apply a command now; answered by a commandResult with the same id. */
  | { type: 'command'; id: number; command: Command }
  /**
   * The page has drawn the last snapshot. Once a page sends it, the host posts the next snapshot
   * only after it (or after a second), so a page that falls behind is never buried in a queue.
   */
  | { type: 'snapshotShown' }
  /** Run exactly the next scheduled event (while paused). */
  | { type: 'step' }
  /** Count the bytes of every snapshot posted and report them in `stats` (costs a serialisation). */
  | { type: 'measure'; enabled: boolean }
  /** Ask what became of produced records; answered by a `ledger` with the same id. */
  | { type: 'getLedger'; id: number; query: LedgerQuery }
  /** Ask for the vital signs (the latest `limit` samples, all when omitted) and the invariant violations; answered by a `metrics`. */
  | { type: 'getMetrics'; id: number; limit?: number }
  /** A partition's log on each replica, offsets [fromOffset, fromOffset + count); answered by a `partitionLog`. */
  | {
      type: 'getPartitionLog';
      id: number;
      topic: string;
      partition: number;
      fromOffset: number;
      count: number;
    }
  /** A produced record's journey (its ledger record id); answered by a `recordJourney`. */
  | { type: 'getRecordJourney'; id: number; recordId: number }
  /** The messages of a time window, for the message diagram; answered by a `messages`. */
  | { type: 'getMessages'; id: number; query: MessageQuery }
  /** Each producer's sends of a time window by outcome; answered by a `clientHistory`. */
  | { type: 'getClientHistory'; id: number; fromMs: number; toMs: number }
  /** kafka-reassign-partitions --generate: a balanced plan for `topics` over `brokerIds`; answered by a `reassignmentPlan`. */
  | { type: 'generateReassignment'; id: number; topics: string[]; brokerIds: number[] }
  // ---- time travel and sessions (docs/sharing.md) ----
  /**
   * Replace the running simulation with a session's replay; a bad one leaves the current run as it
   * is. A long replay runs in slices, reporting `replay` progress, and can be cancelled.
   */
  | { type: 'loadSession'; session: Session }
  /** Stop the replay under way: the running simulation stays as it was. */
  | { type: 'cancelReplay' }
  /**
   * Ask for the session at the current position; answered by a `session` with the same id.
   * `withHash: false` leaves out the state hash (hashing a large cluster takes about a second):
   * the page's periodic save point, from which a failed worker is restarted.
   */
  | { type: 'getSession'; id: number; withHash?: boolean }
  /** Restore the state at this virtual time on the current branch. */
  | { type: 'seek'; timeMs: number }
  /** One logged event forward, or back to the previous one. */
  | { type: 'stepEvent'; direction: 'forward' | 'back' }
  | { type: 'switchBranch'; branchId: number }
  /** Run two branches from now with one thing changed; answered by a `comparison`. */
  | { type: 'compare'; id: number; experimentId: string; topic: string }
  // ---- lessons (docs/lessons.md): the worker plays and judges the steps ----
  | { type: 'lesson'; action: LessonAction }
  /**
   * What losing each target now would do, each run forward on a copy (src/worker/whatIf.ts), in
   * slices; answered by `whatIfProgress` messages and a `whatIfResult`. A new one replaces one under way.
   */
  | { type: 'whatIf'; id: number; targets: WhatIfTarget[] };

/**
 * What the learner did in a lesson. The worker judges each step on the engine (StepJudge) and
 * answers every action with a `lessonState`.
 */
export type LessonAction =
  /** A fresh simulation of the lesson's scenario, at step 0 (or at `stepIndex` of the running one, for a link). */
  | { do: 'start'; lessonId: string; stepIndex?: number; fresh: boolean }
  /** The prediction is made (the choice stays in the page): the step's action may run. */
  | { do: 'answered' }
  /** "Do it for me": the commands the step's task amounts to. */
  | { do: 'doTask' }
  /** To the next step (after the reveal). */
  | { do: 'next' }
  /** Back to the beginning of this step (after its reveal) or of the previous one. */
  | { do: 'back' }
  | { do: 'stop' };

/**
 * A snapshot whose partitions are sent only where they changed since the previous snapshot of
 * the same run: `changed` lists [index, partition]; the others are as before. Pays off when a
 * cluster has thousands of partitions and only a few move per frame.
 */
export interface SnapshotDelta {
  /** The fields that changed since the previous snapshot (always timeMs); the others are as they were. */
  snapshot: Partial<Omit<Snapshot, 'partitions'>> & { timeMs: number };
  partitionCount: number;
  changed: [number, PartitionView][];
}

export interface PlaybackStats {
  /** Simulated ms per wall ms actually achieved over the last second (below `speed` when the engine cannot keep up). */
  achievedSpeed: number;
  /** The requested speed. */
  speed: number;
  playing: boolean;
  /** Bytes of snapshot messages posted per wall-clock second, when measuring (else null). */
  snapshotBytesPerSecond: number | null;
}

export type WorkerToPage =
  /**
   * The cluster now, and the events logged since the previous snapshot. `run` counts the
   * simulations this worker has built: a new run starts a new event log.
   */
  | { type: 'snapshot'; run: number; snapshot: Snapshot; events: SimEvent[] }
  /** As `snapshot`, with only the changed partitions (the page holds the previous ones). */
  | { type: 'snapshotDelta'; run: number; delta: SnapshotDelta; events: SimEvent[] }
  /** About once a wall-clock second while playing, and on every change of playback. */
  | { type: 'stats'; stats: PlaybackStats }
  | { type: 'commandResult'; id: number; result: CommandResult }
  /**
   * The latest ledger entries matching a `getLedger` query, oldest first, and the acknowledged
   * records lost from those partitions (data loss); `matched` counts every matching entry.
   */
  | {
      type: 'ledger';
      id: number;
      entries: LedgerEntry[];
      lostAcknowledged: LedgerEntry[];
      matched: number;
      /**
       * Failed sends the ledger no longer keeps (the oldest past LEDGER_FAILED_KEPT a producer): the
       * queried producer's, or every producer's; absent when none.
       */
      failedDropped?: number;
      /** The same for acks=0 sends (past LEDGER_ACKS0_KEPT a producer). */
      acks0Dropped?: number;
    }
  /** The latest metrics samples, oldest first, and every invariant violation of the run so far. */
  | { type: 'metrics'; id: number; samples: MetricsSample[]; violations: Violation[] }
  /** The log a `getPartitionLog` asked for (null: no such partition). */
  | { type: 'partitionLog'; id: number; log: PartitionLogView | null }
  /** The journey a `getRecordJourney` asked for (null: the ledger no longer has the record). */
  | { type: 'recordJourney'; id: number; journey: RecordJourneyView | null }
  /** The messages a `getMessages` asked for (fresh objects, never changed afterwards). */
  | { type: 'messages'; id: number; view: MessageDiagramView }
  | { type: 'clientHistory'; id: number; history: ClientHistoryView }
  /** The plan a `generateReassignment` asked for, or Kafka's reason it cannot be made (plan null). */
  | { type: 'reassignmentPlan'; id: number; plan: ReassignmentPlan | null; error?: string }
  /**
   * Something the worker refused or could not do. `fatal`: the engine itself threw while running,
   * so the simulation cannot go on (the page restarts the worker from its last save point).
   */
  | { type: 'error'; message: string; issues?: ScenarioIssue[]; fatal?: boolean }
  /** The branches and markers of the run; after each change and about once a second while playing. */
  | { type: 'timeline'; timeline: TimelineInfo }
  /**
   * Where a `stepEvent` landed (after its snapshot): the events logged at `timeMs`, the first
   * MAX_STEPPED_EVENTS of `count`; none when no event was found (at the start, or a minute of quiet).
   */
  | { type: 'steppedTo'; direction: 'forward' | 'back'; timeMs: number; events: SimEvent[]; count: number }
  | { type: 'session'; id: number; session: Session }
  /**
   * A loadSession's replay under way (`running`, about four times a wall-clock second, once it has
   * taken more than REPLAY_QUIET_MS) or stopped by a cancelReplay (`cancelled`). It ends with a
   * `sessionLoaded`, or an `error` when the engine failed.
   */
  | { type: 'replay'; state: 'running' | 'cancelled'; atMs: number; positionMs: number }
  /** A loadSession succeeded: whether the replayed state has the link's hash, and refused actions. */
  | { type: 'sessionLoaded'; check: HashCheck; refused: string[] }
  /** The lesson being played, after each change (null when none). */
  | { type: 'lessonState'; state: LessonProgress | null }
  | { type: 'whatIfProgress'; id: number; done: number; total: number }
  | { type: 'whatIfResult'; id: number; result: WhatIfResult | null; error?: string }
  | {
      type: 'comparison';
      id: number;
      comparison: Comparison | null;
      labels: [string, string];
      error?: string;
    };

/**
 * Where a step stands. predict: the clock holds for the learner's prediction; task: it holds for the
 * learner's action (it runs again as soon as they act); running: the step's action ran, the judge
 * watches; done: the condition held and the clock paused on the moment; timedOut: it did not hold
 * within the step's waitMs; finished: past the last step.
 */
export type LessonStatus = 'predict' | 'task' | 'running' | 'done' | 'timedOut' | 'finished';

export interface LessonProgress {
  lessonId: string;
  stepIndex: number;
  status: LessonStatus;
  /** Virtual time the step began at. */
  enteredAtMs: number;
  /** When the condition held (status done). */
  doneAtMs: number | null;
  /** Whether the simulator did what the prediction's correct answer says (status done, a step with a prediction). */
  answerHeld: boolean | null;
  /** Commands of the step the engine refused, as `type: error`. */
  refused: string[];
  /** The earliest step Back can reach (a lesson opened from a link starts at its step). */
  firstStepIndex: number;
}

/**
 * The full snapshot a delta describes, given the previous one. Unchanged fields and partitions keep
 * their objects, so selectors can skip them by identity.
 */
export function applySnapshotDelta(previous: Snapshot, delta: SnapshotDelta): Snapshot {
  const partitions = previous.partitions.slice(0, delta.partitionCount);
  for (const [index, partition] of delta.changed) partitions[index] = partition;
  return { ...previous, ...delta.snapshot, partitions };
}

/**
 * The error for a message the switch over its union did not handle. Typed `never`, so a new
 * member of the union that a side forgets to handle fails to compile.
 */
export function unknownMessageError(message: never): WorkerToPage & { type: 'error' } {
  const type = (message as { type?: unknown } | null)?.type;
  return { type: 'error', message: `Unknown message type ${JSON.stringify(type) ?? 'undefined'}` };
}
