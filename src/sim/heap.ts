// The event queue: a binary min-heap ordered by due time, then by sequence number.
// Ties are broken by the sequence of scheduling, never by object order (house rule 5).

export interface Timed<T> {
  dueMs: number;
  seq: number;
  item: T;
}

export class EventQueue<T> {
  private heap: Timed<T>[] = [];

  /** A deep copy (for checkpoints): entries are plain data. */
  clone(): EventQueue<T> {
    const q = new EventQueue<T>();
    q.heap = structuredClone(this.heap);
    return q;
  }

  get size(): number {
    return this.heap.length;
  }

  push(entry: Timed<T>): void {
    const h = this.heap;
    h.push(entry);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(h[i]!, h[parent]!)) break;
      [h[i], h[parent]] = [h[parent]!, h[i]!];
      i = parent;
    }
  }

  peek(): Timed<T> | undefined {
    return this.heap[0];
  }

  pop(): Timed<T> | undefined {
    const h = this.heap;
    if (h.length === 0) return undefined;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && before(h[l]!, h[m]!)) m = l;
        if (r < h.length && before(h[r]!, h[m]!)) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m]!, h[i]!];
        i = m;
      }
    }
    return top;
  }

  /** Entries in due order (a copy; for snapshots and hashing). */
  sorted(): Timed<T>[] {
    return [...this.heap].sort((a, b) => (before(a, b) ? -1 : 1));
  }
}

function before<T>(a: Timed<T>, b: Timed<T>): boolean {
  return a.dueMs < b.dueMs || (a.dueMs === b.dueMs && a.seq < b.seq);
}
