// Keeps the simulation worker alive for the page. It saves the session every few seconds (cheap:
// the scenario, the actions and the position, no state hash), and when the worker fails (an
// exception it did not catch, a message it could not read, the engine throwing while running) or
// stops answering, it starts a new worker and replays the last save point, saying what was lost.
import type { PageToWorker, WorkerToPage } from '../worker/protocol';
import type { Session } from '../scenario/session';

/** The part of a Worker the supervisor uses (a fake in the tests). */
export interface WorkerLike {
  postMessage(message: PageToWorker): void;
  terminate(): void;
  onmessage: ((event: MessageEvent<WorkerToPage>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
  onmessageerror: ((event: MessageEvent) => void) | null;
}

export interface SupervisorClock {
  now(): number;
  setInterval(run: () => void, ms: number): unknown;
}

/** Wall-clock milliseconds between two save points. */
export const SAVE_EVERY_MS = 5_000;
/** A worker that has not answered a save request for this long is taken for hung. */
export const HANG_AFTER_MS = 30_000;
/** Save requests use negative ids, which the page's own requests (counted from 1) never take. */
const FIRST_SAVE_ID = -1;

export interface Restart {
  /** Why the old worker was given up. */
  reason: string;
  /** The session it is restarted from, or null when none was saved yet (it starts afresh). */
  from: Session | null;
}

export interface Supervisor {
  post(message: PageToWorker): void;
  /** The last save point (null before the first). */
  readonly saved: Session | null;
  /** Ends the worker as a crash would (?debug, for the end-to-end test of the restart). */
  crash(): void;
}

/**
 * `create` makes a worker; `receive` gets every message of the current worker except the save
 * points' answers; `restarted` is told once a new worker runs, and loads `restart.from` itself
 * (through the page's usual loadSession, so the replay shows its progress).
 */
export function superviseWorker(options: {
  create: () => WorkerLike;
  receive: (message: WorkerToPage) => void;
  restarted: (restart: Restart) => void;
  clock?: SupervisorClock;
}): Supervisor {
  const clock = options.clock ?? {
    now: () => performance.now(),
    setInterval: (run: () => void, ms: number) => setInterval(run, ms),
  };
  let worker: WorkerLike;
  let saved: Session | null = null;
  let nextSaveId = FIRST_SAVE_ID;
  /** The save request waiting for its answer, and when it was sent. */
  let pending: { id: number; sentAtMs: number } | null = null;
  /**
   * Comparisons asked for and not answered yet: one runs two branches in a single long call (over
   * a minute on the large preset), during which the worker cannot answer and is not hung.
   */
  const comparing = new Set<number>();

  function start(): void {
    worker = options.create();
    const current = worker;
    pending = null;
    current.onmessage = (event) => {
      if (current !== worker) return;
      const message = event.data;
      if (message.type === 'comparison') comparing.delete(message.id);
      if (message.type === 'session' && message.id <= FIRST_SAVE_ID) {
        if (pending?.id === message.id) pending = null;
        saved = message.session;
        return;
      }
      if (message.type === 'error' && message.fatal) {
        options.receive(message);
        restart(`the engine failed: ${message.message}`);
        return;
      }
      options.receive(message);
    };
    current.onerror = (event) => {
      if (current === worker)
        restart(`the simulation worker failed: ${event.message || 'an uncaught error'}`);
    };
    current.onmessageerror = () => {
      if (current === worker) restart('a message from the simulation worker could not be read');
    };
  }

  function restart(reason: string): void {
    comparing.clear();
    worker.terminate();
    start();
    options.restarted({ reason, from: saved });
  }

  clock.setInterval(() => {
    if (pending) {
      if (comparing.size > 0) pending.sentAtMs = clock.now();
      else if (clock.now() - pending.sentAtMs >= HANG_AFTER_MS)
        restart(`the simulation worker stopped answering for ${HANG_AFTER_MS / 1000} s`);
      return;
    }
    pending = { id: nextSaveId--, sentAtMs: clock.now() };
    worker.postMessage({ type: 'getSession', id: pending.id, withHash: false });
  }, SAVE_EVERY_MS);

  start();
  return {
    post: (message) => {
      if (message.type === 'compare') comparing.add(message.id);
      worker.postMessage(message);
    },
    get saved() {
      return saved;
    },
    crash: () => {
      worker.terminate();
      worker.onerror?.(new ErrorEvent('error', { message: 'the worker was ended from the page (?debug)' }));
    },
  };
}
