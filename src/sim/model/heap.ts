// The event queue, ordered by due time, then by sequence number. Ties are broken by the sequence of
// scheduling, never by object order (house rule 5).
//
// A bucket queue: the items due at one virtual millisecond sit in one array, in the order they were
// scheduled, which is their sequence order (every item gets w.seq++ as it is pushed); a binary
// min-heap orders the distinct due times. Most events are due a millisecond or two ahead (network
// latency), so a push is usually an append and a pop an index step; the heap moves once per
// millisecond, not once per event.

/** What the queue orders by. Items carry these fields themselves: no wrapper object per event. */
export interface Timed {
  dueMs: number;
  seq: number;
}

interface Bucket<T> {
  items: T[];
  /** Index of the next item to pop. */
  next: number;
}

export class EventQueue<T extends Timed> {
  /** The distinct due times with items, a binary min-heap. */
  private times: number[] = [];
  private buckets = new Map<number, Bucket<T>>();
  /** The bucket of times[0], or null when it must be looked up again. */
  private first: Bucket<T> | null = null;
  private count = 0;

  /** A deep copy (for checkpoints): entries are plain data, copied in one go (shared parts stay shared). */
  clone(): EventQueue<T> {
    const q = new EventQueue<T>();
    for (const item of structuredClone(this.sorted())) q.push(item);
    return q;
  }

  get size(): number {
    return this.count;
  }

  /** Items must be pushed in sequence order (as scheduling does), so that a bucket stays sorted. */
  push(entry: T): void {
    this.count++;
    const b = this.buckets.get(entry.dueMs);
    if (b) {
      b.items.push(entry);
      return;
    }
    this.buckets.set(entry.dueMs, { items: [entry], next: 0 });
    const h = this.times;
    const t = entry.dueMs;
    // Sift up by moving parents down into the hole: no swaps, no temporary arrays.
    let i = h.length;
    h.push(t);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = h[parent];
      if (p === undefined || p <= t) break;
      h[i] = p;
      i = parent;
    }
    h[i] = t;
    if (i === 0) this.first = null;
  }

  peek(): T | undefined {
    const b = this.firstBucket();
    return b ? b.items[b.next] : undefined;
  }

  pop(): T | undefined {
    const b = this.firstBucket();
    const item = b?.items[b.next];
    if (!b || item === undefined) return undefined;
    b.next++;
    this.count--;
    if (b.next === b.items.length) {
      this.buckets.delete(item.dueMs);
      this.popTime();
      this.first = null;
    }
    return item;
  }

  /** Entries in due order (a copy; for snapshots, hashing and cloning). */
  sorted(): T[] {
    const out: T[] = [];
    for (const t of [...this.times].sort((a, b) => a - b)) {
      const b = this.buckets.get(t);
      if (b) for (const item of b.items.slice(b.next)) out.push(item);
    }
    return out;
  }

  private firstBucket(): Bucket<T> | null {
    if (this.first) return this.first;
    const t = this.times[0];
    if (t === undefined) return null;
    const bucket = this.buckets.get(t);
    // Every time in the heap has its bucket: push adds both, pop deletes both.
    if (!bucket) throw new Error(`EventQueue: no bucket for ${t} ms`);
    return (this.first = bucket);
  }

  private popTime(): void {
    const h = this.times;
    const last = h.pop();
    if (last === undefined || h.length === 0) return;
    // Sift down: the smaller child moves up into the hole until `last` fits.
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      let child = h[c];
      if (child === undefined) break;
      const right = h[c + 1];
      if (right !== undefined && right < child) {
        c++;
        child = right;
      }
      if (child >= last) break;
      h[i] = child;
      i = c;
    }
    h[i] = last;
  }
}
