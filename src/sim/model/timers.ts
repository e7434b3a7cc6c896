// The one-timer-per-purpose a node or client arms (kernel.ts armNodeDeadline, armClientDeadline).

/**
 * One armed timer standing for many deadlines: it is re-armed only for an earlier deadline, and when
 * it fires the owner checks every deadline and re-arms for the next. The queue holds no stale pile.
 */
export interface DeadlineTimer {
  dueMs: number;
  token: number;
}
