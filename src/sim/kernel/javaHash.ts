// Java's String.hashCode and java.util.HashMap iteration order. Kafka sometimes walks a HashMap
// and draws a random number per entry, so the order of the draws depends on these.

/** `String.hashCode()`: 31-polynomial over UTF-16 code units, in 32-bit int arithmetic. */
export function javaStringHashCode(s: string): number {
  // java.lang.String#hashCode
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}

const INITIAL_CAPACITY = 16;
const LOAD_FACTOR = 0.75;
const TREEIFY_THRESHOLD = 8;
const MIN_TREEIFY_CAPACITY = 64;

/**
 * The order in which `new HashMap<>()` iterates distinct keys put in `keys` order: by bucket
 * `spread(hash) & (capacity - 1)`, then by insertion within a bucket.
 *
 * Capacity follows Java exactly (16, doubling past 0.75 load, and doubling instead of treeifying a
 * bin of 8+ while the table is under 64). Not reproduced: the order inside a treeified bin (9+ keys
 * in one bucket of a 64+ table); such a bin is taken in insertion order.
 */
export function javaHashMapOrder<K>(keys: readonly K[], hashCode: (key: K) => number): K[] {
  // java.util.HashMap#putVal, #resize, #treeifyBin
  let capacity = INITIAL_CAPACITY;
  const entries: { key: K; hash: number }[] = [];
  for (const key of keys) {
    const h = hashCode(key);
    const hash = h ^ (h >>> 16);
    const bucket = hash & (capacity - 1);
    const binSize = entries.filter((e) => (e.hash & (capacity - 1)) === bucket).length;
    entries.push({ key, hash });
    if (binSize >= TREEIFY_THRESHOLD && capacity < MIN_TREEIFY_CAPACITY) capacity *= 2;
    if (entries.length > capacity * LOAD_FACTOR) capacity *= 2;
  }
  const mask = capacity - 1;
  // Array.prototype.sort is stable, so ties keep insertion order.
  return entries.sort((a, b) => (a.hash & mask) - (b.hash & mask)).map((e) => e.key);
}

/** HashMap.tableSizeFor: the smallest power of two at or above `cap` (at least 1). */
function tableSizeFor(cap: number): number {
  let n = 1;
  while (n < cap) n *= 2;
  return n;
}

/** The table size `new HashSet<>(collection)` and `new HashMap<>(map)` start from for `size` entries. */
export function javaCopyCapacity(size: number): number {
  // java.util.HashSet(Collection): new HashMap<>(Math.max((int) (c.size() / .75f) + 1, 16))
  return tableSizeFor(Math.max(Math.floor(size / 0.75) + 1, INITIAL_CAPACITY));
}

/**
 * A java.util.HashSet (or a HashMap's key set) with Java's iteration order through adds and
 * removes: by bucket `spread(hash) & (capacity - 1)`, then by insertion within a bucket; the table
 * doubles past 0.75 load (and instead of treeifying a bin of 8+ while under 64), never shrinks.
 * Keys are told apart by `id`. Not reproduced: the order inside a treeified bin (as javaHashMapOrder).
 */
export class JavaHashSet<K> {
  private capacity: number;
  private seq = 0;
  private readonly entries = new Map<string, { key: K; hash: number; seq: number }>();

  constructor(
    private readonly hashCode: (key: K) => number,
    private readonly id: (key: K) => string,
    initialCapacity = INITIAL_CAPACITY,
    keys: Iterable<K> = [],
  ) {
    this.capacity = tableSizeFor(initialCapacity);
    for (const k of keys) this.add(k);
  }

  get size(): number {
    return this.entries.size;
  }

  has(key: K): boolean {
    return this.entries.has(this.id(key));
  }

  /** HashMap#putVal: false when the key is already there (it keeps its place). */
  add(key: K): boolean {
    const id = this.id(key);
    if (this.entries.has(id)) return false;
    const h = this.hashCode(key);
    const hash = h ^ (h >>> 16);
    const mask = this.capacity - 1;
    let binSize = 0;
    for (const e of this.entries.values()) if ((e.hash & mask) === (hash & mask)) binSize++;
    this.entries.set(id, { key, hash, seq: this.seq++ });
    if (binSize >= TREEIFY_THRESHOLD && this.capacity < MIN_TREEIFY_CAPACITY) this.capacity *= 2;
    if (this.entries.size > this.capacity * LOAD_FACTOR) this.capacity *= 2;
    return true;
  }

  delete(key: K): boolean {
    return this.entries.delete(this.id(key));
  }

  /** The keys in Java's iteration order. */
  values(): K[] {
    const mask = this.capacity - 1;
    return [...this.entries.values()]
      .sort((a, b) => (a.hash & mask) - (b.hash & mask) || a.seq - b.seq)
      .map((e) => e.key);
  }
}
