// Test helper: a HostClock that moves only when a test says so.

import type { HostClock } from '../host';

/** A wall clock that moves only when told, firing the timers that fall due on the way. */
export class FakeClock implements HostClock {
  private nowMs = 0;
  private nextId = 1;
  private timers = new Map<number, { dueMs: number; run: () => void }>();

  now(): number {
    return this.nowMs;
  }
  setTimeout(run: () => void, ms: number): unknown {
    this.timers.set(this.nextId, { dueMs: this.nowMs + ms, run });
    return this.nextId++;
  }
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  pass(ms: number): void {
    const endMs = this.nowMs + ms;
    for (;;) {
      const due = [...this.timers]
        .filter(([, t]) => t.dueMs <= endMs)
        .sort(([, a], [, b]) => a.dueMs - b.dueMs)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.nowMs = due[1].dueMs;
      due[1].run();
    }
    this.nowMs = endMs;
  }
}
