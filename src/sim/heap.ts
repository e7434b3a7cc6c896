// The event queue: a binary min-heap ordered by due time, then by sequence number.
// Ties are broken by the sequence of scheduling, never by object order (house rule 5).

/** What the queue orders by. Items carry these fields themselves: no wrapper object per event. */
export interface Timed {
  dueMs: number;
  seq: number;
}

export class EventQueue<T extends Timed> {
  private heap: T[] = [];

  /** A deep copy (for checkpoints): entries are plain data. */
  clone(): EventQueue<T> {
    const q = new EventQueue<T>();
    q.heap = structuredClone(this.heap);
    return q;
  }

  get size(): number {
    return this.heap.length;
  }

  push(entry: T): void {
    const h = this.heap;
    // Sift up by moving parents down into the hole: no swaps, no temporary arrays.
    let i = h.length;
    h.push(entry);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = h[parent]!;
      if (!before(entry, p)) break;
      h[i] = p;
      i = parent;
    }
    h[i] = entry;
  }

  peek(): T | undefined {
    return this.heap[0];
  }

  pop(): T | undefined {
    const h = this.heap;
    if (h.length === 0) return undefined;
    const top = h[0]!;
    const last = h.pop()!;
    const n = h.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && before(h[r]!, h[l]!) ? r : l;
        if (!before(h[c]!, last)) break;
        h[i] = h[c]!;
        i = c;
      }
      h[i] = last;
    }
    return top;
  }

  /** Entries in due order (a copy; for snapshots and hashing). */
  sorted(): T[] {
    return [...this.heap].sort((a, b) => (before(a, b) ? -1 : 1));
  }
}

function before(a: Timed, b: Timed): boolean {
  return a.dueMs < b.dueMs || (a.dueMs === b.dueMs && a.seq < b.seq);
}
